import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct, makeSeller, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { auditOf, countOrders, createOrder, eventsOf, fulfill, itemsInDb, lastEventId, orderInDb } from './support';

describe('Sales orders: group and cancel', () => {
  let t: TestTenant;
  let other: TestTenant;
  let p1: Awaited<ReturnType<typeof makeProduct>>;
  let p2: Awaited<ReturnType<typeof makeProduct>>;
  let customer: Awaited<ReturnType<typeof makeCustomer>>;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    p1 = await makeProduct(t, { price: new Dec('10') });
    p2 = await makeProduct(t, { price: new Dec('25') });
    customer = await makeCustomer(t);
    await addStock(t, 0, p1.id, 100, '4');
    await addStock(t, 0, p2.id, 100, '9');
  });

  describe('group/preview and group', () => {
    let a: any;
    let b: any;
    beforeEach(async () => {
      const seller = await makeSeller(t);
      a = await createOrder(t, {
        customerId: customer.hash,
        sellerId: seller.hash,
        discount: 2,
        freight: 5,
        items: [
          { productId: p1.hash, quantity: 2 },
          { productId: p2.hash, quantity: 1 },
        ],
      });
      b = await createOrder(t, {
        customerId: customer.hash,
        sellerId: seller.hash,
        discount: 1,
        items: [
          { productId: p1.hash, quantity: 3, discount: '0.50' },
          { productId: p1.hash, quantity: 1, unitPrice: 8 },
        ],
      });
    });

    it('preview and group share one computation: equal product+price lines merge, others stay, each line records its origins', async () => {
      const before = await countOrders(t);
      const preview = await api()
        .post('/api/sales-order/group/preview')
        .set(t.headers())
        .send({ salesOrderIds: [b.id, a.id] });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body).to.include({ canGroup: true });
      expect(preview.body.blockingProblems).to.deep.equal([]);
      expect(await countOrders(t)).to.equal(before);
      const lines = preview.body.order.items.map((i: any) => [i.productId, i.quantity, i.unitPrice, i.discount, i.total, i.origins.length]);
      expect(lines).to.deep.equal([
        [p1.hash, 5, 10, 0.5, 49.5, 2],
        [p2.hash, 1, 25, 0, 25, 1],
        [p1.hash, 1, 8, 0, 8, 1],
      ]);
      expect(preview.body.order.items[0].origins).to.deep.equal([
        { salesOrderId: a.id, salesOrderItemId: a.items[0].salesOrderItemId, quantity: 2 },
        { salesOrderId: b.id, salesOrderItemId: b.items[0].salesOrderItemId, quantity: 3 },
      ]);
      expect(preview.body.order.totals).to.deep.equal({
        gross: 83,
        itemsDiscount: 0.5,
        items: 82.5,
        discount: 3,
        freight: 5,
        insurance: 0,
        otherExpenses: 0,
        total: 84.5,
      });

      const mark = await lastEventId(t);
      const res = await api()
        .post('/api/sales-order/group')
        .set(t.headers())
        .send({ salesOrderIds: [b.id, a.id] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ type: 'ORDER', status: 'OPEN', customerId: customer.hash, sellerId: a.sellerId });
      expect(res.body.code).to.be.greaterThan(b.code);
      expect(res.body.groupedFromIds).to.have.members([a.id, b.id]);
      expect(res.body.totals).to.deep.equal(preview.body.order.totals);
      expect(
        res.body.items.map((i: any) => [i.productId, i.quantity, i.unitPrice, i.discount, i.total, i.orderDiscountShare, i.origins]),
      ).to.deep.equal(
        preview.body.order.items.map((i: any) => [
          i.productId,
          i.quantity,
          i.unitPrice,
          i.discount,
          i.total,
          i.orderDiscountShare,
          i.origins,
        ]),
      );
      for (const src of [a, b]) {
        const row = await orderInDb(t, decodeId('sales-order', src.id));
        expect(row.status).to.equal('GROUPED');
        expect(row.groupedIntoId).to.equal(decodeId('sales-order', res.body.id));
        expect((await auditOf(t, row.id)).map((x) => x.action)).to.deep.equal(['CREATED', 'GROUPED']);
        const read = await api().get(`/api/sales-order/${src.id}`).set(t.headers());
        expect(read.body).to.include({ status: 'GROUPED', groupedIntoId: res.body.id });
      }
      expect((await eventsOf(t, mark)).map((e) => e.type)).to.deep.equal(['sales-order.created', 'sales-order.grouped']);

      // Sources are done: no fulfil, no second group, no edit; the merged order cannot be deleted.
      const refused = await fulfill(t, a.id, [{ salesOrderItemId: a.items[0].salesOrderItemId, quantity: 1 }]);
      expectProblem(refused, 409, 'INVALID_STATUS_TRANSITION');
      expect(refused.body.currentStatus).to.equal('GROUPED');
      expectProblem(
        await api()
          .post('/api/sales-order/group')
          .set(t.headers())
          .send({ salesOrderIds: [a.id, res.body.id] }),
        409,
        'INVALID_STATUS_TRANSITION',
      );
      expectProblem(await api().delete(`/api/sales-order/${res.body.id}`).set(t.headers()), 409, 'SALES_ORDER_HAS_GROUPED_SOURCES');
      expectProblem(
        await api().post(`/api/sales-order/${a.id}/assign-customer`).set(t.headers()).send({ customerId: customer.hash }),
        409,
        'INVALID_STATUS_TRANSITION',
      );
    });

    it('blocking problems: different customers (422), a fulfilled source (409), a quote (409); preview lists them, group writes nothing', async () => {
      const stranger = await createOrder(t, { customerId: (await makeCustomer(t)).hash, items: [{ productId: p1.hash, quantity: 1 }] });
      const preview = await api()
        .post('/api/sales-order/group/preview')
        .set(t.headers())
        .send({ salesOrderIds: [a.id, stranger.id] });
      expect(preview.status).to.equal(200);
      expect(preview.body.canGroup).to.equal(false);
      expect(preview.body.blockingProblems.map((p: any) => p.code)).to.deep.equal(['GROUP_CUSTOMER_MISMATCH']);
      const before = await countOrders(t);
      expectProblem(
        await api()
          .post('/api/sales-order/group')
          .set(t.headers())
          .send({ salesOrderIds: [a.id, stranger.id] }),
        422,
        'GROUP_CUSTOMER_MISMATCH',
      );

      await fulfill(t, b.id, [{ salesOrderItemId: b.items[0].salesOrderItemId, quantity: 1 }]);
      const fulfilled = await api()
        .post('/api/sales-order/group')
        .set(t.headers())
        .send({ salesOrderIds: [a.id, b.id] });
      expectProblem(fulfilled, 409, 'INVALID_STATUS_TRANSITION');
      expect(fulfilled.body.currentStatus).to.equal('PARTIALLY_FULFILLED');
      expect(fulfilled.body.problems[0].salesOrderId).to.equal(b.id);

      const quote = await createOrder(t, { type: 'QUOTE', customerId: customer.hash, items: [{ productId: p1.hash, quantity: 1 }] });
      expectProblem(
        await api()
          .post('/api/sales-order/group')
          .set(t.headers())
          .send({ salesOrderIds: [a.id, quote.id] }),
        409,
        'INVALID_TYPE_FOR_ACTION',
      );
      expect(await countOrders(t)).to.equal(before + 1);
      expect((await orderInDb(t, decodeId('sales-order', a.id))).status).to.equal('OPEN');
    });

    it('bad input → 400 (fewer than 2, duplicates, malformed); another tenant → 404; filial not granted → 403', async () => {
      const before = await countOrders(t);
      for (const route of ['group', 'group/preview']) {
        for (const body of [{ salesOrderIds: [a.id] }, { salesOrderIds: [a.id, a.id] }, { salesOrderIds: [a.id, '!!'] }, {}]) {
          const res = await api().post(`/api/sales-order/${route}`).set(t.headers()).send(body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.errors[0].path).to.match(/^salesOrderIds/);
        }
      }
      expect(await countOrders(t)).to.equal(before);
      expect((await orderInDb(t, decodeId('sales-order', a.id))).status).to.equal('OPEN');
      const foreign = await api()
        .post('/api/sales-order/group/preview')
        .set(other.headers())
        .send({ salesOrderIds: [a.id, b.id] });
      expectProblem(foreign, 404, 'SALES_ORDER_NOT_FOUND');
      expect(foreign.body.errors.map((e: any) => e.path)).to.deep.equal(['salesOrderIds[0]', 'salesOrderIds[1]']);
      expectProblem(
        await api()
          .post('/api/sales-order/group')
          .set(other.headers())
          .send({ salesOrderIds: [a.id, b.id] }),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post('/api/sales-order/group')
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({ salesOrderIds: [a.id, b.id] }),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .post('/api/sales-order/group/preview')
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({ salesOrderIds: [a.id, b.id] }),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });

    it('two concurrent groups of the same orders: one wins, the other → 409; one merged order', async () => {
      const before = await countOrders(t);
      const results = await Promise.all(
        [0, 1].map(() =>
          api()
            .post('/api/sales-order/group')
            .set(t.headers())
            .send({ salesOrderIds: [a.id, b.id] }),
        ),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409]);
      expect(await countOrders(t)).to.equal(before + 1);
    });
  });

  describe('cancel-preview and cancel', () => {
    it('an OPEN order → CANCELLED: all lines cancelled, reason kept, audited, event', async () => {
      const o = await createOrder(t, {
        items: [
          { productId: p1.hash, quantity: 2 },
          { productId: p2.hash, quantity: '1.5' },
        ],
      });
      const preview = await api().get(`/api/sales-order/cancel-preview/${o.id}`).set(t.headers());
      expect(preview.body).to.deep.equal({
        canCancel: true,
        currentStatus: 'OPEN',
        resultingStatus: 'CANCELLED',
        blockingProblems: [],
        itemsCancelled: [
          { salesOrderItemId: o.items[0].salesOrderItemId, quantity: 2 },
          { salesOrderItemId: o.items[1].salesOrderItemId, quantity: 1.5 },
        ],
      });
      const mark = await lastEventId(t);
      const res = await api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'cliente desistiu' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'CANCELLED', cancelReason: 'cliente desistiu', version: 2 });
      expect(res.body.cancelledAt).to.be.a('string');
      expect(res.body.items.map((i: any) => [i.cancelledQuantity, i.remainingQuantity])).to.deep.equal([
        [2, 0],
        [1.5, 0],
      ]);
      const id = decodeId('sales-order', o.id);
      expect((await itemsInDb(t, [id])).map((i) => i.cancelledQuantity.toFixed(4))).to.deep.equal(['2.0000', '1.5000']);
      expect((await auditOf(t, id)).map((a) => a.action)).to.deep.equal(['CREATED', 'CANCELLED']);
      const events = await eventsOf(t, mark);
      expect(events.map((e) => e.type)).to.deep.equal(['sales-order.cancelled']);
      expect(events[0].data).to.include({ reason: 'cliente desistiu', status: 'CANCELLED' });

      const again = await api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'de novo' });
      expectProblem(again, 409, 'INVALID_STATUS_TRANSITION');
      expect(again.body.currentStatus).to.equal('CANCELLED');
      const after = await api().get(`/api/sales-order/cancel-preview/${o.id}`).set(t.headers());
      expect(after.body).to.include({ canCancel: false, resultingStatus: null });
      expect(after.body.blockingProblems[0].code).to.equal('INVALID_STATUS_TRANSITION');
    });

    it('a partially fulfilled order → CLOSED: only the remainder is cancelled, stock untouched', async () => {
      const o = await createOrder(t, {
        items: [
          { productId: p1.hash, quantity: 5 },
          { productId: p2.hash, quantity: 2 },
        ],
      });
      await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 2 }]);
      const stock = await stockOf(t, 0, p1.id);
      const preview = await api().get(`/api/sales-order/cancel-preview/${o.id}`).set(t.headers());
      expect(preview.body).to.include({ canCancel: true, currentStatus: 'PARTIALLY_FULFILLED', resultingStatus: 'CLOSED' });
      expect(preview.body.itemsCancelled.map((i: any) => i.quantity)).to.deep.equal([3, 2]);
      const res = await api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'resto sem estoque' });
      expect(res.body.status).to.equal('CLOSED');
      expect(res.body.items.map((i: any) => [i.fulfilledQuantity, i.cancelledQuantity, i.remainingQuantity])).to.deep.equal([
        [2, 3, 0],
        [0, 2, 0],
      ]);
      expect(await stockOf(t, 0, p1.id)).to.deep.equal(stock);
      expectProblem(
        await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 }]),
        409,
        'INVALID_STATUS_TRANSITION',
      );
    });

    it('a FULFILLED order → canCancel false pointing to returns; cancel → 409', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 }]);
      const preview = await api().get(`/api/sales-order/cancel-preview/${o.id}`).set(t.headers());
      expect(preview.body).to.include({ canCancel: false, currentStatus: 'FULFILLED', resultingStatus: null });
      expect(preview.body.blockingProblems[0].code).to.equal('SALES_ORDER_FULFILLED');
      expect(preview.body.blockingProblems[0].message).to.match(/returns/);
      const res = await api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'arrependido' });
      expectProblem(res, 409, 'SALES_ORDER_FULFILLED');
      expect(res.body).to.include({ currentStatus: 'FULFILLED', see: '/api/returns' });
    });

    it('a quote cancels too; bad reason → 400; another tenant → 404; not granted → 403', async () => {
      const q = await createOrder(t, { type: 'QUOTE', items: [{ productId: p1.hash, quantity: 1 }] });
      const bad = await api().post(`/api/sales-order/cancel/${q.id}`).set(t.headers()).send({ reason: '' });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors[0].path).to.equal('reason');
      expectProblem(
        await api().post(`/api/sales-order/cancel/${q.id}`).set(other.headers()).send({ reason: 'alheio' }),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(await api().get(`/api/sales-order/cancel-preview/${q.id}`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(
        await api()
          .post(`/api/sales-order/cancel/${q.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({ reason: 'sem acesso' }),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .get(`/api/sales-order/cancel-preview/${q.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get('/api/sales-order/cancel-preview/no!').set(t.headers()), 400, 'INVALID_ID');
      expectProblem(await api().post('/api/sales-order/cancel/no!').set(t.headers()).send({ reason: 'qualquer' }), 400, 'INVALID_ID');
      expect((await orderInDb(t, decodeId('sales-order', q.id))).status).to.equal('OPEN');
      const res = await api().post(`/api/sales-order/cancel/${q.id}`).set(t.headers()).send({ reason: 'orçamento recusado' });
      expect(res.body).to.include({ type: 'QUOTE', status: 'CANCELLED' });
      expectProblem(await api().post(`/api/sales-order/convert-quote/${q.id}`).set(t.headers()), 409, 'INVALID_STATUS_TRANSITION');
    });

    it('a cancel racing the last fulfil: exactly one wins, nothing is both cancelled and fulfilled', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 2 }] });
      const [f, c] = await Promise.all([
        fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 2 }]),
        api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'corrida' }),
      ]);
      const [item] = await itemsInDb(t, [decodeId('sales-order', o.id)]);
      const row = await orderInDb(t, decodeId('sales-order', o.id));
      if (f.status === 201) {
        expect(c.status).to.equal(409);
        expect(row.status).to.equal('FULFILLED');
        expect(item.cancelledQuantity.toFixed(4)).to.equal('0.0000');
      } else {
        expect(c.status).to.equal(200);
        expect(row.status).to.equal('CANCELLED');
        expect(item.fulfilledQuantity.toFixed(4)).to.equal('0.0000');
      }
    });
  });
});
