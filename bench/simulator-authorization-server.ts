/*
 * The authority simulator of bench/simulator-authorization.bench.ts in its own process, so its CPU is
 * its own: IPC 'start' starts it (with a state file when asked, as npm start runs it) and issues the
 * bench's A1 for a CNPJ; 'cpu' answers process.cpuUsage (ms); 'stats' the TLS connections
 * accepted (and resumed) and the requests and bytes received per path; 'floor' times node:crypto alone on the
 * note's bytes; 'echo' starts the transport floor (the same TLS, a fixed answer); 'a1' issues an A1 (PFX, base64) for
 * a CNPJ, as a tenant's certificate is saved (bench/cashier-latency.bench.ts); 'stop' stops it (flushing its state) and exits.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import { AuthoritySimulator } from '../src/dev/sefaz-simulator/simulator';
import { issueCertificate } from '../src/dev/sefaz-simulator/pki';

type Msg =
  | { id: number; cmd: 'start'; cnpj: string; stateFile?: string }
  | { id: number; cmd: 'cpu' }
  | { id: number; cmd: 'stats' }
  | { id: number; cmd: 'floor'; n: number; signedInfoC14n: string; infNFeC14n: string; signatureValue: string; certPem: string }
  | { id: number; cmd: 'echo' }
  | { id: number; cmd: 'a1'; cnpj: string; name: string; password: string }
  | { id: number; cmd: 'stop' };

let sim: AuthoritySimulator | null = null;
/** Requests and bytes received per path since start (what a client really sends: one authorization per note, or more). */
const received = new Map<string, { requests: number; bytes: number }>();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

process.on('message', (m: Msg) => {
  const reply = (value: unknown) => process.send?.({ id: m.id, value });
  void (async () => {
    if (m.cmd === 'start') {
      sim = new AuthoritySimulator({ stateFile: m.stateFile });
      sim.onRequest = (p, body) => {
        const r = received.get(p) ?? { requests: 0, bytes: 0 };
        r.requests++;
        r.bytes += Buffer.byteLength(body);
        received.set(p, r);
      };
      const endpoints = await sim.start();
      const pair = issueCertificate(sim.ca, { commonName: 'LOJA BENCH', cnpj: m.cnpj });
      return reply({ url: endpoints.url, distUrl: endpoints.distUrl, eventUrl: endpoints.eventUrl, caPem: endpoints.caPem, ...pair });
    }
    if (m.cmd === 'a1') {
      const a1 = sim!.issueClientCertificate(m.cnpj, m.name, m.password);
      return reply({ pfx: a1.pfx.toString('base64'), password: a1.password });
    }
    if (m.cmd === 'cpu') return reply(cpuMs());
    if (m.cmd === 'stats') return reply({ connections: { ...sim!.connections }, received: Object.fromEntries(received) });
    if (m.cmd === 'echo') {
      // The transport floor: a server with the simulator's TLS setup (its CA, client certificates asked
      // for, keep-alive) that reads the body and answers a fixed reply of an authorization's size.
      const pair = issueCertificate(sim!.ca, { commonName: '127.0.0.1', hosts: ['127.0.0.1', 'localhost'] });
      const answer = `<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>${'x'.repeat(900)}</soap12:Body></soap12:Envelope>`;
      const server = https.createServer(
        { key: pair.keyPem, cert: pair.certPem, ca: [sim!.ca.certPem], requestCert: true, rejectUnauthorized: false },
        (req, res) => {
          req.on('data', () => undefined);
          req.on('end', () => {
            res.writeHead(200, { 'Content-Type': 'application/soap+xml; charset=utf-8' });
            res.end(answer);
          });
        },
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return reply({ url: `https://127.0.0.1:${(server.address() as { port: number }).port}` });
    }
    if (m.cmd === 'floor') {
      // What verifying a signature must cost at least: SHA-1 of the canonical infNFe + one RSA-SHA1 verification of SignedInfo.
      const key = new crypto.X509Certificate(m.certPem).publicKey;
      const sig = Buffer.from(m.signatureValue, 'base64');
      let ok = true;
      const t0 = cpuMs();
      for (let i = 0; i < m.n; i++) {
        crypto.createHash('sha1').update(m.infNFeC14n, 'utf8').digest('base64');
        ok = crypto.verify('sha1', Buffer.from(m.signedInfoC14n, 'utf8'), key, sig) && ok;
      }
      return reply({ perOpMs: (cpuMs() - t0) / m.n, ok });
    }
    if (m.cmd === 'stop') {
      await sim?.stop();
      reply(true);
      process.disconnect?.();
      process.exit(0);
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
});
process.send?.({ id: 0, value: 'ready' });
