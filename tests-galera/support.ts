import { expect } from 'chai';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { config } from '../src/core/config';
import type { HostHealth } from '../src/core/db/host-pool';
import type { WorkerStats } from '../src/core/worker';
import { makeCustomer, makePaymentMethod, makeSeller } from '../tests/support/catalog';
import type { TestTenant } from '../tests/support/tenant';

/* The cluster, its nodes and the service replicas of the Galera suite. */

const root = path.resolve(__dirname, '..');
const run = promisify(execFile);

/** Node n (1..3) as scripts/galera.sh numbers them. */
export const nodes = config.db.hosts.map((h, i) => ({ n: i + 1, ...h }));
export const database = new URL(config.db.url!.replace(/^\w+:/, 'http:')).pathname.slice(1);

export const galera = (...args: string[]) =>
  run('bash', [path.join(root, 'scripts/galera.sh'), ...args], { cwd: root, maxBuffer: 1 << 20 });

/** A plain connection to one node (checks, checksums), outside the service's pools. */
export async function onNode<T>(n: number, work: (c: mysql.Connection) => Promise<T>, causal = true): Promise<T> {
  const h = nodes[n - 1];
  const c = await mysql.createConnection({ host: h.host, port: h.port, user: 'root', database, multipleStatements: true });
  try {
    // Reads wait until this node has applied everything the cluster committed before them (not for
    // a node's own state, which must answer on a node that is not ready).
    if (causal) await c.query('SET SESSION wsrep_sync_wait = 1');
    return await work(c);
  } finally {
    await c.end();
  }
}

/**
 * Waits until every node has applied all the cluster committed so far (a causal read on each), so
 * that checks read through the service's pool afterwards see every acknowledged write on any node.
 */
export async function causalBarrier(): Promise<void> {
  await Promise.all(nodes.map((h) => onNode(h.n, (c) => c.query('SELECT COUNT(*) FROM schema_migrations'))));
}

/** CHECKSUM TABLE of every table of the database, per table name. */
export async function checksums(n: number): Promise<Record<string, string>> {
  return onNode(n, async (c) => {
    const [tables] = await c.query<mysql.RowDataPacket[]>(
      'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
      [database],
    );
    const [rows] = await c.query<mysql.RowDataPacket[]>(`CHECKSUM TABLE ${tables.map((r) => `\`${r.t}\``).join(', ')}`);
    return Object.fromEntries(rows.map((r) => [String(r.Table).split('.').pop(), String(r.Checksum)]));
  });
}

export async function wsrepStatus(n: number): Promise<Record<string, string>> {
  return onNode(
    n,
    async (c) => {
      const [rows] = await c.query<mysql.RowDataPacket[]>("SHOW STATUS LIKE 'wsrep_%'");
      return Object.fromEntries(rows.map((r) => [r.Variable_name, String(r.Value)]));
    },
    false,
  );
}

export interface ReplicaStats {
  /** Transactions this replica ran again after a deadlock or certification conflict… */
  retries: number;
  /** …of which the COMMIT itself failed. */
  retriesAtCommit: number;
  /** Statements refused because their transaction had ended (an abandoned attempt's). */
  strays: number;
  /** Its database hosts as its pool sees them. */
  hosts: HostHealth[];
  /** Its background workers (GALERA_REPLICA_WORKERS=1): name, state and run counts. */
  workers: ({ name: string; state: string } & WorkerStats)[];
}

export interface Replica {
  name: string;
  baseUrl: string;
  /** Transactions this replica ran again after a deadlock or certification conflict. */
  retries(): Promise<number>;
  stats(): Promise<ReplicaStats>;
  /** Its last warning lines (JSON log lines). */
  warnings(): string[];
  stop(): Promise<void>;
}

/**
 * A service replica (its own process) whose database is `hosts` (node numbers, 1..3), on a port the
 * kernel gives it (env PORT to ask for one); rejects when it does not listen.
 */
export async function startReplica(name: string, hosts: number[], env: Record<string, string> = {}): Promise<Replica> {
  const list = hosts.map((n) => `${nodes[n - 1].host}:${nodes[n - 1].port}`).join(',');
  const child: ChildProcess = spawn(process.execPath, ['-r', 'ts-node/register', path.join(__dirname, 'replica.ts')], {
    cwd: root,
    // A key whose replica lost its node is taken over by a retry after 5 s (not the default 30 s,
    // which equals the time a retry waits for it): each key ends answered.
    // Replicas log at warn: their stdout is a pipe to this busy process, and a pipe write is synchronous on
    // Linux, so an access line per request stalled a replica under the kill rounds' load (no answers).
    env: {
      IDEMPOTENCY_LEASE_MS: '5000',
      ...process.env,
      ...env,
      LOG_LEVEL: process.env.GALERA_REPLICA_LOG_LEVEL ?? 'warn',
      DB_URL: `mysql://root@${list}/${database}`,
      PORT: env.PORT ?? '0',
      TS_NODE_TRANSPILE_ONLY: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Everything the replica writes (stdout and stderr, whole) goes to GALERA_REPLICA_LOG_DIR/<name>.log
  // when set: a replica that misbehaves leaves its own account. Its stderr reaches the test's output too.
  const logDir = process.env.GALERA_REPLICA_LOG_DIR;
  let logFile: fs.WriteStream | null = null;
  if (logDir) {
    fs.mkdirSync(logDir, { recursive: true });
    logFile = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
    child.stdout!.on('data', (d: Buffer) => logFile!.write(d));
    child.once('exit', (code, signal) => logFile!.end(`${new Date().toISOString()} exited: ${code ?? signal}\n`));
  }
  child.stderr!.on('data', (d: Buffer) => {
    logFile?.write(`${new Date().toISOString()} [stderr] ${d.toString()}`);
    process.stderr.write(`[${name}] ${d.toString()}`);
  });
  // A replica's error lines (a 500's cause, with its stack) reach the test's output; its warnings are
  // kept (the last 500) for a test to print when it fails, and echoed with GALERA_REPLICA_ECHO=warn.
  const warnings: string[] = [];
  const echoWarnings = process.env.GALERA_REPLICA_ECHO === 'warn';
  child.stdout!.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (line.includes('"level":"error"')) process.stderr.write(`[${name}] ${line}\n`);
      else if (line.includes('"level":"warn"')) {
        if (warnings.push(line) > 500) warnings.shift();
        if (echoWarnings) process.stderr.write(`[${name}] ${line}\n`);
      }
    }
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('close', (code) => reject(new Error(`replica ${name} exited with ${code}: ${stderr.trim()}`)));
  });
  let asked = 0;
  const waiting = new Map<number, (v: ReplicaStats) => void>();
  child.on('message', (m: ReplicaStats & { id: number }) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const stats = () =>
    new Promise<ReplicaStats>((resolve) => {
      const id = ++asked;
      waiting.set(id, resolve);
      child.send({ id });
    });
  return {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    warnings: () => [...warnings],
    retries: async () => (await stats()).retries,
    stats,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Answer {
  status: number;
  body: any;
  retryAfter: string | null;
}

/** One HTTP call to a replica; a refused or reset connection answers status 0. */
export async function call(
  baseUrl: string,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  try {
    const res = await fetch(`${baseUrl}/api${route}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, retryAfter: res.headers.get('retry-after') };
  } catch (err) {
    // fetch says "fetch failed": what failed is its cause (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…).
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, body: { error: (err as Error).message, cause: cause?.code ?? cause?.message }, retryAfter: null };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const count = <T>(xs: T[], pred: (x: T, i: number) => boolean) => xs.filter(pred).length;

/** The tenant's counter open for cash quick sales on filial 0 (walk-in customer, a seller, CASH), through `replica`. */
export async function openCounter(t: TestTenant, replica: Replica): Promise<void> {
  const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
  const seller = await makeSeller(t, { name: 'Caixa 1' });
  await makePaymentMethod(t, 'CASH', 'CASH');
  const saved = await call(replica.baseUrl, 'PUT', `/quick-sale/configuration/${t.filialHashes[0]}`, t.headers(), {
    enabled: true,
    defaultCustomerId: walkIn.hash,
    defaultSellerId: seller.hash,
    paymentMethods: ['CASH'],
    defaultPaymentMethod: 'CASH',
    maxDiscountPercent: 10,
  });
  expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
}
