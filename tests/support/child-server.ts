import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/*
 * The real server (src/main.ts) in a child process, for the crash tests: started with the demo seed,
 * ready once it printed the demo tenant's summary, and killed with SIGKILL.
 *
 * Start-up waits follow the child, not the clock (issue 44: two fixed timeouts failed at load 14): a
 * child is waited for as long as it runs and makes progress — CPU time (Linux /proc) or output —
 * and given up only when it exits or stalls for `stallMs`.
 */

/** CPU ticks a process has used (utime + stime, /proc/<pid>/stat); null where /proc is not there. */
function cpuTicks(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Calls `onStall` once the child has neither used CPU nor written anything for `stallMs` (checked every
 * second); answers the stop function. Without /proc only output counts as progress.
 */
export function watchProgress(child: ChildProcess, onStall: (idleMs: number) => void, stallMs = 60_000): () => void {
  let last = Date.now();
  let ticks = cpuTicks(child.pid);
  const moved = () => (last = Date.now());
  child.stdout?.on('data', moved);
  child.stderr?.on('data', moved);
  const timer = setInterval(() => {
    const now = cpuTicks(child.pid);
    if (now !== null && now !== ticks) {
      ticks = now;
      moved();
    }
    if (Date.now() - last >= stallMs) {
      stop();
      onStall(Date.now() - last);
    }
  }, 1000);
  const stop = () => {
    clearInterval(timer);
    child.stdout?.off('data', moved);
    child.stderr?.off('data', moved);
  };
  return stop;
}

/** Runs a command to its end, waiting as long as it makes progress (a stalled one is killed): its status and output. */
export function runToEnd(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stallMs?: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const stop = watchProgress(
      child,
      (idle) => {
        child.kill('SIGKILL');
        reject(new Error(`${args.join(' ')} stalled: no CPU time or output for ${Math.round(idle / 1000)} s\n${stdout}\n${stderr}`));
      },
      opts.stallMs,
    );
    child.once('error', (e) => {
      stop();
      reject(e);
    });
    child.once('close', (status) => {
      stop();
      resolve({ status, stdout, stderr });
    });
  });
}
const ROOT = path.resolve(__dirname, '../..');

export interface Demo {
  companyId: string;
  filialIds: string[];
  productIds: string[];
  customerIds: string[];
}

export interface ChildServer {
  child: ChildProcess;
  demo: Demo;
}

/** A free local port (one per run, so the two engines' suites can run side by side). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

/** Starts the server and waits for its demo summary while it makes progress (`stallMs` without any: given up). */
export function startServer(env: NodeJS.ProcessEnv, stallMs = 60_000): Promise<ChildServer> {
  // Transpiled files are cached on disk: restarts skip the compiler.
  const child = spawn(process.execPath, ['-r', './tests/support/ts-cache-register.js', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const stop = watchProgress(
      child,
      (idle) =>
        fail(new Error(`the server stalled before it was ready (no CPU time or output for ${Math.round(idle / 1000)} s)\n${out}\n${err}`)),
      stallMs,
    );
    const fail = (e: Error) => {
      stop();
      child.kill('SIGKILL');
      reject(e);
    };
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"companyId"'));
      if (!line) return;
      stop();
      child.removeAllListeners('exit');
      resolve({ child, demo: JSON.parse(line) });
    });
    child.once('exit', (code) => fail(new Error(`the server exited (${code})\n${out}\n${err}`)));
  });
}

export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

export function kill(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill('SIGKILL');
  return done;
}
