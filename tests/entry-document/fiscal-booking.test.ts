import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { Dec } from '../../src/core/decimal';
import { ThirdPartyStockBalance } from '../../src/modules/stock/entities/third-party-stock-balance.entity';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { TestTenant } from '../support/tenant';
import { NFE, nfeTenant, NfeTenant, uploadConsulted } from '../nfe/nfe-support';
import { auditOf, cancel, confirm, createDraft, docId, draftBody, eventsOf, item, movementsOf, payablesOf } from './support';
import { creditRow, creditsOf, fiscalFootprint, setTaxRegime, thirdPartyBalance, thirdPartyMovementsOfDoc } from './fiscal-support';

/*
 * Each inbound invoice booked as what it is (issue 17): entry CFOP and operation class per line, what
 * confirm posts for each class, the net landed cost by the filial's tax regime and the credits it
 * records — every figure computed by hand in the test.
 */

const ED = '/api/entry-document';

describe('Entry documents booked by entry CFOP, operation class and tax regime', () => {
  let t: NfeTenant;
  let other: TestTenant;
  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
  });

  const confirmPreview = (id: string) => api().get(`${ED}/confirm-preview/${id}`).set(t.headers());
  const importXml = async (xml: string, items: { lineNumber: number; productId: string }[] = []) =>
    uploadConsulted(t, await api().post(`${NFE}/importar-xml`).set(t.headers()).send({ xml, items }));

  describe('a LUCRO_REAL resale purchase with ICMS, PIS, COFINS, IPI and ICMS-ST', () => {
    // Line 1 (5102 → 1102): 10 × 50.00 = 500.00, freight 10.00, IPI 5% 25.00, ICMS 18% of 510.00 = 91.80 → gross 535.00.
    //   Credits: ICMS 91.80; PIS/COFINS base 500 + 10 − 91.80 = 418.20 → PIS 1.65% 6.90, COFINS 7.6% 31.78.
    //   Net cost 535.00 − 91.80 − 6.90 − 31.78 = 404.52 → 40.452 per unit (IPI is not recoverable by a retailer).
    // Line 2 (5403 → 1403): 20 × 15.00 = 300.00, IPI 10% 30.00, own ICMS 54.00 (not creditable under ST),
    //   ICMS-ST 29.16 + FCP-ST 9.24 = 38.40 → gross 368.40. PIS/COFINS base 300 − 54 = 246.00 → 4.06 and 18.70.
    //   Net cost 368.40 − 4.06 − 18.70 = 345.64 → 17.282 per unit.
    // Document 535.00 + 368.40 = 903.40, all owed. Credits: ICMS 91.80 (base 510.00), PIS 10.96 and COFINS 50.48 (base 664.20).
    const body = (a: string, b: string) =>
      draftBody({
        items: [
          item({
            productId: a,
            description: 'CAIXA DE SOM BT',
            cfop: '5102',
            ncm: '85182200',
            quantity: 10,
            unitPrice: '50.00',
            freight: '10.00',
            taxes: {
              icms: { cst: '00', base: '510.00', rate: 18, value: '91.80' },
              ipi: { cst: '50', base: '500.00', rate: 5, value: '25.00' },
              pis: { cst: '01', base: '500.00', rate: '1.65', value: '8.25' },
              cofins: { cst: '01', base: '500.00', rate: '7.6', value: '38.00' },
            },
          }),
          item({
            productId: b,
            description: 'REFRIGERANTE 2L',
            cfop: '5403',
            ncm: '22021000',
            quantity: 20,
            unitPrice: '15.00',
            taxes: {
              icms: { cst: '10', base: '300.00', rate: 18, value: '54.00' },
              icmsSt: { cst: '10', base: '462.00', rate: 18, value: '38.40' },
              ipi: { cst: '50', base: '300.00', rate: 10, value: '30.00' },
              pis: { cst: '01' },
              cofins: { cst: '01' },
            },
          }),
        ],
      });

    it('confirm-preview shows each line’s entry CFOP, class, cost breakdown and credits, and the document’s credits', async () => {
      const [a, b] = [await makeProduct(t), await makeProduct(t)];
      await setTaxRegime(t, 0, 'LUCRO_REAL');
      try {
        const d = await createDraft(t, body(a.hash, b.hash));
        const res = await confirmPreview(d.id);
        expect(res.status).to.equal(200);
        expect(res.body.taxRegime).to.equal('LUCRO_REAL');
        expect(res.body.blockingProblems).to.deep.equal([]);
        const [l1, l2] = res.body.lines;
        expect(l1).to.deep.include({
          lineNumber: 1,
          declaredCfop: '5102',
          entryCfop: '1102',
          entryCfopSource: 'DEFAULT',
          operationClass: 'PURCHASE_RESALE',
          operationClassSource: 'CFOP',
          posts: { stock: 'OWN', payable: true },
        });
        expect(l1.cost).to.deep.equal({
          products: 500,
          discount: 0,
          freight: 10,
          insurance: 0,
          otherExpenses: 0,
          ipi: 25,
          icmsSt: 0,
          grossTotal: 535,
          credits: { icms: 91.8, pis: 6.9, cofins: 31.78, ipi: 0 },
          pisCofinsCreditBase: 418.2,
          costTotal: 404.52,
          stockQuantity: 10,
          unitCost: 40.452,
        });
        expect(l2).to.deep.include({ declaredCfop: '5403', entryCfop: '1403', operationClass: 'PURCHASE_RESALE' });
        expect(l2.cost).to.deep.include({
          grossTotal: 368.4,
          icmsSt: 38.4,
          credits: { icms: 0, pis: 4.06, cofins: 18.7, ipi: 0 },
          pisCofinsCreditBase: 246,
          costTotal: 345.64,
          unitCost: 17.282,
        });
        expect(res.body.taxCredits).to.deep.equal([
          { tax: 'ICMS', base: 510, amount: 91.8 },
          { tax: 'PIS', base: 664.2, amount: 10.96 },
          { tax: 'COFINS', base: 664.2, amount: 50.48 },
        ]);
        expect(res.body.stockMovements.map((m: any) => [m.lineNumber, m.quantity, m.unitCost])).to.deep.equal([
          [1, 10, 40.452],
          [2, 20, 17.282],
        ]);
        expect(res.body.payableTotal).to.equal(903.4);
        expect(res.body.payables).to.deep.equal([{ number: 1, dueDate: '2026-03-03', amount: 903.4 }]);
        // The draft's lines say the same (detail), stored as computed.
        const detail = await api().get(`${ED}/detail/${d.id}`).set(t.headers());
        expect(detail.body.items[0].cost).to.deep.include({ costTotal: 404.52, unitCost: 40.452 });
        expect(detail.body.items[1]).to.deep.include({ entryCfop: '1403', operationClass: 'PURCHASE_RESALE', unitCost: 17.282 });
      } finally {
        await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
      }
    });

    it('confirm posts the net cost to the cent and records the credits per tax; cancel reverses them', async () => {
      const [a, b] = [await makeProduct(t), await makeProduct(t)];
      await setTaxRegime(t, 0, 'LUCRO_REAL');
      try {
        const d = await createDraft(t, body(a.hash, b.hash));
        const res = await confirm(t, d.id);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.taxRegime).to.equal('LUCRO_REAL');
        expect(await stockOf(t, 0, a.id)).to.deep.equal({ quantity: '10.0000', averageCost: '40.4520000000' });
        expect(await stockOf(t, 0, b.id)).to.deep.equal({ quantity: '20.0000', averageCost: '17.2820000000' });
        expect((await movementsOf(t, d.id)).map((m) => m.unitCost.toFixed(10))).to.deep.equal(['40.4520000000', '17.2820000000']);
        expect((await payablesOf(t, d.id)).map((p) => p.amount.toFixed(2))).to.deep.equal(['903.40']);
        expect((await creditsOf(t, d.id)).map(creditRow)).to.deep.equal([
          { tax: 'ICMS', base: '510.00', amount: '91.80', taxRegime: 'LUCRO_REAL', status: 'RECORDED' },
          { tax: 'PIS', base: '664.20', amount: '10.96', taxRegime: 'LUCRO_REAL', status: 'RECORDED' },
          { tax: 'COFINS', base: '664.20', amount: '50.48', taxRegime: 'LUCRO_REAL', status: 'RECORDED' },
        ]);
        // Queryable with the document.
        expect(res.body.taxCredits.map((c: any) => [c.tax, c.amount, c.status])).to.deep.equal([
          ['ICMS', 91.8, 'RECORDED'],
          ['PIS', 10.96, 'RECORDED'],
          ['COFINS', 50.48, 'RECORDED'],
        ]);
        const stored = await dataSource.manager.find(EntryDocumentItem, {
          where: { companyId: t.companyId, entryDocumentId: docId(d.id) },
          order: { lineNumber: 'ASC' },
        });
        expect(
          stored.map((i) => [
            i.entryCfop,
            i.operationClass,
            i.creditIcms.toFixed(2),
            i.creditPis.toFixed(2),
            i.creditCofins.toFixed(2),
            i.costTotal.toFixed(2),
          ]),
        ).to.deep.equal([
          ['1102', 'PURCHASE_RESALE', '91.80', '6.90', '31.78', '404.52'],
          ['1403', 'PURCHASE_RESALE', '0.00', '4.06', '18.70', '345.64'],
        ]);
        const confirmed = (await auditOf(t, d.id)).find((x) => x.action === 'CONFIRMED')!;
        expect(confirmed.changes).to.deep.include({ taxRegime: [null, 'LUCRO_REAL'] });
        const event = (await eventsOf(t, d.id)).find((e) => e.type === 'entry-document.confirmed')!;
        expect(event.data).to.deep.include({
          taxRegime: 'LUCRO_REAL',
          taxCredits: [
            { tax: 'ICMS', base: 510, amount: 91.8 },
            { tax: 'PIS', base: 664.2, amount: 10.96 },
            { tax: 'COFINS', base: 664.2, amount: 50.48 },
          ],
        });

        const pre = await api().get(`${ED}/cancel-preview/${d.id}`).set(t.headers());
        expect(pre.body.taxCreditsReversed.map((c: any) => [c.tax, c.amount])).to.deep.equal([
          ['ICMS', 91.8],
          ['PIS', 10.96],
          ['COFINS', 50.48],
        ]);
        expect((await cancel(t, d.id)).status).to.equal(200);
        expect((await creditsOf(t, d.id)).map((c) => c.status)).to.deep.equal(['REVERSED', 'REVERSED', 'REVERSED']);
        expect((await creditsOf(t, d.id)).every((c) => c.reversedAt !== null)).to.equal(true);
        expect(await stockOf(t, 0, a.id)).to.deep.include({ quantity: '0.0000' });
        expect(await stockMismatches(t)).to.deep.equal([]);
      } finally {
        await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
      }
    });

    it('the same invoice under LUCRO_PRESUMIDO takes only the ICMS (44.32 and 18.42), under SIMPLES_NACIONAL nothing (53.50 and 18.42)', async () => {
      const [a, b] = [await makeProduct(t), await makeProduct(t)];
      const d = await createDraft(t, body(a.hash, b.hash));
      const costs = async () => (await confirmPreview(d.id)).body;
      const sn = await costs();
      expect(sn.taxRegime).to.equal('SIMPLES_NACIONAL');
      expect(sn.lines.map((l: any) => [l.cost.costTotal, l.cost.unitCost])).to.deep.equal([
        [535, 53.5],
        [368.4, 18.42],
      ]);
      expect(sn.taxCredits).to.deep.equal([]);
      await setTaxRegime(t, 0, 'LUCRO_PRESUMIDO');
      try {
        const lp = await costs();
        // 535.00 − 91.80 = 443.20 → 44.32; the ST line keeps 368.40 → 18.42.
        expect(lp.lines.map((l: any) => [l.cost.costTotal, l.cost.unitCost])).to.deep.equal([
          [443.2, 44.32],
          [368.4, 18.42],
        ]);
        expect(lp.taxCredits).to.deep.equal([{ tax: 'ICMS', base: 510, amount: 91.8 }]);
        // A draft written under one regime is booked by the regime in force when it is confirmed.
        expect((await confirm(t, d.id)).status).to.equal(200);
        expect(await stockOf(t, 0, a.id)).to.deep.equal({ quantity: '10.0000', averageCost: '44.3200000000' });
        const row = await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) });
        expect(row.taxRegime).to.equal('LUCRO_PRESUMIDO');
        const stored = await dataSource.manager.findOneByOrFail(EntryDocumentItem, { entryDocumentId: docId(d.id), lineNumber: 1 });
        expect([stored.creditIcms.toFixed(2), stored.unitCost.toFixed(10)]).to.deep.equal(['91.80', '44.3200000000']);
      } finally {
        await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
      }
    });
  });

  describe('a bonificação', () => {
    // 3 × 20.00 = 60.00 bought (5102 → 1102) and 2 × 15.00 = 30.00 given free (5910 → 1910): the supplier is
    // owed 60.00 of the 90.00 invoice; both enter own stock (Simples Nacional: at 20.00 and 15.00 each).
    it('enters stock with no payable', async () => {
      const [a, b] = [await makeProduct(t), await makeProduct(t)];
      const d = await createDraft(
        t,
        draftBody({
          items: [
            item({ productId: a.hash, cfop: '5102', quantity: 3, unitPrice: '20.00' }),
            item({ productId: b.hash, cfop: '5910', quantity: 2, unitPrice: '15.00' }),
          ],
        }),
      );
      expect(d.totals.total).to.equal(90);
      const pre = await confirmPreview(d.id);
      expect(pre.body.lines.map((l: any) => [l.entryCfop, l.operationClass, l.posts])).to.deep.equal([
        ['1102', 'PURCHASE_RESALE', { stock: 'OWN', payable: true }],
        ['1910', 'BONUS', { stock: 'OWN', payable: false }],
      ]);
      expect(pre.body.payableTotal).to.equal(60);
      const res = await confirm(t, d.id);
      expect(res.status).to.equal(200);
      expect(await stockOf(t, 0, b.id)).to.deep.equal({ quantity: '2.0000', averageCost: '15.0000000000' });
      expect(await stockOf(t, 0, a.id)).to.deep.equal({ quantity: '3.0000', averageCost: '20.0000000000' });
      expect((await payablesOf(t, d.id)).map((p) => [p.installmentNumber, p.amount.toFixed(2)])).to.deep.equal([[1, '60.00']]);
      expect(res.body.payables.map((p: any) => p.amount)).to.deep.equal([60]);
    });

    it('a bonificação alone creates no payable; installments must add up to what is owed, not to the invoice total', async () => {
      const b = await makeProduct(t);
      const alone = await createDraft(t, draftBody({ items: [item({ productId: b.hash, cfop: '6910', quantity: 4, unitPrice: '2.50' })] }));
      expect((await confirm(t, alone.id)).status).to.equal(200);
      expect(await payablesOf(t, alone.id)).to.deep.equal([]);
      expect(await stockOf(t, 0, b.id)).to.deep.include({ quantity: '4.0000' });

      const a = await makeProduct(t);
      const mixed = await createDraft(
        t,
        draftBody({
          items: [
            item({ productId: a.hash, cfop: '5102', quantity: 3, unitPrice: '20.00' }),
            item({ productId: b.hash, cfop: '5910', quantity: 2, unitPrice: '15.00' }),
          ],
          installments: [{ dueDate: '2026-04-01', amount: '90.00' }],
        }),
      );
      const pre = await confirmPreview(mixed.id);
      const problem = pre.body.blockingProblems.find((p: any) => p.code === 'INSTALLMENTS_TOTAL_MISMATCH');
      expect(problem.message).to.equal(
        'The installments add up to 90.00; the lines owed to the supplier add up to 60.00 (document total 90.00)',
      );
      expectProblem(await confirm(t, mixed.id), 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(await movementsOf(t, mixed.id)).to.deep.equal([]);
    });
  });

  describe('a remessa for industrialization', () => {
    // 5 × 173.544 = 867.72 of paint sent by its owner to be processed (5901 → 1901), no cobrança: the goods
    // stay the sender's — third-party stock of 5 worth 867.72, no own stock, no payable.
    const remessa = () =>
      t.nfe({
        operationNature: 'REMESSA PARA INDUSTRIALIZACAO',
        items: [
          { code: 'TINTA-1', description: 'TINTA EPOXI 18L', cfop: '5901', quantity: '5', unitPrice: '173.544', icms: { cst: '41' } },
        ],
      });

    it('posts neither own stock nor a payable: the goods are kept as the sender’s third-party stock, and cancel takes them out', async () => {
      const p = await makeProduct(t);
      const built = await remessa();
      const imported = await importXml(built.xml, [{ lineNumber: 1, productId: p.hash }]);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      const id = imported.body.entryDocument.id;
      const pre = await confirmPreview(id);
      expect(pre.body.blockingProblems).to.deep.equal([]);
      expect(pre.body.lines[0]).to.deep.include({
        declaredCfop: '5901',
        entryCfop: '1901',
        operationClass: 'THIRD_PARTY_INBOUND',
        posts: { stock: 'THIRD_PARTY', payable: false },
      });
      expect(pre.body.stockMovements).to.deep.equal([]);
      expect(pre.body.payables).to.deep.equal([]);
      const owner = imported.body.entryDocument.supplier.document;
      expect(pre.body.thirdPartyStockMovements).to.deep.equal([
        {
          productId: p.hash,
          lineNumber: 1,
          ownerDocument: owner,
          direction: 'IN',
          quantity: 5,
          value: 867.72,
          balanceBefore: 0,
          balanceAfter: 5,
        },
      ]);

      const res = await confirm(t, id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await movementsOf(t, id)).to.deep.equal([]);
      expect(await payablesOf(t, id)).to.deep.equal([]);
      expect(await stockOf(t, 0, p.id)).to.deep.include({ quantity: '0.0000' });
      const held = (await thirdPartyBalance(t, 0, p.id))!;
      expect([held.ownerDocument, held.quantity.toFixed(4), held.value.toFixed(2)]).to.deep.equal([owner, '5.0000', '867.72']);
      expect(
        (await thirdPartyMovementsOfDoc(t, id)).map((m) => [
          m.direction,
          m.quantity.toFixed(4),
          m.value.toFixed(2),
          m.balanceAfter.toFixed(4),
        ]),
      ).to.deep.equal([['IN', '5.0000', '867.72', '5.0000']]);
      const list = await api().get(`${ED}/third-party-stock/${t.filialHashes[0]}`).set(t.headers()).query({ productId: p.hash });
      expect(list.status).to.equal(200);
      expect(list.body.data).to.have.length(1);
      expect(list.body.data[0]).to.deep.include({ productId: p.hash, ownerDocument: held.ownerDocument, quantity: 5, value: 867.72 });

      const cancelled = await cancel(t, id);
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body.thirdPartyStockMovements.map((m: any) => [m.direction, m.quantity, m.balanceAfter])).to.deep.equal([
        ['OUT', 5, 0],
      ]);
      expect((await thirdPartyBalance(t, 0, p.id))!.quantity.toFixed(4)).to.equal('0.0000');
      const after = await api().get(`${ED}/third-party-stock/${t.filialHashes[0]}`).set(t.headers()).query({ productId: p.hash });
      expect(after.body.data).to.deep.equal([]);
    });

    it('two confirms at once: one wins, the goods are taken in once', async () => {
      const p = await makeProduct(t);
      const imported = await importXml((await remessa()).xml, [{ lineNumber: 1, productId: p.hash }]);
      const id = imported.body.entryDocument.id;
      const results = await Promise.all([confirm(t, id), confirm(t, id)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(await thirdPartyMovementsOfDoc(t, id)).to.have.length(1);
      expect((await thirdPartyBalance(t, 0, p.id))!.quantity.toFixed(4)).to.equal('5.0000');
    });

    it('cancel is blocked when the goods are no longer held (422, nothing written)', async () => {
      const p = await makeProduct(t);
      const id = (await importXml((await remessa()).xml, [{ lineNumber: 1, productId: p.hash }])).body.entryDocument.id;
      expect((await confirm(t, id)).status).to.equal(200);
      // Nothing in this service gives them back yet; an outside correction left 2 of the 5 here.
      await dataSource.manager.update(ThirdPartyStockBalance, { companyId: t.companyId, productId: p.id }, { quantity: new Dec(2) });
      const pre = await api().get(`${ED}/cancel-preview/${id}`).set(t.headers());
      const problem = pre.body.blockingProblems.find((x: any) => x.code === 'INSUFFICIENT_THIRD_PARTY_STOCK');
      expect(problem.details).to.deep.include({ productId: p.hash, available: 2, requested: 5 });
      const before = await fiscalFootprint(t);
      expectProblem(await cancel(t, id), 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');
      expect(await fiscalFootprint(t)).to.deep.equal(before);
      expect((await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(id) })).status).to.equal('CONFIRMED');
    });

    it('the third-party stock of a filial not granted → 403; bad filters → 400', async () => {
      expectProblem(
        await api()
          .get(`${ED}/third-party-stock/${t.filialHashes[1]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
      );
      expectProblem(
        await api().get(`${ED}/third-party-stock/${t.filialHashes[0]}`).set(t.headers()).query({ ownerDocument: '123' }),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(await api().get(`${ED}/third-party-stock/${other.filialHashes[0]}`).set(t.headers()), 403);
    });
  });

  describe('a customer’s return (finNFe 4)', () => {
    it('cannot be confirmed as a purchase: the preview names the referenced sale and what to do instead; nothing posts', async () => {
      const p = await makeProduct(t);
      const sale = '35250311222333000181550010000043211000043210';
      const built = await t.nfe({
        purpose: '4',
        referencedKeys: [sale],
        operationNature: 'DEVOLUCAO DE COMPRA',
        items: [{ code: 'R1', description: 'CAIXA DE SOM BT', cfop: '5202', quantity: '2', unitPrice: '50.00' }],
      });
      const preview = await api().post(`${NFE}/preview-import`).set(t.headers()).send({ xml: built.xml });
      expect(preview.status).to.equal(200);
      expect(preview.body.draft.purpose).to.equal('4');
      expect(preview.body.draft.items[0]).to.deep.include({
        entryCfop: '1202',
        operationClass: 'CUSTOMER_RETURN',
        operationClassSource: 'PURPOSE',
      });
      expect(preview.body.draft.warnings.map((w: any) => w.code)).to.include('CUSTOMER_RETURN_NOT_A_PURCHASE');

      const imported = await importXml(built.xml, [{ lineNumber: 1, productId: p.hash }]);
      expect(imported.status).to.equal(201);
      const id = imported.body.entryDocument.id;
      expect(imported.body.entryDocument.referencedKeys).to.deep.equal([sale]);
      const pre = await confirmPreview(id);
      const problem = pre.body.blockingProblems.find((x: any) => x.code === 'CUSTOMER_RETURN_NOT_A_PURCHASE');
      expect(problem.message).to.contain('finNFe 4');
      expect(problem.message).to.contain('NF-e 1/4321 of 2025-03 issued by 11222333000181');
      expect(problem.message).to.contain('POST /api/returns/{filialId}');
      expect(problem.details.referencedDocuments).to.deep.equal([
        { accessKey: sale, issuerDocument: '11222333000181', model: '55', series: '1', number: '4321', issuedIn: '2025-03' },
      ]);
      expect(pre.body.lines[0].posts).to.deep.equal({ stock: 'NONE', payable: false });

      const before = await fiscalFootprint(t);
      const res = await confirm(t, id);
      expectProblem(res, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(res.body.problems.map((x: any) => x.code)).to.include('CUSTOMER_RETURN_NOT_A_PURCHASE');
      expect(await fiscalFootprint(t)).to.deep.equal(before);
      expect(await stockOf(t, 0, p.id)).to.deep.include({ quantity: '0.0000' });
      // The class cannot be chosen away, and finNFe of an imported NF-e is part of its identity.
      const detail = (await api().get(`${ED}/detail/${id}`).set(t.headers())).body;
      const patch = (b: object) =>
        api()
          .patch(`${ED}/${id}`)
          .set(t.headers())
          .send({ version: detail.version, ...b });
      const bad = await patch({
        items: [
          { description: 'X', unit: 'UN', quantity: 2, unitPrice: 50, cfop: '5202', productId: p.hash, operationClass: 'PURCHASE_RESALE' },
        ],
      });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors[0].path).to.equal('items[0].operationClass');
      expectProblem(await patch({ purpose: '1' }), 422, 'ENTRY_DOCUMENT_FIELD_READ_ONLY');
    });
  });

  describe('value-only documents (finNFe 2, 3)', () => {
    it('a complementary invoice posts its value as a payable and no stock quantity; an adjustment owes nothing', async () => {
      const p = await makeProduct(t);
      // A price complement of 12.50 on goods bought before: quantity 0, value in other expenses.
      const compl = await createDraft(
        t,
        draftBody({ purpose: '2', items: [item({ productId: p.hash, cfop: '5102', quantity: 0, unitPrice: 0, otherExpenses: '12.50' })] }),
      );
      expect(compl.purpose).to.equal('2');
      const pre = await confirmPreview(compl.id);
      expect(pre.body.blockingProblems).to.deep.equal([]);
      expect(pre.body.warnings.map((w: any) => w.code)).to.include('VALUE_ONLY_DOCUMENT');
      expect(pre.body.lines[0]).to.deep.include({ operationClass: 'VALUE_ADJUSTMENT', posts: { stock: 'NONE', payable: true } });
      expect((await confirm(t, compl.id)).status).to.equal(200);
      expect(await movementsOf(t, compl.id)).to.deep.equal([]);
      expect((await payablesOf(t, compl.id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['12.50']);

      const adjust = await createDraft(
        t,
        draftBody({ purpose: '3', items: [item({ productId: p.hash, cfop: '5102', quantity: 1, unitPrice: '7.00' })] }),
      );
      expect((await confirm(t, adjust.id)).status).to.equal(200);
      expect(await movementsOf(t, adjust.id)).to.deep.equal([]);
      expect(await payablesOf(t, adjust.id)).to.deep.equal([]);
    });
  });

  describe('the entry CFOP per line on the draft (PATCH items)', () => {
    it('a line’s entry CFOP is changed and kept beside the declared CFOP; its class, cost and credits follow; audited', async () => {
      const p = await makeProduct(t);
      await setTaxRegime(t, 0, 'LUCRO_REAL');
      try {
        const line = {
          productId: p.hash,
          description: 'PAPEL A4',
          cfop: '5102',
          quantity: 10,
          unitPrice: '25.00',
          taxes: { icms: { cst: '00', base: '250.00', rate: 18, value: '45.00' }, pis: { cst: '01' }, cofins: { cst: '01' } },
        };
        const d = await createDraft(t, draftBody({ items: [item(line)] }));
        // Resale: 250 − 45 = 205 → PIS 3.38, COFINS 15.58; cost 250 − 45 − 3.38 − 15.58 = 186.04.
        expect(d.items[0]).to.deep.include({
          cfop: '5102',
          entryCfop: '1102',
          entryCfopSource: 'DEFAULT',
          operationClass: 'PURCHASE_RESALE',
        });
        expect(d.items[0].cost).to.deep.include({ credits: { icms: 45, pis: 3.38, cofins: 15.58, ipi: 0 }, costTotal: 186.04 });
        // Bought for the office: 1556, no credit, cost 250.00.
        const res = await api()
          .patch(`${ED}/${d.id}`)
          .set(t.headers())
          .send({ version: d.version, items: [item({ ...line, entryCfop: '1556' })] });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.version).to.equal(d.version + 1);
        expect(res.body.items[0]).to.deep.include({
          cfop: '5102',
          entryCfop: '1556',
          entryCfopSource: 'MANUAL',
          operationClass: 'PURCHASE_USE_CONSUMPTION',
          operationClassSource: 'CFOP',
        });
        expect(res.body.items[0].declared.cfop).to.equal('5102');
        expect(res.body.items[0].cost).to.deep.include({ credits: { icms: 0, pis: 0, cofins: 0, ipi: 0 }, costTotal: 250, unitCost: 25 });
        const row = await dataSource.manager.findOneByOrFail(EntryDocumentItem, { entryDocumentId: docId(d.id), lineNumber: 1 });
        expect([row.cfop, row.declaredCfop, row.entryCfop, row.entryCfopSource, row.operationClass]).to.deep.equal([
          '5102',
          '5102',
          '1556',
          'MANUAL',
          'PURCHASE_USE_CONSUMPTION',
        ]);
        const updated = (await auditOf(t, d.id)).filter((x) => x.action === 'UPDATED').pop()!;
        expect(updated.changes).to.deep.include({
          'items[1].entryCfop': ['1102', '1556'],
          'items[1].operationClass': ['PURCHASE_RESALE', 'PURCHASE_USE_CONSUMPTION'],
        });
        // The choice survives other edits (the product assignment recomputes the draft).
        const again = await api().patch(`${ED}/${d.id}`).set(t.headers()).send({ version: res.body.version, notes: 'uso interno' });
        expect(again.body.items[0]).to.deep.include({ entryCfop: '1556', entryCfopSource: 'MANUAL' });
      } finally {
        await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
      }
    });

    it('bad entry CFOPs and classes → 400 naming the field, nothing written', async () => {
      const d = await createDraft(t, draftBody({ items: [item({ cfop: '5102' })] }));
      const before = await fiscalFootprint(t);
      for (const [field, value] of [
        ['entryCfop', '5102'],
        ['entryCfop', '11021'],
        ['operationClass', 'VALUE_ADJUSTMENT'],
        ['operationClass', 'SOMETHING'],
      ] as const) {
        const res = await api()
          .patch(`${ED}/${d.id}`)
          .set(t.headers())
          .send({ version: d.version, items: [item({ cfop: '5102', [field]: value })] });
        expectProblem(res, 400, 'VALIDATION_ERROR');
        expect(res.body.errors.map((e: any) => e.path)).to.include(`items[0].${field}`);
      }
      expectProblem(
        await api()
          .post(`${ED}`)
          .set(t.headers())
          .send(draftBody({ purpose: '7' })),
        400,
        'VALIDATION_ERROR',
      );
      expect(await fiscalFootprint(t)).to.deep.equal(before);
    });
  });

  describe('company CFOP rules', () => {
    const rules = (h: TestTenant = t) => api().get(`${ED}/cfop-rules`).set(h.headers());
    const create = (b: object, h: TestTenant = t) => api().post(`${ED}/cfop-rules`).set(h.headers()).send(b);

    it('a rule by NCM prefix books a draft’s lines; edited with version, deleted; audited and published', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({ items: [item({ productId: p.hash, cfop: '5102', ncm: '48025610', quantity: 2, unitPrice: 10 })] }),
      );
      expect(d.items[0]).to.deep.include({ entryCfop: '1102', entryCfopSource: 'DEFAULT' });

      const created = await create({ issuerCfop: '5102', ncm: '4802', entryCfop: '1556' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({
        issuerCfop: '5102',
        ncm: '4802',
        productId: null,
        entryCfop: '1556',
        operationClass: null,
        version: 1,
      });
      const ruleId = created.body.id;
      const pre = await confirmPreview(d.id);
      expect(pre.body.lines[0]).to.deep.include({
        entryCfop: '1556',
        entryCfopSource: 'COMPANY_RULE',
        operationClass: 'PURCHASE_USE_CONSUMPTION',
      });
      const detail = await api().get(`${ED}/detail/${d.id}`).set(t.headers());
      expect(detail.body.items[0]).to.deep.include({ entryCfop: '1556', entryCfopSource: 'COMPANY_RULE' });

      const listed = await rules();
      expect(listed.body.data.map((r: any) => r.id)).to.include(ruleId);
      expect((await api().get(`${ED}/cfop-rules`).set(t.headers()).query({ issuerCfop: '5949' })).body.data).to.deep.equal([]);

      const patched = await api().patch(`${ED}/cfop-rules/${ruleId}`).set(t.headers()).send({ version: 1, entryCfop: '1551' });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.deep.include({ entryCfop: '1551', version: 2 });
      expectProblem(
        await api().patch(`${ED}/cfop-rules/${ruleId}`).set(t.headers()).send({ version: 1, entryCfop: '1556' }),
        409,
        'STALE_VERSION',
      );
      expect((await confirmPreview(d.id)).body.lines[0]).to.deep.include({
        entryCfop: '1551',
        operationClass: 'PURCHASE_FIXED_ASSET',
        posts: { stock: 'NONE', payable: true },
      });

      const ruleRowId = decodeId('entry-cfop-rule', ruleId);
      const audit = await dataSource.query(
        'SELECT action, changes FROM audit_log WHERE company_id = ? AND entity = ? AND entity_id = ? ORDER BY id',
        [t.companyId, 'entry-cfop-rule', ruleRowId],
      );
      expect(audit.map((a: any) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
      expect(JSON.parse(audit[1].changes)).to.deep.equal({ entryCfop: ['1556', '1551'] });

      expect((await api().delete(`${ED}/cfop-rules/${ruleId}`).set(t.headers())).status).to.equal(204);
      expect((await confirmPreview(d.id)).body.lines[0]).to.deep.include({ entryCfop: '1102', entryCfopSource: 'DEFAULT' });
      const events = await dataSource.query(
        'SELECT type FROM outbox_event WHERE company_id = ? AND aggregate_type = ? AND aggregate_id = ? ORDER BY id',
        [t.companyId, 'entry-cfop-rule', ruleRowId],
      );
      expect(events.map((e: any) => e.type)).to.deep.equal([
        'entry-cfop-rule.created',
        'entry-cfop-rule.updated',
        'entry-cfop-rule.deleted',
      ]);
    });

    it('a product rule beats an NCM rule; a rule on x949 names its class; confirm books by the rule', async () => {
      const p = await makeProduct(t);
      const consigned = await makeProduct(t);
      expect((await create({ issuerCfop: '6102', ncm: '85', entryCfop: '2101' })).status).to.equal(201);
      expect((await create({ issuerCfop: '6102', productId: p.hash, entryCfop: '2551' })).status).to.equal(201);
      expect((await create({ issuerCfop: '5949', entryCfop: '1949', operationClass: 'THIRD_PARTY_INBOUND' })).status).to.equal(201);
      const d = await createDraft(
        t,
        draftBody({
          items: [
            item({ productId: p.hash, cfop: '6102', ncm: '85182200', quantity: 1, unitPrice: 100 }),
            item({ productId: consigned.hash, cfop: '5949', quantity: 3, unitPrice: 4 }),
          ],
        }),
      );
      expect(d.items.map((i: any) => [i.entryCfop, i.operationClass, i.operationClassSource])).to.deep.equal([
        ['2551', 'PURCHASE_FIXED_ASSET', 'CFOP'],
        ['1949', 'THIRD_PARTY_INBOUND', 'COMPANY_RULE'],
      ]);
      const res = await confirm(t, d.id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await movementsOf(t, d.id)).to.deep.equal([]);
      expect((await payablesOf(t, d.id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['100.00']);
      expect((await thirdPartyBalance(t, 0, consigned.id))!.quantity.toFixed(4)).to.equal('3.0000');
      // Confirmed lines keep what they were booked with, whatever the rules become.
      const all = (await rules()).body.data.filter((r: any) => r.issuerCfop === '6102' && r.productId === p.hash);
      await api().delete(`${ED}/cfop-rules/${all[0].id}`).set(t.headers());
      expect((await api().get(`${ED}/detail/${d.id}`).set(t.headers())).body.items[0]).to.deep.include({ entryCfop: '2551' });
    });

    it('bad input → 400, a duplicate scope → 409 naming the rule, another tenant’s ids → 404; nothing written', async () => {
      const first = await create({ issuerCfop: '5405', entryCfop: '1403' });
      expect(first.status).to.equal(201);
      const before = await fiscalFootprint(t);
      for (const b of [
        { issuerCfop: '5102', entryCfop: '5102' },
        { issuerCfop: '51020', entryCfop: '1102' },
        { issuerCfop: '5102', ncm: '1', entryCfop: '1102' },
        { issuerCfop: '5102', ncm: '22', productId: first.body.id, entryCfop: '1102' },
        { issuerCfop: '5949', entryCfop: '1949' },
        { issuerCfop: '5102', entryCfop: '1102', operationClass: 'VALUE_ADJUSTMENT' },
      ]) {
        expectProblem(await create(b), 400, 'VALIDATION_ERROR');
      }
      const dup = await create({ issuerCfop: '5405', entryCfop: '1102' });
      expectProblem(dup, 409, 'CFOP_RULE_EXISTS');
      expect(dup.body.ruleId).to.equal(first.body.id);
      const foreign = await makeProduct(other);
      expectProblem(await create({ issuerCfop: '5102', productId: foreign.hash, entryCfop: '1102' }), 404, 'PRODUCT_NOT_FOUND');
      expectProblem(
        await api().patch(`${ED}/cfop-rules/${first.body.id}`).set(other.headers()).send({ version: 1, entryCfop: '1102' }),
        404,
      );
      expectProblem(await api().delete(`${ED}/cfop-rules/${first.body.id}`).set(other.headers()), 404);
      expectProblem(await api().patch(`${ED}/cfop-rules/${first.body.id}`).set(t.headers()).send({ version: 1 }), 400, 'VALIDATION_ERROR');
      expect((await rules(other)).body.data.map((r: any) => r.id)).to.not.include(first.body.id);
      expect(await fiscalFootprint(t)).to.deep.equal(before);
      expectProblem(
        await api()
          .post(`${ED}/cfop-rules`)
          .set(t.headersWith({ scope: 'entry-document:read' }))
          .send({ issuerCfop: '5102', entryCfop: '1102' }),
        403,
      );
    });

    it('the default tables are readable as data', async () => {
      const res = await api().get(`${ED}/cfop-rules/defaults`).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body.defaultEntryCfops).to.deep.include({ issuerCfop: 'x910', entryCfop: 'x910' });
      expect(res.body.entryCfops).to.deep.include({
        entryCfop: 'x403',
        operationClass: 'PURCHASE_RESALE',
        icmsCredit: false,
        description: 'Compra para comercialização em operação com mercadoria sujeita a ST',
      });
      expect(res.body.operationClasses.find((c: any) => c.operationClass === 'BONUS')).to.deep.include({ stock: 'OWN', payable: false });
      expect(res.body.taxRegimes.find((r: any) => r.taxRegime === 'LUCRO_REAL')).to.deep.equal({
        taxRegime: 'LUCRO_REAL',
        icmsCredit: true,
        ipiCredit: true,
        pisCofins: { pisRate: 1.65, cofinsRate: 7.6 },
      });
    });
  });
});
