import { expect } from 'chai';
import { encodeId } from '../../src/core/hashids';
import { api } from '../support/api';
import { makeCustomer, makeProduct, makeSeller } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { auditOf, countItems, countOrders, createOrder, eventsOf, itemsInDb, orderInDb } from './support';
import { decodeId } from '../../src/core/hashids';
import { Dec } from '../../src/core/decimal';
import { dataSource } from '../../src/core/db/data-source';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';

describe('Sales orders: create and read (SPEC §6)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  let cheap: Awaited<ReturnType<typeof makeProduct>>;
  let customer: Awaited<ReturnType<typeof makeCustomer>>;
  let seller: Awaited<ReturnType<typeof makeSeller>>;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    product = await makeProduct(t, { name: 'Cadeira', price: new Dec('199.90') });
    cheap = await makeProduct(t, { name: 'Parafuso', price: new Dec('0.3333'), unit: 'PC' });
    customer = await makeCustomer(t, { name: 'Ana Souza' });
    seller = await makeSeller(t, { name: 'Bruno', alias: 'BR' });
  });

  describe('POST /sales-order', () => {
    it('creates an ORDER: prices default to the product, amounts to the cent, order discount allocated over the lines', async () => {
      const body = await createOrder(t, {
        customerId: customer.hash,
        sellerId: seller.hash,
        alias: 'Mesa 4',
        notes: 'entregar à tarde',
        discount: '10.00',
        freight: 15,
        items: [
          { productId: product.hash, quantity: 2 },
          { productId: cheap.hash, quantity: '7', discount: '0.33' },
          { productId: product.hash, quantity: 1, unitPrice: '150', description: 'Cadeira (mostruário)' },
        ],
      });
      expect(body).to.include({
        type: 'ORDER',
        flowMode: 'STANDARD',
        status: 'OPEN',
        customerId: customer.hash,
        customerName: 'Ana Souza',
        sellerId: seller.hash,
        sellerName: 'Bruno',
        alias: 'Mesa 4',
        version: 1,
      });
      expect(body.code).to.be.a('number');
      expect(body.items.map((i: any) => [i.lineNumber, i.unitPrice, i.total, i.remainingQuantity])).to.deep.equal([
        [1, 199.9, 399.8, 2],
        [2, 0.3333, 2, 7],
        [3, 150, 150, 1],
      ]);
      expect(body.items[2].description).to.equal('Cadeira (mostruário)');
      expect(body.items[1]).to.include({ unit: 'PC', discount: 0.33 });
      // 7 × 0.3333 = 2.3331 → 2.33 − 0.33 = 2.00; items 551.80; shares of 10.00 by line total
      expect(body.totals).to.deep.equal({
        gross: 552.13,
        itemsDiscount: 0.33,
        items: 551.8,
        discount: 10,
        freight: 15,
        insurance: 0,
        otherExpenses: 0,
        total: 556.8,
      });
      const shares = body.items.map((i: any) => i.orderDiscountShare);
      expect(shares).to.deep.equal([7.25, 0.04, 2.71]);
      expect(new Dec(shares[0]).plus(shares[1]).plus(shares[2]).toFixed(2)).to.equal('10.00');

      const id = decodeId('sales-order', body.id);
      const row = await orderInDb(t, id);
      expect(row.total.toFixed(2)).to.equal('556.80');
      expect(row.searchAlias).to.equal('MESA 4');
      expect((await itemsInDb(t, [id])).map((i) => i.orderDiscountShare.toFixed(2))).to.deep.equal(['7.25', '0.04', '2.71']);
      expect((await auditOf(t, id)).map((a) => a.action)).to.deep.equal(['CREATED']);
      const events = (await eventsOf(t)).filter((e) => e.aggregateId === id);
      expect(events.map((e) => e.type)).to.deep.equal(['sales-order.created']);
      expect(events[0].data).to.include({ salesOrderId: body.id, customerId: customer.hash });
      expect(JSON.stringify(events[0].data)).to.not.match(/"salesOrderId":\d/);
    });

    it('an order discount never puts a line below zero: the rounding residue a small last line cannot take goes to the lines before it', async () => {
      const body = await createOrder(t, {
        discount: '1.47',
        items: ['0.20', '0.20', '0.96', '0.15'].map((unitPrice) => ({ productId: product.hash, quantity: 1, unitPrice })),
      });
      // Proportional shares round to 0.19, 0.19, 0.93 and would leave 0.16 for a line worth 0.15.
      expect(body.items.map((i: any) => i.orderDiscountShare)).to.deep.equal([0.19, 0.19, 0.94, 0.15]);
      expect(body.totals).to.include({ items: 1.51, discount: 1.47, total: 0.04 });
      const id = decodeId('sales-order', body.id);
      expect((await itemsInDb(t, [id])).map((i) => i.orderDiscountShare.toFixed(2))).to.deep.equal(['0.19', '0.19', '0.94', '0.15']);
    });

    it('creates a QUOTE valid for 30 days by default, or until the given day', async () => {
      const q = await createOrder(t, { type: 'QUOTE', items: [{ productId: product.hash, quantity: 1 }] });
      expect(q).to.include({ type: 'QUOTE', status: 'OPEN', expired: false });
      const days = Math.round((Date.parse(q.validUntil) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
      expect(days).to.be.within(29, 31);
      const given = await createOrder(t, { type: 'QUOTE', validUntil: '2999-12-31', items: [{ productId: product.hash, quantity: 1 }] });
      expect(given.validUntil).to.equal('2999-12-31');
    });

    it('codes are sequential per company', async () => {
      const a = await createOrder(t, { items: [{ productId: product.hash, quantity: 1 }] });
      const b = await createOrder(t, { items: [{ productId: product.hash, quantity: 1 }] });
      expect(b.code).to.equal(a.code + 1);
      const foreign = await createOrder(other, { items: [{ productId: (await makeProduct(other)).hash, quantity: 1 }] });
      expect(foreign.code).to.equal(1);
    });

    it('30 concurrent creates (more than the pool holds) get 30 distinct codes', async () => {
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          api()
            .post('/api/sales-order')
            .set(t.headers())
            .send({ items: [{ productId: product.hash, quantity: 1 }] }),
        ),
      );
      expect(results.map((r) => r.status).every((s) => s === 201)).to.equal(true);
      expect(new Set(results.map((r) => r.body.code)).size).to.equal(30);
    });

    it('bad input → 400 with every field path, nothing written', async () => {
      const [orders, items] = [await countOrders(t), await countItems(t)];
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          type: 'BUDGET',
          discount: -1,
          validUntil: '2030-01-01',
          items: [{ productId: product.hash, quantity: 0 }, { quantity: '1.23456' }, { productId: '!!', quantity: 1 }],
        });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: any) => e.path)).to.include.members([
        'type',
        'discount',
        'items[0].quantity',
        'items[1].productId',
        'items[1].quantity',
        'items[2].productId',
      ]);
      expectProblem(await api().post('/api/sales-order').set(t.headers()).send({ items: [] }), 400, 'VALIDATION_ERROR');
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({ validUntil: '2030-01-01', items: [{ productId: product.hash, quantity: 1 }] }),
        400,
        'VALIDATION_ERROR',
      );
      expect([await countOrders(t), await countItems(t)]).to.deep.equal([orders, items]);
    });

    it('discounts above what they apply to → 422 with the paths, nothing written', async () => {
      const before = await countOrders(t);
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ discount: 500, items: [{ productId: product.hash, quantity: 1, discount: 200 }] });
      expectProblem(res, 422, 'DISCOUNT_EXCEEDS_TOTAL');
      expect(res.body.errors.map((e: any) => e.path)).to.deep.equal(['items[0].discount', 'discount']);
      expect(await countOrders(t)).to.equal(before);
    });

    it("another tenant's product, customer or seller → 404 naming the field, nothing written", async () => {
      const before = await countOrders(t);
      const foreignProduct = await makeProduct(other);
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          items: [
            { productId: product.hash, quantity: 1 },
            { productId: foreignProduct.hash, quantity: 1 },
          ],
        });
      expectProblem(res, 404, 'PRODUCT_NOT_FOUND');
      expect(res.body.errors).to.deep.equal([{ path: 'items[1].productId', message: 'product not found' }]);
      const foreignCustomer = await makeCustomer(other);
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({ customerId: foreignCustomer.hash, items: [{ productId: product.hash, quantity: 1 }] }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
      const foreignSeller = await makeSeller(other);
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({ sellerId: foreignSeller.hash, items: [{ productId: product.hash, quantity: 1 }] }),
        404,
        'SELLER_NOT_FOUND',
      );
      expect(await countOrders(t)).to.equal(before);
    });

    it('inactive product → 422', async () => {
      const inactive = await makeProduct(t, { active: false });
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({ items: [{ productId: inactive.hash, quantity: 1 }] }),
        422,
        'PRODUCT_INACTIVE',
      );
    });

    it('x-filial-id not granted → 403; no x-filial-id → 400; read-only scope → 403', async () => {
      const body = { items: [{ productId: product.hash, quantity: 1 }] };
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headersWith({ filiais: [t.filialHashes[0]] }, 1))
          .send(body),
        403,
        'FILIAL_NOT_GRANTED',
      );
      const { 'x-filial-id': _omit, ...noFilial } = t.headers();
      expectProblem(await api().post('/api/sales-order').set(noFilial).send(body), 400, 'MISSING_FILIAL');
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headersWith({ scope: 'sales-order:read' }))
          .send(body),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });

    it('flowMode QUICK_SALE is routed to the quick-sale flow: 422 QUICK_SALE_NOT_CONFIGURED here, nothing written', async () => {
      const before = await countOrders(t);
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ flowMode: 'QUICK_SALE', items: [{ productId: product.hash, quantity: 1 }] });
      expectProblem(res, 422, 'QUICK_SALE_NOT_CONFIGURED');
      expect(await countOrders(t)).to.equal(before);
    });

    it('an Idempotency-Key retry answers the first order; the same key with another body → 409', async () => {
      const body = { items: [{ productId: product.hash, quantity: 3 }] };
      const first = await api().post('/api/sales-order').set(t.headers()).set('Idempotency-Key', 'so-create-1').send(body);
      const before = await countOrders(t);
      const again = await api().post('/api/sales-order').set(t.headers()).set('Idempotency-Key', 'so-create-1').send(body);
      expect(again.status).to.equal(201);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(await countOrders(t)).to.equal(before);
      expectProblem(
        await api()
          .post('/api/sales-order')
          .set(t.headers())
          .set('Idempotency-Key', 'so-create-1')
          .send({ items: [{ productId: product.hash, quantity: 4 }] }),
        409,
        'IDEMPOTENCY_KEY_REUSED',
      );
    });
  });

  describe('GET /sales-order/:x — a filial lists, an order id reads one', () => {
    let order: any;
    before(async () => {
      order = await createOrder(t, { customerId: customer.hash, items: [{ productId: product.hash, quantity: 1 }] });
    });

    it('a filial id of the tenant lists that filial', async () => {
      const res = await api().get(`/api/sales-order/${t.filialHashes[0]}`).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body.pagination).to.include.keys('page', 'pageSize', 'total', 'totalPages', 'hasMore', 'nextCursor');
      expect(res.body.data.map((o: any) => o.id)).to.include(order.id);
      expect(res.body.data.every((o: any) => o.filialId === t.filialHashes[0])).to.equal(true);
    });

    it('an order id reads that order; detail/:id is the same, with its fiscal documents (none yet)', async () => {
      const one = await api().get(`/api/sales-order/${order.id}`).set(t.headers());
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal(order);
      const detail = await api().get(`/api/sales-order/detail/${order.id}`).set(t.headers());
      expect(detail.body).to.deep.equal({ ...order, fiscalDocuments: [] });
    });

    it('list/:filialId is the unambiguous list', async () => {
      const res = await api().get(`/api/sales-order/list/${t.filialHashes[0]}`).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body.data.map((o: any) => o.id)).to.include(order.id);
      const second = await api().get(`/api/sales-order/list/${t.filialHashes[1]}`).set(t.headers());
      expect(second.body.data).to.have.length(0);
    });

    it('an id that is neither → 404; a malformed one → 400', async () => {
      expectProblem(await api().get(`/api/sales-order/${customer.hash}`).set(t.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(
        await api()
          .get(`/api/sales-order/${encodeId('sales-order', 987654321)}`)
          .set(t.headers()),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      const bad = await api().get('/api/sales-order/x!').set(t.headers());
      expectProblem(bad, 400, 'INVALID_ID');
      expect(bad.body.errors[0].path).to.equal('params.filialIdOrId');
      expectProblem(await api().get('/api/sales-order/detail/x!').set(t.headers()), 400, 'INVALID_ID');
    });

    it("another tenant's filial or order → 404 (never its data)", async () => {
      expectProblem(await api().get(`/api/sales-order/${other.filialHashes[0]}`).set(t.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(await api().get(`/api/sales-order/${order.id}`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(await api().get(`/api/sales-order/detail/${order.id}`).set(other.headers()), 404, 'SALES_ORDER_NOT_FOUND');
      expectProblem(await api().get(`/api/sales-order/list/${other.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
    });

    it('a filial the token does not grant → 403, for the list and for its orders', async () => {
      const onlySecond = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
      expectProblem(await api().get(`/api/sales-order/${t.filialHashes[0]}`).set(onlySecond), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(`/api/sales-order/list/${t.filialHashes[0]}`).set(onlySecond), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(`/api/sales-order/${order.id}`).set(onlySecond), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(`/api/sales-order/detail/${order.id}`).set(onlySecond), 403, 'FILIAL_NOT_GRANTED');
    });

    it("the list checks the x-filial-id filial in its own first round trip: inactive or not the tenant's → 403 before any row, a bad cursor too", async () => {
      const tt = await createTestTenant();
      const foreign = await createTestTenant();
      const ok = await api().get(`/api/sales-order/${tt.filialHashes[1]}`).set(tt.headers(1));
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      await dataSource.manager.update(Filial, { id: tt.filialIds[1] }, { active: false });
      for (const query of [{}, { search: '12' }, { search: 'maria' }, { cursor: 'bm90LWEtY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA' }]) {
        expectProblem(await api().get(`/api/sales-order/${tt.filialHashes[1]}`).query(query).set(tt.headers(1)), 403, 'FILIAL_NOT_GRANTED');
      }
      // Another tenant's filial named in both places (an all-filiais token grants ids, not tenants).
      const crossed = { ...tt.headers(), 'x-filial-id': foreign.filialHashes[0] };
      expectProblem(await api().get(`/api/sales-order/${foreign.filialHashes[0]}`).set(crossed), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(
        await api().get(`/api/sales-order/${foreign.filialHashes[0]}`).query({ search: 'maria' }).set(crossed),
        403,
        'FILIAL_NOT_GRANTED',
      );
      // The list of another of the caller's filiais than x-filial-id's: both are checked.
      expectProblem(await api().get(`/api/sales-order/${tt.filialHashes[0]}`).set(tt.headers(1)), 403, 'FILIAL_NOT_GRANTED');
      expect((await api().get(`/api/sales-order/${tt.filialHashes[1]}`).set(tt.headers(0))).status).to.equal(403);
      expect((await api().get(`/api/sales-order/${tt.filialHashes[0]}`).set(tt.headers(0))).status).to.equal(200);
    });

    it('responses carry hashids only', async () => {
      const res = await api().get(`/api/sales-order/${order.id}`).set(t.headers());
      const id = decodeId('sales-order', order.id);
      const text = JSON.stringify(res.body);
      expect(text).to.not.contain(`"companyId"`);
      expect(res.body.items[0].salesOrderItemId).to.match(/^[A-Za-z0-9]{8,}$/);
      expect(res.body.id).to.not.equal(String(id));
    });
  });
});
