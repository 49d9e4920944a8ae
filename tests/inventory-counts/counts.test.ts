import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { InventoryCount } from '../../src/modules/inventory-counts/entities/inventory-count.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';

/*
 * Issue 47, stock counts: a sheet by filial, blind entries (a counter's token never sees the expected
 * quantity), the close posting one adjustment per difference through the stock ledger at the average
 * cost and valuing the snapshot; a sale between the count and the close is not undone; two closes at
 * once: one wins.
 */

describe('Stock counts: blind count, close into adjustments and a valued snapshot', function () {
  this.timeout(60_000);
  let t: TestTenant;
  let other: TestTenant;
  let p1: Awaited<ReturnType<typeof makeProduct>>;
  let p2: Awaited<ReturnType<typeof makeProduct>>;
  let p3: Awaited<ReturnType<typeof makeProduct>>;
  const counter = () => t.headersWith({ scope: 'inventory:count', sub: 'joao.contador' });

  const open = async (body: Record<string, unknown>) => {
    const res = await api().post('/api/inventory/counts').set(t.headers()).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  };
  const enter = (id: string, lines: object[], headers = counter()) =>
    api().put(`/api/inventory/counts/${id}/lines`).set(headers).send({ lines });
  const close = (id: string, body: object = {}) => api().post(`/api/inventory/counts/${id}/close`).set(t.headers()).send(body);

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    p1 = await makeProduct(t, { unit: 'UN' } as never);
    p2 = await makeProduct(t, { unit: 'UN' } as never);
    p3 = await makeProduct(t, { unit: 'KG' } as never);
    await addStock(t, 0, p1.id, 10, '2.50');
    await addStock(t, 0, p2.id, 5, '4');
    await addStock(t, 0, p3.id, '3.5', '10');
  });

  it('bad input: 400 problem+json and nothing written; an empty filial: 422; another tenant’s count: 404', async () => {
    const before = await dataSource.manager.countBy(InventoryCount, { companyId: t.companyId });
    expectProblem(await api().post('/api/inventory/counts').set(t.headers()).send({ motive: '99' }), 400, 'VALIDATION_ERROR');
    expectProblem(await api().post('/api/inventory/counts').set(t.headers()).send({ countDate: '2026-02-30' }), 400, 'VALIDATION_ERROR');
    expectProblem(await api().post('/api/inventory/counts').set(t.headers(1)).send({}), 422, 'INVENTORY_COUNT_EMPTY');
    expect(await dataSource.manager.countBy(InventoryCount, { companyId: t.companyId })).to.equal(before);
    const mine = await open({ productIds: [p1.hash] });
    expectProblem(await api().get(`/api/inventory/counts/${mine.id}`).set(other.headers()), 404, 'INVENTORY_COUNT_NOT_FOUND');
    expectProblem(
      await api()
        .put(`/api/inventory/counts/${mine.id}/lines`)
        .set(other.headers())
        .send({ lines: [{ productId: p1.hash, countedQuantity: 1 }] }),
      404,
    );
    expectProblem(
      await api().post(`/api/inventory/counts/${mine.id}/close`).set(other.headers()).send({}),
      404,
      'INVENTORY_COUNT_NOT_FOUND',
    );
    expectProblem(await enter(mine.id, [{ productId: p1.hash, countedQuantity: -1 }]), 400, 'VALIDATION_ERROR');
    expectProblem(await enter(mine.id, [{ productId: p2.hash, countedQuantity: 1 }]), 422, 'PRODUCT_NOT_IN_COUNT');
    expectProblem(await close(mine.id), 422, 'INVENTORY_COUNT_INCOMPLETE');
    // A counter cannot close (scope).
    expectProblem(await api().post(`/api/inventory/counts/${mine.id}/close`).set(counter()).send({}), 403, 'INSUFFICIENT_SCOPE');
    const cancelled = await api().post(`/api/inventory/counts/${mine.id}/cancel`).set(t.headers()).send({});
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body.status).to.equal('CANCELLED');
    expectProblem(await enter(mine.id, [{ productId: p1.hash, countedQuantity: 1 }]), 409, 'INVENTORY_COUNT_CANCELLED');
  });

  it('blind count, a sale between the count and the close, close: adjustments at the average cost, the snapshot valued; audit and events', async () => {
    const sheet = await open({ countDate: '2026-12-31', motive: '01', notes: 'Inventário anual' });
    expect(sheet.lines.map((l: any) => l.productId).sort()).to.deep.equal([p1.hash, p2.hash, p3.hash].sort());
    expect(sheet.status).to.equal('OPEN');

    const counted = await enter(sheet.id, [
      { productId: p1.hash, countedQuantity: 8, reason: 'Quebra no depósito' },
      { productId: p2.hash, countedQuantity: 5 },
      { productId: p3.hash, countedQuantity: '4.25' },
    ]);
    expect(counted.status, JSON.stringify(counted.body)).to.equal(200);
    // Blind: the counter sees what was counted, never the stock.
    expect(counted.body.blind).to.equal(true);
    for (const l of counted.body.lines) expect(l).to.include({ expectedQuantity: null, difference: null });
    const supervisor = (await api().get(`/api/inventory/counts/${sheet.id}`).set(t.headers())).body;
    expect(supervisor.blind).to.equal(false);
    expect(supervisor.lines.find((l: any) => l.productId === p1.hash)).to.include({ countedQuantity: 8, expectedQuantity: 10 });

    // A sale of 3 units of p1 after it was counted, before the close.
    const customer = await makeCustomer(t);
    const order = await createOrder(t, { customerId: customer.hash, items: [{ productId: p1.hash, quantity: 3, unitPrice: '5.00' }] });
    const f = await fulfill(
      t,
      order.id,
      order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
    );
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    expect((await stockOf(t, 0, p1.id)).quantity).to.equal('7.0000');

    const res = await close(sheet.id, { version: supervisor.version });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const byProduct = Object.fromEntries(res.body.lines.map((l: any) => [l.productId, l]));
    // p1: counted 8 when the stock said 10 → −2; the later sale of 3 stands: 5 left.
    expect(byProduct[p1.hash]).to.include({
      difference: -2,
      snapshotQuantity: 5,
      unitCost: 2.5,
      value: 12.5,
      reason: 'Quebra no depósito',
    });
    expect(byProduct[p2.hash]).to.include({ difference: 0, snapshotQuantity: 5, value: 20 });
    expect(byProduct[p3.hash]).to.include({ difference: 0.75, snapshotQuantity: 4.25, unitCost: 10, value: 42.5 });
    expect(res.body.totalValue).to.equal(75);
    expect(res.body.status).to.equal('CLOSED');
    expect((await stockOf(t, 0, p1.id)).quantity).to.equal('5.0000');
    expect((await stockOf(t, 0, p3.id)).quantity).to.equal('4.2500');

    const countId = (await dataSource.manager.findOneByOrFail(InventoryCount, { companyId: t.companyId, status: 'CLOSED' })).id;
    const moves = await dataSource.manager.find(StockMovement, {
      where: { companyId: t.companyId, referenceType: 'inventory-count', referenceId: countId },
      order: { productId: 'ASC' },
    });
    expect(moves.map((m) => [m.productId, m.direction, m.quantity.toFixed(4), m.reason])).to.deep.equal(
      [
        [p1.id, 'OUT', '-2.0000', 'INVENTORY_COUNT'],
        [p3.id, 'IN', '0.7500', 'INVENTORY_COUNT'],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(await stockMismatches(t)).to.deep.equal([]);
    const audit = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'inventory-count', entityId: countId },
      order: { id: 'ASC' },
    });
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'COUNTED', 'CLOSED']);

    // Closed: no more counting, no second close.
    expectProblem(await enter(sheet.id, [{ productId: p1.hash, countedQuantity: 1 }]), 409, 'INVENTORY_COUNT_CLOSED');
    expectProblem(await close(sheet.id), 409, 'INVENTORY_COUNT_CLOSED');
  });

  it('a count dated in a closed fiscal period is not closed (409 FISCAL_PERIOD_CLOSED), nothing posted; reopened, it closes', async () => {
    const month = '2026-01';
    const sheet = await open({ productIds: [p3.hash], countDate: `${month}-31` });
    await enter(sheet.id, [{ productId: p3.hash, countedQuantity: 1 }]);
    const closedPeriod = await api().post(`/api/fiscal-periods/${t.filialHashes[0]}/${month}/close`).set(t.headers()).send({ force: true });
    expect(closedPeriod.status, JSON.stringify(closedPeriod.body)).to.equal(200);
    const before = await stockOf(t, 0, p3.id);
    const refused = await close(sheet.id);
    expectProblem(refused, 409, 'FISCAL_PERIOD_CLOSED');
    expect(await stockOf(t, 0, p3.id)).to.deep.equal(before);
    expect((await api().get(`/api/inventory/counts/${sheet.id}`).set(t.headers())).body.status).to.equal('OPEN');
    const reopened = await api()
      .post(`/api/fiscal-periods/${t.filialHashes[0]}/${month}/reopen`)
      .set(t.headers())
      .send({ reason: 'Inventario de janeiro recontado' });
    expect(reopened.status, JSON.stringify(reopened.body)).to.equal(200);
    expect((await close(sheet.id)).status).to.equal(200);
    expect((await stockOf(t, 0, p3.id)).quantity).to.equal('1.0000');
  });

  it('two closes at once: one closes and posts, the other is refused; the stock moves once', async () => {
    const sheet = await open({ productIds: [p2.hash] });
    await enter(sheet.id, [{ productId: p2.hash, countedQuantity: 2 }]);
    const before = (await stockOf(t, 0, p2.id)).quantity;
    const [a, b] = await Promise.all([close(sheet.id), close(sheet.id)]);
    expect([a.status, b.status].sort()).to.deep.equal([200, 409]);
    expect(Number(before) - Number((await stockOf(t, 0, p2.id)).quantity)).to.equal(3);
    const closedId = (
      await dataSource.manager.find(InventoryCount, { where: { companyId: t.companyId, status: 'CLOSED' }, order: { id: 'DESC' } })
    )[0].id;
    expect(
      await dataSource.manager.countBy(StockMovement, { companyId: t.companyId, referenceType: 'inventory-count', referenceId: closedId }),
    ).to.equal(1);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
