/*
 * Libraries used through their internals (issue 36 item 3; docs/decisions/library-internals.md): each
 * internal use against the library's public API, same run, alternating, CPU per operation (medians
 * of ROUNDS rounds; process.cpuUsage of this process, user + system), then the share of the
 * operation's CPU the internal saves. An internal stays only where it saves more than 5 %.
 *
 * In this process (A/B, alternating rounds, the order swapped every round):
 * - joi: the defaults mutated (abortEarly off for every validation) against joi as published (its
 *   defaults; a failed validation validated again with { abortEarly: false } to list every problem);
 * - (until commit d31674e: the quick-sale create body read by hand, fastCreateBody, against joi's
 *   validation of it — 1.1 % of a sale, removed);
 * - hashids: the encoder tables (the library's internal shuffle and private fields) against
 *   hashids.encode with the id cache, for the ids of a list page (cold ids and cached ones);
 * - @xmldom/xmldom: its grammar's reg() memoised (fiscal-xml/xmldom-regex-cache.ts) against xmldom
 *   as published, on a DOM signature check of a 990-item NF-e and on a SEFAZ SOAP answer;
 * - TypeORM: a sale-shaped transaction on the batching query runner (a MysqlQueryRunner subclass)
 *   against TypeORM's own query runner (MariaDB at DB_URL).
 * The operations the savings are a share of, over HTTP in an API process of their own (cpuMeter):
 * a request failing validation, a quick sale of 3 items, a list page of 20 and of 100 orders.
 *
 *   npm run bench -- library-internals      env: ROUNDS (15), SECS (6), CONC (8)
 */
import fs from 'node:fs';
import Hashids from 'hashids';
import type { Schema } from 'joi';
import { signToken } from '../src/core/auth/jwt';
import { BatchingQueryRunner } from '../src/core/db/batching-query-runner';
import { dataSource } from '../src/core/db/data-source';
import { encodeId, singleEncoder } from '../src/core/hashids';
import { verifyThroughDom } from '../src/modules/fiscal-xml/signature';
import { quickSaleSchemas } from '../src/modules/quick-sale/quick-sale.schemas';
import { parseRoot } from '../src/modules/authority/xml/dom';
import { buildNfe } from '../tests/support/nfe-builder';
import { counterTenant } from './counter-setup';
import { cpuMeter, load, machine, median, prepareDatabase, reportFile, ServerProcess, startServerProcess } from './support';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const SECS = Number(process.env.SECS ?? 6);
const CONC = Number(process.env.CONC ?? 8);
const THRESHOLD = 0.05;

/* ---------- A/B in this process ---------- */

interface Variant {
  name: string;
  /** Sets the variant up (global switches) before a round; undone by the other variant's. */
  enter?: () => void;
  /** One operation (or a fixed batch of them: `per` below). */
  run: () => void | Promise<void>;
}

interface Pair {
  label: string;
  internal: number;
  public: number;
  /** µs the internal saves per operation (public − internal). */
  saved: number;
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** ROUNDS rounds of `iterations` operations of each variant, alternating (the order swapped each round); µs of CPU per operation, medians. */
async function ab(label: string, internal: Variant, pub: Variant, iterations: number): Promise<Pair> {
  const times: Record<'internal' | 'public', number[]> = { internal: [], public: [] };
  const once = async (key: 'internal' | 'public', v: Variant) => {
    v.enter?.();
    const t0 = cpuUs();
    for (let i = 0; i < iterations; i++) await v.run();
    times[key].push((cpuUs() - t0) / iterations);
  };
  // Warm-up (JIT) of both.
  for (let w = 0; w < 2; w++) {
    await once('internal', internal);
    await once('public', pub);
  }
  times.internal = [];
  times.public = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      await once('internal', internal);
      await once('public', pub);
    } else {
      await once('public', pub);
      await once('internal', internal);
    }
  }
  const pair = { label, internal: median(times.internal), public: median(times.public), saved: 0 };
  pair.saved = pair.public - pair.internal;
  console.log(
    `${label}: internal (${internal.name}) ${pair.internal.toFixed(1)} µs · public (${pub.name}) ${pair.public.toFixed(1)} µs · saved ${pair.saved.toFixed(1)} µs per operation`,
  );
  return pair;
}

/* joi: its defaults object, reached as validate.ts reached it before (for the A/B only). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under measurement
const joiDefaults = (require('joi/lib/common') as { defaults: { abortEarly: boolean } }).defaults;

function withoutStack<T>(fn: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** validate.ts's reading of a body with joi's defaults mutated (abortEarly off): one validation. */
const joiMutated = (schema: Schema, input: unknown) => withoutStack(() => schema.validate(input));
/** joi as published: its defaults; a failed body validated again with every problem listed. */
function joiPublished(schema: Schema, input: unknown) {
  return withoutStack(() => {
    const first = schema.validate(input);
    return first.error ? schema.validate(input, { abortEarly: false }) : first;
  });
}

async function joiPairs(productHashes: string[]): Promise<Pair[]> {
  const schema = quickSaleSchemas.createSalesOrder.body!;
  const failing = {
    flowMode: 'QUICK_SALE',
    items: [{ productId: productHashes[0], quantity: 'three' }],
    payments: [{ method: 'CASH', amount: '30.00' }],
    colour: 'blue',
  };
  const standard = {
    flowMode: 'STANDARD',
    customerId: null,
    notes: 'entregar pela manhã',
    items: productHashes.slice(0, 3).map((p, i) => ({ productId: p, quantity: String(i + 1), unitPrice: '10.50', discount: '0.50' })),
  };
  // Same answers both ways (the details of the failure: every problem, in the same order).
  for (const input of [failing, standard]) {
    joiDefaults.abortEarly = false;
    const a = joiMutated(schema, input);
    joiDefaults.abortEarly = true;
    const b = joiPublished(schema, input);
    if (JSON.stringify(a.error?.details ?? a.value) !== JSON.stringify(b.error?.details ?? b.value))
      throw new Error(`joi variants disagree on ${JSON.stringify(input)}`);
  }
  const mutated = (input: unknown): Variant => ({
    name: 'defaults mutated',
    enter: () => (joiDefaults.abortEarly = false),
    run: () => void joiMutated(schema, input),
  });
  const published = (input: unknown): Variant => ({
    name: 'as published',
    enter: () => (joiDefaults.abortEarly = true),
    run: () => void joiPublished(schema, input),
  });
  const pairs = [
    await ab('joi: a body failing validation (3 problems)', mutated(failing), published(failing), 2000),
    await ab('joi: a valid standard-order body (3 lines)', mutated(standard), published(standard), 2000),
  ];
  joiDefaults.abortEarly = true;
  return pairs;
}

async function hashidsPairs(): Promise<Pair[]> {
  const minLength = 8;
  const hashids = new Hashids('bench-salt-0123:sales-order', minLength);
  const tables = singleEncoder(hashids, minLength);
  if (!tables) throw new Error('the hashids tables did not match the library');
  // A list page: per row the order's id and its customer, seller and filial ids (4 encodes a row).
  const page = (rows: number, first: number) => Array.from({ length: rows * 4 }, (_v, i) => first + i);
  // The cache encodeId keeps per type (a full cache starts over), in front of either encoder.
  const cachedBy = (encode: (id: number) => string) => {
    const cache = new Map<number, string>();
    return (id: number) => {
      let s = cache.get(id);
      if (s === undefined) {
        if (cache.size >= 20_000) cache.clear();
        cache.set(id, (s = encode(id)));
      }
      return s;
    };
  };
  const library = (id: number) => hashids.encode(id);
  const pairs: Pair[] = [];
  for (const rows of [20, 100]) {
    // Cold: ids never encoded before (a miss every time); warm: the same page again.
    let next = 1_000_000;
    const cold = (name: string, encode: (id: number) => string): Variant => ({
      name,
      run: () => {
        for (const id of page(rows, (next += rows * 4))) encode(id);
      },
    });
    const warmIds = page(rows, 5000);
    const warm = (name: string, encode: (id: number) => string): Variant => ({
      name,
      run: () => {
        for (const id of warmIds) encode(id);
      },
    });
    pairs.push(
      await ab(
        `hashids: the ids of a list page of ${rows} (${rows * 4} ids, never seen)`,
        cold('tables behind the cache', cachedBy(tables)),
        cold('encode behind the cache', cachedBy(library)),
        200,
      ),
    );
    pairs.push(
      await ab(
        `hashids: the ids of a list page of ${rows} (${rows * 4} ids, cached)`,
        warm('tables behind the cache', cachedBy(tables)),
        warm('encode behind the cache', cachedBy(library)),
        200,
      ),
    );
    pairs.push(
      await ab(
        `hashids: the ids of a list page of ${rows} (${rows * 4} ids, cached), tables alone`,
        warm('tables alone (no cache)', tables),
        warm('encode behind the cache', cachedBy(library)),
        200,
      ),
    );
  }
  return pairs;
}

/* @xmldom/xmldom: the memoised reg() (xmldom-regex-cache.ts) against the grammar's own, swapped for the A/B. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under measurement
const grammar = require('@xmldom/xmldom/lib/grammar') as { reg: (...parts: (RegExp | string)[]) => RegExp };
/** reg() as published: from a fresh copy of the grammar module, whatever may have replaced the loaded one's. */
const publishedReg = (() => {
  const file = require.resolve('@xmldom/xmldom/lib/grammar');
  const loaded = require.cache[file];
  delete require.cache[file];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the internal under measurement
  const fresh = require(file) as typeof grammar;
  require.cache[file] = loaded;
  return fresh.reg;
})();
/** reg() as fiscal-xml/xmldom-regex-cache.ts (loaded with signature.ts) memoises it. */
const memoisedReg = grammar.reg;
if (memoisedReg === publishedReg || !(grammar as { __cachedReg?: boolean }).__cachedReg)
  throw new Error('xmldom-regex-cache.ts is not in effect');

async function xmldomPairs(): Promise<Pair[]> {
  const items = Array.from({ length: 990 }, (_v, i) => ({
    code: `SKU${i}`,
    description: `PRODUTO ${i} CX 12UN`,
    unit: 'CX',
    quantity: String(1 + (i % 7)),
    unitPrice: `${20 + (i % 80)}.50`,
    icms: { cst: '00' as const, rate: '18' },
  }));
  const nfe = buildNfe({ number: 700001, recipient: { cnpj: '11222333000181' }, items });
  const id = `NFe${nfe.accessKey}`;
  const soap =
    '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body>' +
    '<nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4"><retEnviNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">' +
    '<tpAmb>1</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><cStat>104</cStat><xMotivo>Lote processado</xMotivo><cUF>35</cUF><dhRecbto>2025-03-10T10:00:01-03:00</dhRecbto>' +
    `<protNFe versao="4.00"><infProt><tpAmb>1</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${nfe.accessKey}</chNFe><dhRecbto>2025-03-10T10:00:01-03:00</dhRecbto>` +
    '<nProt>135250000000001</nProt><digVal>vFL68WETQ+mvj1aJAMDx+oVi928=</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>' +
    '</retEnviNFe></nfeResultMsg></soap:Body></soap:Envelope>';
  grammar.reg = memoisedReg;
  const a = verifyThroughDom(nfe.xml, id, { container: 'NFe', signed: 'infNFe', proc: 'nfeProc', protocol: 'protNFe', label: 'NF-e' });
  grammar.reg = publishedReg;
  const b = verifyThroughDom(nfe.xml, id, { container: 'NFe', signed: 'infNFe', proc: 'nfeProc', protocol: 'protNFe', label: 'NF-e' });
  if (a.status !== 'VALID' || JSON.stringify(a) !== JSON.stringify(b))
    throw new Error(`xmldom variants disagree: ${a.status} / ${b.status}`);
  const variant = (name: string, reg: typeof publishedReg, run: () => void): Variant => ({ name, enter: () => (grammar.reg = reg), run });
  const shape = { container: 'NFe', signed: 'infNFe', proc: 'nfeProc', protocol: 'protNFe', label: 'NF-e' };
  const dom = () => void verifyThroughDom(nfe.xml, id, shape);
  const answer = () => void parseRoot(soap);
  const pairs = [
    await ab(
      'xmldom: signature check of a 990-item NF-e through the DOM',
      variant('reg memoised', memoisedReg, dom),
      variant('as published', publishedReg, dom),
      2,
    ),
    await ab(
      'xmldom: a SEFAZ authorization answer (SOAP) parsed',
      variant('reg memoised', memoisedReg, answer),
      variant('as published', publishedReg, answer),
      1000,
    ),
  ];
  grammar.reg = memoisedReg;
  return pairs;
}

/* TypeORM: a transaction shaped like a quick sale (its statements, in its order) on either runner. */
const SALE_READS = [
  'SELECT id, v FROM bench_li_product WHERE id IN (?, ?, ?)',
  'SELECT id, v FROM bench_li_config WHERE id = ?',
  'SELECT id, v FROM bench_li_product WHERE id = ?',
];

async function typeormPair(): Promise<Pair> {
  for (const t of ['bench_li_product', 'bench_li_config', 'bench_li_line']) {
    await dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${t} (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, v VARCHAR(40) NOT NULL DEFAULT '')`,
    );
  }
  await dataSource.query(`INSERT IGNORE INTO bench_li_product (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  await dataSource.query(`INSERT IGNORE INTO bench_li_config (id, v) VALUES (1, 'x')`);
  // 3 reads side by side, the header insert (its id awaited), 3 lines + 3 balances + 3 ledger rows + payment + outbox (nobody waits), a last read, COMMIT.
  const writes = Array.from({ length: 11 }, (_v, i) => ({
    sql: i < 3 ? 'INSERT INTO bench_li_line (k, v) VALUES (?, ?)' : 'UPDATE bench_li_product SET k = k + 1 WHERE id = ?',
    params: i < 3 ? [i, 'line'] : [1 + (i % 3)],
  }));
  const batching: Variant = {
    name: 'batching runner',
    run: async () => {
      const runner = new BatchingQueryRunner();
      try {
        await runner.startTransaction();
        await Promise.all([
          runner.run([{ sql: SALE_READS[0], params: [1, 2, 3] }]),
          runner.run([{ sql: SALE_READS[1], params: [1] }]),
          runner.run([{ sql: SALE_READS[2], params: [1] }]),
        ]);
        await runner.run([{ sql: 'INSERT INTO bench_li_line (k, v) VALUES (?, ?)', params: [0, 'header'] }]);
        for (const w of writes) runner.defer({ ...w, label: 'bench write' });
        await runner.run([{ sql: SALE_READS[2], params: [2] }]);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
    },
  };
  const own: Variant = {
    name: "TypeORM's runner",
    run: async () => {
      const runner = dataSource.createQueryRunner('master');
      try {
        await runner.startTransaction();
        await Promise.all([runner.query(SALE_READS[0], [1, 2, 3]), runner.query(SALE_READS[1], [1]), runner.query(SALE_READS[2], [1])]);
        await runner.query('INSERT INTO bench_li_line (k, v) VALUES (?, ?)', [0, 'header']);
        for (const w of writes) await runner.query(w.sql, w.params);
        await runner.query(SALE_READS[2], [2]);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
    },
  };
  const pair = await ab('TypeORM: a sale-shaped transaction (16 statements and COMMIT)', batching, own, 100);
  await dataSource.query('DELETE FROM bench_li_line');
  return pair;
}

/* ---------- the operations, over HTTP in an API process ---------- */

async function setupSales() {
  const { company, filial, products } = await counterTenant(200, 1_000_000);
  const headers = {
    Authorization: `Bearer ${signToken({ sub: 'bench', companyId: encodeId('company', company.id), filiais: ['*'], scope: '*' }, '2h')}`,
    'x-company-id': encodeId('company', company.id),
    'x-filial-id': encodeId('filial', filial.id),
    'content-type': 'application/json',
  };
  return { headers, productHashes: products.map((p) => encodeId('product', p.id)), filialHash: encodeId('filial', filial.id) };
}

interface Operation {
  label: string;
  /** ms of API CPU per request. */
  api: number;
  rps: number;
  statuses: string;
}

async function operation(server: ServerProcess, label: string, opts: Parameters<typeof load>[0]): Promise<Operation> {
  await load({ ...opts, duration: 2 });
  const meter = await cpuMeter(server);
  const run = await load({ ...opts, duration: SECS });
  const cpu = await meter.stop(run.requests);
  const statuses = Object.entries(run.statusCodes)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  console.log(`${label}: ${run.rps.toFixed(0)} req/s, API ${cpu.api.toFixed(3)} ms/req (${statuses}, errors ${run.errors})`);
  return { label, api: cpu.api, rps: run.rps, statuses };
}

(async () => {
  await prepareDatabase();
  const { headers, productHashes, filialHash } = await setupSales();
  const load0 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

  const pairs = {
    joi: await joiPairs(productHashes),
    hashids: await hashidsPairs(),
    xmldom: await xmldomPairs(),
    typeorm: await typeormPair(),
  };

  const server = await startServerProcess([], { DB_POOL_SIZE: '16' });
  let ops: Record<'failing' | 'sale' | 'list20' | 'list100', Operation>;
  try {
    let n = 0;
    const sale = () =>
      JSON.stringify({
        flowMode: 'QUICK_SALE',
        items: [0, 1, 2].map((k) => ({ productId: productHashes[(n++ * 7 + k * 13) % productHashes.length], quantity: 1 })),
        payments: [{ method: 'CASH', amount: '30.00' }],
      });
    const url = `${server.baseUrl}/api/sales-order`;
    const failingBody = JSON.stringify({
      flowMode: 'QUICK_SALE',
      items: [{ productId: productHashes[0], quantity: 'three' }],
      payments: [{ method: 'CASH', amount: '30.00' }],
      colour: 'blue',
    });
    ops = {
      failing: await operation(server, 'POST /api/sales-order failing validation (400)', {
        url,
        connections: CONC,
        method: 'POST',
        headers,
        body: failingBody,
      }),
      sale: await operation(server, 'POST /api/sales-order quick sale of 3 items', {
        url,
        connections: CONC,
        headers,
        requests: [{ method: 'POST', setupRequest: (r) => ({ ...r, body: sale() }) }],
      }),
      list20: await operation(server, 'GET /api/sales-order/:filialId, a page of 20', {
        url: `${url}/${filialHash}?pageSize=20`,
        connections: CONC,
        headers,
      }),
      list100: await operation(server, 'GET /api/sales-order/:filialId, a page of 100', {
        url: `${url}/${filialHash}?pageSize=100`,
        connections: CONC,
        headers,
      }),
    };
  } finally {
    await server.stop();
  }
  const load1 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

  const share = (p: Pair, opMs: number) => p.saved / 1000 / opMs;
  const row = (entry: string, p: Pair, op: Operation | { label: string; api: number }) => {
    const s = share(p, op.api);
    return `| ${entry} | ${p.label} | ${p.internal.toFixed(1)} | ${p.public.toFixed(1)} | ${p.saved.toFixed(1)} | ${op.label}: ${op.api.toFixed(3)} ms | ${(s * 100).toFixed(1)} % | ${s > THRESHOLD ? 'keep' : 'public API'} |`;
  };
  const [joiFailing, joiValid] = pairs.joi;
  const [h20cold, h20warm, h20alone, h100cold, h100warm, h100alone] = pairs.hashids;
  const [domCheck, soapAnswer] = pairs.xmldom;
  // The DOM check's own cost is its operation (the fallback of an NF-e import's signature check).
  const domOp = { label: 'the DOM check itself', api: domCheck.public / 1000 };
  const text = [
    `## Library internals against the public API (issue 36) — ${machine()}`,
    '',
    `Load average ${load0} at the start, ${load1} at the end. In-process pairs: ${ROUNDS} alternating rounds (order swapped each round), CPU µs per operation, medians. Operations: an API process of its own, ${CONC} connections, ${SECS} s after 2 s of warm-up, API CPU per request (process.cpuUsage).`,
    '',
    '| entry | measured | internal µs | public µs | saved µs | operation (API CPU) | share | verdict (> 5 %) |',
    '|---|---|---|---|---|---|---|---|',
    row('joi defaults mutated', joiFailing, ops.failing),
    row('joi defaults mutated', joiValid, ops.sale),
    row('hashids tables', h20cold, ops.list20),
    row('hashids tables', h20warm, ops.list20),
    row('hashids tables', h100cold, ops.list100),
    row('hashids tables', h100warm, ops.list100),
    row('hashids tables', h20alone, ops.list20),
    row('hashids tables', h100alone, ops.list100),
    row('xmldom reg() memoised', domCheck, domOp),
    row('xmldom reg() memoised', soapAnswer, ops.sale),
    row('TypeORM MysqlQueryRunner subclass', pairs.typeorm, ops.sale),
    '',
    `The SOAP answer is shown against a quick sale (an NFC-e authorization reads one such answer per sale when NFC-e is on).`,
  ].join('\n');
  console.log(`\n${text}`);
  fs.writeFileSync(reportFile('library-internals'), `${text}\n`);
  await dataSource.destroy();
})().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
