/*
 * Event delivery under concurrent writes with two replicas (issue 13), MariaDB only. Counts, not timings:
 *   - two API replicas (child processes), each also running the webhook dispatcher;
 *   - writers: ORDERS sales orders created, then concurrent PATCHes (CLIENTS clients spread over both
 *     replicas, each on its own orders) until EVENTS events were produced in all;
 *   - readers, all started from "now" before the first write: an SSE stream and a long-poll loop on
 *     each replica, and one webhook subscription whose receiver is sometimes slow;
 *   - afterwards: per reader, events received, distinct, missing (committed but never received),
 *     duplicates, and whether it saw them in the stream's order.
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<db> npm run bench -- events
 *   env: EVENTS (10000), ORDERS (200), CLIENTS (16), BENCH_PORT_BASE (42001: replicas on base, base+1; receiver base+9)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataSource } from '../src/core/db/data-source';
import { encodeId } from '../src/core/hashids';
import { OutboxEvent } from '../src/core/outbox/outbox-event.entity';
import { WebhookDelivery } from '../src/modules/events/entities/webhook-delivery.entity';
import { makeProduct } from '../tests/support/catalog';
import { createTestTenant, machine, prepareDatabase, startServerProcess } from './support';

const N = {
  events: Number(process.env.EVENTS ?? 10_000),
  orders: Number(process.env.ORDERS ?? 200),
  clients: Number(process.env.CLIENTS ?? 16),
  portBase: Number(process.env.BENCH_PORT_BASE ?? 42001),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Reader {
  name: string;
  ids: string[];
  stop: () => Promise<void>;
}

function sseReader(name: string, baseUrl: string, headers: Record<string, string>, start: string): Reader {
  const ids: string[] = [];
  let buffer = '';
  const url = new URL('/api/events/stream', baseUrl);
  const req = http.get(
    { host: url.hostname, port: url.port, path: url.pathname, headers: { ...headers, 'Last-Event-ID': start } },
    (res) => {
      if (res.statusCode !== 200) throw new Error(`${name}: HTTP ${res.statusCode}`);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (data) ids.push(JSON.parse(data.slice(6)).id);
        }
      });
    },
  );
  req.on('error', () => undefined);
  return { name, ids, stop: async () => void req.destroy() };
}

function longPollReader(name: string, baseUrl: string, headers: Record<string, string>, start: string): Reader {
  const ids: string[] = [];
  let stopped = false;
  const done = (async () => {
    let after = start;
    while (!stopped) {
      const res = await fetch(`${baseUrl}/api/events?after=${after}&wait=2&limit=500`, { headers });
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { data: { id: string }[]; nextCursor: string };
      for (const e of body.data) ids.push(e.id);
      after = body.nextCursor;
    }
  })();
  return {
    name,
    ids,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

(async () => {
  await prepareDatabase();
  const t = await createTestTenant({ filiais: 1 });
  const product = await makeProduct(t);
  const headers = t.headers() as Record<string, string>;

  // The receiver: 204 after 0–5 ms, one request in 100 after 800 ms (slow endpoint: slots held, leases tested).
  const receiverIds: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiverIds.push(String(req.headers['webhook-id']));
      setTimeout(
        () => {
          res.statusCode = 204;
          res.end();
        },
        Math.random() < 0.01 ? 800 : Math.random() * 5,
      );
    });
  });
  await new Promise<void>((r) => receiver.listen(N.portBase + 9, '127.0.0.1', () => r()));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const replicaEnv = (i: number) => ({
    BENCH_PORT: String(N.portBase + i),
    BENCH_WEBHOOKS: '1',
    WEBHOOK_DISPATCH_INTERVAL_MS: '200',
    DB_POOL_SIZE: '24',
  });
  const replicas = [await startServerProcess([], replicaEnv(0)), await startServerProcess([], replicaEnv(1))];
  console.log(`replicas: ${replicas.map((r) => r.baseUrl).join(', ')}; receiver ${receiverUrl}`);

  const hook = await fetch(`${replicas[0].baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: receiverUrl }),
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);

  // Every reader starts from now (the same cursor), before the first write.
  const start = ((await (await fetch(`${replicas[0].baseUrl}/api/events`, { headers })).json()) as { nextCursor: string }).nextCursor;
  const readers: Reader[] = [
    sseReader('SSE, replica 1', replicas[0].baseUrl, headers, start),
    sseReader('SSE, replica 2', replicas[1].baseUrl, headers, start),
    longPollReader('long-poll, replica 1', replicas[0].baseUrl, headers, start),
    longPollReader('long-poll, replica 2', replicas[1].baseUrl, headers, start),
  ];
  await sleep(500);

  // Writers: create the orders, then PATCH them concurrently (each client owns its orders: no 409s).
  const started = Date.now();
  let accepted = 0;
  const orders: { id: string; version: number }[] = [];
  for (let i = 0; i < N.orders; i++) {
    const res = await fetch(`${replicas[i % 2].baseUrl}/api/sales-order`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': `bench-order-${i}` },
      body: JSON.stringify({ items: [{ productId: product.hash, quantity: 1, unitPrice: 10 }] }),
    });
    if (res.status !== 201) throw new Error(`create order: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { id: string; version: number };
    orders.push({ id: body.id, version: body.version });
    accepted++;
  }
  let rejected = 0;
  const target = N.events;
  let produced = accepted; // sales-order.created: one event each
  await Promise.all(
    Array.from({ length: N.clients }, async (_v, c) => {
      const mine = orders.filter((_o, i) => i % N.clients === c);
      const base = replicas[c % 2].baseUrl;
      for (let k = 0; produced < target; k++) {
        const o = mine[k % mine.length];
        produced++; // reserve before the await so the clients stop at the target together
        const res = await fetch(`${base}/api/sales-order/${o.id}`, {
          method: 'PATCH',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ version: o.version, notes: `bench ${c}-${k}` }),
        });
        if (res.status === 200) {
          o.version = ((await res.json()) as { version: number }).version;
          accepted++;
        } else {
          produced--;
          rejected++;
          await res.text();
        }
      }
    }),
  );
  const writeSecs = (Date.now() - started) / 1000;

  // Ground truth: the tenant's committed events (all of them came after `start`).
  const committed = (await dataSource.manager.find(OutboxEvent, { select: { id: true }, where: { companyId: t.companyId } })).length;

  // Let every consumer catch up (stop early when all have everything; give up after 60 s without progress).
  const progress = () => readers.reduce((n, r) => n + r.ids.length, 0) + receiverIds.length;
  let last = -1;
  let idleSince = Date.now();
  for (;;) {
    const webhookDone = new Set(receiverIds).size >= committed;
    if (readers.every((r) => new Set(r.ids).size >= committed) && webhookDone) break;
    const p = progress();
    if (p !== last) {
      last = p;
      idleSince = Date.now();
    } else if (Date.now() - idleSince > 60_000) break;
    await sleep(250);
  }
  await sleep(3000); // anything delivered twice shows up here
  for (const r of readers) await r.stop();
  for (const r of replicas) await r.stop();
  await new Promise((r) => receiver.close(r));

  // Everything committed, positioned by the relay, in stream order.
  const stream = (await dataSource.manager.query(
    'SELECT id FROM outbox_event WHERE company_id = ? AND stream_position IS NOT NULL ORDER BY stream_position',
    [t.companyId],
  )) as { id: number }[];
  const streamIds = stream.map((r) => encodeId('event', Number(r.id)));
  const truth = new Set(streamIds);
  const deliveries = await dataSource.manager.find(WebhookDelivery, { where: { companyId: t.companyId } });
  // Events that became visible after a higher id already was: the ones a reader paging by id could skip.
  const [{ late }] = (await dataSource.manager.query(
    `SELECT COUNT(*) AS late FROM (SELECT id, MAX(id) OVER (ORDER BY stream_position ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before_max
       FROM outbox_event WHERE company_id = ? AND stream_position IS NOT NULL) x WHERE id < before_max`,
    [t.companyId],
  )) as { late: number | string }[];

  const rows: string[][] = [];
  const line = (name: string, ids: string[], ordered: boolean | null) => {
    const distinct = new Set(ids);
    const missing = [...truth].filter((id) => !distinct.has(id)).length;
    rows.push([
      name,
      String(ids.length),
      String(distinct.size),
      String(missing),
      String(ids.length - distinct.size),
      ordered === null ? 'n/a' : ordered ? 'yes' : 'no',
    ]);
  };
  for (const r of readers) line(r.name, r.ids, r.ids.join() === streamIds.join());
  line('webhook (receiver)', receiverIds, null);

  console.log(`\n${machine()}`);
  console.log(
    `produced: ${committed} events committed (${accepted} writes accepted, ${rejected} rejected) in ${writeSecs.toFixed(1)} s; positioned: ${stream.length}`,
  );
  console.log(`committed out of id order (visible after a higher id): ${Number(late)}`);
  console.log(
    `webhook deliveries: ${deliveries.length} rows, ${deliveries.filter((d) => d.status === 'DELIVERED').length} DELIVERED, ${deliveries.filter((d) => d.attempts > 1).length} with more than one attempt`,
  );
  console.log('\n| consumer | received | distinct | missing | duplicates | stream order |\n|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  await dataSource.destroy();
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
