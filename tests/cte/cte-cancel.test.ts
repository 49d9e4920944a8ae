import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { api } from '../support/api';
import { addStock, makePaymentMethod, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { countOf, rowsOf } from '../nfe/nfe-support';
import { confirm, CTE, cteTenant, CteTenant, importNfe, sell, stage } from './cte-support';

describe('CT-e cancellation', () => {
  let t: CteTenant;
  let other: CteTenant;
  before(async () => {
    t = await cteTenant();
    other = await cteTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
  });

  const apply = (id: string, body: object = {}) => api().post(`${CTE}/apportion/${id}`).set(t.headers()).send(body);
  const cancel = (id: string, body: object = {}, tenant = t) => api().post(`${CTE}/cancel/${id}`).set(tenant.headers()).send(body);
  const cancelPreview = (id: string, tenant = t) => api().get(`${CTE}/cancel-preview/${id}`).set(tenant.headers());
  const detail = (docId: string) => api().get(`/api/entry-document/detail/${docId}`).set(t.headers());
  const ctePayables = async (cteId: string) => (await api().get(`${CTE}/detail/${cteId}`).set(t.headers())).body.payables;

  it('a RECEIVED CT-e cancels without postings; a second cancel → 409', async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'R', quantity: '1', unitPrice: '10', productId: p.hash }]);
    const built = t.cte({ total: '5.00', nfeKeys: [d.accessKey] });
    const cteId = await stage(t, built);
    const res = await cancel(cteId, { reason: 'Frete em duplicidade' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ status: 'CANCELLED', documents: [], payables: [], blockingProblems: [] });
    const [row] = await rowsOf('cte', t.companyId, 'access_key = ?', [built.accessKey]);
    expect(row).to.include({ status: 'CANCELLED', cancel_reason: 'Frete em duplicidade' });
    expectProblem(await cancel(cteId), 409, 'CTE_CANCELLED');
    expectProblem(await apply(cteId), 409, 'CTE_CANCELLED');
    const [event] = await rowsOf('outbox_event', t.companyId, "type = 'cte.cancelled'");
    expect(JSON.parse(event.data as string)).to.include({ cteId, previousStatus: 'RECEIVED', reason: 'Frete em duplicidade' });
  });

  it("on a draft: the freight comes off its lines' landed cost, the payables are cancelled, the allocations record the reversal", async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'S', quantity: '4', unitPrice: '10', productId: p.hash }]);
    const cteId = await stage(t, t.cte({ total: '8.00', nfeKeys: [d.accessKey] }));
    expect((await apply(cteId)).status).to.equal(200);
    expect((await detail(d.id)).body.items[0]).to.include({ apportionedFreight: 8, unitCost: 12 });
    const pre = await cancelPreview(cteId);
    expect(pre.body.blockingProblems).to.deep.equal([]);
    expect(pre.body.documents[0].lines[0]).to.deep.include({ amount: -8, mode: 'LANDED_COST', unitCostBefore: 12, unitCostAfter: 10 });
    const res = await cancel(cteId);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.payables.map((x: any) => x.status)).to.deep.equal(['CANCELLED']);
    const draft = (await detail(d.id)).body;
    expect(draft.items[0]).to.include({ apportionedFreight: 0, unitCost: 10 });
    expect(draft.version).to.equal(3);
    const allocations = await api().get(`${CTE}/detail/${cteId}`).set(t.headers());
    expect(allocations.body.allocations[0]).to.deep.include({ amount: 8, absorbed: 8 });
    expect(allocations.body.allocations[0].reversed).to.deep.include({ amount: 8, soldShare: 0 });
    expect(await rowsOf('audit_log', t.companyId, "entity = 'entry-document' AND action = 'CTE_FREIGHT_REVERSED'")).to.have.length(1);
  });

  it('on a confirmed document: the value comes back out of the stock; with goods sold since, only what is still in stock', async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'T', quantity: '10', unitPrice: '10', productId: p.hash }]);
    await confirm(t, d.id);
    const cteId = await stage(t, t.cte({ total: '20.00', nfeKeys: [d.accessKey] }));
    expect((await apply(cteId)).status).to.equal(200);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '12.0000000000' });
    await sell(t, p.id, '4');
    const res = await cancel(cteId);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // 6 of the 10 are still here: 12.00 of the 20.00 comes back out; 8.00 went with the 4 sold at 12.
    expect(res.body.documents[0].lines[0]).to.deep.include({
      amount: -20,
      absorbed: -12,
      soldShare: -8,
      quantityInStock: 6,
      averageCostBefore: 12,
      averageCostAfter: 10,
    });
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '6.0000', averageCost: '10.0000000000' });
    const moves = await rowsOf('stock_movement', t.companyId, "reason = 'CTE_FREIGHT' AND product_id = ?", [p.id]);
    expect(moves.map((m) => [m.direction, Number(m.value_adjustment)])).to.deep.equal([
      ['IN', 20],
      ['OUT', 12],
    ]);
    expect((await detail(d.id)).body.items[0].apportionedFreight).to.equal(0);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  describe('with the entry document cancelled', () => {
    it('freight put in by the draft, CT-e cancelled after confirmation, then the document: the stock ends where it started', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 10, '100');
      const d = await importNfe(t, [{ code: 'U', quantity: '10', unitPrice: '100', productId: p.hash }]);
      const cteId = await stage(t, t.cte({ total: '100.00', nfeKeys: [d.accessKey] }));
      expect((await apply(cteId)).status).to.equal(200);
      await confirm(t, d.id);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '20.0000', averageCost: '105.0000000000' });
      expect((await cancel(cteId)).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '20.0000', averageCost: '100.0000000000' });
      const res = await api().post(`/api/entry-document/cancel/${d.id}`).set(t.headers()).send({});
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '100.0000000000' });
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it("freight posted after confirmation leaves with the goods when the document is cancelled; the CT-e's cancel then has nothing to reverse", async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 10, '100');
      const d = await importNfe(t, [{ code: 'V', quantity: '10', unitPrice: '100', productId: p.hash }]);
      await confirm(t, d.id);
      const cteId = await stage(t, t.cte({ total: '100.00', nfeKeys: [d.accessKey] }));
      expect((await apply(cteId)).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '20.0000', averageCost: '105.0000000000' });
      const pre = await api().get(`/api/entry-document/cancel-preview/${d.id}`).set(t.headers());
      expect(pre.body.stockMovements.map((m: any) => [m.quantity, m.unitCost])).to.deep.equal([[10, 110]]);
      expect((await api().post(`/api/entry-document/cancel/${d.id}`).set(t.headers()).send({})).status).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '100.0000000000' });
      const res = await cancel(cteId);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.documents).to.deep.equal([{ entryDocumentId: d.id, status: 'CANCELLED', lines: [] }]);
      expect(res.body.payables.map((x: any) => x.status)).to.deep.equal(['CANCELLED']);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '100.0000000000' });
    });
  });

  it('blocked while a payable is paid (nothing changes); allowed once the payment is reversed', async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'W', quantity: '5', unitPrice: '10', productId: p.hash }]);
    await confirm(t, d.id);
    const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [d.accessKey] }));
    expect((await apply(cteId)).status).to.equal(200);
    const [payable] = await ctePayables(cteId);
    const paid = await api()
      .post(`/api/entry-document/contas-pagar/pay/${payable.id}`)
      .set(t.headers())
      .send({ amount: 10, paymentDate: businessToday(), method: 'PIX' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    expect((await cancelPreview(cteId)).body.blockingProblems.map((b: any) => b.code)).to.deep.equal(['PAYABLE_PAID']);
    const before = await stockOf(t, 0, p.id);
    const refused = await cancel(cteId);
    expectProblem(refused, 422, 'CTE_NOT_CANCELLABLE');
    expect(refused.body.problems.map((b: any) => b.code)).to.deep.equal(['PAYABLE_PAID']);
    expect(await stockOf(t, 0, p.id)).to.deep.equal(before);
    expect((await api().get(`${CTE}/detail/${cteId}`).set(t.headers())).body.status).to.equal('APPORTIONED');
    const reversed = await api()
      .post(`/api/entry-document/contas-pagar/reverse-payment/${paid.body.payment.id}`)
      .set(t.headers())
      .send({ reason: 'Pago em duplicidade' });
    expect(reversed.status, JSON.stringify(reversed.body)).to.equal(200);
    expect((await cancel(cteId)).status).to.equal(200);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '5.0000', averageCost: '10.0000000000' });
  });

  it("a draft's PATCH keeps the freight on its lines", async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'Y', quantity: '2', unitPrice: '10', productId: p.hash }]);
    const cteId = await stage(t, t.cte({ total: '4.00', nfeKeys: [d.accessKey] }));
    expect((await apply(cteId)).status).to.equal(200);
    const draft = (await detail(d.id)).body;
    const items = draft.items.map((i: any) => ({
      productId: i.productId,
      description: i.description,
      unit: i.unit,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      conversionFactor: 2,
    }));
    const res = await api().patch(`/api/entry-document/${d.id}`).set(t.headers()).send({ version: draft.version, items });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // (20.00 + 4.00) / 4 stock units
    expect(res.body.items[0]).to.include({ apportionedFreight: 4, stockQuantity: 4, unitCost: 6 });
  });

  it("two concurrent cancels: one wins; another tenant's CT-e → 404; a filial not granted → 403", async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'Z', quantity: '5', unitPrice: '10', productId: p.hash }]);
    await confirm(t, d.id);
    const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [d.accessKey] }));
    expect((await apply(cteId)).status).to.equal(200);
    expectProblem(await cancel(cteId, {}, other), 404, 'CTE_NOT_FOUND');
    expectProblem(await cancelPreview(cteId, other), 404, 'CTE_NOT_FOUND');
    expectProblem(
      await api()
        .post(`${CTE}/cancel/${cteId}`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
        .send({}),
      403,
    );
    expectProblem(await cancel(cteId, { version: 1 }), 409, 'STALE_VERSION');
    const results = await Promise.all([cancel(cteId), cancel(cteId)]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '5.0000', averageCost: '10.0000000000' });
    expect(await countOf('stock_movement', t.companyId, "reason = 'CTE_FREIGHT' AND product_id = ?", [p.id])).to.equal(2);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
