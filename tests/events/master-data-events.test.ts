import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { catalogRoutes } from '../../src/modules/catalog/catalog.router';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

type EventDto = { type: string; filialId: string | null; resource: { type: string; id: string | null }; data: Record<string, any> };

/** The tenant's events after `cursor` (read through GET /api/events, as an integrator would). */
async function eventsAfter(t: TestTenant, cursor: string): Promise<{ events: EventDto[]; cursor: string }> {
  const res = await api().get('/api/events').query({ after: cursor, limit: 100 }).set(t.headers());
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { events: res.body.data, cursor: res.body.nextCursor };
}

describe('Events for master data and stock (issue 20)', () => {
  let t: TestTenant;
  let cursor: string;
  /** The events the calls since the last look produced. */
  const newEvents = async () => {
    const page = await eventsAfter(t, cursor);
    cursor = page.cursor;
    return page.events;
  };

  before(async () => {
    t = await createTestTenant();
    cursor = (await api().get('/api/events').set(t.headers())).body.nextCursor;
  });

  describe('every state-changing catalog route emits its event, in the same transaction', () => {
    // Each write route of the catalog, the call that drives it and the event it must emit.
    const covered = new Set<string>();
    const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

    after(() => {
      const writes = catalogRoutes.filter((r) => r.method !== 'get').map((r) => routeKey(r.method, `/api${r.path}`));
      expect([...covered].sort(), 'a catalog write route without an event test').to.deep.equal(writes.sort());
    });

    for (const [resource, path, body, patch] of [
      ['product', '/api/catalog/products', { name: 'Café Torrado 500g', unit: 'UN', price: '18.90' }, { name: 'Café Torrado 500 g' }],
      ['customer', '/api/catalog/customers', { name: 'Maria da Silva', document: '529.982.247-25' }, { tradeName: 'Mercearia da Maria' }],
      ['seller', '/api/catalog/sellers', { name: 'Ana Souza', alias: 'Aninha' }, { alias: 'Ana' }],
      [
        'supplier',
        '/api/catalog/suppliers',
        { name: 'Distribuidora Paulista', document: '60746948000112', uf: 'SP' },
        { tradeName: 'Paulista' },
      ],
    ] as const) {
      it(`${resource}: POST → ${resource}.created, PATCH → ${resource}.updated naming the changed fields; a no-op PATCH emits nothing`, async () => {
        const created = await api().post(path).set(t.headers()).send(body);
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        covered.add(routeKey('post', path));
        const [c, ...extra] = await newEvents();
        expect(extra).to.deep.equal([]);
        expect(c).to.deep.include({ type: `${resource}.created`, filialId: null, resource: { type: resource, id: created.body.id } });
        expect(c.data).to.include({ [`${resource}Id`]: created.body.id, name: created.body.name, version: 1 });

        const updated = await api()
          .patch(`${path}/${created.body.id}`)
          .set(t.headers())
          .send({ ...patch, version: 1 });
        expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
        covered.add(routeKey('patch', `${path}/:id`));
        const [u, ...more] = await newEvents();
        expect(more).to.deep.equal([]);
        expect(u).to.deep.include({ type: `${resource}.updated`, resource: { type: resource, id: created.body.id } });
        expect(u.data).to.include({ [`${resource}Id`]: created.body.id, version: 2 });
        expect(u.data.changedFields).to.deep.equal(Object.keys(patch));
        expect(u.data).to.not.have.property('priceChanges');

        const same = await api()
          .patch(`${path}/${created.body.id}`)
          .set(t.headers())
          .send({ ...patch, version: 2 });
        expect(same.status).to.equal(200);
        expect(await newEvents()).to.deep.equal([]);
      });
    }

    it('payment method: POST → payment-method.created', async () => {
      const res = await api().post('/api/catalog/payment-methods').set(t.headers()).send({ code: 'PIX', name: 'Pix', kind: 'PIX' });
      expect(res.status).to.equal(201);
      covered.add(routeKey('post', '/api/catalog/payment-methods'));
      const events = await newEvents();
      expect(events.map((e) => e.type)).to.deep.equal(['payment-method.created']);
      expect(events[0].data).to.include({ paymentMethodId: res.body.id, code: 'PIX', kind: 'PIX' });
    });

    it('a price change is named with its old and new values', async () => {
      const p = await api().post('/api/catalog/products').set(t.headers()).send({ name: 'Leite Integral 1L', unit: 'UN', price: '5.49' });
      await newEvents();
      const res = await api()
        .patch(`/api/catalog/products/${p.body.id}`)
        .set(t.headers())
        .send({ price: '5.99', active: false, version: 1 });
      expect(res.status).to.equal(200);
      const [e] = await newEvents();
      expect(e.type).to.equal('product.updated');
      expect(e.data.changedFields).to.have.members(['price', 'active']);
      expect(e.data.priceChanges).to.deep.equal({ price: { from: 5.49, to: 5.99 } });
      expect(e.data).to.include({ price: 5.99, active: false });
    });

    it('a failed write emits nothing (stale version)', async () => {
      const c = await api().post('/api/catalog/customers').set(t.headers()).send({ name: 'José Álvares' });
      await newEvents();
      expect(
        (await api().patch(`/api/catalog/customers/${c.body.id}`).set(t.headers()).send({ name: 'José A.', version: 7 })).status,
      ).to.equal(409);
      expect(await newEvents()).to.deep.equal([]);
    });
  });

  describe('stock.changed for every ledger posting', () => {
    it('a posting emits one event per product: filial, product, new balance, change and average cost', async () => {
      const p = await makeProduct(t, { name: 'Arroz 5kg' });
      await newEvents();
      await addStock(t, 0, p.id, 10, '20');
      await addStock(t, 0, p.id, 10, '30');
      const events = await newEvents();
      expect(events.map((e) => e.type)).to.deep.equal(['stock.changed', 'stock.changed']);
      expect(events[0]).to.deep.include({ filialId: t.filialHashes[0], resource: { type: 'product', id: p.hash } });
      expect(events[0].data).to.deep.equal({
        filialId: t.filialHashes[0],
        productId: p.hash,
        balance: 10,
        change: 10,
        averageCost: 20,
        reason: 'OPENING_BALANCE',
        referenceType: 'test',
      });
      expect(events[1].data).to.include({ balance: 20, change: 10, averageCost: 25 });
    });

    it('a sale through the API (create + fulfil, and a quick sale) emits stock.changed with its order events, in one commit each', async () => {
      const customer = await makeCustomer(t, { name: 'Consumidor Final' });
      await makePaymentMethod(t, 'CASH', 'CASH');
      const [a, b] = [
        await makeProduct(t, { name: 'Pão', price: '0.75' as never }),
        await makeProduct(t, { name: 'Leite', price: '5.49' as never }),
      ];
      await addStock(t, 0, a.id, 50, '0.30');
      await addStock(t, 0, b.id, 50, '3.90');
      const config = await api()
        .put(`/api/quick-sale/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({ enabled: true, defaultCustomerId: customer.hash, paymentMethods: ['CASH'], defaultPaymentMethod: 'CASH' });
      expect(config.status, JSON.stringify(config.body)).to.equal(200);
      await newEvents();

      const order = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ customerId: customer.hash, items: [{ productId: a.hash, quantity: 4 }] });
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      const fulfil = await api()
        .post(`/api/sales-order/${order.body.id}/fulfill`)
        .set(t.headers())
        .send({ items: [{ salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 4 }] });
      expect(fulfil.status, JSON.stringify(fulfil.body)).to.equal(201);
      const afterFulfil = await newEvents();
      const stock = afterFulfil.filter((e) => e.type === 'stock.changed');
      expect(stock.map((e) => e.data)).to.deep.equal([
        {
          filialId: t.filialHashes[0],
          productId: a.hash,
          balance: 46,
          change: -4,
          averageCost: 0.3,
          reason: stock[0].data.reason,
          referenceType: stock[0].data.referenceType,
        },
      ]);
      expect(afterFulfil.map((e) => e.type)).to.include('sales-order.fulfilled');

      const quick = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          flowMode: 'QUICK_SALE',
          items: [
            { productId: a.hash, quantity: 1 },
            { productId: b.hash, quantity: 2 },
          ],
          payments: [{ method: 'CASH', amount: 20 }],
        });
      expect(quick.status, JSON.stringify(quick.body)).to.equal(201);
      const sale = await newEvents();
      expect(sale.map((e) => e.type)).to.include('quick-sale.completed');
      const balances = sale.filter((e) => e.type === 'stock.changed').map((e) => [e.data.productId, e.data.balance]);
      expect(balances).to.have.deep.members([
        [a.hash, 45],
        [b.hash, 48],
      ]);
      // The outbox rows share the sale's transaction: the same commit stamped them.
      const rows = await dataSource.manager.find(OutboxEvent, {
        where: { companyId: t.companyId },
        order: { id: 'DESC' },
        take: sale.length,
      });
      // The sale's own events go in one multi-row INSERT; the receivables' events are an INSERT … SELECT of the
      // rows just billed, a second statement of the same batch and commit, stamped by the server a moment later.
      const own = rows.filter((r) => !r.type.startsWith('receivable.'));
      expect(new Set(own.map((r) => new Date(r.occurredAt).toISOString())).size).to.equal(1);
      const stamps = rows.map((r) => new Date(r.occurredAt).getTime());
      expect(Math.max(...stamps) - Math.min(...stamps)).to.be.below(1000);
    });
  });
});
