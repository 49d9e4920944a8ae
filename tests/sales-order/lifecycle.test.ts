import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { FulfillmentItem } from '../../src/modules/sales-order/entities/fulfillment-item.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { businessToday } from '../../src/core/business-date';
import { auditOf, createOrder, eventsOf, fulfill, itemsInDb, lastEventId } from './support';

describe('Sales orders: the life of an order (quote → order → partial → fulfilled)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let chair: Awaited<ReturnType<typeof makeProduct>>;
  let table: Awaited<ReturnType<typeof makeProduct>>;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    chair = await makeProduct(t, { name: 'Cadeira' });
    table = await makeProduct(t, { name: 'Mesa' });
    await addStock(t, 0, chair.id, 20, '40');
    await addStock(t, 0, table.id, 10, '100');
  });

  it('quote → convert → fulfil 40% → fulfil the rest → FULFILLED, with stock, remaining and events at each step', async () => {
    const customer = await makeCustomer(t);
    const quote = await createOrder(t, {
      type: 'QUOTE',
      customerId: customer.hash,
      items: [
        { productId: chair.hash, quantity: 10, unitPrice: 80 },
        { productId: table.hash, quantity: 5, unitPrice: 300 },
      ],
    });
    const id = decodeId('sales-order', quote.id);
    const [chairLine, tableLine] = quote.items.map((i: any) => i.salesOrderItemId);

    // A quote cannot be fulfilled.
    const early = await fulfill(t, quote.id, [{ salesOrderItemId: chairLine, quantity: 1 }]);
    expectProblem(early, 409, 'INVALID_TYPE_FOR_ACTION');
    expect(early.body).to.include({ currentStatus: 'OPEN', currentType: 'QUOTE' });

    let mark = await lastEventId(t);
    const converted = await api().post(`/api/sales-order/convert-quote/${quote.id}`).set(t.headers());
    expect(converted.status).to.equal(200);
    expect(converted.body).to.include({ id: quote.id, code: quote.code, type: 'ORDER', status: 'OPEN', validUntil: null, version: 2 });
    expect(converted.body.items.map((i: any) => i.salesOrderItemId)).to.deep.equal([chairLine, tableLine]);
    expect((await eventsOf(t, mark)).map((e) => e.type)).to.deep.equal(['sales-order.quote-converted']);
    expect((await auditOf(t, id)).map((a) => a.action)).to.deep.equal(['CREATED', 'CONVERTED_TO_ORDER']);

    // 40%: 4 chairs and 2 tables.
    mark = await lastEventId(t);
    const first = await fulfill(t, quote.id, [
      { salesOrderItemId: chairLine, quantity: 4 },
      { salesOrderItemId: tableLine, quantity: 2 },
    ]);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.order).to.include({ status: 'PARTIALLY_FULFILLED', version: 3 });
    expect(first.body.order.items.map((i: any) => [i.ordered, i.fulfilled, i.remaining])).to.deep.equal([
      [10, 4, 6],
      [5, 2, 3],
    ]);
    expect(first.body.fulfillment.items.map((i: any) => [i.quantity, i.unitCost])).to.deep.equal([
      [4, 40],
      [2, 100],
    ]);
    expect(await stockOf(t, 0, chair.id)).to.deep.include({ quantity: '16.0000' });
    expect(await stockOf(t, 0, table.id)).to.deep.include({ quantity: '8.0000' });
    let events = await eventsOf(t, mark);
    // The ledger's stock.changed per product (new balances), then the order's own event, then the
    // receivable the fulfilment billed (one installment: the order has no payment terms).
    expect(events.map((e) => e.type)).to.deep.equal(['stock.changed', 'stock.changed', 'sales-order.fulfilled', 'receivable.created']);
    expect(
      events
        .slice(0, 2)
        .map((e) => e.data.balance)
        .sort(),
    ).to.deep.equal([16, 8].sort());
    expect(events[2].data).to.include({ status: 'PARTIALLY_FULFILLED', fulfillmentId: first.body.fulfillment.id });

    // The rest.
    mark = await lastEventId(t);
    const rest = await fulfill(t, quote.id, [
      { salesOrderItemId: tableLine, quantity: 3 },
      { salesOrderItemId: chairLine, quantity: 6 },
    ]);
    expect(rest.status).to.equal(201);
    expect(rest.body.order.status).to.equal('FULFILLED');
    expect(rest.body.order.items.every((i: any) => i.remaining === 0)).to.equal(true);
    expect(await stockOf(t, 0, chair.id)).to.deep.include({ quantity: '10.0000' });
    expect(await stockOf(t, 0, table.id)).to.deep.include({ quantity: '5.0000' });
    events = await eventsOf(t, mark);
    expect(events.filter((e) => e.type !== 'stock.changed').map((e) => [e.type, e.data.status])).to.deep.equal([
      ['sales-order.fulfilled', 'FULFILLED'],
      ['receivable.created', 'OPEN'],
    ]);

    const view = await api().get(`/api/sales-order/${quote.id}/fulfillment`).set(t.headers());
    expect(view.status).to.equal(200);
    expect(view.body.status).to.equal('FULFILLED');
    expect(view.body.fulfillments).to.have.length(2);
    expect(view.body.fulfillments.map((f: any) => f.id)).to.deep.equal([first.body.fulfillment.id, rest.body.fulfillment.id]);
    expect(view.body.items.map((i: any) => [i.ordered, i.fulfilled, i.returned, i.cancelled, i.remaining])).to.deep.equal([
      [10, 10, 0, 0, 0],
      [5, 5, 0, 0, 0],
    ]);

    // Movements: out at average cost, referencing the fulfillment; each fulfillment item keeps its cost.
    const movements = await dataSource.manager.find(StockMovement, {
      where: { companyId: t.companyId, referenceType: 'fulfillment' },
      order: { id: 'ASC' },
    });
    expect(movements.map((m) => [m.direction, m.quantity.toFixed(4), m.unitCost.toFixed(2)])).to.deep.equal([
      ['OUT', '-4.0000', '40.00'],
      ['OUT', '-2.0000', '100.00'],
      ['OUT', '-3.0000', '100.00'],
      ['OUT', '-6.0000', '40.00'],
    ]);
    const fItems = await dataSource.manager.find(FulfillmentItem, { where: { companyId: t.companyId, salesOrderId: id } });
    expect(fItems.map((f) => f.unitCost.toFixed(2)).sort()).to.deep.equal(['100.00', '100.00', '40.00', '40.00']);
    expect((await itemsInDb(t, [id])).map((i) => i.fulfilledQuantity.toFixed(4))).to.deep.equal(['10.0000', '5.0000']);
    expect((await auditOf(t, id)).map((a) => a.action)).to.deep.equal([
      'CREATED',
      'CONVERTED_TO_ORDER',
      'PARTIALLY_FULFILLED',
      'FULFILLED',
    ]);
    expect(await stockMismatches(t)).to.deep.equal([]);

    // Nothing more to do but returns.
    expectProblem(await fulfill(t, quote.id, [{ salesOrderItemId: chairLine, quantity: 1 }]), 409, 'INVALID_STATUS_TRANSITION');
    const cancel = await api().post(`/api/sales-order/cancel/${quote.id}`).set(t.headers()).send({ reason: 'tarde demais' });
    expectProblem(cancel, 409, 'SALES_ORDER_FULFILLED');
    expect(cancel.body.detail).to.match(/returns/);
  });

  describe('quotes and conversions', () => {
    it('an expired quote cannot convert (422); a quote valid until today still can', async () => {
      const q = await createOrder(t, { type: 'QUOTE', items: [{ productId: chair.hash, quantity: 1 }] });
      const id = decodeId('sales-order', q.id);
      await dataSource.manager.update(SalesOrder, { id }, { validUntil: '2020-01-31' });
      const read = await api().get(`/api/sales-order/${q.id}`).set(t.headers());
      expect(read.body).to.include({ expired: true, validUntil: '2020-01-31' });
      const res = await api().post(`/api/sales-order/convert-quote/${q.id}`).set(t.headers());
      expectProblem(res, 422, 'QUOTE_EXPIRED');
      expect((await dataSource.manager.findOneByOrFail(SalesOrder, { id })).type).to.equal('QUOTE');
      // A PATCH renews it; valid through the last day.
      const renewed = await api()
        .patch(`/api/sales-order/${q.id}`)
        .set(t.headers())
        .send({ version: read.body.version, validUntil: businessToday() });
      expect(renewed.body).to.include({ expired: false, validUntil: businessToday() });
      expect((await api().post(`/api/sales-order/convert-quote/${q.id}`).set(t.headers())).status).to.equal(200);
    });

    it('a past validUntil is refused at creation (422)', async () => {
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({ type: 'QUOTE', validUntil: '2020-01-01', items: [{ productId: chair.hash, quantity: 1 }] }),
        422,
        'VALID_UNTIL_IN_THE_PAST',
      );
    });

    it('convert-order-to-quote: OPEN with nothing fulfilled → QUOTE with a validity; audited; forbidden otherwise (409)', async () => {
      const o = await createOrder(t, { items: [{ productId: chair.hash, quantity: 2 }] });
      const mark = await lastEventId(t);
      const res = await api().post(`/api/sales-order/convert-order-to-quote/${o.id}`).set(t.headers()).send({ validUntil: '2999-06-30' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: o.id, code: o.code, type: 'QUOTE', validUntil: '2999-06-30' });
      expect((await eventsOf(t, mark)).map((e) => e.type)).to.deep.equal(['sales-order.converted-to-quote']);
      const again = await api().post(`/api/sales-order/convert-order-to-quote/${o.id}`).set(t.headers()).send({});
      expectProblem(again, 409, 'INVALID_TYPE_FOR_ACTION');
      expect(again.body.currentType).to.equal('QUOTE');
      expectProblem(
        await api()
          .post(`/api/sales-order/convert-quote/${(await createOrder(t, { items: [{ productId: chair.hash, quantity: 1 }] })).id}`)
          .set(t.headers()),
        409,
        'INVALID_TYPE_FOR_ACTION',
      );

      const partial = await createOrder(t, { items: [{ productId: chair.hash, quantity: 2 }] });
      expect((await fulfill(t, partial.id, [{ salesOrderItemId: partial.items[0].salesOrderItemId, quantity: 1 }])).status).to.equal(201);
      const refused = await api().post(`/api/sales-order/convert-order-to-quote/${partial.id}`).set(t.headers()).send({});
      expectProblem(refused, 409, 'INVALID_STATUS_TRANSITION');
      expect(refused.body.currentStatus).to.equal('PARTIALLY_FULFILLED');
      expect(refused.body.detail).to.contain('PARTIALLY_FULFILLED');
    });

    it('conversions: another tenant → 404, filial not granted → 403, malformed id → 400', async () => {
      const q = await createOrder(t, { type: 'QUOTE', items: [{ productId: chair.hash, quantity: 1 }] });
      expectProblem(await api().post(`/api/sales-order/convert-quote/${q.id}`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(
        await api().post(`/api/sales-order/convert-order-to-quote/${q.id}`).set(other.headers()).send({}),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post(`/api/sales-order/convert-quote/${q.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().post('/api/sales-order/convert-quote/nope!').set(t.headers()), 400, 'INVALID_ID');
      expectProblem(
        await api().post(`/api/sales-order/convert-order-to-quote/${q.id}`).set(t.headers()).send({ validUntil: 'tomorrow' }),
        400,
        'VALIDATION_ERROR',
      );
      expect((await api().get(`/api/sales-order/${q.id}`).set(t.headers())).body).to.include({ type: 'QUOTE', version: 1 });
    });
  });
});
