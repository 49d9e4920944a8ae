/*
 * Issue 51, the latency a cashier feels: the local authority simulator's CPU per authorization.
 * The simulator runs in its own process (simulator-authorization-server.ts); this process builds
 * signed notes beforehand (the simulator's NF-e generator, signed with the service's signer, signNfe;
 * the NFC-e variant is the same infNFe as model 65 without dest, re-signed) and sends them one after
 * another from one client over mutual TLS on a kept-alive connection, as an IssuerClient does.
 * Simulator CPU per note = its process's CPU over the load window ÷ notes; the floor is node:crypto
 * alone on the same bytes in the same process (SHA-1 of the canonical infNFe + one RSA-SHA1
 * verification of SignedInfo), plus the transport floor: the same requests to a server with the
 * simulator's TLS setup that answers a fixed reply (mutual TLS and HTTP alone). No database: `npm run bench -- simulator-authorization`.
 * SIM_BENCH_NOTES (default 300) notes per variant after 30 of warm-up; SIM_BENCH_CPU_PROF=<dir>: a
 * --cpu-prof of each simulator process there.
 */
import { fork } from 'node:child_process';
import { IpcChild } from './ipc-child';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { generateNfe, SAMPLE_ITEMS } from '../src/dev/sefaz-simulator/nfe-generator';
import {
  AUTORIZACAO,
  buildEnviNFe,
  buildRequestEnvelope,
  NFE_NS,
  OUTBOUND_PATHS,
  signerOf,
  signNfe,
  soapContentType,
} from '../src/modules/authority';

const NOTES = Number(process.env.SIM_BENCH_NOTES ?? 300);
const WARMUP = 30;
const ISSUER = { cnpj: '60746948000112', name: 'Loja Bench Ltda', uf: 'SP', stateRegistration: '123456789110' };
const RECIPIENT = { cnpj: '33000167000101', name: 'Cliente Bench Ltda', uf: 'SP' };

function spawnSimulator(): IpcChild {
  const proc = fork(path.join(__dirname, 'simulator-authorization-server.ts'), [], {
    execArgv: [
      '-r',
      'ts-node/register',
      '-r',
      path.join(__dirname, 'target.ts'),
      ...(process.env.SIM_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SIM_BENCH_CPU_PROF}`] : []),
    ],
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new IpcChild(proc);
}

interface Creds {
  url: string;
  caPem: string;
  keyPem: string;
  certPem: string;
}

/** One signed note per number: model 55 to a recipient, or the NFC-e shape (65, no dest). */
function buildNote(kind: 'nfe' | 'nfce', n: number, creds: Creds): string {
  const signer = { keyPem: creds.keyPem, certPem: creds.certPem };
  const generated = generateNfe(
    { issuer: ISSUER, recipient: RECIPIENT, items: SAMPLE_ITEMS.slice(0, 2), tpAmb: '2', number: n, installments: 1, signer },
    n,
  );
  const nfe = /<NFe[\s\S]*<\/NFe>/.exec(generated.xml)![0];
  if (kind === 'nfe') return nfe;
  const inf = /<infNFe[\s\S]*<\/infNFe>/
    .exec(nfe)![0]
    .replace(/<dest>[\s\S]*?<\/dest>/, '')
    .replace('<mod>55</mod>', '<mod>65</mod>')
    .replace(/<cobr>[\s\S]*?<\/cobr>/, '');
  // The generator writes canonical text: infNFe's canonical form only declares the namespace it inherits.
  const key = /Id="NFe(\d{44})"/.exec(inf)![1];
  return signNfe(
    `<NFe xmlns="${NFE_NS}">${inf}</NFe>`,
    key,
    inf.replace('<infNFe ', `<infNFe xmlns="${NFE_NS}" `),
    signerOf(signer.keyPem, signer.certPem),
  ).xml;
}

function post(agent: https.Agent, url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${url}${OUTBOUND_PATHS.AUTORIZACAO}`,
      { method: 'POST', agent, headers: { 'Content-Type': soapContentType(AUTORIZACAO), 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The canonical forms the floor works on (C14N of these compact documents: namespaces in scope, empty elements expanded). */
function floorBytes(nfe: string) {
  const infNFeC14n = /<infNFe[\s\S]*<\/infNFe>/.exec(nfe)![0].replace('<infNFe ', `<infNFe xmlns="${NFE_NS}" `);
  const signedInfoC14n = /<SignedInfo>[\s\S]*<\/SignedInfo>/
    .exec(nfe)![0]
    .replace('<SignedInfo>', '<SignedInfo xmlns="http://www.w3.org/2000/09/xmldsig#">')
    .replace(/<(\w+)([^<>]*?)\/>/g, '<$1$2></$1>');
  const signatureValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(nfe)![1];
  return { infNFeC14n, signedInfoC14n, signatureValue };
}

async function variant(kind: 'nfe' | 'nfce', withStateFile: boolean) {
  const child = spawnSimulator();
  await child.ready;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-bench-'));
  const creds = await child.ask<Creds>({
    cmd: 'start',
    cnpj: ISSUER.cnpj,
    stateFile: withStateFile ? path.join(dir, 'state.json') : undefined,
  });
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const bodies = Array.from({ length: WARMUP + NOTES }, (_v, i) =>
    buildRequestEnvelope(AUTORIZACAO, buildEnviNFe(buildNote(kind, base + i, creds), String(base + i))),
  );
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, key: creds.keyPem, cert: creds.certPem, ca: creds.caPem });
  const check = (answer: string) => {
    const cStat = /<infProt>[\s\S]*<cStat>(\d+)<\/cStat>/.exec(answer)?.[1];
    if (cStat !== '100') throw new Error(`not authorized: ${answer.slice(0, 600)}`);
  };
  for (let i = 0; i < WARMUP; i++) check(await post(agent, creds.url, bodies[i]));
  const cpu0 = await child.ask<number>({ cmd: 'cpu' });
  const t0 = process.hrtime.bigint();
  for (let i = WARMUP; i < bodies.length; i++) check(await post(agent, creds.url, bodies[i]));
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu1 = await child.ask<number>({ cmd: 'cpu' });
  // The IPC round trips themselves, measured the same way: subtracted.
  const i0 = await child.ask<number>({ cmd: 'cpu' });
  const i1 = await child.ask<number>({ cmd: 'cpu' });
  const simMs = (cpu1 - cpu0 - (i1 - i0)) / NOTES;
  // The transport floor on the same bodies: mutual TLS, HTTP, a fixed answer.
  const echo = await child.ask<{ url: string }>({ cmd: 'echo' });
  const echoAgent = new https.Agent({ keepAlive: true, maxSockets: 1, key: creds.keyPem, cert: creds.certPem, ca: creds.caPem });
  for (let i = 0; i < WARMUP; i++) await post(echoAgent, echo.url, bodies[i]);
  const e0 = await child.ask<number>({ cmd: 'cpu' });
  for (let i = WARMUP; i < bodies.length; i++) await post(echoAgent, echo.url, bodies[i]);
  const e1 = await child.ask<number>({ cmd: 'cpu' });
  echoAgent.destroy();
  const transportMs = (e1 - e0 - (i1 - i0)) / NOTES;
  const sample = /<NFe[\s\S]*<\/NFe>/.exec(bodies[WARMUP])![0];
  const floor = await child.ask<{ perOpMs: number; ok: boolean }>({ cmd: 'floor', n: 500, certPem: creds.certPem, ...floorBytes(sample) });
  if (!floor.ok) throw new Error('the floor did not verify the signature (its canonical bytes are wrong)');
  agent.destroy();
  await child.ask<boolean>({ cmd: 'stop' });
  const stateBytes =
    withStateFile && fs.existsSync(path.join(dir, 'state.json.issuer.json'))
      ? fs.statSync(path.join(dir, 'state.json.issuer.json')).size
      : 0;
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    kind,
    withStateFile,
    simMs,
    transportMs,
    floorMs: floor.perOpMs,
    wallMs: wallMs / NOTES,
    bodyBytes: Buffer.byteLength(bodies[WARMUP]),
    stateBytes,
  };
}

async function main() {
  console.log(
    `${NOTES} authorizations per variant after ${WARMUP} of warm-up, one client, one kept-alive mutual-TLS connection, the simulator in its own process; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const rows = [];
  for (const [kind, stateFile] of [
    ['nfce', false],
    ['nfce', true],
    ['nfe', false],
    ['nfe', true],
  ] as const) {
    const r = await variant(kind, stateFile);
    rows.push(r);
    console.log(
      `${kind.padEnd(5)} state file ${stateFile ? 'on ' : 'off'}  simulator CPU ${r.simMs.toFixed(2)} ms/note  transport floor ${r.transportMs.toFixed(2)} ms  signature floor ${r.floorMs.toFixed(3)} ms  ratio to both ${(r.simMs / (r.transportMs + r.floorMs)).toFixed(1)}×  wall ${r.wallMs.toFixed(2)} ms/note  request ${r.bodyBytes} B${stateFile ? `  issuer state at end ${(r.stateBytes / 1024).toFixed(0)} KiB` : ''}`,
    );
  }
  console.log(
    `load at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
