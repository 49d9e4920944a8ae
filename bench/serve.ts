/*
 * The API as a benchmark target: its own process (as in production), on an ephemeral port (or BENCH_PORT).
 * Started by support.ts with an IPC channel: the bench asks it for its CPU time (process.cpuUsage),
 * a full GC (with --expose-gc) and the peak RSS over a stretch of work.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector';
import { createApp } from '../src/app';
import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';

export type ServeCommand = 'cpu' | 'gc' | 'rss-watch' | 'rss-peak' | 'profile-start' | `profile-stop:${string}`;

let peak = 0;
let sampler: NodeJS.Timeout | undefined;

let session: Session | undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => session!.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));

/** A CPU profile of a stretch of work only (not of the start, where ts-node compiles), written where asked. */
async function profile(cmd: string): Promise<number> {
  if (cmd === 'profile-start') {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
    // BENCH_HEAP_PROFILE=1: where the stretch allocates too (sampled; GC's share comes from there).
    if (process.env.BENCH_HEAP_PROFILE === '1')
      await post('HeapProfiler.startSampling', {
        samplingInterval: 8192,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    return 0;
  }
  const file = cmd.slice('profile-stop:'.length);
  if (process.env.BENCH_HEAP_PROFILE === '1') {
    const { profile: heap } = (await post('HeapProfiler.stopSampling')) as { profile: object };
    fs.writeFileSync(file.replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify(heap));
  }
  const { profile: p } = (await post('Profiler.stop')) as { profile: object };
  session!.disconnect();
  session = undefined;
  fs.writeFileSync(file, JSON.stringify(p));
  return 1;
}

async function answer(cmd: ServeCommand): Promise<unknown> {
  if (cmd.startsWith('profile-')) return profile(cmd);
  switch (cmd) {
    case 'cpu': {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
    case 'gc':
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage.rss();
    case 'rss-watch':
      clearInterval(sampler);
      peak = process.memoryUsage.rss();
      sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
      return peak;
    case 'rss-peak':
      clearInterval(sampler);
      sampler = undefined;
      return Math.max(peak, process.memoryUsage.rss());
  }
}

void (async () => {
  await openDatabase();
  // BENCH_WEBHOOKS=1: this replica also delivers webhooks (as `npm start` does), every WEBHOOK_DISPATCH_INTERVAL_MS.
  const dispatcher =
    process.env.BENCH_WEBHOOKS === '1' ? new (await import('../src/modules/events/webhook-dispatcher')).WebhookDispatcher() : undefined;
  dispatcher?.start(Number(process.env.WEBHOOK_DISPATCH_INTERVAL_MS ?? 1000));
  process.on('message', (m: { id: number; cmd: ServeCommand }) => void answer(m.cmd).then((value) => process.send?.({ id: m.id, value })));
  const server = createApp().listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
    const addr = server.address();
    console.log(`LISTENING ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
  // --cpu-prof writes its profile on a normal exit, so SIGTERM exits normally.
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    process.disconnect?.();
    server.close(() => void (dispatcher?.stop() ?? Promise.resolve()).then(() => dataSource.destroy()).finally(() => process.exit(0)));
  });
})();
