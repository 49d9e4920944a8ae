import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { insertRows } from '../../src/core/db/sql';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { WebhookDelivery } from '../../src/modules/events/entities/webhook-delivery.entity';
import { WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher';
import { api, app } from '../support/api';
import { createTestTenant, TestTenant } from '../support/tenant';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  id: string;
  n: number;
  cursor: string;
}

/*
 * Ids are taken at insert and visible at commit. Here every writer inserts its event first and
 * commits after a random delay, several at once, so events commit in another order than their ids
 * (on the embedded engine transactions run one at a time). Cursor readers polling all along must
 * still see each event exactly once, in one order; the webhook fan-out must queue each once.
 */
describe('Events: no event lost or repeated whatever the commit order', function () {
  this.timeout(60_000);
  const WRITERS = 50;
  const AT_ONCE = 10;
  let t: TestTenant;
  let server: http.Server;
  let port: number;

  before(async () => {
    t = await createTestTenant({ filiais: 1 });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((r) => server.close(r)));

  /** Writer i: inserts its event, holds the transaction open, commits. */
  const writer = (i: number, delayMs: number) =>
    inTransaction(NO_UNIT, async (em) => {
      await insertRows(em, OutboxEvent, [
        {
          companyId: t.companyId,
          filialId: t.filialIds[0],
          type: 'test.interleaved',
          aggregateType: 'test',
          aggregateId: 1000 + (i % 7),
          data: { n: i },
        },
      ]);
      await sleep(delayMs);
    });

  /** Long-poll reader: follows nextCursor until stopped. */
  function longPollReader(start: string, stop: () => boolean): Promise<Seen[]> {
    return (async () => {
      const seen: Seen[] = [];
      let after = start;
      while (!stop()) {
        const res = await api().get('/api/events').query({ after, wait: 1, limit: 7 }).set(t.headers());
        expect(res.status).to.equal(200);
        for (const e of res.body.data) seen.push({ id: e.id, n: e.data.n, cursor: e.cursor });
        after = res.body.nextCursor;
      }
      return seen;
    })();
  }

  /** SSE reader from a cursor; `close` ends it and answers what it saw. */
  function sseReader(start: string): { seen: Seen[]; close: () => void } {
    const seen: Seen[] = [];
    let buffer = '';
    const req = http.get(
      { port, host: '127.0.0.1', path: '/api/events/stream', headers: { ...t.headers(), 'Last-Event-ID': start } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split('\n').find((l) => l.startsWith('data: '));
            if (data) {
              const e = JSON.parse(data.slice(6));
              seen.push({ id: e.id, n: e.data.n, cursor: e.cursor });
            }
          }
        });
      },
    );
    req.on('error', () => undefined);
    return { seen, close: () => req.destroy() };
  }

  it(`${WRITERS} writers committing out of id order: two cursor readers and the webhook fan-out each get every event once`, async () => {
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body).id);
        res.statusCode = 204;
        res.end();
      });
    });
    const received: string[] = [];
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const hook = await api()
        .post('/api/webhooks')
        .set(t.headers())
        .send({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`, types: ['test.interleaved'] });
      expect(hook.status).to.equal(201);
      const start = (await api().get('/api/events').set(t.headers())).body.nextCursor as string;

      let stopped = false;
      const longPoll = longPollReader(start, () => stopped);
      const sse = sseReader(start);
      const dispatcher = new WebhookDispatcher();
      const fanOut = (async () => {
        while (!stopped) {
          await dispatcher.fanOut();
          await sleep(20);
        }
      })();

      // Writers in waves of AT_ONCE, each committing after a random delay: commits leave id order.
      // (The embedded engine runs one transaction at a time: short delays, commits in id order.)
      const delays = Array.from({ length: WRITERS }, () => Math.floor(Math.random() * (isMysql ? 250 : 30)));
      for (let wave = 0; wave < WRITERS; wave += AT_ONCE) {
        await Promise.all(delays.slice(wave, wave + AT_ONCE).map((d, k) => writer(wave + k, d)));
      }
      const written = await dataSource.manager.find(OutboxEvent, {
        where: { companyId: t.companyId, type: 'test.interleaved' },
        order: { id: 'ASC' },
      });
      expect(written).to.have.length(WRITERS);

      // Let the readers catch up, then one more round for anything repeated.
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && sse.seen.length < WRITERS) await sleep(100);
      await sleep(1500);
      stopped = true;
      sse.close();
      const polled = await longPoll;
      await fanOut;
      await dispatcher.runOnce();

      const all = written.map((e) => (e.data as { n: number }).n).sort((a, b) => a - b);
      for (const [name, seen] of [
        ['long-poll', polled],
        ['SSE', sse.seen],
      ] as const) {
        const ns = seen.map((s) => s.n);
        expect(new Set(ns).size, `${name}: duplicates`).to.equal(ns.length);
        expect(
          [...ns].sort((a, b) => a - b),
          `${name}: missing`,
        ).to.deep.equal(all);
      }
      // One order for every reader: the stream's.
      expect(sse.seen.map((s) => s.id)).to.deep.equal(polled.map((s) => s.id));
      const positions = (
        await dataSource.manager.find(OutboxEvent, {
          where: { companyId: t.companyId, type: 'test.interleaved' },
          order: { position: 'ASC' },
        })
      ).map((e) => e.position!);
      expect(positions).to.deep.equal(positions.map((_, i) => positions[0] + i)); // dense
      if (isMysql) {
        // The case that lost events when readers paged by id: the stream's order is not the ids'.
        const ids = (
          await dataSource.manager.find(OutboxEvent, {
            where: { companyId: t.companyId, type: 'test.interleaved' },
            order: { position: 'ASC' },
          })
        ).map((e) => e.id);
        expect(ids).to.not.deep.equal([...ids].sort((a, b) => a - b));
      }

      const deliveries = await dataSource.manager.find(WebhookDelivery, { where: { companyId: t.companyId } });
      expect(deliveries).to.have.length(WRITERS);
      expect(new Set(deliveries.map((d) => d.eventId)).size).to.equal(WRITERS);
      expect(received).to.have.length(WRITERS);
      expect(new Set(received).size).to.equal(WRITERS);
      await api().delete(`/api/webhooks/${hook.body.id}`).set(t.headers()).expect(204);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });

  it("per-resource sequences count each resource's events in stream order", async () => {
    const rows = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, type: 'test.interleaved' },
      order: { position: 'ASC' },
    });
    const bySource = new Map<number, number[]>();
    for (const r of rows) bySource.set(r.aggregateId, [...(bySource.get(r.aggregateId) ?? []), r.resourceSeq!]);
    for (const seqs of bySource.values()) expect(seqs).to.deep.equal(seqs.map((_, i) => i + 1));
  });
});
