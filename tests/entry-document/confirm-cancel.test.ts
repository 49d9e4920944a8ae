import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { postToLedger } from '../../src/modules/stock/stock-ledger.service';
import { api } from '../support/api';
import { addStock, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, setFilialOptions, TestTenant } from '../support/tenant';
import { auditOf, cancel, confirm, createDraft, docId, draftBody, eventsOf, footprint, item, movementsOf, payablesOf } from './support';

describe('Entry document confirmation and cancellation', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  const preview = (id: string, which: 'confirm' | 'cancel' = 'confirm') =>
    api().get(`/api/entry-document/${which}-preview/${id}`).set(t.headers());
  const sell = (productId: number, quantity: string) =>
    inTransaction(NO_UNIT, (em) =>
      postToLedger(em, {
        companyId: t.companyId,
        filialId: t.filialIds[0],
        reason: 'SALE',
        referenceType: 'test',
        referenceId: 1,
        lines: [{ productId, direction: 'OUT', quantity: new Dec(quantity) }],
      }),
    );

  describe('hand-computed values', () => {
    it('3 installments with freight and discount: exact totals, installment sum and unit costs (10 places)', async () => {
      const [p1, p2, p3] = [await makeProduct(t), await makeProduct(t), await makeProduct(t)];
      const d = await createDraft(
        t,
        draftBody({
          charges: { freight: '15.00', discount: '10.00' },
          items: [
            item({ productId: p1.hash, quantity: 10, unitPrice: '12.50', taxes: { ipi: { rate: 5, base: 125, value: '6.25' } } }),
            item({ productId: p2.hash, quantity: 7, unitPrice: '4.99' }),
            item({ productId: p3.hash, quantity: '2.5', unitPrice: '19.90' }),
          ],
          installments: [
            { dueDate: '2026-04-02', amount: '73.64' },
            { dueDate: '2026-05-02', amount: '73.64' },
            { dueDate: '2026-06-01', amount: '73.65' },
          ],
        }),
      );
      // Products 125.00 + 34.93 + 49.75 = 209.68. Freight 15 by value: 8.94, 2.50, 3.56 (residue last);
      // discount 10: 5.96, 1.67, 2.37. Total 209.68 − 10 + 15 + 6.25 (IPI) = 220.93 = 73.64 + 73.64 + 73.65.
      expect(d.totals).to.deep.equal({
        products: 209.68,
        freight: 15,
        insurance: 0,
        discount: 10,
        otherExpenses: 0,
        ipi: 6.25,
        icmsSt: 0,
        total: 220.93,
      });
      expect(d.items.map((i: any) => [i.total, i.freight, i.discount, i.landedTotal])).to.deep.equal([
        [125, 8.94, 5.96, 134.23],
        [34.93, 2.5, 1.67, 35.76],
        [49.75, 3.56, 2.37, 50.94],
      ]);
      // 134.23 / 10; 35.76 / 7 = 5.10857142857… → 5.1085714286; 50.94 / 2.5
      expect(d.items.map((i: any) => i.unitCost)).to.deep.equal([13.423, 5.1085714286, 20.376]);

      const pre = await preview(d.id);
      expect(pre.body.blockingProblems).to.deep.equal([]);
      const res = await confirm(t, d.id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.status).to.equal('CONFIRMED');
      expect(res.body.stockMovements).to.deep.equal(pre.body.stockMovements);
      const payables = await payablesOf(t, d.id);
      expect(payables.map((p) => [p.installmentNumber, p.dueDate, p.amount.toFixed(2), p.status, p.paidAmount.toFixed(2)])).to.deep.equal([
        [1, '2026-04-02', '73.64', 'OPEN', '0.00'],
        [2, '2026-05-02', '73.64', 'OPEN', '0.00'],
        [3, '2026-06-01', '73.65', 'OPEN', '0.00'],
      ]);
      expect(payables.reduce((s, p) => s.plus(p.amount), new Dec(0)).toFixed(2)).to.equal('220.93');
      const movements = await movementsOf(t, d.id);
      expect(movements.map((m) => [m.productId, m.quantity.toFixed(4), m.unitCost.toFixed(10)])).to.deep.equal([
        [p1.id, '10.0000', '13.4230000000'],
        [p2.id, '7.0000', '5.1085714286'],
        [p3.id, '2.5000', '20.3760000000'],
      ]);
      expect(await stockOf(t, 0, p2.id)).to.deep.equal({ quantity: '7.0000', averageCost: '5.1085714286' });
    });

    it('conversion factor 12 (box of 12 → units): stock quantity and unit cost in stock units', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 40, '4.60');
      const d = await createDraft(
        t,
        draftBody({ items: [item({ productId: p.hash, unit: 'CX', quantity: 5, unitPrice: 60, conversionFactor: 12, freight: 6 })] }),
      );
      // 5 boxes × 12 = 60 units; (300 + 6) / 60 = 5.10 per unit
      expect(d.items[0]).to.deep.include({ conversionFactor: 12, stockQuantity: 60, unitCost: 5.1 });
      const pre = await preview(d.id);
      // (40 × 4.60 + 60 × 5.10) / 100 = 4.90
      expect(pre.body.stockMovements).to.deep.equal([
        {
          productId: p.hash,
          lineNumber: 1,
          direction: 'IN',
          quantity: 60,
          unitCost: 5.1,
          balanceBefore: 40,
          balanceAfter: 100,
          averageCostBefore: 4.6,
          averageCostAfter: 4.9,
        },
      ]);
      expect((await confirm(t, d.id)).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '100.0000', averageCost: '4.9000000000' });
    });

    it('confirm + cancel restores the exact prior average cost when nothing else moved (issue 12: 12.40 came back as 12.3999999999)', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 3, '12.40');
      // Two lines of the product: reversed last in, first out, each back to exactly where it was.
      const doc = await createDraft(
        t,
        draftBody({
          items: [item({ productId: p.hash, quantity: 4, unitPrice: 10 }), item({ productId: p.hash, quantity: 11, unitPrice: '9.99' })],
        }),
      );
      expect((await confirm(t, doc.id)).status).to.equal(200);
      // (3 × 12.40 + 4 × 10) / 7 = 11.02857142857… → 11.0285714286: backing it out arithmetically gives 12.4000000001.
      expect((await stockOf(t, 0, p.id)).averageCost).to.not.equal('12.4000000000');
      const preview = await api().get(`/api/entry-document/cancel-preview/${doc.id}`).set(t.headers());
      expect(preview.body.stockMovements.map((m: { averageCostAfter: number }) => m.averageCostAfter)).to.deep.equal([11.0285714286, 12.4]);
      expect((await cancel(t, doc.id, { reason: 'Nota devolvida' })).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '3.0000', averageCost: '12.4000000000' });
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it('when stock moved in between, the reversal backs the cost out arithmetically', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 10, 5);
      const doc = await createDraft(t, draftBody({ items: [item({ productId: p.hash, quantity: 20, unitPrice: 8 })] }));
      expect((await confirm(t, doc.id)).status).to.equal(200);
      await addStock(t, 0, p.id, 30, 7);
      // (60 × 7 − 20 × 8) / 40 = 6.5
      expect((await cancel(t, doc.id, { reason: 'Nota devolvida' })).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '40.0000', averageCost: '6.5000000000' });
    });

    it('confirm → cancel → confirm of a new document: balances and average cost as computed by hand; check:stock clean', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 10, 5);
      const first = await createDraft(t, draftBody({ items: [item({ productId: p.hash, quantity: 20, unitPrice: 8 })] }));
      expect((await confirm(t, first.id)).status).to.equal(200);
      // (10 × 5 + 20 × 8) / 30 = 7
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '30.0000', averageCost: '7.0000000000' });

      const cp = await preview(first.id, 'cancel');
      expect(cp.body.blockingProblems).to.deep.equal([]);
      expect(cp.body.stockMovements).to.deep.equal([
        {
          productId: p.hash,
          lineNumber: 1,
          direction: 'OUT',
          quantity: 20,
          unitCost: 8,
          balanceBefore: 30,
          balanceAfter: 10,
          averageCostBefore: 7,
          averageCostAfter: 5,
        },
      ]);
      const cancelled = await cancel(t, first.id, { reason: 'Nota devolvida' });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      expect(cancelled.body).to.include({ status: 'CANCELLED', cancelReason: 'Nota devolvida' });
      expect(cancelled.body.stockMovements).to.deep.equal(cp.body.stockMovements);
      // (30 × 7 − 20 × 8) / 10 = 5: the average is backed out.
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '5.0000000000' });
      expect((await payablesOf(t, first.id)).map((x) => x.status)).to.deep.equal(['CANCELLED']);

      const second = await createDraft(t, draftBody({ items: [item({ productId: p.hash, quantity: 7, unitPrice: '3.10', freight: 1 })] }));
      // 22.70 / 7 = 3.2428571428571… → 3.2428571429; (10 × 5 + 7 × 3.2428571429) / 17 = 4.27647058825… → 4.2764705883
      expect(second.items[0].unitCost).to.equal(3.2428571429);
      expect((await confirm(t, second.id)).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '17.0000', averageCost: '4.2764705883' });
      expect(await stockMismatches(t)).to.deep.equal([]);
    });
  });

  describe('GET /entry-document/confirm-preview/:id', () => {
    it('lists blocking problems: item without product, quantity 0, installments not summing; writes nothing', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({ items: [item({ productId: p.hash, quantity: 0 }), item()], installments: [{ dueDate: '2026-04-01', amount: 1 }] }),
      );
      const before = await footprint(t);
      const res = await preview(d.id);
      expect(res.status).to.equal(200);
      expect(res.body.blockingProblems.map((b: any) => [b.code, b.lineNumber ?? null])).to.deep.equal([
        ['ITEM_QUANTITY_NOT_POSITIVE', 1],
        ['ITEM_WITHOUT_PRODUCT', 2],
        ['INSTALLMENTS_TOTAL_MISMATCH', null],
      ]);
      expect(res.body.payables).to.deep.equal([{ number: 1, dueDate: '2026-04-01', amount: 1 }]);
      expect(await footprint(t)).to.deep.equal(before);
    });

    it('a product without stock control, and an IGNORED item, post no stock but count in the payable', async () => {
      const service = await makeProduct(t, { stockControlled: false });
      const d = await createDraft(
        t,
        draftBody({ items: [item({ productId: service.hash, unitPrice: 7 }), item({ ignored: true, unitPrice: 3 })] }),
      );
      const pre = await preview(d.id);
      expect(pre.body.stockMovements).to.deep.equal([]);
      expect(pre.body.payables).to.deep.equal([{ number: 1, dueDate: '2026-03-03', amount: 10 }]);
      expect(pre.body.warnings.map((w: any) => w.code)).to.deep.equal(['PRODUCT_NOT_STOCK_CONTROLLED']);
      const res = await confirm(t, d.id);
      expect(res.status).to.equal(200);
      expect(await movementsOf(t, d.id)).to.have.length(0);
      expect((await payablesOf(t, d.id)).map((p) => p.amount.toFixed(2))).to.deep.equal(['10.00']);
    });

    it('a document that is not DRAFT → blocking ENTRY_DOCUMENT_NOT_DRAFT, nothing to post', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }));
      await confirm(t, d.id);
      const res = await preview(d.id);
      expect(res.body.blockingProblems.map((b: any) => b.code)).to.deep.equal(['ENTRY_DOCUMENT_NOT_DRAFT']);
      expect(res.body.stockMovements).to.deep.equal([]);
    });

    it("another tenant's document → 404; a filial not granted → 403; malformed id → 400", async () => {
      const d = await createDraft(t, draftBody(), 1);
      expectProblem(await api().get(`/api/entry-document/confirm-preview/${d.id}`).set(other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await api()
          .get(`/api/entry-document/confirm-preview/${d.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get('/api/entry-document/confirm-preview/x!').set(t.headers()), 400, 'INVALID_ID');
    });
  });

  describe('POST /entry-document/confirm/:id', () => {
    it('posts stock, creates one payable per installment, audit and event; a second confirm → 409', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ productId: p.hash, quantity: 4, unitPrice: 2.5 })],
          installments: [
            { dueDate: '2026-04-01', amount: 4 },
            { dueDate: '2026-05-01', amount: 6 },
          ],
        }),
      );
      const res = await api()
        .post(`/api/entry-document/confirm/${d.id}`)
        .set(t.headersWith({ sub: 'joana' }));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'CONFIRMED', version: 2 });
      expect(res.body.confirmedAt).to.be.a('string');
      expect(res.body.payables.map((x: any) => [x.installmentNumber, x.amount, x.status])).to.deep.equal([
        [1, 4, 'OPEN'],
        [2, 6, 'OPEN'],
      ]);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '4.0000', averageCost: '2.5000000000' });
      expect((await auditOf(t, d.id)).map((a) => [a.action, a.actor])).to.deep.equal([
        ['CREATED', 'test-user'],
        ['CONFIRMED', 'joana'],
      ]);
      const events = await eventsOf(t, d.id);
      expect(events.map((e) => e.type)).to.deep.equal(['entry-document.created', 'entry-document.confirmed']);
      expect(events[1].data).to.include({ entryDocumentId: d.id, status: 'CONFIRMED', movements: 1, payables: 2 });

      const again = await confirm(t, d.id);
      expectProblem(again, 409, 'ENTRY_DOCUMENT_CONFIRMED');
      expect(again.body.currentStatus).to.equal('CONFIRMED');
      expect(await movementsOf(t, d.id)).to.have.length(1);
      expect(await payablesOf(t, d.id)).to.have.length(2);
    });

    it('blocking problems → 422 listing them; nothing posted, still DRAFT at the same version', async () => {
      const d = await createDraft(t, draftBody({ items: [item()] }));
      const before = await footprint(t);
      const res = await confirm(t, d.id);
      expectProblem(res, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(res.body.problems.map((p: any) => p.code)).to.deep.equal(['ITEM_WITHOUT_PRODUCT']);
      expect(await footprint(t)).to.deep.equal(before);
      const stored = await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) });
      expect([stored.status, stored.version]).to.deep.equal(['DRAFT', 1]);
    });

    it('two concurrent confirms: exactly one 200 and one 409; one set of movements and payables', async () => {
      const p = await makeProduct(t);
      const q = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ productId: p.hash, quantity: 3 }), item({ productId: q.hash, quantity: 2 })],
          installments: [
            { dueDate: '2026-04-01', amount: 20 },
            { dueDate: '2026-05-01', amount: 30 },
          ],
        }),
      );
      const results = await Promise.all([confirm(t, d.id), confirm(t, d.id)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(await movementsOf(t, d.id)).to.have.length(2);
      expect(await payablesOf(t, d.id)).to.have.length(2);
      expect((await stockOf(t, 0, p.id)).quantity).to.equal('3.0000');
      expect((await stockOf(t, 0, q.id)).quantity).to.equal('2.0000');
      expect((await auditOf(t, d.id)).filter((a) => a.action === 'CONFIRMED')).to.have.length(1);
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it("another tenant's document → 404, a filial not granted → 403, read-only token → 403; nothing posted", async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }), 1);
      const before = await footprint(t);
      expectProblem(await confirm(other, d.id), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await api()
          .post(`/api/entry-document/confirm/${d.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .post(`/api/entry-document/confirm/${d.id}`)
          .set(t.headersWith({ scope: 'entry-document:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expectProblem(await api().post('/api/entry-document/confirm/__').set(t.headers()), 400, 'INVALID_ID');
      expect(await footprint(t)).to.deep.equal(before);
    });
  });

  describe('cancel-preview and POST /entry-document/cancel/:id', () => {
    it('a DRAFT cancels without postings', async () => {
      const d = await createDraft(t, draftBody());
      const pre = await preview(d.id, 'cancel');
      expect(pre.body).to.deep.include({ stockMovements: [], payables: [], blockingProblems: [] });
      const res = await cancel(t, d.id);
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('CANCELLED');
      expect(await movementsOf(t, d.id)).to.have.length(0);
      expect((await auditOf(t, d.id)).map((a) => a.changes)).to.deep.include({ status: ['DRAFT', 'CANCELLED'] });
      expectProblem(await cancel(t, d.id), 409, 'ENTRY_DOCUMENT_CANCELLED');
    });

    it('blocked (422) when a payable has a paid amount; the preview lists it; nothing changes', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash, quantity: 2, unitPrice: 5 })] }));
      await confirm(t, d.id);
      const [payable] = await payablesOf(t, d.id);
      await dataSource.manager.update(Payable, { id: payable.id }, { paidAmount: new Dec('3.00'), status: 'PARTIALLY_PAID' });
      const pre = await preview(d.id, 'cancel');
      expect(pre.body.blockingProblems.map((b: any) => [b.code, b.details.paidAmount])).to.deep.equal([['PAYABLE_PAID', 3]]);
      const before = await footprint(t);
      const res = await cancel(t, d.id);
      expectProblem(res, 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');
      expect(res.body.problems.map((b: any) => b.code)).to.deep.equal(['PAYABLE_PAID']);
      expect(await footprint(t)).to.deep.equal(before);
      expect((await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) })).status).to.equal('CONFIRMED');
      expect((await stockOf(t, 0, p.id)).quantity).to.equal('2.0000');
    });

    it('blocked when the stock was consumed and the filial forbids negative stock; allowed where it is permitted', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash, quantity: 5, unitPrice: 4 })] }));
      await confirm(t, d.id);
      await sell(p.id, '3');
      const pre = await preview(d.id, 'cancel');
      expect(pre.body.blockingProblems).to.deep.equal([
        {
          code: 'INSUFFICIENT_STOCK',
          message: pre.body.blockingProblems[0].message,
          blocksConfirmation: true,
          details: { productId: p.hash, available: 2, requested: 5 },
        },
      ]);
      const before = await footprint(t);
      expectProblem(await cancel(t, d.id), 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');
      expect(await footprint(t)).to.deep.equal(before);

      await setFilialOptions(t, 0, { allowNegativeStock: true });
      try {
        const res = await cancel(t, d.id);
        expect(res.status).to.equal(200);
        expect(await stockOf(t, 0, p.id)).to.deep.include({ quantity: '-3.0000' });
      } finally {
        await setFilialOptions(t, 0, { allowNegativeStock: false });
      }
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it('two concurrent cancels: exactly one 200 and one 409; reversed once', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ productId: p.hash, quantity: 6, unitPrice: 2 })],
          installments: [
            { dueDate: '2026-04-01', amount: 6 },
            { dueDate: '2026-05-01', amount: 6 },
          ],
        }),
      );
      await confirm(t, d.id);
      const results = await Promise.all([cancel(t, d.id), cancel(t, d.id)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const movements = await movementsOf(t, d.id);
      expect(movements.map((m) => [m.reason, m.quantity.toFixed(4)])).to.deep.equal([
        ['ENTRY_DOCUMENT', '6.0000'],
        ['ENTRY_DOCUMENT_CANCEL', '-6.0000'],
      ]);
      expect((await payablesOf(t, d.id)).map((x) => x.status)).to.deep.equal(['CANCELLED', 'CANCELLED']);
      expect((await stockOf(t, 0, p.id)).quantity).to.equal('0.0000');
      expect((await eventsOf(t, d.id)).map((e) => e.type)).to.deep.equal([
        'entry-document.created',
        'entry-document.confirmed',
        'entry-document.cancelled',
      ]);
    });

    it('several lines of one product are reversed last-in-first-out and restore the balance', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 4, '2.50');
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ productId: p.hash, quantity: 6, unitPrice: 3 }), item({ productId: p.hash, quantity: 10, unitPrice: '4.10' })],
        }),
      );
      const pre = await preview(d.id);
      // 4 @ 2.50 + 6 @ 3 → 2.8; + 10 @ 4.10 → (28 + 41) / 20 = 3.45
      expect(pre.body.stockMovements.map((m: any) => [m.lineNumber, m.averageCostAfter, m.balanceAfter])).to.deep.equal([
        [1, 2.8, 10],
        [2, 3.45, 20],
      ]);
      await confirm(t, d.id);
      const res = await cancel(t, d.id);
      expect(
        res.body.stockMovements.map((m: any) => [m.lineNumber, m.quantity, m.unitCost, m.averageCostAfter, m.balanceAfter]),
      ).to.deep.equal([
        [2, 10, 4.1, 2.8, 10],
        [1, 6, 3, 2.5, 4],
      ]);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '4.0000', averageCost: '2.5000000000' });
    });

    it("another tenant's document → 404, a filial not granted → 403, bad body → 400; nothing changes", async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }), 1);
      await api().post(`/api/entry-document/confirm/${d.id}`).set(t.headers(1));
      const before = await footprint(t);
      expectProblem(await api().get(`/api/entry-document/cancel-preview/${d.id}`).set(other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(await cancel(other, d.id), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await api()
          .get(`/api/entry-document/cancel-preview/${d.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .post(`/api/entry-document/cancel/${d.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      const bad = await api()
        .post(`/api/entry-document/cancel/${d.id}`)
        .set(t.headers())
        .send({ reason: 'x'.repeat(300) });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors[0].path).to.equal('reason');
      expect(await footprint(t)).to.deep.equal(before);
    });
  });
});
