import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { signToken } from '../../src/core/auth/jwt';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { ChildServer as Server, freePort, kill, startServer } from '../support/child-server';

/*
 * Issue 12 class 5: a server killed with SIGKILL while idempotent requests are in flight, restarted,
 * and every request retried with its key. Each retry either replays the committed answer (same order)
 * or performs the request once; no key stays IN_PROGRESS once its lease ran out. The server is a child
 * process on this run's engine: the MySQL database of the suite, or an SQLite file of its own.
 */
// A free port per run, so the two engines' suites can run side by side.
let BASE = '';
const LEASE_MS = 1000;
const REQUESTS = 48;

interface Answer {
  status: number;
  body: { id?: string; code?: string };
  replayed: boolean;
}

async function post(headers: Record<string, string>, key: string, body: object): Promise<Answer> {
  const res = await fetch(`${BASE}/sales-order`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'], replayed: res.headers.get('idempotent-replayed') === 'true' };
}

describe('Idempotency-Key across a crash (SIGKILL mid-load, restart, retry)', function () {
  // No fixed limit: the server's start is waited for while it makes progress (support/child-server.ts), so a loaded machine is slow, not a failure.
  this.timeout(0);
  before(async () => {
    const port = await freePort();
    env.PORT = String(port);
    BASE = `http://127.0.0.1:${port}/api`;
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'idem-crash-'));
  const sqliteFile = path.join(tmp, 'crash.sqlite');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'true',
    IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
    WEBHOOK_DISPATCH_INTERVAL_MS: '0',
    SEFAZ_SIMULATOR: 'false',
    DFE_SCHEDULER: 'false',
    NFE_BATCH_WORKER: 'false',
    NFE_DEADLINE_ALERTS: 'false',
    ...(isMysql ? { DB_MIGRATE_ON_START: 'false' } : { SQLITE_FILE: sqliteFile }),
  };
  let server: Server | undefined;
  /** Reads the embedded server's file (between its runs, or once it stopped). */
  const withFile = <T>(read: (db: Database.Database) => unknown): T => {
    const db = new Database(sqliteFile, { readonly: true });
    try {
      return read(db) as T;
    } finally {
      db.close();
    }
  };

  after(async () => {
    if (server) await kill(server.child);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('every retried key replays its committed order or creates it once; no key is left IN_PROGRESS', async () => {
    server = await startServer(env);
    const { demo } = server;
    const token = signToken({ sub: 'crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
    const headers = { authorization: `Bearer ${token}`, 'x-company-id': demo.companyId, 'x-filial-id': demo.filialIds[0] };
    const run = `crash-${Date.now().toString(36)}`;
    const requests = Array.from({ length: REQUESTS }, (_v, i) => ({
      key: `${run}-${i}`,
      body: {
        customerId: demo.customerIds[1],
        alias: `${run}-${i}`,
        items: [{ productId: demo.productIds[i % demo.productIds.length], quantity: 1 + (i % 3) }],
      },
    }));

    const companyId = decodeId('company', demo.companyId);
    const keysSql = `SELECT state, COUNT(*) AS n FROM idempotency_key WHERE company_id = ? AND \`key\` LIKE '${run}-%' GROUP BY state ORDER BY state`;
    const keyStates = async (): Promise<[string, number][]> => {
      const rows: { state: string; n: number }[] = isMysql
        ? await dataSource.query(keysSql, [companyId])
        : withFile((db) => db.prepare(keysSql).all(companyId));
      return rows.map((k) => [k.state, Number(k.n)]);
    };
    const count = (states: [string, number][], state: string) => states.find(([s]) => s === state)?.[1] ?? 0;

    // All at once; the server dies when some keys are done and others in progress (read from the database).
    // The embedded engine runs one transaction at a time, so there one key at most is in progress.
    const inProgressWanted = isMysql ? 8 : 1;
    const first: (Answer | Error)[] = new Array(REQUESTS);
    let settled = 0;
    const inFlight = requests.map(async (r, i) => {
      try {
        first[i] = await post(headers, r.key, r.body);
      } catch (err) {
        first[i] = err as Error;
      }
      settled++;
    });
    for (;;) {
      const states = await keyStates();
      if ((count(states, 'DONE') >= 3 && count(states, 'IN_PROGRESS') >= inProgressWanted) || settled === REQUESTS) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    await kill(server.child);
    await Promise.all(inFlight);
    // Some keys committed with their orders; the dead process left others IN_PROGRESS, for the retries to take over.
    const left = await keyStates();
    expect(count(left, 'DONE'), JSON.stringify(left)).to.be.greaterThan(0);
    // (On the embedded engine the one key in progress may still commit before the signal lands.)
    if (isMysql) expect(count(left, 'IN_PROGRESS'), JSON.stringify(left)).to.be.greaterThan(0);
    expect(count(left, 'DONE'), JSON.stringify(left)).to.be.lessThan(REQUESTS);

    server = await startServer(env);
    // Keys the dead process held are free once their lease ran out (the restart alone takes longer).
    await new Promise((res) => setTimeout(res, LEASE_MS));
    const retried = await Promise.all(requests.map((r) => post(headers, r.key, r.body)));
    retried.forEach((a, i) => {
      expect(a.status, `${requests[i].key}: ${JSON.stringify(a.body)}`).to.equal(201);
      const before = first[i];
      if (!(before instanceof Error) && before.status === 201) {
        expect(a.replayed, requests[i].key).to.equal(true);
        expect(a.body.id).to.equal(before.body.id);
      }
    });

    // Exactly one order per key, the one the retry answered; every key DONE.
    const ordersSql = `SELECT id, alias FROM sales_order WHERE company_id = ? AND alias LIKE '${run}-%'`;
    if (!isMysql) await kill(server.child);
    const orders: { id: number; alias: string }[] = isMysql
      ? await dataSource.query(ordersSql, [companyId])
      : withFile((db) => db.prepare(ordersSql).all(companyId));
    const byAlias = new Map<string, number[]>();
    for (const o of orders) byAlias.set(o.alias, [...(byAlias.get(o.alias) ?? []), Number(o.id)]);
    requests.forEach((r, i) => {
      expect(byAlias.get(r.key), r.key).to.deep.equal([decodeId('sales-order', retried[i].body.id!)]);
    });
    expect(orders).to.have.length(REQUESTS);
    expect(await keyStates()).to.deep.equal([['DONE', REQUESTS]]);
  });
});
