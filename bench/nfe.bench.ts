/*
 * NF-e benchmark (issue 5): a signed 990-item NF-e (the layout maximum) through real HTTP on MariaDB.
 *   POST /entry-document/nfe/preview       target < 1 s
 *   POST /entry-document/nfe/importar-xml  target < 2 s (validate, stage, match 990 items, create the draft)
 *   peak RSS growth during the runs         target < 200 MB
 * and the parse time alone (XML → ParsedNfe) with its share of the preview.
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<own db> npm run bench -- nfe
 *
 * The catalog is a shop's: 5,000 products; of the invoice's 990 items 80% resolve by the supplier
 * map, 10% by GTIN and 10% go to description similarity (the mix of a regular supplier). Each import
 * run uses its own invoice (another number, so another access key), built and signed before timing.
 */
import fs from 'node:fs';
import os from 'node:os';
import { normalizeText } from '../src/core/br-documents';
import { dataSource } from '../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../src/core/db/transaction';
import { Dec } from '../src/core/decimal';
import { isValidGtin } from '../src/core/gtin';
import { Product } from '../src/modules/catalog/entities/product.entity';
import { parseNfe } from '../src/modules/fiscal-xml/nfe/nfe-parser';
import { inspectNfeXml } from '../src/modules/inbound-nfe/xml/inspect';
import { verifyNfeSignature } from '../src/modules/fiscal-xml/signature';
import { ProductMapEntry } from '../src/modules/product-map/entities/product-map-entry.entity';
import { indexProductNames } from '../src/modules/catalog/product-search-index';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { buildNfe, NfeItemSpec } from '../tests/support/nfe-builder';
import {
  CpuPerOp,
  cpuMeter,
  createTestTenant,
  machine,
  median,
  percentile,
  prepareDatabase,
  profiled,
  reportFile,
  ServerProcess,
  stagesOfCpuProfile,
  startServerProcess,
  timeRuns,
} from './support';

const ITEMS = 990;
const RUNS = 11;
const MEMORY_RUNS = 3;
/** NFE_PROFILE=n: n more previews and n more imports under the profiler after the measured runs (bench/out/nfe-*.cpuprofile). */
const PROFILE_RUNS = Number(process.env.NFE_PROFILE ?? 0);
const CATALOG = 5_000;
const SUPPLIER = '11444777000161';
const WORDS = [
  'ARROZ',
  'FEIJAO',
  'OLEO',
  'ACUCAR',
  'CAFE',
  'LEITE',
  'MACARRAO',
  'BISCOITO',
  'SABAO',
  'DETERGENTE',
  'FARINHA',
  'SAL',
  'MOLHO',
  'EXTRATO',
  'SUCO',
  'AGUA',
  'REFRIGERANTE',
  'CERVEJA',
  'VINAGRE',
  'MARGARINA',
];
const BRANDS = ['BOA', 'SOL', 'UNIAO', 'PRIMOR', 'NINHO', 'ITAMBE', 'TIO', 'KIKO', 'LIZA', 'QUALY'];

const productName = (i: number) =>
  `${WORDS[i % WORDS.length]} ${BRANDS[(i * 7) % BRANDS.length]} ${100 + (i % 900)}G VAR${Math.floor(i / 200)}`;
/** A GTIN-13 (789 prefix) with its check digit. */
const gtinOf = (i: number) => {
  const base = `789${String(1_000_000_000 + i).slice(1)}`;
  return [...'0123456789'].map((d) => base + d).find((g) => isValidGtin(g))!;
};

/** 5,000 products (names indexed for similarity) and the supplier's map entries for 80% of the items. */
async function seedCatalog(companyId: number): Promise<void> {
  await inTransaction(NO_UNIT, async (em) => {
    const rows = Array.from({ length: CATALOG }, (_v, i) => ({
      companyId,
      code: `P${String(i + 1).padStart(6, '0')}`,
      name: productName(i),
      searchName: normalizeText(productName(i)),
      unit: 'UN',
      gtin: gtinOf(i),
      ncm: '21069090',
      cest: null,
      price: new Dec('9.90'),
      active: true,
      stockControlled: true,
    }));
    for (let i = 0; i < rows.length; i += 1000) await em.insert(Product, rows.slice(i, i + 1000));
    const products = await em.find(Product, { where: { companyId }, select: { id: true, name: true, code: true }, order: { id: 'ASC' } });
    await indexProductNames(em, companyId, products);
    const entries = Array.from({ length: Math.round(ITEMS * 0.8) }, (_v, i) => ({
      companyId,
      supplierDocument: SUPPLIER,
      supplierProductCode: `SKU${String(i + 1).padStart(5, '0')}`,
      supplierUnit: 'CX',
      supplierDescription: null,
      gtin: null,
      productId: products[i].id,
      conversionFactor: new Dec(12),
      useCount: 1,
      lastUsedAt: null,
    }));
    for (let i = 0; i < entries.length; i += 500) await em.insert(ProductMapEntry, entries.slice(i, i + 500));
  });
  await dataSource.query('ANALYZE TABLE product, product_search_token, product_map_entry');
}

/** The 990 items: 80% mapped codes, 10% GTINs of catalog products, 10% descriptions only. */
function invoiceItems(): NfeItemSpec[] {
  const mapped = Math.round(ITEMS * 0.8);
  const byGtin = Math.round(ITEMS * 0.1);
  return Array.from({ length: ITEMS }, (_v, i) => {
    const base: NfeItemSpec = {
      code: `SKU${String(i + 1).padStart(5, '0')}`,
      description: `${productName(i).replace(/ VAR\d+$/, '')} CX 12UN`,
      unit: 'CX',
      quantity: String(1 + (i % 7)),
      unitPrice: `${20 + (i % 80)}.${String((i * 37) % 100).padStart(2, '0')}`,
      icms: i % 10 === 0 ? { cst: '10', rate: '18', stMva: '35', stRate: '18' } : { cst: '00', rate: '18' },
      ipiRate: i % 4 === 0 ? '5' : undefined,
      pisRate: '1.65',
      cofinsRate: '7.60',
    };
    if (i >= mapped && i < mapped + byGtin) return { ...base, code: `NEW${i}`, gtin: gtinOf(1000 + i) };
    if (i >= mapped + byGtin) return { ...base, code: `NEW${i}`, description: productName(2000 + i) };
    return base;
  });
}

// A full collection in the API process before each run, so a run's RSS growth is what that request
// needs, not garbage left by the previous ones.

/**
 * `runs` runs; before each a full GC, during each the RSS sampled every 5 ms (memoryUsage.rss(),
 * which does not walk the heaps as memoryUsage() does). Returns each run's peak RSS growth over its
 * own starting RSS (MB).
 */
async function runsWithMemory(server: ServerProcess, runs: number, fn: (i: number) => Promise<unknown>): Promise<{ growthMb: number[] }> {
  const growthMb: number[] = [];
  for (let i = 0; i < runs; i++) {
    await server.ask('gc');
    const start = await server.ask('rss-watch');
    await fn(i);
    const peak = await server.ask('rss-peak');
    growthMb.push(Math.round((peak - start) / 2 ** 20));
  }
  return { growthMb };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

const ms = (x: number) => `${Math.round(x)} ms`;

async function main() {
  await prepareDatabase();
  // The API in its own process (with --expose-gc for the memory runs): its CPU and RSS are its own.
  const server = await startServerProcess(['--expose-gc']);
  try {
    const t = await createTestTenant({ filiais: 1 });
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] });
    console.log(`seeding ${CATALOG} products and ${Math.round(ITEMS * 0.8)} map entries…`);
    await seedCatalog(t.companyId);

    const items = invoiceItems();
    const build = (n: number) =>
      buildNfe({
        number: 900000 + n,
        issuer: { cnpj: SUPPLIER, name: 'ALFA DISTRIBUIDORA DE ALIMENTOS LTDA' },
        recipient: { cnpj: filial.cnpj },
        items,
        installments: [{ dueDate: '2025-04-09' }, { dueDate: '2025-05-09' }, { dueDate: '2025-06-08' }],
      });
    console.log(`building and signing ${RUNS + 2 + MEMORY_RUNS + PROFILE_RUNS} invoices of ${ITEMS} items…`);
    const docs = Array.from({ length: RUNS + 2 + MEMORY_RUNS + PROFILE_RUNS }, (_v, i) => build(i));
    const bytes = Buffer.byteLength(docs[0].xml);

    const post = async (route: string, xml: string, expected: number) => {
      const t0 = Date.now();
      const res = await fetch(`${server.baseUrl}/api/entry-document/nfe/${route}`, {
        method: 'POST',
        headers: { ...t.headers(), 'content-type': 'application/xml' },
        body: xml,
      });
      const body = (await res.json()) as Record<string, any>;
      if (res.status !== expected) throw new Error(`${route} → ${res.status} ${JSON.stringify(body).slice(0, 400)}`);
      if (process.env.BENCH_VERBOSE) console.log(`${route} ${Date.now() - t0} ms`);
      return body;
    };

    // In-process steps first: CPU-bound runs block the event loop, and an HTTP keep-alive socket left
    // idle across them would be closed under the client's feet.
    const recipient = { document: filial.cnpj, environment: filial.nfeEnvironment };
    await inspectNfeXml(docs[0].xml, recipient); // also starts the signature worker
    const parse = await timeRuns(RUNS, () => parseNfe(docs[0].xml));
    const signature = await timeRuns(RUNS, async () => verifyNfeSignature(docs[0].xml, `NFe${docs[0].accessKey}`));
    const inspect = await timeRuns(RUNS, () => inspectNfeXml(docs[0].xml, recipient));

    // Warm-up (JIT, connection pool, statement caches), then the timed runs.
    await post('preview', docs[0].xml, 200);
    await post('importar-xml', docs[RUNS + 1].xml, 201);
    // The timing runs, with only a cheap RSS sampler on (the peak of the whole series); then a few
    // runs of each with a full GC before each, for the growth one request causes.
    await server.ask('gc');
    const seriesStart = mb(await server.ask('rss-watch'));
    const previewMeter = await cpuMeter(server);
    const preview = await timeRuns(RUNS, () => post('preview', docs[0].xml, 200));
    const previewCpu = await previewMeter.stop(RUNS);
    const importMeter = await cpuMeter(server);
    const imports = await timeRuns(RUNS, (i) => post('importar-xml', docs[i + 1].xml, 201));
    const importCpu = await importMeter.stop(RUNS);
    const seriesGrowth = mb(await server.ask('rss-peak')) - seriesStart;
    const rssBefore = mb(await server.ask('gc'));
    const previewRun = await runsWithMemory(server, MEMORY_RUNS, () => post('preview', docs[0].xml, 200));
    const importRun = await runsWithMemory(server, MEMORY_RUNS, (i) => post('importar-xml', docs[RUNS + 2 + i].xml, 201));
    const rssAfter = mb(await server.ask('gc'));
    if (PROFILE_RUNS) {
      for (const [name, work] of [
        ['nfe-preview', (i: number) => post('preview', docs[i].xml, 200)],
        ['nfe-import', (i: number) => post('importar-xml', docs[RUNS + 2 + MEMORY_RUNS + i].xml, 201)],
      ] as const) {
        const top = await profiled(server, name, async () => {
          for (let i = 0; i < PROFILE_RUNS; i++) await work(i);
        });
        const stages = stagesOfCpuProfile(reportFile(name).replace(/\.md$/, '.cpuprofile'));
        console.log(
          `\n${name} (${PROFILE_RUNS} requests), by stage:\n${stages.map((s) => `  ${s.share}% ${s.stage} (${s.ms} ms)`).join('\n')}\nby code:\n${top.map((t) => `  ${t.share}% ${t.where} (${Math.round(t.ms)} ms)`).join('\n')}`,
        );
      }
    }
    const last = await post('preview-import', docs[1].xml, 200);
    const sources = (last.items as { source: string | null }[]).reduce<Record<string, number>>(
      (acc, it) => ((acc[it.source ?? 'none'] = (acc[it.source ?? 'none'] ?? 0) + 1), acc),
      {},
    );

    const peakGrowth = Math.max(seriesGrowth, ...previewRun.growthMb, ...importRun.growthMb);
    const parseShare = (median(parse) / median(preview)) * 100;
    const rows: [string, number[], number | null, CpuPerOp | null][] = [
      ['parse alone (xml2js → ParsedNfe, in the bench process)', parse, null, null],
      ['signature alone (sax outline with C14N on the fly, RSA; in the bench process)', signature, null, null],
      ['inspect: parse ‖ signature on the worker thread, + report', inspect, null, null],
      ['POST preview (HTTP)', preview, 1000, previewCpu],
      ['POST importar-xml (HTTP)', imports, 2000, importCpu],
    ];
    const [[{ version }]] = [await dataSource.query('SELECT VERSION() AS version')];
    // The machine is shared: the load average says how much of the two cores the runs had.
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ');
    const report = [
      '# NF-e benchmark results (issue 5)',
      '',
      `Run: ${machine()}; ${version}; \`npm run bench -- nfe\`; load average at the end ${load} (1/5/15 min).`,
      '',
      `Invoice: signed nfeProc 4.00 with ${ITEMS} items (${(bytes / 1024).toFixed(0)} KB), 3 installments, ICMS/ICMS-ST/IPI/PIS/COFINS. Catalog: ${CATALOG} products;`,
      `item resolution of the import: ${Object.entries(sources)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}. ${RUNS} runs each after one warm-up; each import run imports another invoice.`,
      '',
      '| step | median | p95 | max | target | API / MariaDB CPU per request |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        ([name, xs, target, cpu]) =>
          `| ${name} | ${ms(median(xs))} | ${ms(percentile(xs, 0.95))} | ${ms(Math.max(...xs))} | ${target ? `< ${target} ms: median ${median(xs) < target ? 'pass' : 'FAIL'}, max ${Math.max(...xs) < target ? 'pass' : 'FAIL'}` : ''} | ${cpu ? `${cpu.api.toFixed(0)} / ${cpu.db === undefined ? 'n/a' : cpu.db.toFixed(0)} ms` : ''} |`,
      ),
      '',
      `Parse alone is ${parseShare.toFixed(0)}% of the preview's median. The signature check runs on a worker thread while the request's thread parses, so inspect costs about max(parse, signature), not their sum; the rest of the preview is HTTP, the database look-ups and the JSON of 990 items.`,
      '',
      `Memory: over the whole timing series (${RUNS} previews then ${RUNS} imports, no forced GC) RSS went from ${seriesStart} MB to a peak of ${seriesStart + seriesGrowth} MB: growth ${seriesGrowth} MB.`,
      `Per request (${MEMORY_RUNS} more runs of each, a full GC before each and the RSS sampled every 5 ms during it; the signature worker's heap included): peak growth per request — preview median ${median(previewRun.growthMb)} MB, max ${Math.max(...previewRun.growthMb)} MB; importar-xml median ${median(importRun.growthMb)} MB, max ${Math.max(...importRun.growthMb)} MB. RSS ${rssBefore} MB before these runs, ${rssAfter} MB after. Target peak growth < 200 MB: ${peakGrowth < 200 ? 'pass' : 'FAIL'} (largest ${peakGrowth} MB).`,
      '',
    ].join('\n');
    console.log(`\n${report}`);
    fs.writeFileSync(reportFile('nfe'), report);
    const failed = median(preview) >= 1000 || median(imports) >= 2000 || peakGrowth >= 200;
    process.exitCode = failed ? 1 : 0;
  } finally {
    await server.stop();
    await dataSource.destroy();
  }
}

main().then(
  // Exit when done: pools of the target commit (sequence, batching) would keep the process alive.
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
