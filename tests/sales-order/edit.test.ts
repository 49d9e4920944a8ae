import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct, makeSeller } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { auditOf, countItems, createOrder, eventsOf, fulfill, itemsInDb, lastEventId, orderInDb } from './support';

describe('Sales orders: PATCH, DELETE, assign-customer', () => {
  let t: TestTenant;
  let other: TestTenant;
  let p1: Awaited<ReturnType<typeof makeProduct>>;
  let p2: Awaited<ReturnType<typeof makeProduct>>;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    p1 = await makeProduct(t, { price: new Dec('10') });
    p2 = await makeProduct(t, { price: new Dec('4.5') });
    await addStock(t, 0, p1.id, 100);
  });

  describe('PATCH /sales-order/:id', () => {
    it('edits header and lines with version: kept lines keep their id and price, new lines default, removed lines go; totals and shares recomputed; audited', async () => {
      const o = await createOrder(t, {
        discount: 2,
        items: [
          { productId: p1.hash, quantity: 2, unitPrice: 9 },
          { productId: p2.hash, quantity: 1 },
        ],
      });
      const customer = await makeCustomer(t);
      const seller = await makeSeller(t);
      const mark = await lastEventId(t);
      const res = await api()
        .patch(`/api/sales-order/${o.id}`)
        .set(t.headers())
        .send({
          version: 1,
          customerId: customer.hash,
          sellerId: seller.hash,
          alias: 'Balcão',
          notes: 'ligar antes',
          discount: '3.00',
          items: [
            { salesOrderItemId: o.items[0].salesOrderItemId, productId: p1.hash, quantity: 3 },
            { productId: p2.hash, quantity: 2, discount: '1.00' },
          ],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ version: 2, customerId: customer.hash, sellerId: seller.hash, alias: 'Balcão', notes: 'ligar antes' });
      expect(res.body.items[0]).to.include({ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 3, unitPrice: 9, total: 27 });
      expect(res.body.items[1]).to.include({ lineNumber: 2, unitPrice: 4.5, discount: 1, total: 8 });
      expect(res.body.items[1].salesOrderItemId).to.not.equal(o.items[1].salesOrderItemId);
      expect(res.body.totals).to.deep.equal({
        gross: 36,
        itemsDiscount: 1,
        items: 35,
        discount: 3,
        freight: 0,
        insurance: 0,
        otherExpenses: 0,
        total: 32,
      });
      expect(res.body.items.map((i: any) => i.orderDiscountShare)).to.deep.equal([2.31, 0.69]);

      const id = decodeId('sales-order', o.id);
      expect(await itemsInDb(t, [id])).to.have.length(2);
      expect((await orderInDb(t, id)).searchAlias).to.equal('BALCAO');
      const audit = await auditOf(t, id);
      expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
      expect(audit[1].changes).to.include.keys('customerId', 'sellerId', 'alias', 'notes', 'discount', 'total', 'items');
      expect(audit[1].changes!.customerId).to.deep.equal([null, customer.hash]);
      expect((await eventsOf(t, mark)).map((e) => e.type)).to.deep.equal(['sales-order.updated']);
    });

    it('a stale version → 409 STALE_VERSION, nothing written', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const res = await api().patch(`/api/sales-order/${o.id}`).set(t.headers()).send({ version: 7, notes: 'x' });
      expectProblem(res, 409, 'STALE_VERSION');
      expect(res.body.currentVersion).to.equal(1);
      expect((await orderInDb(t, decodeId('sales-order', o.id))).notes).to.equal(null);
    });

    it('only OPEN with nothing fulfilled: a partially fulfilled order → 409 naming the status', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 2 }] });
      await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 }]);
      const res = await api().patch(`/api/sales-order/${o.id}`).set(t.headers()).send({ version: 2, notes: 'x' });
      expectProblem(res, 409, 'INVALID_STATUS_TRANSITION');
      expect(res.body.currentStatus).to.equal('PARTIALLY_FULFILLED');
    });

    it('bad input → 400; a line of another order → 422; another tenant → 404; filial not granted → 403', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const items = await countItems(t);
      const bad = await api()
        .patch(`/api/sales-order/${o.id}`)
        .set(t.headers())
        .send({ notes: 'x', items: [{ productId: p1.hash, quantity: 0 }] });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: any) => e.path)).to.include.members(['version', 'items[0].quantity']);
      expectProblem(await api().patch(`/api/sales-order/${o.id}`).set(t.headers()).send({ version: 1 }), 400, 'VALIDATION_ERROR');
      const another = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const foreignLine = await api()
        .patch(`/api/sales-order/${o.id}`)
        .set(t.headers())
        .send({ version: 1, items: [{ salesOrderItemId: another.items[0].salesOrderItemId, productId: p1.hash, quantity: 1 }] });
      expectProblem(foreignLine, 422, 'ITEM_NOT_IN_ORDER');
      expectProblem(
        await api().patch(`/api/sales-order/${o.id}`).set(other.headers()).send({ version: 1, notes: 'x' }),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .patch(`/api/sales-order/${o.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({ version: 1, notes: 'x' }),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api().patch(`/api/sales-order/${o.id}`).set(t.headers()).send({ version: 1, validUntil: '2999-01-01' }),
        422,
        'VALID_UNTIL_QUOTES_ONLY',
      );
      expect(await countItems(t)).to.equal(items + 1);
      expect((await orderInDb(t, decodeId('sales-order', o.id))).version).to.equal(1);
    });

    it('two concurrent PATCHes with the same version: one wins, the other → 409', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const results = await Promise.all(
        ['a', 'b'].map((notes) => api().patch(`/api/sales-order/${o.id}`).set(t.headers()).send({ version: 1, notes })),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect((await orderInDb(t, decodeId('sales-order', o.id))).version).to.equal(2);
    });
  });

  describe('DELETE /sales-order/:id', () => {
    it('deletes an OPEN order or quote with nothing fulfilled (204), its lines too; audited', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const q = await createOrder(t, { type: 'QUOTE', items: [{ productId: p1.hash, quantity: 1 }] });
      const mark = await lastEventId(t);
      for (const x of [o, q]) {
        const res = await api().delete(`/api/sales-order/${x.id}`).set(t.headers());
        expect(res.status).to.equal(204);
        const id = decodeId('sales-order', x.id);
        expect(await dataSource.manager.findOneBy(SalesOrder, { id })).to.equal(null);
        expect(await itemsInDb(t, [id])).to.have.length(0);
        expect((await auditOf(t, id)).map((a) => a.action)).to.deep.equal(['CREATED', 'DELETED']);
      }
      expect((await eventsOf(t, mark)).map((e) => e.type)).to.deep.equal(['sales-order.deleted', 'sales-order.deleted']);
      expectProblem(await api().get(`/api/sales-order/${o.id}`).set(t.headers()), 404, 'SALES_ORDER_NOT_FOUND');
    });

    it('something fulfilled, or not OPEN → 409; another tenant → 404; not granted → 403; malformed → 400', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 2 }] });
      await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 }]);
      const res = await api().delete(`/api/sales-order/${o.id}`).set(t.headers());
      expectProblem(res, 409, 'INVALID_STATUS_TRANSITION');
      expect(res.body.currentStatus).to.equal('PARTIALLY_FULFILLED');
      const open = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      expectProblem(await api().delete(`/api/sales-order/${open.id}`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(
        await api()
          .delete(`/api/sales-order/${open.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().delete('/api/sales-order/@@').set(t.headers()), 400, 'INVALID_ID');
      expect(await dataSource.manager.findOneBy(SalesOrder, { id: decodeId('sales-order', open.id) })).to.not.equal(null);
    });
  });

  describe('POST /sales-order/:id/assign-customer', () => {
    it('assigns while not CANCELLED/GROUPED, even after fulfilment; audited with hashids; event', async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      await fulfill(t, o.id, [{ salesOrderItemId: o.items[0].salesOrderItemId, quantity: 1 }]);
      const customer = await makeCustomer(t, { name: 'Cliente Final' });
      const mark = await lastEventId(t);
      const res = await api().post(`/api/sales-order/${o.id}/assign-customer`).set(t.headers()).send({ customerId: customer.hash });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'FULFILLED', customerId: customer.hash, customerName: 'Cliente Final', version: 3 });
      const audit = await auditOf(t, decodeId('sales-order', o.id));
      expect(audit.at(-1)!.action).to.equal('CUSTOMER_ASSIGNED');
      expect(audit.at(-1)!.changes).to.deep.equal({ customerId: [null, customer.hash] });
      const events = await eventsOf(t, mark);
      expect(events.map((e) => [e.type, e.data.customerId])).to.deep.equal([['sales-order.customer-assigned', customer.hash]]);
    });

    it("a CANCELLED order → 409; another tenant's customer → 404; inactive customer → 422; bad body → 400; not granted → 403", async () => {
      const o = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
      const foreign = await makeCustomer(other);
      const bad = await api().post(`/api/sales-order/${o.id}/assign-customer`).set(t.headers()).send({});
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors[0].path).to.equal('customerId');
      expectProblem(
        await api().post(`/api/sales-order/${o.id}/assign-customer`).set(t.headers()).send({ customerId: foreign.hash }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
      const inactive = await makeCustomer(t, { active: false });
      expectProblem(
        await api().post(`/api/sales-order/${o.id}/assign-customer`).set(t.headers()).send({ customerId: inactive.hash }),
        422,
        'CUSTOMER_INACTIVE',
      );
      const mine = await makeCustomer(t);
      expectProblem(
        await api().post(`/api/sales-order/${o.id}/assign-customer`).set(other.headers()).send({ customerId: mine.hash }),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post(`/api/sales-order/${o.id}/assign-customer`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({ customerId: mine.hash }),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expect((await orderInDb(t, decodeId('sales-order', o.id))).customerId).to.equal(null);
      await api().post(`/api/sales-order/cancel/${o.id}`).set(t.headers()).send({ reason: 'desistiu' });
      const res = await api().post(`/api/sales-order/${o.id}/assign-customer`).set(t.headers()).send({ customerId: mine.hash });
      expectProblem(res, 409, 'INVALID_STATUS_TRANSITION');
      expect(res.body.currentStatus).to.equal('CANCELLED');
    });
  });
});
