import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/*
 * The real server (src/main.ts) in a child process, for the crash tests: started with the demo seed,
 * ready once it printed the demo tenant's summary, and killed with SIGKILL.
 */
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

export function startServer(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<ChildServer> {
  // Transpiled files are cached on disk: restarts skip the compiler.
  const child = spawn(process.execPath, ['-r', './tests/support/ts-cache-register.js', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`the server did not start in time\n${out}\n${err}`)), timeoutMs);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"companyId"'));
      if (!line) return;
      clearTimeout(timer);
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
