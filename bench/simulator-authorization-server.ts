/*
 * The authority simulator of bench/simulator-authorization.bench.ts in its own process, so its CPU is
 * its own: IPC 'start' starts it (with a state file when asked, as npm start runs it) and issues the
 * bench's A1 for a CNPJ; 'cpu' answers process.cpuUsage (ms); 'floor' times node:crypto alone on the
 * note's bytes; 'stop' stops it (flushing its state) and exits.
 */
import crypto from 'node:crypto';
import { AuthoritySimulator } from '../src/dev/sefaz-simulator/simulator';
import { issueCertificate } from '../src/dev/sefaz-simulator/pki';

type Msg =
  | { id: number; cmd: 'start'; cnpj: string; stateFile?: string }
  | { id: number; cmd: 'cpu' }
  | { id: number; cmd: 'floor'; n: number; signedInfoC14n: string; infNFeC14n: string; signatureValue: string; certPem: string }
  | { id: number; cmd: 'stop' };

let sim: AuthoritySimulator | null = null;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

process.on('message', (m: Msg) => {
  const reply = (value: unknown) => process.send?.({ id: m.id, value });
  void (async () => {
    if (m.cmd === 'start') {
      sim = new AuthoritySimulator({ stateFile: m.stateFile });
      const endpoints = await sim.start();
      const pair = issueCertificate(sim.ca, { commonName: 'LOJA BENCH', cnpj: m.cnpj });
      return reply({ url: endpoints.url, caPem: endpoints.caPem, ...pair });
    }
    if (m.cmd === 'cpu') return reply(cpuMs());
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
