/*
 * The tax engine (issue 29): CPU per 50-item fiscal preview against a plain-arithmetic floor, in one run.
 *
 *   floor     the same 50 lines' ICMS, DIFAL, PIS, COFINS, IPI and IBS/CBS in plain JS numbers (Math.round
 *             to the cent; what any code must at least do), in process
 *   engine    the pure engine (computeDocument, decimal.js) over data loaded once, in process
 *   loader    computeFiscalDocument: reads of the filial, customer, 50 products, rules, rates (MariaDB) + engine, in process
 *   route     POST /api/fiscal/preview through the whole HTTP chain in a server process (API CPU per request)
 *
 * The document: Lucro Real filial in SP, an industrial one (IPI), to a non-contributor in MG (interstate
 * 12 %, DIFAL on the base dupla with FCP), 2026 (IBS/CBS group), header freight and discount apportioned.
 *
 *   npm run bench -- fiscal-preview        env: RUNS (2000), SECS (8), CONC (4), BENCH_CPU_PROF (a directory)
 */
import fs from 'node:fs';
import { dataSource } from '../src/core/db/data-source';
import { Dec } from '../src/core/decimal';
import * as fiscal from '../src/modules/fiscal';
import { loadEngineInput } from '../src/modules/fiscal/compute.service';
import { computeDocument } from '../src/modules/fiscal/engine';
import { FiscalOperationRule } from '../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { toFiscalDocumentDto } from '../src/modules/fiscal/fiscal.mapper';
import { fiscalSchemas } from '../src/modules/fiscal/fiscal.schemas';
import type { FiscalComputationRequest } from '../src/modules/fiscal/fiscal-document';
import { makeCustomer, makeProduct } from '../tests/support/catalog';
import { setupFiscalData } from '../tests/support/fiscal';
import {
  cpuMeter,
  createTestTenant,
  fmtCpu,
  load,
  machine,
  prepareDatabase,
  profiled,
  reportFile,
  stagesOfCpuProfile,
  startServerProcess,
} from './support';

const RUNS = Number(process.env.RUNS ?? 2000);
const SECS = Number(process.env.SECS ?? 8);
const CONC = Number(process.env.CONC ?? 4);
/** Seconds of the route under the V8 profiler (inspector, after the measured run): its stages. 0 → none. */
const PROFILE_SECS = Number(process.env.PROFILE_SECS ?? 0);
const ITEMS = 50;

/** CPU ms (user + system) of this process per call of `fn`, after a warm-up. */
async function cpuPer(runs: number, fn: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(200, runs); i++) await fn();
  const c0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) await fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / runs;
}

/** The floor: the same taxes in JS numbers (no decimals, no rule lookup, no validation, no output object graph). */
function plainArithmetic(lines: { q: number; p: number }[], freight: number, discount: number): number {
  const r2 = (v: number) => Math.round(v * 100) / 100;
  const gross = lines.map((l) => r2(l.q * l.p));
  const total = gross.reduce((a, b) => a + b, 0);
  let fLeft = freight;
  let dLeft = discount;
  let vNF = 0;
  let ibsCbs = 0;
  for (let i = 0; i < lines.length; i++) {
    const f = i === lines.length - 1 ? fLeft : r2((freight * gross[i]) / total);
    const d = i === lines.length - 1 ? dLeft : r2((discount * gross[i]) / total);
    fLeft -= f;
    dLeft -= d;
    const net = gross[i] - d + f;
    const ipi = r2(net * 0.05);
    const icmsBase = net + ipi;
    const icms = r2(icmsBase * 0.12);
    const difalBase = r2((icmsBase - icms) / 0.8);
    const difal = r2(difalBase * 0.18 - icms);
    const fcp = r2(difalBase * 0.02);
    const pis = r2((net - icms) * 0.0165);
    const cofins = r2((net - icms) * 0.076);
    const ibsBase = net - icms - difal - fcp - pis - cofins;
    vNF += net + ipi;
    ibsCbs += r2(ibsBase * 0.009) + r2(ibsBase * 0.001);
  }
  return vNF + ibsCbs; // a checksum of both, so nothing is left unused
}

(async () => {
  await prepareDatabase();
  const t = await createTestTenant({ filiais: 1 });
  const products = [];
  for (let i = 0; i < ITEMS; i++) products.push(await makeProduct(t, { ncm: '61091000' }));
  const customer = await makeCustomer(t);
  const setup = await setupFiscalData(t, {
    industrial: true,
    ipiRate: 5,
    products: products.map((p) => p.id),
    customers: [{ id: customer.id, uf: 'MG' }],
  });
  await dataSource.manager.update(
    FiscalOperationRule,
    { companyId: t.companyId, taxGroupId: setup.taxGroupId },
    { ipiCst: '50', ipiRate: new Dec(5) },
  );
  // The rule changed behind the routes: its cache version bumped (a commit before issue 51 has none; BENCH_TARGET).
  await (fiscal as Partial<{ fiscalDataChanged: typeof fiscal.fiscalDataChanged }>).fiscalDataChanged?.(dataSource.manager, t.companyId);
  const lines = products.map((p, i) => ({ productId: p.id, quantity: String(1 + (i % 7)), unitPrice: (9.9 + i * 1.37).toFixed(2) }));
  const request: FiscalComputationRequest = {
    filialId: t.filialIds[0],
    customerId: customer.id,
    operation: 'SALE',
    model: 55,
    date: '2026-06-15',
    items: lines,
    freight: '37.40',
    discount: '12.35',
  };
  const doc = await fiscal.computeFiscalDocument(t.ctx, request);
  console.log(
    `document: ${doc.items.length} items, vNF ${doc.totals.vNF.toFixed(2)}, vICMS ${doc.totals.vICMS.toFixed(2)}, vICMSUFDest ${doc.totals.vICMSUFDest.toFixed(2)}, vIPI ${doc.totals.vIPI.toFixed(2)}, vCBS ${doc.totals.ibsCbs?.cbs.toFixed(2)}`,
  );

  const plain = lines.map((l) => ({ q: Number(l.quantity), p: Number(l.unitPrice) }));
  const floorMs = await cpuPer(RUNS * 20, () => plainArithmetic(plain, 37.4, 12.35));
  const input = await loadEngineInput(t.ctx, request);
  const engineMs = await cpuPer(RUNS, () => computeDocument(input));
  const loaderMs = await cpuPer(Math.max(50, RUNS / 10), () => fiscal.computeFiscalDocument(t.ctx, request));
  console.log(`floor ${floorMs.toFixed(4)} ms, engine ${engineMs.toFixed(3)} ms, loader + engine ${loaderMs.toFixed(3)} ms (this process)`);
  // The route's other in-process stages on the same document: joi of the body as the client sends it, the DTO, its JSON.
  const wireBody = {
    customerId: customer.hash,
    date: '2026-06-15',
    freight: 37.4,
    discount: 12.35,
    items: products.map((p, i) => ({ productId: p.hash, quantity: lines[i].quantity, unitPrice: lines[i].unitPrice })),
  };
  const bodySchema = fiscalSchemas.preview.body!;
  const validationMs = await cpuPer(RUNS, () => bodySchema.validate(wireBody));
  // The route's hand reading of the same body, when the target has one (RouteSchema.fastBody, issue 51).
  const fastBody = (fiscalSchemas.preview as { fastBody?: (input: unknown) => unknown }).fastBody;
  const fastMs = fastBody ? await cpuPer(RUNS, () => fastBody(wireBody)) : null;
  const mapperMs = await cpuPer(RUNS, () => toFiscalDocumentDto(doc));
  const dto = toFiscalDocumentDto(doc);
  const jsonMs = await cpuPer(RUNS, () => JSON.stringify(dto));
  const jsonBytes = Buffer.byteLength(JSON.stringify(dto));
  console.log(
    `validation ${validationMs.toFixed(3)} ms${fastMs !== null ? ` (hand reading ${fastMs.toFixed(3)} ms)` : ''}, mapper ${mapperMs.toFixed(3)} ms, JSON ${jsonMs.toFixed(3)} ms (${jsonBytes} bytes)`,
  );

  // BENCH_CPU_PROF=<dir>: a --cpu-prof of the API process there (bench/stages.ts reads it by stage).
  const prof = process.env.BENCH_CPU_PROF;
  const api = await startServerProcess(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
  let route: { rps: number; p50: number; p99: number; errors: number; cpu: string; apiMs: number } | null = null;
  let floorRoute: { apiMs: number; bytes: number } | null = null;
  let stages: ReturnType<typeof stagesOfCpuProfile> = [];
  try {
    const body = JSON.stringify({
      customerId: customer.hash,
      date: '2026-06-15',
      freight: 37.4,
      discount: 12.35,
      items: products.map((p, i) => ({ productId: p.hash, quantity: lines[i].quantity, unitPrice: lines[i].unitPrice })),
    });
    const headers = { ...t.headers(), 'content-type': 'application/json' };
    const probe = await fetch(`${api.baseUrl}/api/fiscal/preview`, { method: 'POST', headers, body });
    if (probe.status !== 200) throw new Error(`preview answered ${probe.status}: ${await probe.text()}`);
    const opts = { url: `${api.baseUrl}/api/fiscal/preview`, connections: CONC, method: 'POST' as const, headers, body };
    await load({ ...opts, duration: 2 });
    const meter = await cpuMeter(api);
    const run = await load({ ...opts, duration: SECS });
    const cpu = await meter.stop(run.requests);
    route = { rps: run.rps, p50: run.p50, p99: run.p99, errors: run.errors, cpu: fmtCpu(cpu), apiMs: cpu.api };
    console.log(`route: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${run.errors}; ${fmtCpu(cpu)}`);
    if (PROFILE_SECS > 0) {
      await profiled(api, 'fiscal-preview', () => load({ ...opts, duration: PROFILE_SECS }));
      stages = stagesOfCpuProfile(reportFile('fiscal-preview').replace(/\.md$/, '.cpuprofile'));
    }
    // The stack's floor for this route: express parsing the same body and answering the same document.
    const answer = await probe.text();
    const bodyFile = reportFile('fiscal-preview-floor-body').replace(/\.md$/, '.json');
    fs.writeFileSync(bodyFile, answer);
    const floorServer = await startServerProcess([], { FLOOR_BODY_FILE: bodyFile }, 'fiscal-preview-floor.ts');
    try {
      const fopts = { ...opts, url: `${floorServer.baseUrl}/floor` };
      await load({ ...fopts, duration: 2 });
      const fmeter = await cpuMeter(floorServer);
      const frun = await load({ ...fopts, duration: SECS });
      const fcpu = await fmeter.stop(frun.requests);
      floorRoute = { apiMs: fcpu.api, bytes: Buffer.byteLength(answer) };
      console.log(`route floor (express, same body and answer): ${frun.rps.toFixed(0)} req/s, ${fmtCpu(fcpu)}`);
    } finally {
      await floorServer.stop();
    }
  } finally {
    await api.stop();
  }

  const text = [
    `## Fiscal preview of ${ITEMS} items (issue 29) — ${machine()}`,
    '',
    'SP → MG non-contributor, industrial Lucro Real filial (ICMS 12 %, DIFAL base dupla + FCP, IPI, PIS/COFINS, IBS/CBS 2026), header freight and discount apportioned.',
    '',
    '| what | CPU ms per 50-item document | × floor |',
    '|---|---|---|',
    `| floor: plain JS arithmetic of the same taxes | ${floorMs.toFixed(4)} | 1 |`,
    `| engine (computeDocument, decimal.js, data loaded) | ${engineMs.toFixed(3)} | ${(engineMs / floorMs).toFixed(0)} |`,
    `| loader + engine (computeFiscalDocument, MariaDB reads, client side) | ${loaderMs.toFixed(3)} | ${(loaderMs / floorMs).toFixed(0)} |`,
    `| validation of the body (joi, in process) | ${validationMs.toFixed(3)} | ${(validationMs / floorMs).toFixed(0)} |`,
    fastMs !== null
      ? `| validation of the body (the route's hand reading, fastBody, in process) | ${fastMs.toFixed(3)} | ${(fastMs / floorMs).toFixed(0)} |`
      : '',
    `| mapper (toFiscalDocumentDto, in process) | ${mapperMs.toFixed(3)} | ${(mapperMs / floorMs).toFixed(0)} |`,
    `| JSON.stringify of the DTO (${jsonBytes} bytes, in process) | ${jsonMs.toFixed(3)} | ${(jsonMs / floorMs).toFixed(0)} |`,
    route
      ? `| route POST /api/fiscal/preview (API process; ${CONC} connections, ${SECS} s: ${route.rps.toFixed(0)} req/s, p50 ${route.p50} ms, p99 ${route.p99} ms, errors ${route.errors}) | ${route.apiMs.toFixed(3)} | ${(route.apiMs / floorMs).toFixed(0)} |`
      : '',
    floorRoute
      ? `| route's stack floor: express parsing the same body and answering the same ${floorRoute.bytes}-byte document (res.json), own process | ${floorRoute.apiMs.toFixed(3)} | ${(floorRoute.apiMs / floorMs).toFixed(0)} |`
      : '',
    '',
    ...(stages.length
      ? [
          `Route stages (V8 profile, ${PROFILE_SECS} s):`,
          '',
          '| stage | ms | share |',
          '|---|---|---|',
          ...stages.map((x) => `| ${x.stage} | ${x.ms} | ${x.share}% |`),
          '',
        ]
      : []),
  ].join('\n');
  fs.writeFileSync(reportFile('fiscal-preview'), text);
  console.log(`\n${text}`);
  await dataSource.destroy();
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
