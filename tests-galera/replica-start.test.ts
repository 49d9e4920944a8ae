import { expect } from 'chai';
import net from 'node:net';
import { call, startReplica } from './support';

/*
 * The replica that stopped answering (issue 50): in whole-suite runs under load a replica given all three
 * nodes answered no request at all (the client saw refused connections, status 0) while its IPC answered
 * and it logged nothing. Its fixed port (40650 + n) lies in the kernel's ephemeral range (32768–60999):
 * when any client socket on the box held it as its local port, the replica's listen failed with
 * EADDRINUSE — and express 5 calls listen's callback with the error, so the replica printed LISTENING
 * and served nothing. Replicas now listen on a port the kernel gives them, and a failed listen ends the
 * replica with its reason.
 */
describe('Galera suite: a replica that cannot listen', () => {
  it('on a port a client socket holds as its ephemeral port: the replica fails to start, naming EADDRINUSE', async function () {
    this.timeout(600_000);
    // An outgoing connection: its local port is one the kernel drew, as any other process's on the box.
    const target = net.createServer((s) => s.on('error', () => undefined));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const client = net.connect({ host: '127.0.0.1', port: (target.address() as net.AddressInfo).port });
    await new Promise<void>((resolve) => client.once('connect', resolve));
    try {
      const started = startReplica('taken-port', [1], { PORT: String(client.localPort) }).then(
        async (r) => {
          const answer = await call(r.baseUrl, 'GET', '/health', {});
          await r.stop();
          return `started, and answered ${answer.status} ${JSON.stringify(answer.body)}`;
        },
        (err: Error) => err.message,
      );
      expect(await started).to.match(/exited with 1: .*EADDRINUSE/s);
    } finally {
      client.destroy();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('on the port the kernel gives it: listening, and answering', async function () {
    this.timeout(600_000);
    const r = await startReplica('free-port', [1]);
    try {
      const answer = await call(r.baseUrl, 'GET', '/health', {});
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    } finally {
      await r.stop();
    }
  });
});
