import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { In } from 'typeorm';
import { Dec } from '../../src/core/decimal';
import { SalesReturn } from '../../src/modules/returns/entities/sales-return.entity';
import { SalesOrderItem } from '../../src/modules/sales-order/entities/sales-order-item.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { insertOrders } from '../sales-order/support';

interface OrderDto {
  id: string;
  status: string;
  items: { salesOrderItemId: string; productId: string; quantity: number; fulfilledQuantity: number; returnedQuantity: number }[];
}

describe('Returns (SPEC §8)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let customer: { id: number; hash: string };
  let p1: { id: number; hash: string };
  let p2: { id: number; hash: string };

  /** An order of `customer` fulfilled in full through the sales-order routes. */
  async function soldOrder(
    c: { hash: string },
    items: { productId: string; quantity: string | number; unitPrice: string | number; discount?: string | number }[],
    discount?: string,
  ): Promise<OrderDto> {
    const created = await api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({ customerId: c.hash, items, ...(discount ? { discount } : {}) });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const order: OrderDto = created.body;
    const fulfilled = await api()
      .post(`/api/sales-order/${order.id}/fulfill`)
      .set(t.headers())
      .send({ items: order.items.map((i) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })) });
    expect(fulfilled.status, JSON.stringify(fulfilled.body)).to.equal(201);
    return (await api().get(`/api/sales-order/detail/${order.id}`).set(t.headers())).body;
  }

  const returnable = async (c: { hash: string }) =>
    (await api().get(`/api/returns/returnable-items/${t.filialHashes[0]}`).query({ customerId: c.hash }).set(t.headers())).body;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    customer = await makeCustomer(t, { name: 'Cliente Devolução' });
    p1 = await makeProduct(t, { name: 'Camiseta' });
    p2 = await makeProduct(t, { name: 'Bermuda' });
    await addStock(t, 0, p1.id, 100, '12.5');
    await addStock(t, 0, p2.id, 100, '20');
    await makePaymentMethod(t, 'CASH', 'CASH');
    await makePaymentMethod(t, 'STORE_CREDIT', 'STORE_CREDIT');
  });

  it('returnable items: per fulfilled line, fulfilled − returned; customerId required', async () => {
    const order = await soldOrder(customer, [{ productId: p1.hash, quantity: 3, unitPrice: '39.90' }]);
    const body = await returnable(customer);
    const line = body.data.find((l: { salesOrderId: string }) => l.salesOrderId === order.id);
    expect(line).to.include({ productId: p1.hash, fulfilledQuantity: 3, returnedQuantity: 0, returnableQuantity: 3, unitPrice: 39.9 });
    expect(line.fulfilledAt).to.be.a('string');
    expectProblem(await api().get(`/api/returns/returnable-items/${t.filialHashes[0]}`).set(t.headers()), 400, 'VALIDATION_ERROR');
  });

  it("returnable items are a two-phase list over all of the customer's orders: pages, cursor, total (issue 12: the last 500 only)", async () => {
    const c = await makeCustomer(t);
    // 505 delivered orders written straight to the tables, the oldest first; one partly returned, one fully.
    const orders = await insertOrders(
      t,
      p1.id,
      Array.from({ length: 505 }, () => ({ customerId: c.id, status: 'FULFILLED' as const })),
    );
    const ids = orders.map((o) => o.id);
    await dataSource.manager.update(SalesOrderItem, { companyId: t.companyId, salesOrderId: In(ids) }, { fulfilledQuantity: new Dec(1) });
    await dataSource.manager.update(
      SalesOrderItem,
      { companyId: t.companyId, salesOrderId: ids[1] },
      { fulfilledQuantity: new Dec(2), returnedQuantity: new Dec('1.5') },
    );
    await dataSource.manager.update(SalesOrderItem, { companyId: t.companyId, salesOrderId: ids[2] }, { returnedQuantity: new Dec(1) });
    const list = (query: Record<string, unknown>) =>
      api()
        .get(`/api/returns/returnable-items/${t.filialHashes[0]}`)
        .query({ customerId: c.hash, ...query })
        .set(t.headers());

    const first = await list({ pageSize: 100 });
    expect(first.body.pagination).to.include({ page: 1, pageSize: 100, total: 504, totalPages: 6, hasMore: true });
    // Newest order first.
    expect(first.body.data[0].salesOrderCode).to.equal(orders[504].code);
    const last = await list({ pageSize: 100, page: 6 });
    expect(last.body.pagination.hasMore).to.equal(false);
    expect(last.body.data.map((l: { salesOrderCode: number }) => l.salesOrderCode)).to.deep.equal([
      orders[4].code,
      orders[3].code,
      orders[1].code,
      orders[0].code,
    ]);
    expect(last.body.data[2]).to.include({ fulfilledQuantity: 2, returnedQuantity: 1.5, returnableQuantity: 0.5 });

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list({ pageSize: 100, includeTotal: false, ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      seen.push(...res.body.data.map((l: { salesOrderCode: number }) => l.salesOrderCode));
      cursor = res.body.pagination.nextCursor;
      expect(cursor === null).to.equal(!res.body.pagination.hasMore);
    } while (cursor);
    expect(seen).to.have.length(504);
    expect(new Set(seen).size).to.equal(504);
    expect(seen).to.not.include(orders[2].code);
    // The cursor belongs to this customer's list.
    const firstCursor = first.body.pagination.nextCursor;
    expectProblem(
      await api()
        .get(`/api/returns/returnable-items/${t.filialHashes[0]}`)
        .query({ customerId: customer.hash, cursor: firstCursor })
        .set(t.headers()),
      400,
      'INVALID_CURSOR',
    );
  });

  it('restocked lines come back at the cost they left with, damaged ones post no stock; refund exact to the cent', async () => {
    const c = await makeCustomer(t);
    // 3 × 10.00 with a 1.00 line discount, and 7 × 4.99 — order discount 2.00 allocated over the lines.
    const order = await soldOrder(
      c,
      [
        { productId: p1.hash, quantity: 3, unitPrice: '10.00', discount: '1.00' },
        { productId: p2.hash, quantity: 7, unitPrice: '4.99' },
      ],
      '2.00',
    );
    const [l1, l2] = order.items;
    const stock1 = await stockOf(t, 0, p1.id);
    const stock2 = await stockOf(t, 0, p2.id);
    const res = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: c.hash,
        reason: 'Tamanho errado',
        refundMethod: 'cash',
        items: [
          { salesOrderItemId: l1.salesOrderItemId, quantity: 1, restock: true },
          { salesOrderItemId: l2.salesOrderItemId, quantity: 2, restock: false },
        ],
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // line 1: total 29.00, share 2.00 × 29/63.93 = 0.91 → net 28.09; 1 of 3 → round(9.3633) = 9.36
    // line 2: total 34.93, share 1.09 → net 33.84; 2 of 7 → round(9.668571) = 9.67
    expect(res.body.items.map((i: { refundAmount: number }) => i.refundAmount)).to.deep.equal([9.36, 9.67]);
    expect(res.body.refundAmount).to.equal(19.03);
    expect(res.body.refundMethod).to.equal('CASH');
    expect(res.body.items[0].unitCost).to.equal(Number(stock1.averageCost));
    expect((await stockOf(t, 0, p1.id)).quantity).to.equal((Number(stock1.quantity) + 1).toFixed(4));
    expect((await stockOf(t, 0, p2.id)).quantity).to.equal(stock2.quantity);

    // The rest of line 1 later: the two refunds add up to the line's net value exactly.
    const rest = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: c.hash,
        reason: 'Resto',
        refundMethod: 'STORE_CREDIT',
        items: [{ salesOrderItemId: l1.salesOrderItemId, quantity: 2, restock: true }],
      });
    expect(rest.body.refundAmount).to.equal(18.73);
    expect(9.36 + 18.73).to.be.closeTo(28.09, 1e-9);

    const after = await api().get(`/api/sales-order/detail/${order.id}`).set(t.headers());
    expect(after.body.items.map((i: { returnedQuantity: number }) => i.returnedQuantity)).to.deep.equal([3, 2]);
    const lines = (await returnable(c)).data;
    expect(
      lines.map((l: { salesOrderItemId: string; returnableQuantity: number }) => [l.salesOrderItemId, l.returnableQuantity]),
    ).to.deep.equal([[l2.salesOrderItemId, 5]]);

    const events = await dataSource.manager.findBy(OutboxEvent, { companyId: t.companyId, type: 'return.registered' });
    expect(events.length).to.be.greaterThan(0);
    const audit = await dataSource.manager.findBy(AuditLog, { companyId: t.companyId, entity: 'return', action: 'REGISTERED' });
    expect(audit.length).to.be.greaterThan(0);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('more than returnable → 422 naming the line; nothing written', async () => {
    const c = await makeCustomer(t);
    const order = await soldOrder(c, [{ productId: p1.hash, quantity: 2, unitPrice: 5 }]);
    const movementsBefore = await dataSource.manager.countBy(StockMovement, { companyId: t.companyId });
    const res = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: c.hash,
        reason: 'Demais',
        refundMethod: 'CASH',
        items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 3, restock: true }],
      });
    expectProblem(res, 422, 'RETURN_QUANTITY_EXCEEDS_RETURNABLE');
    expect(res.body.errors).to.deep.equal([{ path: 'items[0].quantity', message: 'only 2.0000 returnable' }]);
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId, customerId: c.id })).to.equal(0);
    expect(await dataSource.manager.countBy(StockMovement, { companyId: t.companyId })).to.equal(movementsBefore);
  });

  it("an item of another customer's sale → 422; same item twice → 400; unknown refund method → 422", async () => {
    const c = await makeCustomer(t);
    const order = await soldOrder(customer, [{ productId: p2.hash, quantity: 1, unitPrice: 5 }]);
    const item = order.items[0].salesOrderItemId;
    const send = (body: object) =>
      api()
        .post(`/api/returns/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({ customerId: c.hash, reason: 'Teste', refundMethod: 'CASH', ...body });
    expectProblem(
      await send({ items: [{ salesOrderItemId: item, quantity: 1, restock: true }] }),
      422,
      'RETURN_QUANTITY_EXCEEDS_RETURNABLE',
    );
    expectProblem(
      await send({
        items: [
          { salesOrderItemId: item, quantity: 1, restock: true },
          { salesOrderItemId: item, quantity: 1, restock: true },
        ],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await send({ refundMethod: 'BITCOIN', items: [{ salesOrderItemId: item, quantity: 1, restock: true }] }),
      422,
      'REFUND_METHOD_INVALID',
    );
    expectProblem(await send({ items: [{ salesOrderItemId: item, quantity: -1, restock: true }] }), 400, 'VALIDATION_ERROR');
  });

  it('two concurrent returns of the last returnable unit → exactly one succeeds', async () => {
    const c = await makeCustomer(t);
    const order = await soldOrder(c, [{ productId: p1.hash, quantity: 1, unitPrice: 8 }]);
    const before = await stockOf(t, 0, p1.id);
    const body = {
      customerId: c.hash,
      reason: 'Corrida',
      refundMethod: 'CASH',
      items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 1, restock: true }],
    };
    const results = await Promise.all([1, 2].map(() => api().post(`/api/returns/${t.filialHashes[0]}`).set(t.headers()).send(body)));
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422]);
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId, customerId: c.id })).to.equal(1);
    expect((await stockOf(t, 0, p1.id)).quantity).to.equal((Number(before.quantity) + 1).toFixed(4));
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('list and detail; another tenant → 404; filial not granted → 403', async () => {
    const list = await api().get(`/api/returns/list/${t.filialHashes[0]}`).set(t.headers());
    expect(list.status).to.equal(200);
    expect(list.body.data.length).to.be.greaterThan(0);
    const first = list.body.data[0];
    const detail = await api().get(`/api/returns/detail/${first.id}`).set(t.headers());
    expect(detail.body).to.deep.equal(first);
    expectProblem(await api().get(`/api/returns/detail/${first.id}`).set(other.headers()), 404, 'RETURN_NOT_FOUND');
    expectProblem(
      await api()
        .get(`/api/returns/detail/${first.id}`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(await api().get(`/api/returns/list/${other.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
    const foreignCustomer = await makeCustomer(other);
    expectProblem(
      await api().get(`/api/returns/returnable-items/${t.filialHashes[0]}`).query({ customerId: foreignCustomer.hash }).set(t.headers()),
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });
});
