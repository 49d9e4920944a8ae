/*
 * The floor of a failed request: express alone (this checkout's), parsing a JSON body and answering
 * 400 with a small problem document, in its own process. Speaks serve.ts's IPC ('cpu').
 */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.post('/floor', express.json(), (_req, res) => {
  res
    .status(400)
    .type('application/problem+json')
    .send(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'VALIDATION_ERROR', errors: [{ path: 'items', message: 'invalid' }] }));
});
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
  server.close(() => process.exit(0));
});
