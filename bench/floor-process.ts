/* A floor server of bench/ in its own process: it listens as serve.ts does and answers its IPC ('cpu', else the RSS). */
import type { Express } from 'express';

/** Serves `app` on an ephemeral port; on SIGTERM closes it, then `release` (the floor's own resources) before exiting. */
export function serveFloor(app: Express, release: (done: () => void) => void = (done) => done()): void {
  process.on('message', (m: { id: number; cmd: string }) => {
    const u = process.cpuUsage();
    process.send?.({ id: m.id, value: m.cmd === 'cpu' ? (u.user + u.system) / 1000 : process.memoryUsage.rss() });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    console.log(`LISTENING ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    process.disconnect?.();
    server.close(() => release(() => process.exit(0)));
  });
}
