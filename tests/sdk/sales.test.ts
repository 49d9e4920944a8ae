import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/app';
import { ApiError, Client, createClient, retryAfterMs } from '../../sdk/src';
import { addStock, makeCustomer, makeProduct, stockOf } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

/** Starts an app of the service on an ephemeral port (in-process) and answers its base URL. */
async function listen(app = createApp()): Promise<{ baseUrl: string; server: Server }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('SDK: sales orders against the real server', () => {
  let t: TestTenant;
  let server: Server;
  let baseUrl: string;
  let client: Client;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  /** Requests the client sent (method, path, headers), through a recording fetch. */
  const sent: { method: string; url: string; headers: Record<string, string> }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    sent.push({ method: String(init?.method), url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    return fetch(input, init);
  };

  before(async () => {
    t = await createTestTenant();
    ({ baseUrl, server } = await listen());
    client = createClient({ baseUrl, token: t.token, companyId: t.companyHash, filialId: t.filialHashes[0], fetch: recordingFetch });
    product = await makeProduct(t, { name: 'Teclado' });
    await addStock(t, 0, product.id, 20, '50');
  });
  after(() => close(server));

  it('create → get → find → fulfill, typed, with tenant headers and automatic Idempotency-Keys', async () => {
    const customer = await makeCustomer(t, { name: 'Helena Prado' });
    sent.length = 0;
    const order = await client.sales.create({
      customerId: customer.hash,
      items: [{ productId: product.hash, quantity: 3, unitPrice: '99.9' }],
    });
    expect(order).to.include({ status: 'OPEN', type: 'ORDER', customerName: 'Helena Prado' });
    expect(order.totals.total).to.equal(299.7);
    expect(sent[0].headers).to.include({
      Authorization: `Bearer ${t.token}`,
      'x-company-id': t.companyHash,
      'x-filial-id': t.filialHashes[0],
    });
    expect(sent[0].headers['Idempotency-Key']).to.match(/^[0-9a-f-]{36}$/);

    expect(await client.sales.get(order.id)).to.deep.equal(order);
    expect(await client.sales.detail(order.id)).to.deep.equal({ ...order, fiscalDocuments: [] });
    const found = await client.sales.find({ search: 'helena', status: 'OPEN' });
    expect(found.data.map((o) => o.id)).to.deep.equal([order.id]);
    expect(found.pagination.total).to.equal(1);
    expect((await client.sales.find({ search: String(order.code) })).data.map((o) => o.id)).to.include(order.id);

    sent.length = 0;
    const result = await client.sales.fulfill(order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2 }]);
    expect(result.order.status).to.equal('PARTIALLY_FULFILLED');
    expect(result.fulfillment.items[0]).to.include({ quantity: 2, unitCost: 50 });
    expect(sent[0].headers['Idempotency-Key']).to.match(/^[0-9a-f-]{36}$/);
    expect(sent[0].headers['Content-Type']).to.equal('application/json');
    expect((await stockOf(t, 0, product.id)).quantity).to.equal('18.0000');
    const view = await client.sales.fulfillment(order.id);
    expect(view.items[0]).to.include({ ordered: 3, fulfilled: 2, remaining: 1 });
  });

  it('a chosen Idempotency-Key makes a repeated create answer the same order', async () => {
    const body = { items: [{ productId: product.hash, quantity: 1 }] };
    const a = await client.sales.create(body, { idempotencyKey: 'sdk-create-1' });
    const b = await client.sales.create(body, { idempotencyKey: 'sdk-create-1' });
    expect(b.id).to.equal(a.id);
  });

  it('failures throw ApiError with the problem document', async () => {
    const missing = await client.sales.get('abcdefgh12').catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(ApiError);
    const err = missing as ApiError;
    expect(err.status).to.equal(404);
    expect(err.code).to.equal('SALES_ORDER_NOT_FOUND');
    expect(err.problem).to.include.keys('type', 'title', 'detail', 'instance', 'requestId');
    expect(err.requestId).to.be.a('string');

    const invalid = (await client.sales.create({ items: [{ productId: product.hash, quantity: 0 }] }).catch((e: unknown) => e)) as ApiError;
    expect(invalid.status).to.equal(400);
    expect(invalid.errors.map((e) => e.path)).to.deep.equal(['items[0].quantity']);

    const order = await client.sales.create({ items: [{ productId: product.hash, quantity: 1 }] });
    const over = (await client.sales
      .fulfill(order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 5 }])
      .catch((e: unknown) => e)) as ApiError;
    expect(over.code).to.equal('QUANTITY_ABOVE_REMAINING');
    expect(over.status).to.equal(422);
  });

  it('the rest of the module: update, assign-customer, group preview/group, conversions, cancel preview/cancel, remove, list', async () => {
    const customer = await makeCustomer(t);
    const a = await client.sales.create({ customerId: customer.hash, items: [{ productId: product.hash, quantity: 1 }] });
    const b = await client.sales.create({ customerId: customer.hash, items: [{ productId: product.hash, quantity: 2 }] });
    const edited = await client.sales.update(a.id, { version: a.version, notes: 'via SDK' });
    expect(edited).to.include({ notes: 'via SDK', version: 2 });
    const preview = await client.sales.groupPreview([a.id, b.id]);
    expect(preview.canGroup).to.equal(true);
    expect(preview.order.items[0].quantity).to.equal(3);
    const merged = await client.sales.group([a.id, b.id]);
    expect(merged.groupedFromIds).to.have.members([a.id, b.id]);

    const quote = await client.sales.convertOrderToQuote(merged.id, '2999-01-01');
    expect(quote).to.include({ type: 'QUOTE', validUntil: '2999-01-01' });
    expect((await client.sales.convertQuote(quote.id)).type).to.equal('ORDER');
    const other = await makeCustomer(t);
    expect((await client.sales.assignCustomer(merged.id, other.hash)).customerId).to.equal(other.hash);
    const cancelPreview = await client.sales.cancelPreview(merged.id);
    expect(cancelPreview).to.include({ canCancel: true, resultingStatus: 'CANCELLED' });
    expect((await client.sales.cancel(merged.id, 'teste do SDK')).status).to.equal('CANCELLED');

    const doomed = await client.sales.create({ items: [{ productId: product.hash, quantity: 1 }] });
    expect(await client.sales.remove(doomed.id)).to.equal(undefined);
    expect(((await client.sales.get(doomed.id).catch((e: unknown) => e)) as ApiError).status).to.equal(404);
    const listed = await client.sales.list(t.filialHashes[0], { status: 'CANCELLED' });
    expect(listed.data.map((o) => o.id)).to.include(merged.id);
    const all: string[] = [];
    for await (const o of client.sales.findAll({ pageSize: 2 })) all.push(o.id);
    expect(all).to.include.members([a.id, b.id, merged.id]);
    expect(new Set(all).size).to.equal(all.length);
  });

  it('429 is retried after the Retry-After the server sent (same Idempotency-Key), then succeeds', async function () {
    this.timeout(20_000);
    const limited = await listen(createApp({ rateLimit: { windowMs: 2_000, max: 1 } }));
    try {
      const calls: { status: number; key?: string }[] = [];
      const tracing: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        calls.push({ status: res.status, key: (init?.headers as Record<string, string>)['Idempotency-Key'] });
        return res;
      };
      const c = createClient({
        baseUrl: limited.baseUrl,
        token: t.token,
        companyId: t.companyHash,
        filialId: t.filialHashes[0],
        fetch: tracing,
      });
      await c.sales.find({ pageSize: 1 });
      const started = Date.now();
      const order = await c.sales.create({ items: [{ productId: product.hash, quantity: 1 }] });
      expect(order.status).to.equal('OPEN');
      expect(calls.map((x) => x.status)).to.deep.equal([200, 429, 201]);
      expect(calls[1].key).to.equal(calls[2].key);
      expect(Date.now() - started).to.be.greaterThan(500);
    } finally {
      await close(limited.server);
    }
  });

  it('503 is retried; after the last retry the ApiError carries Retry-After', async () => {
    let attempts = 0;
    const unavailable: typeof fetch = async () => {
      attempts++;
      return new Response(
        JSON.stringify({ type: 'urn:x', title: 'Service Unavailable', status: 503, code: 'MAINTENANCE', detail: 'down' }),
        {
          status: 503,
          headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '0' },
        },
      );
    };
    const c = createClient({ baseUrl, token: t.token, companyId: t.companyHash, fetch: unavailable, maxRetries: 2 });
    const err = (await c.sales.get('abcdefgh12').catch((e: unknown) => e)) as ApiError;
    expect(err).to.be.instanceOf(ApiError);
    expect(err.status).to.equal(503);
    expect(err.code).to.equal('MAINTENANCE');
    expect(err.retryAfterSeconds).to.equal(0);
    expect(attempts).to.equal(3);
  });

  it('Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).to.equal(3000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).to.be.within(3000, 5000);
    expect(retryAfterMs(null)).to.equal(null);
    expect(retryAfterMs('soon')).to.equal(null);
  });
});
