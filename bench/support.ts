/* Shared pieces of the benchmarks: database, server, tenant, timing, autocannon, raw-SQL floor. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { dataSource } from '../src/core/db/data-source';
import { dropAllMysqlTables, runMigrations } from '../src/core/db/migrate';
import { createApp } from '../src/app';
import { openDatabase } from '../src/core/db/connect';

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
  };
}

/** The raw-SQL floor of a quick sale (../shared/bench), measured in the same run. */
export function rawQuickSaleFloor(secs = 15): { tps: number; p50: string; p99: string } | null {
  const script = path.resolve(__dirname, '../../shared/bench/raw-quick-sale-floor.js');
  if (!fs.existsSync(script)) return null;
  const res = spawnSync(process.execPath, [script], { cwd: path.resolve(__dirname, '..'), env: { ...process.env, SECS: String(secs) }, encoding: 'utf8' });
  const line = res.stdout.trim().split('\n').pop();
  return line ? JSON.parse(line) : null;
}

export const machine = () => `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length}× ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

export const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);

/** Starts bench/serve.ts in a child process (optionally with extra node flags such as --cpu-prof). */
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

/** The pid of the local MariaDB/MySQL server, when it runs on this machine. */
export function databaseServerPid(): number | undefined {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      const pid = Number(execFileSync('pidof', [name], { encoding: 'utf8' }).trim().split(' ')[0]);
      if (pid) return pid;
    } catch {
      // not running under this name
    }
  }
  return undefined;
}

export async function startServerProcess(nodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ baseUrl: string; pid: number | undefined; stop: () => Promise<void> }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...nodeArgs, '-r', 'ts-node/register', path.join(__dirname, 'serve.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
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
    else if (url.includes('node_modules/')) where = `npm:${url.split('node_modules/').pop()!.split('/').slice(0, url.includes('node_modules/@') ? 2 : 1).join('/')}`;
    else if (url.startsWith('node:')) where = url;
    else where = `src:${path.relative(path.resolve(__dirname, '..'), url.replace('file://', ''))}`;
    totals.set(where, (totals.get(where) ?? 0) + dt);
    all += dt;
  });
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, ms]) => ({ where, ms: Math.round(ms), share: Math.round((ms / all) * 1000) / 10 }));
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
