import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { Fulfillment } from '../../src/modules/sales-order/entities/fulfillment.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { api } from '../support/api';
import { addStock, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, setFilialOptions, TestTenant } from '../support/tenant';
import { createOrder, fulfill, itemsInDb, orderInDb } from './support';

const fulfillmentsOf = (t: TestTenant) => dataSource.manager.countBy(Fulfillment, { companyId: t.companyId });
const saleMovements = (t: TestTenant) => dataSource.manager.countBy(StockMovement, { companyId: t.companyId, reason: 'SALE' });

describe('Sales orders: POST /sales-order/:id/fulfill', () => {
  let t: TestTenant;
  let other: TestTenant;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  let service: Awaited<ReturnType<typeof makeProduct>>;
  let order: any;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    product = await makeProduct(t);
    service = await makeProduct(t, { name: 'Montagem', stockControlled: false, unit: 'SV' });
    await addStock(t, 0, product.id, 50, '2.5');
  });
  beforeEach(async () => {
    order = await createOrder(t, {
      items: [
        { productId: product.hash, quantity: 5 },
        { productId: service.hash, quantity: 1, unitPrice: 30 },
      ],
    });
  });

  /** Asserts nothing was written by a refused fulfill. */
  async function unchanged(before: { fulfillments: number; movements: number; stock: string }) {
    expect(await fulfillmentsOf(t)).to.equal(before.fulfillments);
    expect(await saleMovements(t)).to.equal(before.movements);
    expect((await stockOf(t, 0, product.id)).quantity).to.equal(before.stock);
    const items = await itemsInDb(t, [decodeId('sales-order', order.id)]);
    expect(items.every((i) => i.fulfilledQuantity.isZero())).to.equal(true);
    expect((await orderInDb(t, decodeId('sales-order', order.id))).status).to.equal('OPEN');
  }
  const snapshot = async () => ({
    fulfillments: await fulfillmentsOf(t),
    movements: await saleMovements(t),
    stock: (await stockOf(t, 0, product.id)).quantity,
  });

  it('fulfils fractional quantities; products without stock control post no movement and leave at cost 0', async () => {
    const stock = new Dec((await stockOf(t, 0, product.id)).quantity);
    const res = await fulfill(t, order.id, [
      { salesOrderItemId: order.items[0].salesOrderItemId, quantity: '1.2345' },
      { salesOrderItemId: order.items[1].salesOrderItemId, quantity: 1 },
    ]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fulfillment.items.map((i: any) => [i.quantity, i.unitCost])).to.deep.equal([
      [1.2345, 2.5],
      [1, 0],
    ]);
    expect(res.body.order.items.map((i: any) => i.remaining)).to.deep.equal([3.7655, 0]);
    expect((await stockOf(t, 0, product.id)).quantity).to.equal(stock.minus('1.2345').toFixed(4));
    const movements = await dataSource.manager.find(StockMovement, {
      where: { companyId: t.companyId, referenceId: decodeId('fulfillment', res.body.fulfillment.id), referenceType: 'fulfillment' },
    });
    expect(movements.map((m) => m.productId)).to.deep.equal([product.id]);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('the body is exactly { items: [{ salesOrderItemId, quantity }] }: bad shapes → 400 with paths, nothing written', async () => {
    const before = await snapshot();
    const line = order.items[0].salesOrderItemId;
    const cases: [unknown, string[]][] = [
      [{}, ['items']],
      [{ items: [] }, ['items']],
      [{ items: [{ salesOrderItemId: line, quantity: 0 }] }, ['items[0].quantity']],
      [{ items: [{ salesOrderItemId: line, quantity: -1 }] }, ['items[0].quantity']],
      [{ items: [{ salesOrderItemId: line, quantity: '1.00001' }] }, ['items[0].quantity']],
      [{ items: [{ salesOrderItemId: line }] }, ['items[0].quantity']],
      [{ items: [{ quantity: 1 }] }, ['items[0].salesOrderItemId']],
      [{ items: [{ salesOrderItemId: line, quantity: 'abc' }] }, ['items[0].quantity']],
    ];
    for (const [body, paths] of cases) {
      const res = await api()
        .post(`/api/sales-order/${order.id}/fulfill`)
        .set(t.headers())
        .send(body as object);
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(
        res.body.errors.map((e: any) => e.path),
        JSON.stringify(body),
      ).to.include.members(paths);
    }
    await unchanged(before);
  });

  it('the same item twice in one request → 400', async () => {
    const before = await snapshot();
    const line = order.items[0].salesOrderItemId;
    const res = await fulfill(t, order.id, [
      { salesOrderItemId: line, quantity: 1 },
      { salesOrderItemId: line, quantity: 1 },
    ]);
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(res.body.errors[0].path).to.equal('items[1]');
    await unchanged(before);
  });

  it('a body that is not application/json → 415; malformed JSON → 400', async () => {
    const res = await api().post(`/api/sales-order/${order.id}/fulfill`).set(t.headers()).set('Content-Type', 'text/plain').send('items=1');
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectProblem(
      await api().post(`/api/sales-order/${order.id}/fulfill`).set(t.headers()).set('Content-Type', 'application/json').send('{"items": ['),
      400,
      'MALFORMED_JSON',
    );
  });

  it('quantity above the remaining → 422 naming the line, nothing written', async () => {
    const before = await snapshot();
    const res = await fulfill(t, order.id, [
      { salesOrderItemId: order.items[1].salesOrderItemId, quantity: 1 },
      { salesOrderItemId: order.items[0].salesOrderItemId, quantity: '5.0001' },
    ]);
    expectProblem(res, 422, 'QUANTITY_ABOVE_REMAINING');
    expect(res.body.errors).to.deep.equal([{ path: 'items[1].quantity', message: 'quantity 5.0001 exceeds the remaining 5' }]);
    await unchanged(before);
  });

  it('an item of another order → 422, nothing written', async () => {
    const before = await snapshot();
    const another = await createOrder(t, { items: [{ productId: product.hash, quantity: 1 }] });
    const res = await fulfill(t, order.id, [{ salesOrderItemId: another.items[0].salesOrderItemId, quantity: 1 }]);
    expectProblem(res, 422, 'ITEM_NOT_IN_ORDER');
    expect(res.body.errors[0].path).to.equal('items[0].salesOrderItemId');
    await unchanged(before);
  });

  it('insufficient stock → 422 INSUFFICIENT_STOCK, nothing written (no fulfillment, no movement)', async () => {
    const scarce = await makeProduct(t);
    await addStock(t, 0, scarce.id, 1);
    const o = await createOrder(t, {
      items: [
        { productId: product.hash, quantity: 1 },
        { productId: scarce.hash, quantity: 2 },
      ],
    });
    const before = await snapshot();
    const res = await fulfill(t, o.id, [
      { salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 },
      { salesOrderItemId: o.items[1].salesOrderItemId, quantity: 2 },
    ]);
    expectProblem(res, 422, 'INSUFFICIENT_STOCK');
    // Issue 12: the shortage names the product by its hashid, quantities are numbers at their scale.
    expect(res.body.shortages).to.deep.equal([{ productId: scarce.hash, available: 1, requested: 2 }]);
    expect(await fulfillmentsOf(t)).to.equal(before.fulfillments);
    expect(await saleMovements(t)).to.equal(before.movements);
    expect((await stockOf(t, 0, product.id)).quantity).to.equal(before.stock);
    expect((await stockOf(t, 0, scarce.id)).quantity).to.equal('1.0000');
    expect((await orderInDb(t, decodeId('sales-order', o.id))).status).to.equal('OPEN');
  });

  it('a filial that allows negative stock sells below zero', async () => {
    const n = await createTestTenant({ allowNegativeStock: true });
    const p = await makeProduct(n);
    const o = await createOrder(n, { items: [{ productId: p.hash, quantity: 3 }] });
    const res = await fulfill(n, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 3 }]);
    expect(res.status).to.equal(201);
    expect((await stockOf(n, 0, p.id)).quantity).to.equal('-3.0000');
    await setFilialOptions(n, 0, { allowNegativeStock: false });
  });

  it("another tenant's order → 404; an order id of the wrong type → 404; filial not granted → 403; read scope → 403", async () => {
    const before = await snapshot();
    const line = order.items[0].salesOrderItemId;
    expectProblem(await fulfill(other, order.id, [{ salesOrderItemId: line, quantity: 1 }]), 404, 'SALES_ORDER_NOT_FOUND');
    expectProblem(
      await api()
        .post(`/api/sales-order/${product.hash}/fulfill`)
        .set(t.headers())
        .send({ items: [{ salesOrderItemId: line, quantity: 1 }] }),
      404,
      'SALES_ORDER_NOT_FOUND',
    );
    expectProblem(
      await api()
        .post(`/api/sales-order/${order.id}/fulfill`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
        .send({ items: [{ salesOrderItemId: line, quantity: 1 }] }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(
      await api()
        .post(`/api/sales-order/${order.id}/fulfill`)
        .set(t.headersWith({ scope: 'sales-order:read' }))
        .send({ items: [{ salesOrderItemId: line, quantity: 1 }] }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectProblem(await api().get(`/api/sales-order/${order.id}/fulfillment`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
    expectProblem(
      await api()
        .get(`/api/sales-order/${order.id}/fulfillment`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(await api().get('/api/sales-order/bad!/fulfillment').set(t.headers()), 400, 'INVALID_ID');
    expectProblem(
      await api()
        .post('/api/sales-order/bad!/fulfill')
        .set(t.headers())
        .send({ items: [{ salesOrderItemId: line, quantity: 1 }] }),
      400,
      'INVALID_ID',
    );
    await unchanged(before);
  });

  it('a retry with the same Idempotency-Key does not fulfil twice', async () => {
    const body = { items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2 }] };
    const first = await api()
      .post(`/api/sales-order/${order.id}/fulfill`)
      .set(t.headers())
      .set('Idempotency-Key', `f-${order.id}`)
      .send(body);
    const again = await api()
      .post(`/api/sales-order/${order.id}/fulfill`)
      .set(t.headers())
      .set('Idempotency-Key', `f-${order.id}`)
      .send(body);
    expect([first.status, again.status]).to.deep.equal([201, 201]);
    expect(again.body.fulfillment.id).to.equal(first.body.fulfillment.id);
    const [line] = await itemsInDb(t, [decodeId('sales-order', order.id)]);
    expect(line.fulfilledQuantity.toFixed(4)).to.equal('2.0000');
  });

  describe('concurrency', () => {
    it('50 concurrent fulfills of 1 unit on an item of 10 with stock 100 → exactly 10 succeed, stock down by exactly 10', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 100, '7');
      const o = await createOrder(t, { items: [{ productId: p.hash, quantity: 10 }] });
      const line = o.items[0].salesOrderItemId;
      const results = await Promise.all(Array.from({ length: 50 }, () => fulfill(t, o.id, [{ salesOrderItemId: line, quantity: 1 }])));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).to.have.length(10);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect([409, 422]).to.include(r.status);
        expect(['QUANTITY_ABOVE_REMAINING', 'INVALID_STATUS_TRANSITION']).to.include(r.body.code);
      }
      expect((await stockOf(t, 0, p.id)).quantity).to.equal('90.0000');
      const [item] = await itemsInDb(t, [decodeId('sales-order', o.id)]);
      expect(item.fulfilledQuantity.toFixed(4)).to.equal('10.0000');
      expect((await orderInDb(t, decodeId('sales-order', o.id))).status).to.equal('FULFILLED');
      expect(
        await dataSource.manager.countBy(Fulfillment, { companyId: t.companyId, salesOrderId: decodeId('sales-order', o.id) }),
      ).to.equal(10);
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it('two orders racing for the last units of stock: one wins, stock never goes below zero', async () => {
      const p = await makeProduct(t);
      await addStock(t, 0, p.id, 3);
      const orders = [
        await createOrder(t, { items: [{ productId: p.hash, quantity: 2 }] }),
        await createOrder(t, { items: [{ productId: p.hash, quantity: 2 }] }),
      ];
      const results = await Promise.all(
        orders.map((o) => fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 2 }])),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422]);
      expect(results.find((r) => r.status === 422)!.body.code).to.equal('INSUFFICIENT_STOCK');
      expect((await stockOf(t, 0, p.id)).quantity).to.equal('1.0000');
      expect(await stockMismatches(t)).to.deep.equal([]);
    });
  });
});
