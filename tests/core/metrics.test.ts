import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createApp } from '../../src/app';
import { validateConfig } from '../../src/core/config';
import { isMysql } from '../../src/core/db/engine';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { nextSequenceValues } from '../../src/core/sequence/sequence.service';
import { encodeId } from '../../src/core/hashids';
import { registerScrapeCollector, startMetricsServer } from '../../src/core/metrics';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { WebhookDelivery } from '../../src/modules/events/entities/webhook-delivery.entity';
import { WebhookSubscription } from '../../src/modules/events/entities/webhook-subscription.entity';
import { DfeSchedule } from '../../src/modules/dfe/entities/dfe-schedule.entity';
import { Company } from '../../src/modules/tenancy/entities/company.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

const TOKEN = 'metrics-test-token-0123456789';

/** The value of one sample of the Prometheus text: `name{labels} value`, labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('Operators’ metrics (GET /metrics)', () => {
  const app = createApp({ metrics: { token: TOKEN } });
  const metrics = () => supertest(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant({ filiais: 2 });
  });

  it('configuration: a short token or a wrong port stops the start, naming the variable; neither → off', () => {
    expect(() => validateConfig({ METRICS_TOKEN: 'short' })).to.throw(/METRICS_TOKEN/);
    expect(() => validateConfig({ METRICS_PORT: 'metrics' })).to.throw(/METRICS_PORT/);
    expect(validateConfig({}).metrics).to.deep.equal({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(validateConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).metrics).to.deep.equal({
      token: TOKEN,
      port: 9464,
      host: '127.0.0.1',
    });
  });

  it('needs its own token: none or a wrong one → 401 problem+json; an API token is not one', async () => {
    expectProblem(await supertest(app).get('/metrics'), 401, 'INVALID_METRICS_TOKEN');
    expectProblem(await supertest(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`), 401, 'INVALID_METRICS_TOKEN');
    expectProblem(await supertest(app).get('/metrics').set(t.headers()), 401, 'INVALID_METRICS_TOKEN');
  });

  it('is not served at all without METRICS_TOKEN (the suite’s app)', async () => {
    expectProblem(await api().get('/metrics').set('Authorization', `Bearer ${TOKEN}`), 404, 'ROUTE_NOT_FOUND');
  });

  it('Prometheus text with Node’s process metrics', async () => {
    const res = await metrics().expect(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    expect(sample(res.text, 'process_cpu_user_seconds_total')).to.be.greaterThan(0);
    expect(sample(res.text, 'nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
    expect(res.text).to.match(/^nodejs_eventloop_lag_p99_seconds /m);
  });

  it('counts and times requests per route template: no raw URL, id or tenant in any label', async () => {
    const orderId = encodeId('sales-order', 987654321);
    await supertest(app).get(`/api/sales-order/detail/${orderId}`).set(t.headers()).expect(404);
    await supertest(app).get(`/api/sales-order/detail/${orderId}`).set(t.headers()).expect(404);
    // Fails validation: the error leaves the router before the answer, the template stays whole.
    await supertest(app).get('/api/sales-order/detail/not-an-id!').set(t.headers()).expect(400);
    await supertest(app).get(`/api/no-such-route/${orderId}`).expect(404);
    await supertest(app).get('/api/health').expect(200);
    const text = (await metrics().expect(200)).text;

    const route = '/api/sales-order/detail/:id';
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '404' })).to.equal(2);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '400' })).to.equal(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route })).to.equal(3);
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route, le: '+Inf' })).to.equal(3);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).to.be.at.least(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/api/health', status: '200' })).to.be.at.least(1);
    // Scrapes are not API requests.
    expect(text).not.to.match(/route="\/metrics"/);
    const labelValues = [...text.matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    const company = await dataSource.manager.findOneByOrFail(Company, { id: t.companyId });
    for (const secret of [orderId, 'not-an-id!', encodeId('company', t.companyId), company.cnpj, company.name]) {
      expect(labelValues, secret).not.to.include.members([secret]);
      expect(text).not.to.include(secret);
    }
    for (const v of labelValues.filter((v) => v.startsWith('/'))) expect(v, v).to.match(/^\/api(\/[\w.-]+|\/:\w+)*$/);
  });

  it('DF-e sync state: filiais by last outcome, due and failing, and the worst filiais by hashid only', async () => {
    const now = Date.now();
    const [f0, f1] = t.filialIds;
    await dataSource.manager.update(Filial, { id: f0, companyId: t.companyId }, { dfeSyncEnabled: true });
    await dataSource.manager.update(Filial, { id: f1, companyId: t.companyId }, { dfeSyncEnabled: true });
    await dataSource.manager.insert(DfeSchedule, [
      {
        companyId: t.companyId,
        filialId: f0,
        nextRunAt: new Date(now - 3_600_000),
        lastOutcome: 'ERROR',
        consecutiveErrors: 977,
        lastErrorCode: 'SEFAZ_TIMEOUT',
      },
      {
        companyId: t.companyId,
        filialId: f1,
        nextRunAt: new Date(now + 3_600_000),
        lastOutcome: 'OK',
        leaseOwner: 'replica-a',
        leaseUntil: new Date(now + 600_000),
      },
    ]);
    const text = (await metrics().expect(200)).text;

    expect(sample(text, 'backoffice_metrics_collector_up', { collector: 'dfe_sync' })).to.equal(1);
    expect(sample(text, 'backoffice_dfe_sync_filiais', { outcome: 'ERROR' })).to.be.at.least(1);
    expect(sample(text, 'backoffice_dfe_sync_filiais', { outcome: 'OK' })).to.be.at.least(1);
    expect(sample(text, 'backoffice_dfe_sync_filiais_in_state', { state: 'running' })).to.be.at.least(1);
    expect(sample(text, 'backoffice_dfe_sync_filiais_in_state', { state: 'due' })).to.be.at.least(1);
    expect(sample(text, 'backoffice_dfe_sync_filiais_in_state', { state: 'failing' })).to.be.at.least(1);
    expect(sample(text, 'backoffice_dfe_sync_oldest_due_seconds')).to.be.at.least(3500);
    expect(sample(text, 'backoffice_dfe_sync_filial_consecutive_errors', { filial: encodeId('filial', f0) })).to.equal(977);
    expect(sample(text, 'backoffice_dfe_sync_filial_consecutive_errors', { filial: encodeId('filial', f1) })).to.equal(undefined);

    // A filial whose sync was turned off keeps its row but is no longer counted.
    await dataSource.manager.update(Filial, { id: f0, companyId: t.companyId }, { dfeSyncEnabled: false });
    const after = (await metrics().expect(200)).text;
    expect(sample(after, 'backoffice_dfe_sync_filial_consecutive_errors', { filial: encodeId('filial', f0) })).to.equal(undefined);
  });

  // The scheduler tests run every filial with the sync on, of any company: leave none on.
  after(async () => {
    await dataSource.manager.update(Filial, { companyId: t.companyId }, { dfeSyncEnabled: false });
  });

  it('event outbox and webhook backlog of companies with an active subscription', async () => {
    const before = (await metrics().expect(200)).text;
    const value = (text: string, name: string, labels?: Record<string, string>) => sample(text, name, labels) ?? 0;
    const sub = await dataSource.manager.save(
      dataSource.manager.create(WebhookSubscription, {
        companyId: t.companyId,
        url: 'http://127.0.0.1:9/hook',
        types: [],
        description: null,
        secret: 's'.repeat(40),
        active: true,
        lastPosition: 0,
      }),
    );
    const events = await dataSource.manager.save(
      [1, 2, 3].map((i) =>
        dataSource.manager.create(OutboxEvent, {
          companyId: t.companyId,
          filialId: null,
          type: 'test.metrics',
          aggregateType: 'test',
          aggregateId: i,
          data: {},
          position: null,
          resourceSeq: null,
        }),
      ),
    );
    const due = new Date(Date.now() - 120_000);
    await dataSource.manager.insert(WebhookDelivery, [
      { companyId: t.companyId, subscriptionId: sub.id, eventId: events[0].id, status: 'PENDING', attempts: 1, nextAttemptAt: due },
      { companyId: t.companyId, subscriptionId: sub.id, eventId: events[1].id, status: 'FAILED', attempts: 8, nextAttemptAt: due },
    ]);
    const text = (await metrics().expect(200)).text;

    expect(sample(text, 'backoffice_metrics_collector_up', { collector: 'outbox' })).to.equal(1);
    expect(sample(text, 'backoffice_metrics_collector_up', { collector: 'webhooks' })).to.equal(1);
    expect(value(text, 'backoffice_outbox_unpositioned_events') - value(before, 'backoffice_outbox_unpositioned_events')).to.be.at.least(3);
    expect(
      value(text, 'backoffice_webhook_deliveries', { status: 'pending' }) -
        value(before, 'backoffice_webhook_deliveries', { status: 'pending' }),
    ).to.be.at.least(1);
    expect(
      value(text, 'backoffice_webhook_deliveries', { status: 'failed' }) -
        value(before, 'backoffice_webhook_deliveries', { status: 'failed' }),
    ).to.be.at.least(1);
    expect(value(text, 'backoffice_webhook_oldest_due_pending_seconds')).to.be.at.least(100);

    // Deliveries of a subscription turned off are nobody's backlog.
    await dataSource.manager.update(WebhookSubscription, { id: sub.id }, { active: false });
    const off = (await metrics().expect(200)).text;
    expect(value(off, 'backoffice_webhook_deliveries', { status: 'failed' })).to.be.below(
      value(text, 'backoffice_webhook_deliveries', { status: 'failed' }),
    );
  });

  it('database pool use on MySQL, per pool: main, transactions, sequence (nothing on the embedded engine)', async () => {
    // A transaction and a counter bump first, so the two pools opened on demand are open.
    await inTransaction(NO_UNIT, (tx) => tx.query('SELECT 1'));
    await nextSequenceValues(dataSource.manager, t.companyId, 'metrics-test');
    const text = (await metrics().expect(200)).text;
    if (isMysql) {
      for (const pool of ['main', 'transactions', 'sequence']) {
        expect(sample(text, 'backoffice_db_pool_connections', { pool, state: 'max' }), pool).to.be.greaterThan(0);
        expect(sample(text, 'backoffice_db_pool_connections', { pool, state: 'idle' }), pool).to.be.at.least(0);
        expect(sample(text, 'backoffice_db_pool_connections', { pool, state: 'in_use' }), pool).to.be.at.least(0);
        expect(sample(text, 'backoffice_db_pool_waiting', { pool }), pool).to.be.at.least(0);
      }
      expect(sample(text, 'backoffice_db_pool_connections', { pool: 'sequence', state: 'max' })).to.equal(4);
    } else {
      expect(sample(text, 'backoffice_db_pool_connections', { pool: 'main', state: 'max' })).to.equal(undefined);
    }
  });

  it('a collector that fails shows up as down, and the scrape still answers', async () => {
    const remove = registerScrapeCollector(
      'test_failing',
      () => Promise.reject(new Error('boom')),
      () => undefined,
    );
    try {
      const text = (await metrics().expect(200)).text;
      expect(sample(text, 'backoffice_metrics_collector_up', { collector: 'test_failing' })).to.equal(0);
      expect(sample(text, 'backoffice_metrics_collector_up', { collector: 'outbox' })).to.equal(1);
    } finally {
      remove();
    }
  });

  describe('on a listener of its own (METRICS_PORT)', () => {
    const servers: Server[] = [];
    after(() => servers.forEach((s) => s.close()));
    const start = async (token?: string) => {
      const server = await startMetricsServer({ port: 0, host: '127.0.0.1', token });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    it('serves GET /metrics and nothing else; the token is checked when one is set', async () => {
      const open = await start();
      const res = await fetch(`${open}/metrics`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.match(/^process_cpu_user_seconds_total /m);
      expect((await fetch(`${open}/api/health`)).status).to.equal(404);

      const guarded = await start(TOKEN);
      expect((await fetch(`${guarded}/metrics`)).status).to.equal(401);
      expect((await fetch(`${guarded}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).to.equal(200);
    });
  });
});
