import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../src/app';
import { config } from '../../src/core/config';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Request pipeline (SPEC §0)', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant();
  });

  it('unknown route → 404 problem+json', async () => {
    expectProblem(await api().get('/api/does-not-exist'), 404, 'ROUTE_NOT_FOUND');
    expectProblem(await api().post('/nothing/here'), 404, 'ROUTE_NOT_FOUND');
  });

  it('echoes x-request-id, or generates one; every response carries API-Version', async () => {
    const given = await api().get('/api/health').set('x-request-id', 'req-123');
    expect(given.headers['x-request-id']).to.equal('req-123');
    expect(given.headers['api-version']).to.equal(config.version);
    const generated = await api().get('/api/health');
    expect(generated.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const problem = await api().get('/api/catalog/products').set('x-request-id', 'req-456');
    expect(problem.body.requestId).to.equal('req-456');
  });

  it('broken JSON → 400 MALFORMED_JSON', async () => {
    const res = await api().post('/api/catalog/products').set(t.headers()).set('Content-Type', 'application/json').send('{"name": "x",');
    expectProblem(res, 400, 'MALFORMED_JSON');
  });

  it('body over 1 MB → 413', async () => {
    const res = await api()
      .post('/api/catalog/products')
      .set(t.headers())
      .send({ name: 'x'.repeat(1_100_000), unit: 'UN' });
    expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('wrong content type on a JSON route → 415', async () => {
    const res = await api().post('/api/catalog/products').set(t.headers()).set('Content-Type', 'text/plain').send('name=x');
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('validation → 400 with every field path, nothing written', async () => {
    const res = await api()
      .post('/api/catalog/products')
      .set(t.headers())
      .send({ unit: 'UNIDADE-LONGA', price: '1.23456789012', gtin: '123' });
    expectProblem(res, 400, 'VALIDATION_ERROR');
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).to.include.members(['name', 'unit', 'price', 'gtin']);
    const list = await api().get('/api/catalog/products').set(t.headers());
    expect(list.body.data).to.have.length(0);
  });

  it('too many requests → 429 with Retry-After', async () => {
    const limited = createApp({ rateLimit: { windowMs: 60_000, max: 3 } });
    for (let i = 0; i < 3; i++) expect((await supertest(limited).get('/api/me').set(t.headers())).status).to.equal(200);
    const res = await supertest(limited).get('/api/me').set(t.headers());
    expectProblem(res, 429, 'TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    // Another token (other user) has its own budget.
    expect(
      (
        await supertest(limited)
          .get('/api/me')
          .set(t.headersWith({ sub: 'someone-else' }))
      ).status,
    ).to.equal(200);
  });

  it('per address, in front of authentication: failed authentications are throttled, then the address waits (429)', async () => {
    const limited = createApp({ addressRateLimit: { windowMs: 60_000, max: 1000, authFailuresMax: 3 } });
    const bad = { Authorization: 'Bearer not-a-token', 'x-company-id': t.companyHash };
    // Successful calls do not use the failure budget.
    for (let i = 0; i < 5; i++) expect((await supertest(limited).get('/api/me').set(t.headers())).status).to.equal(200);
    for (let i = 0; i < 3; i++) expectProblem(await supertest(limited).get('/api/me').set(bad), 401);
    const res = await supertest(limited).get('/api/me').set(bad);
    expectProblem(res, 429, 'TOO_MANY_AUTH_FAILURES');
    expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    // The address waits for anything but a valid token (a till network behind one NAT keeps working: issue 43);
    // another address is not affected.
    expectProblem(await supertest(limited).get('/api/me').set(bad), 429, 'TOO_MANY_AUTH_FAILURES');
    expect((await supertest(limited).get('/api/me').set(t.headers())).status).to.equal(200);
    expect((await supertest(limited).get('/api/me').set(t.headers()).set('X-Forwarded-For', '203.0.113.9')).status).to.equal(200);
  });

  it('per address, a ceiling on all requests whatever their token', async () => {
    const limited = createApp({ addressRateLimit: { windowMs: 60_000, max: 2, authFailuresMax: 100 } });
    expect((await supertest(limited).get('/api/me').set(t.headers())).status).to.equal(200);
    expect(
      (
        await supertest(limited)
          .get('/api/me')
          .set(t.headersWith({ sub: 'another-user' }))
      ).status,
    ).to.equal(200);
    expectProblem(
      await supertest(limited)
        .get('/api/me')
        .set(t.headersWith({ sub: 'a-third-user' })),
      429,
      'TOO_MANY_REQUESTS_FROM_ADDRESS',
    );
    // Public routes (health checks of load balancers) are not counted.
    expect((await supertest(limited).get('/api/health')).status).to.equal(200);
  });

  it('internal failures → 500 without internals', async () => {
    const { errorMiddleware } = await import('../../src/core/errors/error-middleware');
    const express = (await import('express')).default;
    const { requestContext } = await import('../../src/core/http/request-id');
    const app = express();
    app.use(requestContext);
    app.get('/boom', () => {
      throw new Error('SELECT secret FROM internals');
    });
    app.use(errorMiddleware);
    const res = await supertest(app).get('/boom');
    expectProblem(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).to.not.contain('secret');
  });

  it('health and ready need no token', async () => {
    expect((await api().get('/api/health')).body).to.include({ status: 'ok' });
    expect((await api().get('/api/ready')).body).to.include({ status: 'ready' });
  });

  it('serves the OpenAPI document built from the routes and their joi schemas, and the docs UI', async () => {
    const doc = await api().get('/api/openapi.json');
    expect(doc.status).to.equal(200);
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.info.version).to.equal(config.version);
    const create = doc.body.paths['/api/catalog/products'].post;
    expect(create.requestBody.content['application/json'].schema.required).to.include.members(['name', 'unit']);
    expect(doc.body.paths['/api/catalog/stock/{filialId}'].get.parameters.map((p: { name: string }) => p.name)).to.include('filialId');
    const ui = await api().get('/api/docs/');
    expect(ui.status).to.equal(200);
    expect(ui.text).to.contain('swagger');
  });
});

describe('Rate limit counters in Redis (REDIS_URL)', () => {
  it('replicas sharing one Redis share the budget', async function () {
    const net = await import('node:net');
    const reachable = await new Promise<boolean>((resolve) => {
      const s = net.connect(6379, '127.0.0.1', () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (!reachable) this.skip();
    const t = await createTestTenant({ filiais: 1 });
    const { createRedisRateLimitStore } = await import('../../src/core/http/rate-limit-store');
    const prefix = `rl-test-${Date.now()}:`;
    const a = await createRedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    const b = await createRedisRateLimitStore('redis://127.0.0.1:6379', prefix);
    try {
      const replica1 = createApp({ rateLimit: { windowMs: 60_000, max: 2, store: a.store } });
      const replica2 = createApp({ rateLimit: { windowMs: 60_000, max: 2, store: b.store } });
      expect((await supertest(replica1).get('/api/me').set(t.headers())).status).to.equal(200);
      expect((await supertest(replica2).get('/api/me').set(t.headers())).status).to.equal(200);
      expectProblem(await supertest(replica1).get('/api/me').set(t.headers()), 429, 'TOO_MANY_REQUESTS');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
