/*
 * Issue 31, speed: what any design of the counter's online NFC-e must spend on the API's CPU at the
 * least, each part at its bare minimum, beside the signing floor, in the same process and rounds:
 * - the note built and signed by the service (buildSignedNfce: the layout's text, its canonical form,
 *   SHA-1 digest and one RSA-2048 signature — the floor itself is inside it);
 * - the authority exchange: the note's SOAP request over a kept-alive mutual-TLS connection and the
 *   answer read, with node's https alone (no SOAP client, no parsing), against a server in another
 *   process that answers a canned retEnviNFe (so its CPU is not counted here);
 * - one more MariaDB round trip (the answer recorded: one UPDATE and the COMMIT in one query) with
 *   mysql2 alone, on loopback;
 * - gzip (level 1) of the signed XML, as the note is stored;
 * - the tax engine's computation of the note (pure, its inputs loaded once).
 * A synchronous online note needs all of them beyond a sale without one (the law wants the note
 * authorized before the customer leaves, and the answer must be durable); their sum over the floor
 * is the lowest ratio any implementation can reach on this box. The service's own share is measured
 * by nfce-counter.bench.ts.
 *   npm run bench -- nfce-floor-parts        env: ROUNDS (5), OPS (1000)
 */
import './mocha-globals';
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import forge from 'node-forge';
import { dataSource } from '../src/core/db/data-source';
import { businessToday } from '../src/core/business-date';
import { gunzipText } from '../src/modules/outbound-nfe/invoice-store';
import { computeDocument } from '../src/modules/fiscal';
import { loadEngineInput } from '../src/modules/fiscal/compute.service';
import { buildSignedNfce } from '../src/modules/nfce/nfce-xml';
import { Dec } from '../src/core/decimal';
import { authorizedCounter } from './nfce-setup';
import { machine, median, prepareDatabase, rawMysqlPool, reportFile } from './support';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const OPS = Number(process.env.OPS ?? 1000);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** A self-signed certificate and key (PEM) for the exchange's two ends. */
function selfSigned(cn: string): { cert: string; key: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ shortName: 'CN', value: cn }]);
  cert.setIssuer([{ shortName: 'CN', value: cn }]);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  cert.sign(forge.pki.privateKeyFromPem(key), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key };
}

/**
 * The authority's stand-in, in a child process: it answers every POST with a canned authorization. Its
 * connection stays open for the whole run (keep-alive 10 min): with node's 5 s the other parts of a
 * round outlasted it on a loaded box, and the next round's first request went out on the socket the
 * server was closing (ECONNRESET, "socket hang up").
 */
const SERVER = `
const https = require('node:https');
const { key, cert, ca, reply } = JSON.parse(process.argv[2]);
const s = https.createServer({ key, cert, ca: [ca], requestCert: true, rejectUnauthorized: true, keepAliveTimeout: 600000 }, (req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' }); res.end(reply); });
});
s.listen(0, '127.0.0.1', () => process.send(s.address().port));
`;

(async () => {
  await prepareDatabase();
  const { c, stored, signedXml, signing: sc, floorOnce } = await authorizedCounter(1_000, [0]);
  const t = c.t;
  const procXml = gunzipText(stored.procXmlGz!);
  // The note as the sale builds it: the engine's document of the same two lines.
  const ctx = { companyId: t.companyId, actor: 'bench' };
  const engineInput = await loadEngineInput(ctx, {
    filialId: t.filialIds[0],
    customerId: null,
    consumerDocument: null,
    operation: 'SALE',
    model: 65,
    date: businessToday(),
    items: [
      { productId: t.products[0].id, quantity: new Dec(2), unitPrice: new Dec('10.50'), discount: new Dec(0) },
      { productId: t.products[1].id, quantity: new Dec(1), unitPrice: new Dec('19.90'), discount: new Dec(0) },
    ],
    discount: new Dec(0),
    presence: 1,
  });
  // The tax engine's computation alone (its inputs loaded once): the note's taxes are the law's.
  const computeOnce = () => computeDocument(engineInput);
  const document = computeOnce();
  let number = 1000;
  const buildOnce = () =>
    buildSignedNfce(
      document,
      {
        number: number++,
        series: 1,
        issuedAt: new Date(),
        emissionType: 1,
        contingency: null,
        randomCode: '12345678',
        tpAmb: '2',
        payments: [{ tPag: '01', amount: new Dec('50.00') }],
        change: new Dec('9.10'),
        additionalInfo: '',
      },
      {
        version: 3,
        cscId: null,
        cscToken: null,
        qrCodeUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode',
        consultUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/consulta',
      },
      sc.signer,
      null,
    );

  // The exchange: node's https over one kept-alive mutual-TLS connection to a server in another process.
  const server = selfSigned('authority');
  const client = selfSigned('client');
  const protXml = /<protNFe[\s\S]*<\/protNFe>/.exec(procXml)![0];
  const reply = `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4"><retEnviNFe versao="4.00" xmlns="http://www.portalfiscal.inf.br/nfe"><tpAmb>2</tpAmb><verAplic>SIM</verAplic><cStat>104</cStat><xMotivo>Lote processado</xMotivo><cUF>35</cUF><dhRecbto>2026-11-28T10:00:00-03:00</dhRecbto>${protXml}</retEnviNFe></nfeResultMsg></soap12:Body></soap12:Envelope>`;
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nfce-floor-')), 'authority.js');
  fs.writeFileSync(script, SERVER);
  const child = fork(script, [JSON.stringify({ key: server.key, cert: server.cert, ca: client.cert, reply })], { stdio: 'ignore' });
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(Number(p))));
  const agent = new https.Agent({ keepAlive: true, maxFreeSockets: 4, scheduling: 'lifo' });
  const soap = `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><nfeDadosMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4"><enviNFe versao="4.00" xmlns="http://www.portalfiscal.inf.br/nfe"><idLote>1</idLote><indSinc>1</indSinc>${signedXml.replace(/^<\?xml[^>]*>/, '')}</enviNFe></nfeDadosMsg></soap12:Body></soap12:Envelope>`;
  const exchangeOnce = () =>
    new Promise<string>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          path: '/ws/NFeAutorizacao4.asmx',
          method: 'POST',
          agent,
          key: client.key,
          cert: client.cert,
          ca: server.cert,
          headers: { 'content-type': 'application/soap+xml; charset=utf-8', 'content-length': Buffer.byteLength(soap) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (b: Buffer) => chunks.push(b));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        },
      );
      req.on('error', reject);
      req.end(soap);
    });

  // One more round trip: the answer recorded (UPDATE + COMMIT in one query), mysql2 alone.
  const pool = rawMysqlPool();
  const tripOnce = () =>
    new Promise<void>((resolve, reject) =>
      pool.query(
        'START TRANSACTION; UPDATE nfce_document SET x_motivo = ?, version = version + 1 WHERE id = ? AND company_id = ?; COMMIT',
        ['Autorizado o uso da NF-e', stored.id, t.companyId],
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  const gzipOnce = () => zlib.gzipSync(signedXml, { level: 1, windowBits: 13 });

  const measure = async (fn: () => unknown): Promise<number> => {
    const c0 = cpuMs();
    for (let i = 0; i < OPS; i++) await fn();
    return (cpuMs() - c0) / OPS;
  };
  // Warm-up (JIT, the TLS session, the pool's connection).
  for (let i = 0; i < 200; i++) {
    floorOnce();
    computeOnce();
    buildOnce();
    gzipOnce();
    await exchangeOnce();
    await tripOnce();
  }
  const parts = {
    floor: [] as number[],
    compute: [] as number[],
    build: [] as number[],
    exchange: [] as number[],
    trip: [] as number[],
    gzip: [] as number[],
  };
  for (let r = 0; r < ROUNDS; r++) {
    parts.floor.push(await measure(floorOnce));
    parts.compute.push(await measure(computeOnce));
    parts.build.push(await measure(buildOnce));
    parts.exchange.push(await measure(exchangeOnce));
    parts.trip.push(await measure(tripOnce));
    parts.gzip.push(await measure(gzipOnce));
  }
  child.kill();
  agent.destroy();
  pool.end();

  // Ratios per round (each part over the same round's floor), then medians.
  const ratio = (xs: number[]) => median(xs.map((x, i) => x / parts.floor[i]));
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' / ');
  const sums = parts.floor.map((f, i) => (parts.build[i] + parts.exchange[i] + parts.trip[i]) / f);
  const sumsTax = parts.floor.map((f, i) => (parts.compute[i] + parts.build[i] + parts.exchange[i] + parts.trip[i]) / f);
  const sumsGz = parts.floor.map((f, i) => (parts.compute[i] + parts.build[i] + parts.exchange[i] + parts.trip[i] + parts.gzip[i]) / f);
  const lines = [
    `## The NFC-e's irreducible parts beside the signing floor (issue 31) — ${machine()}`,
    '',
    `${ROUNDS} rounds × ${OPS} operations per part, CPU of this process (\`process.cpuUsage\`) per operation; the authority's stand-in in another process.`,
    '',
    '| part | CPU per op, median (rounds) | ÷ floor (median of rounds) |',
    '|---|---|---|',
    `| signing floor: SHA-1 of infNFe + RSA-SHA1 of SignedInfo | ${median(parts.floor).toFixed(3)} ms (${fmt(parts.floor)}) | 1 |`,
    `| the tax engine's computation of the note (computeDocument, inputs loaded once) | ${median(parts.compute).toFixed(3)} ms (${fmt(parts.compute)}) | ${ratio(parts.compute).toFixed(2)}× |`,
    `| the note built and signed (buildSignedNfce; the floor inside) | ${median(parts.build).toFixed(3)} ms (${fmt(parts.build)}) | ${ratio(parts.build).toFixed(2)}× |`,
    `| the authority exchange: node https, kept-alive mutual TLS, answer read | ${median(parts.exchange).toFixed(3)} ms (${fmt(parts.exchange)}) | ${ratio(parts.exchange).toFixed(2)}× |`,
    `| one more MariaDB round trip (the answer recorded), mysql2 alone | ${median(parts.trip).toFixed(3)} ms (${fmt(parts.trip)}) | ${ratio(parts.trip).toFixed(2)}× |`,
    `| gzip level 1 of the signed XML (${signedXml.length} chars) | ${median(parts.gzip).toFixed(3)} ms (${fmt(parts.gzip)}) | ${ratio(parts.gzip).toFixed(2)}× |`,
    `| **lowest possible share: built and signed + exchange + one round trip** | | **${median(sums).toFixed(2)}×** (rounds ${sums.map((x) => x.toFixed(2)).join(' / ')}) |`,
    `| **with the note's taxes computed** | | **${median(sumsTax).toFixed(2)}×** (rounds ${sumsTax.map((x) => x.toFixed(2)).join(' / ')}) |`,
    `| the same with the stored XML gzipped | | ${median(sumsGz).toFixed(2)}× |`,
  ];
  const text = lines.join('\n');
  console.log(text);
  fs.writeFileSync(reportFile('nfce-floor-parts'), text + '\n');
  await t.sim.stop();
  await dataSource.destroy();
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
