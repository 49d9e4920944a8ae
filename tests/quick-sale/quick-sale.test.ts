import { expect } from 'chai';
import fc from 'fast-check';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { SalePayment } from '../../src/modules/quick-sale/entities/sale-payment.entity';
import { SalesOrderItem } from '../../src/modules/sales-order/entities/sales-order-item.entity';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct, makeSeller, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Quick sale (SPEC §7): POST /sales-order with flowMode QUICK_SALE', () => {
  let t: TestTenant;
  let walkIn: { id: number; hash: string };
  let products: { id: number; hash: string }[];

  const configure = (t0: TestTenant, body: object, i = 0) =>
    api().put(`/api/quick-sale/configuration/${t0.filialHashes[i]}`).set(t0.headers(i)).send(body);
  const sell = (body: object, headers = t.headers()) =>
    api()
      .post('/api/sales-order')
      .set(headers)
      .send({ flowMode: 'QUICK_SALE', ...body });
  const orderCount = (t0: TestTenant) => dataSource.manager.countBy(SalesOrder, { companyId: t0.companyId });
  const movementCount = (t0: TestTenant) => dataSource.manager.countBy(StockMovement, { companyId: t0.companyId });

  before(async () => {
    t = await createTestTenant();
    walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
    const seller = await makeSeller(t, { name: 'Caixa 1' });
    await makePaymentMethod(t, 'CASH', 'CASH');
    await makePaymentMethod(t, 'PIX', 'PIX');
    await makePaymentMethod(t, 'CREDIT_CARD', 'CREDIT_CARD');
    products = [];
    for (const [name, price, cost] of [
      ['Pão', '0.75', '0.30'],
      ['Leite', '5.49', '3.90'],
      ['Café', '18.90', '12.00'],
    ] as const) {
      const p = await makeProduct(t, { name, price: price as never });
      await addStock(t, 0, p.id, 50, cost);
      products.push(p);
    }
    const saved = await configure(t, {
      enabled: true,
      defaultCustomerId: walkIn.hash,
      defaultSellerId: seller.hash,
      paymentMethods: ['CASH', 'PIX'],
      defaultPaymentMethod: 'CASH',
      maxDiscountPercent: 10,
    });
    expect(saved.status).to.equal(200);
  });

  it('creates and fulfils the whole order in one go, with payments and change', async () => {
    const before = await Promise.all(products.map((p) => stockOf(t, 0, p.id)));
    const res = await sell({
      items: [
        { productId: products[0].hash, quantity: 10 },
        { productId: products[1].hash, quantity: 2 },
        { productId: products[2].hash, quantity: 1, discount: '0.90' },
      ],
      payments: [
        { method: 'PIX', amount: '10.00' },
        { method: 'cash', amount: '50.00' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // 7.50 + 10.98 + (18.90 − 0.90) = 36.48; paid 60.00 → change 23.52, from the cash.
    expect(res.body).to.include({ status: 'FULFILLED', flowMode: 'QUICK_SALE', type: 'ORDER', customerId: walkIn.hash, change: 23.52 });
    expect(res.body.totals.total).to.equal(36.48);
    expect(res.body.payments).to.deep.equal([
      { method: 'PIX', paymentMethodId: res.body.payments[0].paymentMethodId, amount: 10, change: 0 },
      { method: 'CASH', paymentMethodId: res.body.payments[1].paymentMethodId, amount: 50, change: 23.52 },
    ]);
    expect(
      res.body.items.map((i: { fulfilledQuantity: number; remainingQuantity: number }) => [i.fulfilledQuantity, i.remainingQuantity]),
    ).to.deep.equal([
      [10, 0],
      [2, 0],
      [1, 0],
    ]);
    const after = await Promise.all(products.map((p) => stockOf(t, 0, p.id)));
    expect(after.map((s, i) => Number(before[i].quantity) - Number(s.quantity))).to.deep.equal([10, 2, 1]);
    const event = await dataSource.manager.findOneBy(OutboxEvent, { companyId: t.companyId, type: 'quick-sale.completed' });
    expect(event?.data).to.include({ total: 36.48, change: 23.52 });
    expect(await stockMismatches(t)).to.deep.equal([]);

    // Written FULFILLED in the INSERT (no UPDATE after): the stored rows, the detail, the trail and the events agree.
    const orderId = decodeId('sales-order', res.body.id);
    const stored = await dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id: orderId });
    expect([stored.status, stored.version]).to.deep.equal(['FULFILLED', 2]);
    expect(res.body.version).to.equal(2);
    const lines = await dataSource.manager.find(SalesOrderItem, {
      where: { companyId: t.companyId, salesOrderId: orderId },
      order: { lineNumber: 'ASC' },
    });
    expect(lines.map((l) => [l.quantity.toFixed(4), l.fulfilledQuantity.toFixed(4)])).to.deep.equal([
      ['10.0000', '10.0000'],
      ['2.0000', '2.0000'],
      ['1.0000', '1.0000'],
    ]);
    const detail = await api().get(`/api/sales-order/detail/${res.body.id}`).set(t.headers());
    expect(detail.status).to.equal(200);
    expect({ ...detail.body, updatedAt: undefined }).to.deep.include({ status: 'FULFILLED', version: 2, items: res.body.items });
    const trail = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'sales-order', entityId: orderId },
      order: { id: 'ASC' },
    });
    expect(trail.map((a) => a.action)).to.deep.equal(['CREATED', 'FULFILLED']);
    const events = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, aggregateType: 'sales-order', aggregateId: orderId },
      order: { id: 'ASC' },
    });
    expect(events.map((e) => [e.type, (e.data as { status?: string }).status])).to.deep.equal([
      ['sales-order.created', 'OPEN'],
      ['sales-order.fulfilled', 'FULFILLED'],
      ['quick-sale.completed', undefined],
    ]);
  });

  it('without payments, the default method pays the exact total', async () => {
    const res = await sell({ items: [{ productId: products[0].hash, quantity: 4 }] });
    expect(res.status).to.equal(201);
    expect(res.body.payments).to.deep.equal([
      { method: 'CASH', paymentMethodId: res.body.payments[0].paymentMethodId, amount: 3, change: 0 },
    ]);
    expect(res.body.change).to.equal(0);
  });

  it('payments that do not cover the total, non-cash over the total, or a method not accepted → 422, nothing written', async () => {
    const orders = await orderCount(t);
    const moves = await movementCount(t);
    const item = [{ productId: products[1].hash, quantity: 1 }];
    const short = await sell({ items: item, payments: [{ method: 'CASH', amount: '5.00' }] });
    expectProblem(short, 422, 'PAYMENT_INSUFFICIENT');
    expect(short.body.paid).to.equal(5);
    expect(short.body.total).to.be.a('number');
    expectProblem(await sell({ items: item, payments: [{ method: 'PIX', amount: '6.00' }] }), 422, 'PAYMENT_EXCEEDS_TOTAL');
    const notAccepted = await sell({ items: item, payments: [{ method: 'CREDIT_CARD', amount: '5.49' }] });
    expectProblem(notAccepted, 422, 'PAYMENT_METHOD_NOT_ALLOWED');
    expect(notAccepted.body.errors).to.deep.equal([{ path: 'payments[0].method', message: 'CREDIT_CARD is not accepted at this counter' }]);
    expectProblem(await sell({ items: [{ productId: products[2].hash, quantity: 1, discount: '5.00' }] }), 422, 'DISCOUNT_ABOVE_LIMIT');
    expectProblem(await sell({ items: item, payments: [{ method: 'CASH', amount: 0 }] }), 400, 'VALIDATION_ERROR');
    expectProblem(
      await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ items: item, payments: [{ method: 'CASH', amount: 10 }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await orderCount(t)).to.equal(orders);
    expect(await movementCount(t)).to.equal(moves);
  });

  it('a sale that fails on stock for its third item leaves no order and no movement', async () => {
    const scarce = await makeProduct(t, { name: 'Item raro' });
    await addStock(t, 0, scarce.id, 1, 1);
    const orders = await orderCount(t);
    const moves = await movementCount(t);
    const items = await dataSource.manager.countBy(SalesOrderItem, { companyId: t.companyId });
    const payments = await dataSource.manager.countBy(SalePayment, { companyId: t.companyId });
    const res = await sell({
      items: [
        { productId: products[0].hash, quantity: 1 },
        { productId: products[1].hash, quantity: 1 },
        { productId: scarce.hash, quantity: 2 },
      ],
      payments: [{ method: 'CASH', amount: 100 }],
    });
    expectProblem(res, 422, 'INSUFFICIENT_STOCK');
    expect(await orderCount(t)).to.equal(orders);
    expect(await movementCount(t)).to.equal(moves);
    expect(await dataSource.manager.countBy(SalesOrderItem, { companyId: t.companyId })).to.equal(items);
    expect(await dataSource.manager.countBy(SalePayment, { companyId: t.companyId })).to.equal(payments);
    expect((await stockOf(t, 0, scarce.id)).quantity).to.equal('1.0000');
  });

  it('a retry with the same Idempotency-Key does not sell twice', async () => {
    const before = await stockOf(t, 0, products[2].id);
    const body = {
      flowMode: 'QUICK_SALE',
      items: [{ productId: products[2].hash, quantity: 1 }],
      payments: [{ method: 'CASH', amount: 20 }],
    };
    const [a, b] = await Promise.all(
      [1, 2].map(() => api().post('/api/sales-order').set(t.headers()).set('Idempotency-Key', 'counter-sale-1').send(body)),
    );
    expect(a.status).to.equal(201);
    expect(b.body).to.deep.equal(a.body);
    const again = await api().post('/api/sales-order').set(t.headers()).set('Idempotency-Key', 'counter-sale-1').send(body);
    expect(again.body.id).to.equal(a.body.id);
    expect(Number(before.quantity) - Number((await stockOf(t, 0, products[2].id)).quantity)).to.equal(1);
  });

  it('no configuration, disabled, or invalid → 422 QUICK_SALE_NOT_CONFIGURED with the problems', async () => {
    const fresh = await createTestTenant({ filiais: 2 });
    const p = await makeProduct(fresh);
    await addStock(fresh, 0, p.id, 5, 1);
    const body = { flowMode: 'QUICK_SALE', items: [{ productId: p.hash, quantity: 1 }] };
    const none = await api().post('/api/sales-order').set(fresh.headers()).send(body);
    expectProblem(none, 422, 'QUICK_SALE_NOT_CONFIGURED');
    expect(none.body.problems.map((x: { code: string }) => x.code)).to.deep.equal(['QUICK_SALE_NOT_CONFIGURED']);
    await makePaymentMethod(fresh, 'CASH', 'CASH');
    await configure(fresh, { enabled: false, paymentMethods: ['CASH'] });
    const disabled = await api().post('/api/sales-order').set(fresh.headers()).send(body);
    expect(disabled.body.problems.map((x: { code: string }) => x.code)).to.deep.equal(['QUICK_SALE_DISABLED']);
    expect(await orderCount(fresh)).to.equal(0);
  });

  it('an x-filial-id of another company (the token grants every filial) → 403 FILIAL_NOT_GRANTED before anything else, nothing written', async () => {
    const other = await createTestTenant();
    const foreign = { ...t.headers(), 'x-filial-id': other.filialHashes[0] };
    const orders = await orderCount(t);
    const moves = await movementCount(t);
    const items = [{ productId: products[0].hash, quantity: 1 }];
    // The quick sale reads the filial with its first statements; it is refused first all the same:
    // before a body that is not an ORDER, before the scope, before the setup and the products.
    expectProblem(await sell({ items, payments: [{ method: 'CASH', amount: 10 }] }, foreign), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await sell({ type: 'QUOTE', items }, foreign), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(
      await sell({ items }, { ...t.headersWith({ scope: 'sales-order:write' }), 'x-filial-id': other.filialHashes[0] }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(await sell({ items: [{ productId: other.filialHashes[0], quantity: 1 }] }, foreign), 403, 'FILIAL_NOT_GRANTED');
    // The standard create and a fulfilment check it first too.
    expectProblem(await api().post('/api/sales-order').set(foreign).send({ items }), 403, 'FILIAL_NOT_GRANTED');
    const order = await api().post('/api/sales-order').set(t.headers()).send({ items });
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    const line = { salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 1 };
    expectProblem(
      await api()
        .post(`/api/sales-order/${order.body.id}/fulfill`)
        .set(foreign)
        .send({ items: [line] }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    // With an Idempotency-Key the check stays in front of the key: the refusal is not kept for it.
    expectProblem(await sell({ items }, { ...foreign, 'Idempotency-Key': 'refused-filial-1' }), 403, 'FILIAL_NOT_GRANTED');
    expect(
      (await sell({ items, payments: [{ method: 'CASH', amount: 10 }] }, { ...t.headers(), 'Idempotency-Key': 'refused-filial-1' })).status,
    ).to.equal(201);
    expect(await orderCount(t)).to.equal(orders + 2);
    expect(await movementCount(t)).to.equal(moves + 1);
  });

  it('needs the quick-sale:write scope', async () => {
    expectProblem(
      await sell({ items: [{ productId: products[0].hash, quantity: 1 }] }, t.headersWith({ scope: 'sales-order:write' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });

  it('default customer → assign-customer → partial return → the rest: stock and returnable exact at each step', async () => {
    const real = await makeCustomer(t, { name: 'Cliente Identificado' });
    const p = products[1];
    const s0 = Number((await stockOf(t, 0, p.id)).quantity);
    const sale = await sell({ items: [{ productId: p.hash, quantity: 5 }], payments: [{ method: 'CASH', amount: '27.45' }] });
    expect(sale.status).to.equal(201);
    expect(sale.body.customerId).to.equal(walkIn.hash);
    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(s0 - 5);

    const assigned = await api().post(`/api/sales-order/${sale.body.id}/assign-customer`).set(t.headers()).send({ customerId: real.hash });
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
    expect(assigned.body.customerId).to.equal(real.hash);
    const returnable = async () =>
      (await api().get(`/api/returns/returnable-items/${t.filialHashes[0]}`).query({ customerId: real.hash }).set(t.headers())).body.data;
    expect((await returnable()).map((l: { returnableQuantity: number }) => l.returnableQuantity)).to.deep.equal([5]);

    const line = sale.body.items[0].salesOrderItemId;
    const ret = (quantity: number) =>
      api()
        .post(`/api/returns/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({
          customerId: real.hash,
          reason: 'Devolução',
          refundMethod: 'CASH',
          items: [{ salesOrderItemId: line, quantity, restock: true }],
        });
    const partial = await ret(2);
    expect(partial.status, JSON.stringify(partial.body)).to.equal(201);
    expect(partial.body.refundAmount).to.equal(10.98);
    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(s0 - 3);
    expect((await returnable()).map((l: { returnableQuantity: number }) => l.returnableQuantity)).to.deep.equal([3]);

    const rest = await ret(3);
    expect(rest.body.refundAmount).to.equal(16.47);
    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(s0);
    expect(await returnable()).to.deep.equal([]);
    expectProblem(await ret(1), 422, 'RETURN_QUANTITY_EXCEEDS_RETURNABLE');
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('property: random sales, fulfillments and returns never let returned exceed fulfilled; stock stays consistent', async function () {
    this.timeout(120_000);
    const p0 = await createTestTenant({ filiais: 1 });
    const buyer = await makeCustomer(p0);
    await makePaymentMethod(p0, 'CASH', 'CASH');
    const items = [await makeProduct(p0, { price: '3.00' as never }), await makeProduct(p0, { price: '7.25' as never })];
    for (const it of items) await addStock(p0, 0, it.id, 10_000, 2);
    await configure(p0, { enabled: true, defaultCustomerId: buyer.hash, paymentMethods: ['CASH'], defaultPaymentMethod: 'CASH' });

    const op = fc.oneof(
      fc.record({ kind: fc.constant('quick-sale' as const), product: fc.integer({ min: 0, max: 1 }), qty: fc.integer({ min: 1, max: 5 }) }),
      fc.record({
        kind: fc.constant('order' as const),
        product: fc.integer({ min: 0, max: 1 }),
        qty: fc.integer({ min: 2, max: 6 }),
        part: fc.integer({ min: 1, max: 2 }),
      }),
      fc.record({ kind: fc.constant('return' as const), pick: fc.nat(), qty: fc.integer({ min: 1, max: 4 }), restock: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'quick-sale') {
            const r = await api()
              .post('/api/sales-order')
              .set(p0.headers())
              .send({ flowMode: 'QUICK_SALE', items: [{ productId: items[o.product].hash, quantity: o.qty }] });
            if (r.status !== 201) return false;
          } else if (o.kind === 'order') {
            const c = await api()
              .post('/api/sales-order')
              .set(p0.headers())
              .send({ customerId: buyer.hash, items: [{ productId: items[o.product].hash, quantity: o.qty }] });
            const f = await api()
              .post(`/api/sales-order/${c.body.id}/fulfill`)
              .set(p0.headers())
              .send({ items: [{ salesOrderItemId: c.body.items[0].salesOrderItemId, quantity: o.part }] });
            if (f.status !== 201) return false;
          } else {
            const lines = (
              await api()
                .get(`/api/returns/returnable-items/${p0.filialHashes[0]}`)
                .query({ customerId: buyer.hash, pageSize: 100 })
                .set(p0.headers())
            ).body.data;
            if (!lines.length) continue;
            const line = lines[o.pick % lines.length];
            const r = await api()
              .post(`/api/returns/${p0.filialHashes[0]}`)
              .set(p0.headers())
              .send({
                customerId: buyer.hash,
                reason: 'Propriedade',
                refundMethod: 'CASH',
                items: [{ salesOrderItemId: line.salesOrderItemId, quantity: o.qty, restock: o.restock }],
              });
            const expected = o.qty <= line.returnableQuantity ? 201 : 422;
            if (r.status !== expected) return false;
          }
        }
        const all = await dataSource.manager.findBy(SalesOrderItem, { companyId: p0.companyId });
        const sane = all.every((i) => i.returnedQuantity.lte(i.fulfilledQuantity) && i.fulfilledQuantity.lte(i.quantity));
        return sane && (await stockMismatches(p0)).length === 0;
      }),
      { numRuns: 12 },
    );
  });

  it('the ids of the order, its lines and its fulfilment are taken before the INSERTs: the answer names the stored rows', async () => {
    const res = await sell({
      items: [
        { productId: products[0].hash, quantity: 2 },
        { productId: products[1].hash, quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('FULFILLED');
    const orderId = decodeId('sales-order', res.body.id);
    const lines = await dataSource.manager.find(SalesOrderItem, {
      where: { companyId: t.companyId, salesOrderId: orderId },
      order: { lineNumber: 'ASC' },
    });
    expect(
      res.body.items.map((i: { salesOrderItemId: string; fulfilledQuantity: number; remainingQuantity: number }) => [
        decodeId('sales-order-item', i.salesOrderItemId),
        i.fulfilledQuantity,
        i.remainingQuantity,
      ]),
    ).to.deep.equal(lines.map((l) => [l.id, Number(l.quantity), 0]));
    const [fulfillment] = await dataSource.query('SELECT id FROM fulfillment WHERE sales_order_id = ?', [orderId]);
    const movements = await dataSource.query(
      "SELECT reference_id FROM stock_movement WHERE reference_type = 'fulfillment' AND reference_id = ?",
      [fulfillment.id],
    );
    expect(movements).to.have.length(2);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
