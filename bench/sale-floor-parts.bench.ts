/*
 * Issue 37, speed: the least API CPU a quick sale and a fulfil can cost on this stack, beside what the
 * service costs, in the same process, load and rounds. The floor (sale-floor-server.ts) keeps what no
 * design on express + jsonwebtoken + mysql2 avoids: the HTTP request and its JSON body, the token's
 * check, the very round trips the service sends (recorded here from the service itself: same SQL text,
 * same parameters, the COMMIT turned into ROLLBACK so each recording can be sent again) and the same
 * answer serialized. Everything else — validation, the rules, TypeORM, decimals, mapping, audit and
 * events built in JS, rate limits, logging — is what the service adds over it.
 * A variant of the floor sends each statement as a prepared statement (mysql2's execute: one round trip
 * each), the lever the issue names. Alternating rounds (the floor without its round trips, the floor,
 * the prepared floor, the service; again …) of autocannon at the quick-sale bench's load;
 * CPU per operation of each server process (process.cpuUsage over IPC).
 *   npm run bench -- sale-floor-parts        env: ROUNDS (3), SECS (10), CONC (16), RECORDINGS (16), RAW_SECS (8: the raw-SQL floor per round)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2';
import { signToken } from '../src/core/auth/jwt';
import { dataSource } from '../src/core/db/data-source';
import { encodeId } from '../src/core/hashids';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { counterTenant } from './counter-setup';
import { type Recording, tagParam } from './sale-floor-recording';
import {
  cpuMeter,
  load,
  machine,
  median,
  prepareDatabase,
  rawQuickSaleFloor,
  reportFile,
  startServer,
  startServerProcess,
} from './support';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECS = Number(process.env.SECS ?? 10);
const CONC = Number(process.env.CONC ?? 16);
const RECORDINGS = Number(process.env.RECORDINGS ?? 16);
const RAW_SECS = Number(process.env.RAW_SECS ?? 8);
const PRODUCTS = 1000;
const OPEN_ORDERS = 500;

/*
 * What the work sends through mysql2 (every connection of this process), a final COMMIT sent as ROLLBACK.
 * The patch is installed before any pool exists: the host pool keeps each connection's query as it found
 * it when the connection opened (host-pool.ts, its statement deadline), so a later patch would not be seen.
 */
let recording: Recording['trips'] | null = null;
{
  const proto = (mysql as unknown as { Connection: { prototype: { query: (...args: unknown[]) => unknown } } }).Connection.prototype;
  const query = proto.query;
  proto.query = function (this: unknown, sql: unknown, params: unknown, ...rest: unknown[]) {
    // The host pool hands a statement on as { sql, timeout } when it carries the statement deadline.
    const text =
      typeof sql === 'string' ? sql : sql && typeof (sql as { sql?: unknown }).sql === 'string' ? (sql as { sql: string }).sql : null;
    if (recording && text !== null) {
      const undone = text.replace(/(^|;\n)COMMIT$/, '$1ROLLBACK');
      recording.push({ sql: undone, params: Array.isArray(params) ? params.map(tagParam) : [] });
      return query.call(this, typeof sql === 'string' ? undone : { ...(sql as object), sql: undone }, params, ...rest);
    }
    return query.call(this, sql, params, ...rest);
  };
}

async function recordTrips(work: () => Promise<Response>): Promise<Recording> {
  const trips: Recording['trips'] = [];
  recording = trips;
  try {
    const res = await work();
    const body: unknown = await res.json();
    if (res.status >= 300) throw new Error(`recording answered ${res.status}: ${JSON.stringify(body)}`);
    if (!trips.some((t) => t.sql.endsWith('ROLLBACK'))) throw new Error('recording: no COMMIT seen');
    return { trips, status: res.status, body };
  } finally {
    recording = null;
  }
}

interface Side {
  kind: 'http' | 'floor' | 'prepared' | 'service';
  round: number;
  rps: number;
  api: number;
  errors: number;
}

(async () => {
  await prepareDatabase();
  const { company, filial, products, customer } = await counterTenant(PRODUCTS, 1_000_000);
  const companyHash = encodeId('company', company.id);
  const token = signToken({ sub: 'bench', companyId: companyHash, filiais: ['*'], scope: '*' }, '2h');
  const headers = {
    authorization: `Bearer ${token}`,
    'x-company-id': companyHash,
    'x-filial-id': encodeId('filial', filial.id),
    'content-type': 'application/json',
  };
  const productHash = (i: number) => encodeId('product', products[i].id);
  const saleBody = () => {
    const picks = new Set<number>();
    while (picks.size < 3) picks.add(Math.floor(Math.random() * PRODUCTS));
    return JSON.stringify({
      flowMode: 'QUICK_SALE',
      items: [...picks].map((i) => ({ productId: productHash(i), quantity: 1 })),
      payments: [{ method: 'CASH', amount: '30.00' }],
    });
  };

  // Open orders to fulfil (2 lines of 100,000 units), through the API in this process.
  const inProcess = await startServer();
  const post = (p: string, body: string) => fetch(`${inProcess.baseUrl}${p}`, { method: 'POST', headers, body });
  const fulfils: { path: string; body: string }[] = [];
  for (let i = 0; i < OPEN_ORDERS; i++) {
    const res = await post(
      '/api/sales-order',
      JSON.stringify({
        customerId: encodeId('customer', customer.id),
        items: [0, 1].map((k) => ({ productId: productHash((2 * i + k) % PRODUCTS), quantity: 100_000 })),
      }),
    );
    const order = (await res.json()) as { id: string; items: { salesOrderItemId: string }[] };
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(order)}`);
    fulfils.push({
      path: `/api/sales-order/${order.id}/fulfill`,
      body: JSON.stringify({ items: order.items.map((it) => ({ salesOrderItemId: it.salesOrderItemId, quantity: 1 })) }),
    });
  }
  // Warm the in-process service, then record: each recording is one request of the bench's own kind.
  for (let i = 0; i < 50; i++) await post('/api/sales-order', saleBody());
  for (let i = 0; i < 10; i++) await post(fulfils[i].path, fulfils[i].body);
  const recordings = { quickSale: [] as Recording[], fulfil: [] as Recording[] };
  for (let i = 0; i < RECORDINGS; i++) {
    recordings.quickSale.push(await recordTrips(() => post('/api/sales-order', saleBody())));
    const f = fulfils[OPEN_ORDERS - 1 - i];
    recordings.fulfil.push(await recordTrips(() => post(f.path, f.body)));
  }
  await inProcess.close();
  const recordingsFile = path.join(os.tmpdir(), `sale-floor-recordings-${process.pid}.json`);
  fs.writeFileSync(recordingsFile, JSON.stringify(recordings));
  const tripsOf = (r: Recording[]) => r.map((x) => x.trips.length).join('/');

  const sides: Record<'quick sale' | 'fulfil', Side[]> = { 'quick sale': [], fulfil: [] };
  const requestsOf = {
    'quick sale': [
      { method: 'POST' as const, path: '/api/sales-order', setupRequest: (r: Record<string, unknown>) => ({ ...r, body: saleBody() }) },
    ],
    fulfil: [
      {
        method: 'POST' as const,
        setupRequest: (r: Record<string, unknown>) => {
          const f = fulfils[Math.floor(Math.random() * (OPEN_ORDERS - RECORDINGS))];
          return { ...r, path: f.path, body: f.body };
        },
      },
    ],
  };
  const rawTps: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const raw = rawQuickSaleFloor(RAW_SECS);
    if (raw) rawTps.push(raw.tps);
    for (const kind of ['http', 'floor', 'prepared', 'service'] as const) {
      const server =
        kind === 'service'
          ? await startServerProcess([], { DB_POOL_SIZE: '24' })
          : await startServerProcess(
              [],
              { FLOOR_RECORDINGS: recordingsFile, FLOOR_SQL: { http: '0', floor: '1', prepared: 'prepared' }[kind] },
              'sale-floor-server.ts',
            );
      for (const op of ['quick sale', 'fulfil'] as const) {
        const opts = { url: server.baseUrl, connections: CONC, headers, requests: requestsOf[op] as never };
        await load({ ...opts, duration: 2 }); // warm-up
        const meter = await cpuMeter(server);
        const run = await load({ ...opts, duration: SECS });
        const cpu = await meter.stop(run.requests - run.non2xx);
        sides[op].push({ kind, round, rps: run.rps, api: cpu.api, errors: run.errors + run.non2xx });
        console.log(
          `round ${round} ${op} ${kind}: ${run.rps.toFixed(1)}/s, API ${cpu.api.toFixed(3)} ms/op, errors+non2xx ${run.errors + run.non2xx} ${JSON.stringify(run.statusCodes)}`,
        );
      }
      await server.stop();
    }
  }
  fs.rmSync(recordingsFile, { force: true });

  const lines = [
    `## Quick sale and fulfil: the stack's floor beside the service — ${machine()}`,
    '',
    `${CONC} clients, ${SECS} s per side and round after 2 s of warm-up, ${ROUNDS} rounds alternating HTTP part → floor → floor with prepared statements → service. Round trips recorded per request (quick sale ${tripsOf(recordings.quickSale)}; fulfil ${tripsOf(recordings.fulfil)}), ${RECORDINGS} recordings of each. "HTTP part": the floor server without its round trips (body, token, answer).`,
    '',
    '| operation | round | HTTP part ms/op | floor ops/s | floor API ms/op | floor, prepared statements: ops/s, API ms/op | service ops/s | service API ms/op | floor ÷ service |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  let failed = false;
  for (const op of ['quick sale', 'fulfil'] as const) {
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const h = sides[op].find((s) => s.kind === 'http' && s.round === round)!;
      const f = sides[op].find((s) => s.kind === 'floor' && s.round === round)!;
      const p = sides[op].find((s) => s.kind === 'prepared' && s.round === round)!;
      const s = sides[op].find((x) => x.kind === 'service' && x.round === round)!;
      failed ||= h.errors > 0 || f.errors > 0 || p.errors > 0 || s.errors > 0;
      ratios.push(f.api / s.api);
      lines.push(
        `| ${op} | ${round} | ${h.api.toFixed(3)} | ${f.rps.toFixed(1)} | ${f.api.toFixed(3)} | ${p.rps.toFixed(1)}, ${p.api.toFixed(3)} | ${s.rps.toFixed(1)} | ${s.api.toFixed(3)} | ${(f.api / s.api).toFixed(2)} |`,
      );
    }
    const med = (k: Side['kind']) => median(sides[op].filter((s) => s.kind === k).map((s) => s.api));
    lines.push(
      `| **${op}, median** | | ${med('http').toFixed(3)} | | **${med('floor').toFixed(3)}** | ${med('prepared').toFixed(3)} | | **${med('service').toFixed(3)}** | **${median(ratios).toFixed(2)}** |`,
    );
  }
  if (rawTps.length) {
    const tps = (k: Side['kind']) => median(sides['quick sale'].filter((x) => x.kind === k).map((x) => x.rps));
    const rawMedian = median(rawTps);
    lines.push(
      '',
      `Quick sales per second against the raw-SQL floor (../shared/bench, ${RAW_SECS} s in every round: ${rawTps.join(', ')} tps; median ${rawMedian}): ` +
        `HTTP part ${(tps('http') / rawMedian).toFixed(3)}, floor ${(tps('floor') / rawMedian).toFixed(3)}, floor with prepared statements ${(tps('prepared') / rawMedian).toFixed(3)}, service ${(tps('service') / rawMedian).toFixed(3)} (medians).`,
    );
  }
  const text = lines.join('\n');
  console.log(text);
  fs.writeFileSync(reportFile('sale-floor-parts'), text + '\n');
  await closeSequencePool();
  await dataSource.destroy();
  process.exit(failed ? 1 : 0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
