import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { businessToday } from '../../src/core/business-date';
import { countOf, rowsOf } from '../nfe/nfe-support';
import { confirm, CTE, cteTenant, CteTenant, importNfe, sell, stage } from './cte-support';

describe('CT-e freight apportionment', () => {
  let t: CteTenant;
  let other: CteTenant;
  before(async () => {
    t = await cteTenant();
    other = await cteTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
  });

  const preview = (id: string, body: object = {}, tenant = t) =>
    api().post(`${CTE}/apportion-preview/${id}`).set(tenant.headers()).send(body);
  const apply = (id: string, body: object = {}, tenant = t) => api().post(`${CTE}/apportion/${id}`).set(tenant.headers()).send(body);
  const itemsOf = async (docId: string) => (await api().get(`/api/entry-document/detail/${docId}`).set(t.headers())).body.items;

  describe('one CT-e over two NF-e (1,000.00 and 3,000.00), freight 100.00, still drafts', () => {
    let products: Awaited<ReturnType<typeof makeProduct>>[];
    let doc1: { id: string; accessKey: string };
    let doc2: { id: string; accessKey: string };
    let cteId: string;
    let applied: any;

    before(async () => {
      products = [await makeProduct(t), await makeProduct(t), await makeProduct(t), await makeProduct(t), await makeProduct(t)];
      doc1 = await importNfe(t, [
        { code: 'A', quantity: '3', unitPrice: '111.11', productId: products[0].hash },
        { code: 'B', quantity: '3', unitPrice: '111.11', productId: products[1].hash },
        { code: 'C', quantity: '2', unitPrice: '166.67', productId: products[2].hash },
      ]);
      doc2 = await importNfe(t, [
        { code: 'D', quantity: '10', unitPrice: '100', productId: products[3].hash },
        { code: 'E', quantity: '20', unitPrice: '100', productId: products[4].hash },
      ]);
      cteId = await stage(
        t,
        t.cte({
          total: '100.00',
          nfeKeys: [doc1.accessKey, doc2.accessKey],
          installments: [{ dueDate: '2099-04-10' }, { dueDate: '2099-05-10' }],
        }),
      );
    });

    it('the preview splits 25.00 / 75.00 by value and each document over its lines to the cent (remainder on the largest), writing nothing', async () => {
      const before = await countOf('audit_log', t.companyId);
      const res = await preview(cteId);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ method: 'VALUE', blockingProblems: [], unbookedNfe: [], soldShare: 0 });
      expect(res.body.freight).to.deep.equal({
        serviceTotal: 100,
        icms: 0,
        recoverableIcms: 0,
        pisCredit: 0,
        cofinsCredit: 0,
        amount: 100,
      });
      expect(res.body.documents.map((d: any) => [d.entryDocumentId, d.status, d.amount])).to.deep.equal([
        [doc1.id, 'DRAFT', 25],
        [doc2.id, 'DRAFT', 75],
      ]);
      // 25 × 333.33/1000 = 8.33325 → 8.33 twice, 25 × 333.34/1000 = 8.3335 → 8.33; the cent left goes to the largest line.
      expect(res.body.documents[0].lines.map((l: any) => [l.lineNumber, l.basis, l.amount, l.mode])).to.deep.equal([
        [1, 333.33, 8.33, 'LANDED_COST'],
        [2, 333.33, 8.33, 'LANDED_COST'],
        [3, 333.34, 8.34, 'LANDED_COST'],
      ]);
      expect(res.body.documents[1].lines.map((l: any) => l.amount)).to.deep.equal([25, 50]);
      // (333.33 + 8.33) / 3
      expect(res.body.documents[0].lines[0]).to.include({ unitCostBefore: 111.11, unitCostAfter: 113.8866666667 });
      expect(res.body.payables).to.deep.equal([
        { number: 1, dueDate: '2099-04-10', amount: 50 },
        { number: 2, dueDate: '2099-05-10', amount: 50 },
      ]);
      expect(await countOf('audit_log', t.companyId)).to.equal(before);
      expect((await itemsOf(doc1.id)).map((i: any) => i.apportionedFreight)).to.deep.equal([0, 0, 0]);
    });

    it("apply puts the freight into the drafts' landed cost (visible in confirm-preview), creates the carrier's payables; audit and events", async () => {
      const res = await apply(cteId, {});
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      applied = res.body;
      expect(applied.cte).to.deep.include({ status: 'APPORTIONED', version: 2 });
      expect(applied.cte.apportionment).to.deep.include({
        method: 'VALUE',
        amount: 100,
        recoverableIcms: 0,
        soldShare: 0,
        entryDate: businessToday(),
      });
      expect((await itemsOf(doc1.id)).map((i: any) => [i.apportionedFreight, i.unitCost, i.landedTotal])).to.deep.equal([
        [8.33, 113.8866666667, 333.33],
        [8.33, 113.8866666667, 333.33],
        [8.34, 170.84, 333.34],
      ]);
      const detail2 = await api().get(`/api/entry-document/detail/${doc2.id}`).set(t.headers());
      // The supplier's invoice total and payable do not change: the carrier bills the freight.
      expect(detail2.body.totals.total).to.equal(3000);
      const pre = await api().get(`/api/entry-document/confirm-preview/${doc2.id}`).set(t.headers());
      expect(pre.body.stockMovements.map((m: any) => [m.quantity, m.unitCost])).to.deep.equal([
        [10, 102.5],
        [20, 102.5],
      ]);
      expect(pre.body.payables).to.deep.equal([{ number: 1, dueDate: detail2.body.entryDate, amount: 3000 }]);

      const payables = await rowsOf('payable', t.companyId, 'source_type = ?', ['CTE'], 'installment_number');
      expect(
        payables.map((p) => [
          p.installment_number,
          p.due_date instanceof Date ? p.due_date.toISOString().slice(0, 10) : p.due_date,
          Number(p.amount),
          p.status,
          p.entry_document_id,
        ]),
      ).to.deep.equal([
        [1, '2099-04-10', 50, 'OPEN', null],
        [2, '2099-05-10', 50, 'OPEN', null],
      ]);
      const list = await api().get(`/api/entry-document/contas-pagar/${t.filialHashes[0]}`).query({ source: 'CTE' }).set(t.headers());
      expect(list.body.data.map((p: any) => [p.source, p.cteId, p.entryDocumentId, p.supplier.document, p.amount])).to.deep.equal([
        ['CTE', cteId, null, applied.cte.carrier.document, 50],
        ['CTE', cteId, null, applied.cte.carrier.document, 50],
      ]);
      const allocations = await rowsOf('cte_allocation', t.companyId);
      expect(allocations.map((a) => [a.line_number, Number(a.amount), a.mode])).to.deep.equal([
        [1, 8.33, 'LANDED_COST'],
        [2, 8.33, 'LANDED_COST'],
        [3, 8.34, 'LANDED_COST'],
        [1, 25, 'LANDED_COST'],
        [2, 50, 'LANDED_COST'],
      ]);
      expect(await rowsOf('audit_log', t.companyId, "entity = 'cte' AND action = 'APPORTIONED'")).to.have.length(1);
      expect(await rowsOf('audit_log', t.companyId, "entity = 'entry-document' AND action = 'CTE_FREIGHT_APPORTIONED'")).to.have.length(2);
      const [event] = await rowsOf('outbox_event', t.companyId, "type = 'cte.apportioned'");
      expect(JSON.parse(event.data as string)).to.deep.include({ cteId, method: 'VALUE', amount: 100, soldShare: 0 });
    });

    it('confirming the drafts posts the freight with the goods', async () => {
      await confirm(t, doc1.id);
      expect(await stockOf(t, 0, products[2].id)).to.deep.equal({ quantity: '2.0000', averageCost: '170.8400000000' });
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it('a second apply → 409 naming the status; the detail shows links, allocations and payables', async () => {
      expectProblem(await apply(cteId), 409, 'CTE_APPORTIONED');
      const d = await api().get(`${CTE}/detail/${cteId}`).set(t.headers());
      expect(d.status).to.equal(200);
      expect(
        d.body.nfe.map((l: any) => [l.accessKey, l.entryDocument?.id, l.entryDocument?.status, l.inbound?.importStatus]),
      ).to.deep.equal([
        [doc1.accessKey, doc1.id, 'CONFIRMED', 'IMPORTED'],
        [doc2.accessKey, doc2.id, 'DRAFT', 'IMPORTED'],
      ]);
      expect(d.body.allocations).to.have.length(5);
      expect(d.body.payables.map((p: any) => p.amount)).to.deep.equal([50, 50]);
      expect(d.body.document.values).to.deep.include({ serviceTotal: 100, receivable: 100 });
    });
  });

  describe('apportioning before or after confirmation', () => {
    it('gives the same average cost when nothing was sold in between', async () => {
      const [before, after] = [await makeProduct(t), await makeProduct(t)];
      const a = await importNfe(t, [{ code: 'X', quantity: '8', unitPrice: '50', productId: before.hash }]);
      const b = await importNfe(t, [{ code: 'X', quantity: '8', unitPrice: '50', productId: after.hash }]);
      const ctes = [
        await stage(t, t.cte({ total: '36.00', nfeKeys: [a.accessKey] })),
        await stage(t, t.cte({ total: '36.00', nfeKeys: [b.accessKey] })),
      ];
      expect((await apply(ctes[0])).status).to.equal(200);
      await confirm(t, a.id);
      await confirm(t, b.id);
      const res = await apply(ctes[1]);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.documents[0].lines[0]).to.deep.include({
        mode: 'STOCK_ADJUSTMENT',
        amount: 36,
        absorbed: 36,
        soldShare: 0,
        quantityInStock: 8,
        averageCostBefore: 50,
        averageCostAfter: 54.5,
      });
      expect(await stockOf(t, 0, after.id)).to.deep.equal(await stockOf(t, 0, before.id));
      expect(await stockOf(t, 0, after.id)).to.deep.equal({ quantity: '8.0000', averageCost: '54.5000000000' });
      const [movement] = await rowsOf('stock_movement', t.companyId, "reason = 'CTE_FREIGHT' AND product_id = ?", [after.id]);
      expect(movement).to.include({ direction: 'IN' });
      expect([Number(movement.quantity), Number(movement.value_adjustment)]).to.deep.equal([0, 36]);
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it("after half the goods were sold: the sold half is reported, the rest's average cost rises by exactly its share", async () => {
      const p = await makeProduct(t);
      const d = await importNfe(t, [{ code: 'H', quantity: '10', unitPrice: '20', productId: p.hash }]);
      await confirm(t, d.id);
      await sell(t, p.id, '5');
      const cteId = await stage(t, t.cte({ total: '30.00', nfeKeys: [d.accessKey] }));
      const pre = await preview(cteId);
      expect(pre.body.soldShare).to.equal(15);
      const res = await apply(cteId);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.documents[0].lines[0]).to.deep.include({
        amount: 30,
        quantityReceived: 10,
        quantityInStock: 5,
        absorbed: 15,
        soldShare: 15,
        averageCostBefore: 20,
        averageCostAfter: 23,
      });
      expect(res.body.cte.apportionment.soldShare).to.equal(15);
      // 5 left at 20 + 15 / 5 = 23: raised by exactly 3.00 per unit, the freight per unit received.
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '5.0000', averageCost: '23.0000000000' });
      const [row] = await rowsOf('cte', t.companyId, 'id = (SELECT MAX(id) FROM cte WHERE company_id = ?)', [t.companyId]);
      expect(Number(row.sold_share)).to.equal(15);
    });
  });

  describe('concurrency', () =>
    it('two concurrent applies of one CT-e: one wins, the other → 409; the freight is posted once', async () => {
      const p = await makeProduct(t);
      const d = await importNfe(t, [{ code: 'K', quantity: '4', unitPrice: '25', productId: p.hash }]);
      await confirm(t, d.id);
      const cteId = await stage(t, t.cte({ total: '20.00', nfeKeys: [d.accessKey] }));
      const results = await Promise.all([apply(cteId), apply(cteId)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '4.0000', averageCost: '30.0000000000' });
      expect(
        await countOf('payable', t.companyId, "source_type = 'CTE' AND cte_id = (SELECT MAX(id) FROM cte WHERE company_id = ?)", [
          t.companyId,
        ]),
      ).to.equal(1);
      expect(await stockMismatches(t)).to.deep.equal([]);
    }));

  describe('methods, recoverable ICMS and problems', () => {
    let p1: Awaited<ReturnType<typeof makeProduct>>;
    let p2: Awaited<ReturnType<typeof makeProduct>>;
    let doc: { id: string; accessKey: string };
    let items: any[];
    before(async () => {
      [p1, p2] = [await makeProduct(t), await makeProduct(t)];
      doc = await importNfe(t, [
        { code: 'M1', quantity: '30', unitPrice: '10', productId: p1.hash },
        { code: 'M2', quantity: '10', unitPrice: '70', productId: p2.hash },
      ]);
      items = await itemsOf(doc.id);
    });

    it("by quantity, by the lines' weights, and manual shares that must add up to the freight", async () => {
      const cteId = await stage(t, t.cte({ total: '40.00', nfeKeys: [doc.accessKey] }));
      expect((await preview(cteId, { method: 'QUANTITY' })).body.documents[0].lines.map((l: any) => l.amount)).to.deep.equal([30, 10]);
      const weights = await preview(cteId, {
        method: 'WEIGHT',
        lines: [
          { itemId: items[0].id, weight: 1 },
          { itemId: items[1].id, weight: 3 },
        ],
      });
      expect(weights.body.documents[0].lines.map((l: any) => [l.basis, l.amount])).to.deep.equal([
        [1, 10],
        [3, 30],
      ]);
      const manual = await preview(cteId, {
        method: 'MANUAL',
        lines: [
          { itemId: items[0].id, amount: '12.34' },
          { itemId: items[1].id, amount: '27.65' },
        ],
      });
      expect(manual.body.blockingProblems.map((b: any) => b.code)).to.deep.equal(['CTE_MANUAL_SHARES_MISMATCH']);
      const refused = await apply(cteId, {
        method: 'MANUAL',
        lines: [
          { itemId: items[0].id, amount: '12.34' },
          { itemId: items[1].id, amount: '27.65' },
        ],
      });
      expectProblem(refused, 422, 'CTE_NOT_APPORTIONABLE');
      expect((await api().get(`${CTE}/detail/${cteId}`).set(t.headers())).body).to.include({ status: 'RECEIVED', version: 1 });
      const ok = await apply(cteId, {
        method: 'MANUAL',
        lines: [
          { itemId: items[0].id, amount: '12.34' },
          { itemId: items[1].id, amount: '27.66' },
        ],
      });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect((await itemsOf(doc.id)).map((i: any) => i.apportionedFreight)).to.deep.equal([12.34, 27.66]);
    });

    it("the NF-e's declared gross weight splits between documents when no weights are given", async () => {
      const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [doc.accessKey] }));
      const res = await preview(cteId, { method: 'WEIGHT' });
      // The builder's NF-e declares no pesoB.
      expect(res.body.blockingProblems.map((b: any) => b.code)).to.deep.equal(['CTE_WEIGHT_UNKNOWN']);
    });

    it('a filial under Lucro Real apportions vTPrest less the recoverable ICMS and the PIS/COFINS on the freight net of its ICMS', async () => {
      await dataSource.manager.update(Filial, { id: t.filialIds[0] }, { taxRegime: 'LUCRO_REAL' });
      try {
        const cteId = await stage(t, t.cte({ total: '100.00', icms: { cst: '00', rate: '12' }, nfeKeys: [doc.accessKey] }));
        const res = await preview(cteId);
        // Shares 30.00 / 70.00 by value, ICMS 3.60 / 8.40. PIS/COFINS on the freight net of its ICMS (Leis 10.637/2002 and
        // 10.833/2003 art. 3, base without the ICMS by Lei 14.592/2023), per line to the cent:
        //   26.40 → PIS 1.65 % 0.4356 = 0.44, COFINS 7.6 % 2.0064 = 2.01;  61.60 → PIS 1.0164 = 1.02, COFINS 4.6816 = 4.68.
        // Apportioned: 100 − 12 − (0.44 + 1.02) − (2.01 + 4.68) = 79.85 (was 88.00 before the credit).
        expect(res.body.freight).to.deep.equal({
          serviceTotal: 100,
          icms: 12,
          recoverableIcms: 12,
          pisCredit: 1.46,
          cofinsCredit: 6.69,
          amount: 79.85,
        });
        expect(
          res.body.documents[0].lines.map((l: any) => [l.share, l.icms, l.icmsCredit, l.pisCredit, l.cofinsCredit, l.amount]),
        ).to.deep.equal([
          [30, 3.6, 3.6, 0.44, 2.01, 23.95],
          [70, 8.4, 8.4, 1.02, 4.68, 55.9],
        ]);
        expect(res.body.documents[0].amount).to.equal(79.85);
        expect(res.body.payables.map((p: any) => p.amount)).to.deep.equal([100]);
      } finally {
        await dataSource.manager.update(Filial, { id: t.filialIds[0] }, { taxRegime: 'SIMPLES_NACIONAL' });
      }
    });

    it('NF-e not booked block the apportionment unless asked to spread over the booked ones', async () => {
      const foreign = await t.nfe({});
      const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [doc.accessKey, foreign.accessKey] }));
      const res = await apply(cteId);
      expectProblem(res, 422, 'CTE_NOT_APPORTIONABLE');
      expect(res.body.problems.map((p: any) => p.code)).to.deep.equal(['CTE_NFE_NOT_BOOKED']);
      const pre = await preview(cteId, { ignoreUnbookedNfe: true });
      expect(pre.body.blockingProblems).to.deep.equal([]);
      expect(pre.body.warnings.map((w: any) => w.code)).to.deep.equal(['CTE_NFE_NOT_BOOKED']);
      expect(pre.body.unbookedNfe).to.deep.equal([foreign.accessKey]);
    });

    it("bad input → 400 and nothing written; another tenant's CT-e → 404; a filial not granted → 403", async () => {
      const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [doc.accessKey] }));
      const audits = await countOf('audit_log', t.companyId);
      expectProblem(await apply(cteId, { method: 'BY_MOOD' }), 400, 'VALIDATION_ERROR');
      expectProblem(await apply(cteId, { lines: [{ itemId: items[0].id, amount: 1 }] }), 400, 'VALIDATION_ERROR');
      expectProblem(await apply(cteId, { method: 'MANUAL', lines: [{ itemId: items[0].id, amount: '1.001' }] }), 400, 'VALIDATION_ERROR');
      expectProblem(await apply(cteId, { entryDate: '2025-02-30' }), 400);
      expect(await countOf('audit_log', t.companyId)).to.equal(audits);
      expectProblem(await apply(cteId, {}, other), 404, 'CTE_NOT_FOUND');
      expectProblem(await preview(cteId, {}, other), 404, 'CTE_NOT_FOUND');
      expectProblem(
        await api()
          .post(`${CTE}/apportion/${cteId}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({}),
        403,
      );
      expectProblem(await apply('not-an-id!'), 400, 'INVALID_ID');
    });
  });
});
