import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTransaction } from '../../src/core/db/transaction';
import { dataSource } from '../../src/core/db/data-source';
import { publishEvent } from '../../src/core/outbox/outbox.service';
import { WebhookDelivery } from '../../src/modules/events/entities/webhook-delivery.entity';
import { backoffMs, WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher';
import { signWebhook, verifyWebhook } from '../../src/modules/events/webhook-signature';
import { api, app } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

const publish = (t: TestTenant, type: string, filialIndex: number | null, data: Record<string, unknown> = {}) =>
  inTransaction((em) => publishEvent(em, t.ctx, { type, filialId: filialIndex === null ? null : t.filialIds[filialIndex], aggregateType: 'test', aggregateId: 1, data }));

describe('Events (SPEC §10)', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  describe('GET /events', () => {
    it('answers the tenant\'s events after a cursor, filtered by type and granted filiais', async () => {
      await publish(t, 'test.alpha', 0, { n: 1 });
      await publish(t, 'test.beta', 1, { n: 2 });
      await publish(t, 'test.alpha', null, { n: 3 });
      await publish(other, 'test.alpha', 0, { n: 99 });
      const all = await api().get('/api/events').set(t.headers());
      expect(all.status).to.equal(200);
      expect(all.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 2, 3]);
      expect(all.body.data[0]).to.have.keys('id', 'type', 'companyId', 'filialId', 'occurredAt', 'data');
      expect(all.body.data[0].companyId).to.equal(t.companyHash);

      const alpha = await api().get('/api/events').query({ types: 'test.alpha' }).set(t.headers());
      expect(alpha.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 3]);
      const after = await api().get('/api/events').query({ after: all.body.data[0].id }).set(t.headers());
      expect(after.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([2, 3]);
      expect(after.body.nextCursor).to.equal(all.body.data[2].id);

      // A token for filial 0 only does not see filial 1's events (company-wide ones it does).
      const narrow = await api().get('/api/events').set(t.headersWith({ filiais: [t.filialHashes[0]] }));
      expect(narrow.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 3]);
    });

    it('long-polls with wait until an event arrives', async () => {
      const s = await createTestTenant({ filiais: 1 });
      const started = Date.now();
      setTimeout(() => void publish(s, 'test.late', 0, { late: true }), 400);
      const res = await api().get('/api/events').query({ wait: 5 }).set(s.headers());
      expect(res.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['test.late']);
      expect(Date.now() - started).to.be.below(4000);
    });

    it('bad input → 400; no scope → 403', async () => {
      expectProblem(await api().get('/api/events').query({ wait: 99 }).set(t.headers()), 400, 'VALIDATION_ERROR');
      expectProblem(await api().get('/api/events').set(t.headersWith({ scope: 'sales-order:read' })), 403, 'INSUFFICIENT_SCOPE');
    });
  });

  describe('GET /events/stream (SSE)', () => {
    it('streams new events with ids, resuming after Last-Event-ID', async () => {
      const s = await createTestTenant({ filiais: 1 });
      await publish(s, 'test.first', 0, { n: 1 });
      const first = (await api().get('/api/events').set(s.headers())).body.data[0].id;
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as AddressInfo;
      try {
        const received = await new Promise<string>((resolve, reject) => {
          const req = http.get({ port, host: '127.0.0.1', path: '/api/events/stream', headers: { ...s.headers(), 'Last-Event-ID': first } }, (res) => {
            expect(res.headers['content-type']).to.match(/text\/event-stream/);
            let buffer = '';
            res.on('data', (chunk) => {
              buffer += chunk;
              if (buffer.includes('test.second')) {
                req.destroy();
                resolve(buffer);
              }
            });
          });
          req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
          setTimeout(() => void publish(s, 'test.second', 0, { n: 2 }), 300);
        });
        expect(received).to.contain('event: test.second');
        expect(received).to.not.contain('test.first');
        expect(received).to.match(/id: [A-Za-z0-9]+\n/);
      } finally {
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('webhooks', () => {
    let receiver: http.Server;
    let url: string;
    const calls: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    let failNext = 0;
    before(async () => {
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          calls.push({ headers: req.headers, body });
          res.statusCode = failNext-- > 0 ? 500 : 204;
          res.end();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
      url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    });
    after(() => new Promise((r) => receiver.close(r)));

    it('delivers signed events, retries with back-off after a failure, and records attempts', async () => {
      const s = await createTestTenant({ filiais: 1 });
      const created = await api().post('/api/webhooks').set(s.headers()).send({ url, types: ['test.hook'] });
      expect(created.status).to.equal(201);
      expect(created.body.secret).to.match(/^whsec_/);
      const listed = await api().get('/api/webhooks').set(s.headers());
      expect(listed.body.data).to.have.length(1);
      expect(listed.body.data[0]).to.not.have.property('secret');

      await publish(s, 'test.ignored', 0);
      await publish(s, 'test.hook', 0, { order: 'A1' });
      let clock = new Date();
      const dispatcher = new WebhookDispatcher({ now: () => clock });
      failNext = 1;
      calls.length = 0;
      const firstRun = await dispatcher.runOnce();
      expect(firstRun).to.deep.equal({ queued: 1, delivered: 0, failed: 0 });
      expect(calls).to.have.length(1);
      // Not due yet: nothing sent.
      expect((await dispatcher.runOnce()).delivered).to.equal(0);
      clock = new Date(clock.getTime() + backoffMs(1) + 1000);
      expect((await dispatcher.runOnce()).delivered).to.equal(1);
      expect(calls).to.have.length(2);

      const call = calls[1];
      const body = JSON.parse(call.body);
      expect(body).to.include({ type: 'test.hook', companyId: s.companyHash });
      expect(body.data).to.deep.equal({ order: 'A1' });
      expect(call.headers['webhook-id']).to.equal(body.id);
      expect(verifyWebhook(created.body.secret, Number(call.headers['webhook-timestamp']), call.body, String(call.headers['webhook-signature']), 300, clock.getTime())).to.equal(true);
      expect(verifyWebhook('another-secret', Number(call.headers['webhook-timestamp']), call.body, String(call.headers['webhook-signature']), 300, clock.getTime())).to.equal(false);

      const deliveries = await api().get(`/api/webhooks/${created.body.id}/deliveries`).set(s.headers());
      expect(deliveries.body.data).to.have.length(1);
      expect(deliveries.body.data[0]).to.include({ status: 'DELIVERED', attempts: 2, lastStatusCode: 204, eventId: body.id });
    });

    it('two dispatchers (replicas) never queue one event twice', async () => {
      const s = await createTestTenant({ filiais: 1 });
      const created = await api().post('/api/webhooks').set(s.headers()).send({ url });
      for (let i = 0; i < 5; i++) await publish(s, 'test.many', 0, { i });
      await Promise.all([new WebhookDispatcher().fanOut(), new WebhookDispatcher().fanOut()]);
      const rows = await dataSource.manager.countBy(WebhookDelivery, { companyId: s.companyId });
      expect(rows).to.equal(5);
      await api().delete(`/api/webhooks/${created.body.id}`).set(s.headers()).expect(204);
      expect(await dataSource.manager.countBy(WebhookDelivery, { companyId: s.companyId, status: 'PENDING' })).to.equal(0);
    });

    it('the subscription list is paginated like every list; another tenant sees none of them', async () => {
      const s = await createTestTenant({ filiais: 1 });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await api().post('/api/webhooks').set(s.headers()).send({ url: `${url}?n=${i}` })).body.id);
      const first = await api().get('/api/webhooks').query({ pageSize: 2 }).set(s.headers());
      expect(first.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(0, 2));
      expect(first.body.pagination).to.include({ page: 1, pageSize: 2, total: 3, totalPages: 2, hasMore: true });
      const next = await api().get('/api/webhooks').query({ pageSize: 2, cursor: first.body.pagination.nextCursor }).set(s.headers());
      expect(next.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(2));
      expect((await api().get('/api/webhooks').set(other.headers())).body.data.map((w: { id: string }) => w.id)).to.not.include.members(ids);
      expectProblem(await api().get('/api/webhooks').query({ cursor: first.body.pagination.nextCursor }).set(other.headers()), 400, 'INVALID_CURSOR');
    });

    it('another tenant\'s webhook → 404; bad URL → 400', async () => {
      const created = await api().post('/api/webhooks').set(t.headers()).send({ url });
      expectProblem(await api().delete(`/api/webhooks/${created.body.id}`).set(other.headers()), 404, 'WEBHOOK_NOT_FOUND');
      expectProblem(await api().get(`/api/webhooks/${created.body.id}/deliveries`).set(other.headers()), 404, 'WEBHOOK_NOT_FOUND');
      expectProblem(await api().post('/api/webhooks').set(t.headers()).send({ url: 'ftp://x' }), 400, 'VALIDATION_ERROR');
    });

    it('signatures reject other bodies and stale timestamps', () => {
      const ts = Math.floor(Date.now() / 1000);
      const sig = signWebhook('s3cr3t', ts, '{"a":1}');
      expect(verifyWebhook('s3cr3t', ts, '{"a":1}', sig)).to.equal(true);
      expect(verifyWebhook('s3cr3t', ts, '{"a":2}', sig)).to.equal(false);
      expect(verifyWebhook('s3cr3t', ts - 3600, '{"a":1}', signWebhook('s3cr3t', ts - 3600, '{"a":1}'))).to.equal(false);
    });
  });
});
