import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { dataSource } from '../../src/core/db/data-source';
import { publishEvent } from '../../src/core/outbox/outbox.service';
import { WebhookDelivery } from '../../src/modules/events/entities/webhook-delivery.entity';
import { backoffMs, WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher';
import { signWebhook, verifyWebhook } from '../../src/modules/events/webhook-signature';
import { encodeId } from '../../src/core/hashids';
import { api, app } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

const publish = (t: TestTenant, type: string, filialIndex: number | null, data: Record<string, unknown> = {}) =>
  inTransaction(NO_UNIT, (em) =>
    publishEvent(em, t.ctx, {
      type,
      filialId: filialIndex === null ? null : t.filialIds[filialIndex],
      aggregateType: 'test',
      aggregateId: 1,
      data,
    }),
  );

describe('Events (SPEC §10)', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  describe('GET /events', () => {
    it("answers the tenant's events after a cursor, filtered by type and granted filiais", async () => {
      await publish(t, 'test.alpha', 0, { n: 1 });
      await publish(t, 'test.beta', 1, { n: 2 });
      await publish(t, 'test.alpha', null, { n: 3 });
      await publish(other, 'test.alpha', 0, { n: 99 });
      const all = await api().get('/api/events').query({ after: '0' }).set(t.headers());
      expect(all.status).to.equal(200);
      expect(all.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 2, 3]);
      expect(all.body.data[0]).to.have.keys('id', 'type', 'companyId', 'filialId', 'occurredAt', 'resource', 'sequence', 'cursor', 'data');
      expect(all.body.data[0].companyId).to.equal(t.companyHash);
      // One resource (test 1): its events numbered in commit order.
      expect(all.body.data.map((e: { sequence: number }) => e.sequence)).to.deep.equal([1, 2, 3]);
      expect(all.body.data[0].resource).to.deep.equal({ type: 'test', id: null });
      expect(all.body.nextCursor).to.equal(all.body.data[2].cursor);

      const alpha = await api().get('/api/events').query({ after: '0', types: 'test.alpha' }).set(t.headers());
      expect(alpha.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 3]);
      const after = await api().get('/api/events').query({ after: all.body.data[0].cursor }).set(t.headers());
      expect(after.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([2, 3]);
      expect(after.body.nextCursor).to.equal(all.body.data[2].cursor);
      // The first API's cursor (an event id) still works: after that event.
      const legacy = await api().get('/api/events').query({ after: all.body.data[0].id }).set(t.headers());
      expect(legacy.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([2, 3]);

      // A token for filial 0 only does not see filial 1's events (company-wide ones it does).
      const narrow = await api()
        .get('/api/events')
        .query({ after: '0' })
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }));
      expect(narrow.body.data.map((e: { data: { n: number } }) => e.data.n)).to.deep.equal([1, 3]);
    });

    it('without a cursor starts from now; the cursor it answers picks up what commits next', async () => {
      const s = await createTestTenant({ filiais: 1 });
      await publish(s, 'test.old', 0, { n: 1 });
      const now = await api().get('/api/events').set(s.headers());
      expect(now.status).to.equal(200);
      expect(now.body.data).to.deep.equal([]);
      expect(now.body.nextCursor).to.be.a('string');
      await publish(s, 'test.new', 0, { n: 2 });
      const next = await api().get('/api/events').query({ after: now.body.nextCursor }).set(s.headers());
      expect(next.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['test.new']);
      // A filter that matches nothing still moves the cursor on.
      const none = await api().get('/api/events').query({ after: now.body.nextCursor, types: 'test.nothing' }).set(s.headers());
      expect(none.body.data).to.deep.equal([]);
      expect(none.body.nextCursor).to.equal(next.body.nextCursor);
    });

    it("a malformed cursor, another tenant's or another resource's id → 400 INVALID_CURSOR", async () => {
      const mine = (await api().get('/api/events').set(t.headers())).body.nextCursor;
      const theirs = (await api().get('/api/events').set(other.headers())).body.nextCursor;
      const theirEvent = (await api().get('/api/events').query({ after: '0' }).set(other.headers())).body.data[0].id;
      for (const bad of ['not-a-cursor!', 'abc', theirs, theirEvent, encodeId('sales-order', 1), `${mine}x`]) {
        expectProblem(await api().get('/api/events').query({ after: bad }).set(t.headers()), 400, 'INVALID_CURSOR');
      }
      expectProblem(
        await api()
          .get('/api/events/stream')
          .set({ ...t.headers(), 'Last-Event-ID': 'garbage!' }),
        400,
        'INVALID_CURSOR',
      );
      expectProblem(await api().get('/api/events/stream').query({ after: theirs }).set(t.headers()), 400, 'INVALID_CURSOR');
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
      expectProblem(
        await api()
          .get('/api/events')
          .set(t.headersWith({ scope: 'sales-order:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });

  describe('GET /events/stream (SSE)', () => {
    let server: http.Server;
    let port: number;
    before(async () => {
      server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise((r) => server.close(r)));

    /** Opens the stream, runs `meanwhile` once it is connected, answers what arrived until `until` shows up. */
    const streamUntil = (headers: Record<string, string>, until: string, meanwhile: () => Promise<unknown>) =>
      new Promise<string>((resolve, reject) => {
        const req = http.get({ port, host: '127.0.0.1', path: '/api/events/stream', headers }, (res) => {
          expect(res.headers['content-type']).to.match(/text\/event-stream/);
          let buffer = '';
          res.on('data', (chunk) => {
            buffer += chunk;
            if (buffer.includes(': connected')) void meanwhile().catch(reject);
            if (buffer.includes(until)) {
              req.destroy();
              resolve(buffer);
            }
          });
        });
        req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      });

    it('streams new events with their cursors as ids, resuming after Last-Event-ID', async () => {
      const s = await createTestTenant({ filiais: 1 });
      await publish(s, 'test.first', 0, { n: 1 });
      const first = (await api().get('/api/events').query({ after: '0' }).set(s.headers())).body.data[0].cursor;
      const received = await streamUntil({ ...s.headers(), 'Last-Event-ID': first }, 'test.second', () =>
        publish(s, 'test.second', 0, { n: 2 }),
      );
      expect(received).to.contain('event: test.second');
      expect(received).to.not.contain('test.first');
      const second = (await api().get('/api/events').query({ after: first }).set(s.headers())).body.data[0];
      // The SSE id is the event's cursor (what Last-Event-ID sends back on reconnect).
      expect(received).to.contain(`id: ${second.cursor}\n`);
    });

    it('without a cursor starts from now; after=0 replays the history', async () => {
      const s = await createTestTenant({ filiais: 1 });
      await publish(s, 'test.history', 0, { n: 1 });
      const fresh = await streamUntil(s.headers(), 'test.live', () => publish(s, 'test.live', 0, { n: 2 }));
      expect(fresh).to.not.contain('test.history');
      const replay = await new Promise<string>((resolve, reject) => {
        const req = http.get({ port, host: '127.0.0.1', path: '/api/events/stream?after=0', headers: s.headers() }, (res) => {
          let buffer = '';
          res.on('data', (chunk) => {
            buffer += chunk;
            if (buffer.includes('test.live')) {
              req.destroy();
              resolve(buffer);
            }
          });
        });
        req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      });
      expect(replay.indexOf('test.history')).to.be.within(0, replay.indexOf('test.live'));
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
      const created = await api()
        .post('/api/webhooks')
        .set(s.headers())
        .send({ url, types: ['test.hook'] });
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
      expect(
        verifyWebhook(
          created.body.secret,
          Number(call.headers['webhook-timestamp']),
          call.body,
          String(call.headers['webhook-signature']),
          300,
          clock.getTime(),
        ),
      ).to.equal(true);
      expect(
        verifyWebhook(
          'another-secret',
          Number(call.headers['webhook-timestamp']),
          call.body,
          String(call.headers['webhook-signature']),
          300,
          clock.getTime(),
        ),
      ).to.equal(false);

      const deliveries = await api().get(`/api/webhooks/${created.body.id}/deliveries`).set(s.headers());
      expect(deliveries.body.data).to.have.length(1);
      expect(deliveries.body.data[0]).to.include({ status: 'DELIVERED', attempts: 2, lastStatusCode: 204, eventId: body.id });
    });

    it('POST /webhooks with an Idempotency-Key: the subscription and the key commit together; a retry replays it', async () => {
      // Issue 44: the relay that positions committed events ran in a transaction beside the route's unit (500).
      const s = await createTestTenant({ filiais: 1 });
      await publish(s, 'test.before', 0);
      const key = `webhook-key-${Date.now()}`;
      const first = await api()
        .post('/api/webhooks')
        .set(s.headers())
        .set('Idempotency-Key', key)
        .send({ url, types: ['test.keyed'] });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const again = await api()
        .post('/api/webhooks')
        .set(s.headers())
        .set('Idempotency-Key', key)
        .send({ url, types: ['test.keyed'] });
      expect(again.status).to.equal(201);
      expect(again.body).to.deep.equal(first.body);
      expect((await api().get('/api/webhooks').set(s.headers())).body.data.map((w: any) => w.id)).to.deep.equal([first.body.id]);
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
      for (let i = 0; i < 3; i++)
        ids.push(
          (
            await api()
              .post('/api/webhooks')
              .set(s.headers())
              .send({ url: `${url}?n=${i}` })
          ).body.id,
        );
      const first = await api().get('/api/webhooks').query({ pageSize: 2 }).set(s.headers());
      expect(first.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(0, 2));
      expect(first.body.pagination).to.include({ page: 1, pageSize: 2, total: 3, totalPages: 2, hasMore: true });
      const next = await api().get('/api/webhooks').query({ pageSize: 2, cursor: first.body.pagination.nextCursor }).set(s.headers());
      expect(next.body.data.map((w: { id: string }) => w.id)).to.deep.equal(ids.slice(2));
      expect((await api().get('/api/webhooks').set(other.headers())).body.data.map((w: { id: string }) => w.id)).to.not.include.members(
        ids,
      );
      expectProblem(
        await api().get('/api/webhooks').query({ cursor: first.body.pagination.nextCursor }).set(other.headers()),
        400,
        'INVALID_CURSOR',
      );
    });

    it("another tenant's webhook → 404; bad URL → 400", async () => {
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
