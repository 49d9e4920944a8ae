import { expect } from 'chai';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import winston from 'winston';
import { createApp } from '../../src/app';
import { logger } from '../../src/core/logger';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';
import { NFE, sefazTenant } from '../sefaz/support';

const TOKEN = 'observability-test-token-0123456789';

function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/*
 * What operators read: one JSON access-log line per request at the default level (route template,
 * status, duration, request id, tenant as hashids — never internal ids); the tax authority's latency
 * and cStat in /metrics whatever the service; business activity (sales, documents confirmed) by
 * domain event type.
 */
describe('Observability: access log, SEFAZ metrics, business counters', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant();
  });

  it('one JSON line per request at level info, with hashids only', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const transport = new winston.transports.Stream({ stream });
    const was = { silent: logger.silent, level: logger.level };
    const others = logger.transports.map((x) => [x, x.silent] as const);
    for (const [x] of others) x.silent = true;
    logger.add(transport);
    logger.silent = false;
    logger.level = 'info';
    try {
      const product = await makeProduct(t);
      await api().get(`/api/catalog/products/${product.hash}`).set(t.headers()).set('x-request-id', 'obs-req-1');
      await api().get('/api/catalog/products/Zz9Zz9Zz').set(t.headers()).set('x-request-id', 'obs-req-2');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      logger.remove(transport);
      for (const [x, silent] of others) x.silent = silent;
      logger.silent = was.silent;
      logger.level = was.level;
    }
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.message === 'request');
    const first = entries.find((e) => e.requestId === 'obs-req-1');
    expect(first).to.deep.include({
      level: 'info',
      method: 'GET',
      route: '/api/catalog/products/:id',
      status: 200,
      company: t.companyHash,
      filial: t.filialHashes[0],
    });
    expect(first.durationMs).to.be.a('number');
    expect(entries.find((e) => e.requestId === 'obs-req-2')).to.deep.include({ status: 404, route: '/api/catalog/products/:id' });
    // Never the internal ids.
    const text = lines.join('');
    expect(text).to.not.match(new RegExp(`"companyId":${t.companyId}\\b`));
    expect(text).to.not.contain('/Zz9Zz9Zz');
  });

  it('SEFAZ: latency and cStat counted for every call; business counters by domain event', async function () {
    this.timeout(60_000);
    const app = createApp({ metrics: { token: TOKEN } });
    const scrape = async () => (await supertest(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
    const before = await scrape();
    const s = await sefazTenant();
    s.sim.generate({ recipient: s.cnpj, count: 3 });
    expect((await supertest(app).post(`${NFE}/consultar`).set(s.headers())).status).to.equal(200);
    // A quick sale: one sale, counted by its event.
    await makePaymentMethod(t, 'DINHEIRO', 'CASH');
    const product = await makeProduct(t, { price: '10.00' } as never);
    await supertest(app)
      .put(`/api/quick-sale/configuration/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({ enabled: true, paymentMethods: ['DINHEIRO'], allowNegativeStock: true });
    const sale = await supertest(app)
      .post('/api/sales-order')
      .set(t.headers())
      .send({
        flowMode: 'QUICK_SALE',
        items: [{ productId: product.hash, quantity: 1, unitPrice: 10 }],
        payments: [{ method: 'DINHEIRO', amount: 10 }],
      });
    const after = await scrape();
    const distOk = (text: string) =>
      sample(text, 'backoffice_sefaz_replies_total', { service: 'DIST_DFE', http_status: '200', cstat: '138' }) ?? 0;
    expect(distOk(after)).to.be.greaterThan(distOk(before));
    expect(sample(after, 'backoffice_sefaz_request_duration_seconds_count', { service: 'DIST_DFE', outcome: 'ok' })).to.be.greaterThan(0);
    if (sale.status === 201) {
      const sales = (text: string) => sample(text, 'backoffice_domain_events_total', { type: 'quick-sale.completed' }) ?? 0;
      expect(sales(after)).to.be.greaterThan(sales(before));
    } else {
      expect.fail(`quick sale: ${sale.status} ${JSON.stringify(sale.body)}`);
    }
  });
});
