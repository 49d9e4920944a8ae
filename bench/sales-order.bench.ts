/*
 * Sales-order benchmark (issue 6), MariaDB only:
 *   - data: ORDERS orders (3 items each, default 1,000,000), CUSTOMERS customers (100,000), SELLERS
 *     sellers (50), PRODUCTS products with stock, bulk-loaded with multi-row INSERTs;
 *   - list latencies through HTTP (autocannon): numeric search, text search, page 500 unfiltered, and
 *     the floor beside them: a read of one order by primary key (GET /sales-order/detail/:id), same conditions;
 *   - API CPU per request (process.cpuUsage of the API process) and MariaDB CPU (/proc) of each run;
 *   - fulfill of 2 items with 16 concurrent clients: throughput, latencies, errors, stock check;
 *   - EXPLAIN of the list queries, and the raw-SQL floor of the same run for the ratio.
 * The API runs in a child process (one Node process, as in production) so autocannon does not share
 * its event loop. Figures are printed and written to bench/out/sales-order.md.
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<db> npm run bench -- sales-order
 *   env: ORDERS, CUSTOMERS, SELLERS, PRODUCTS, OPEN_ORDERS, LIST_SECS (10), LIST_CONNECTIONS (1), FULFILL_SECS (30),
 *        BENCH_REUSE=1 (keep the loaded data of a previous run), PROFILE_SECS (10; 0: none: a CPU profile of
 *        the API over that much more of the numeric-search list, by stage, in bench/out/sales-order-list.cpuprofile),
 *        PROFILE_LIST (numeric, text or page500: the list PROFILE_SECS profiles; default numeric),
 *        LIST_SECS=0 (no list runs, no EXPLAIN: the fulfil only), FULFILL_PROFILE_SECS (0: none; a CPU profile of the
 *        API over that much more of the fulfil load, by stage, in bench/out/sales-order-fulfill.cpuprofile)
 */
import fs from 'node:fs';
import os from 'node:os';
import { signToken } from '../src/core/auth/jwt';
import { dataSource } from '../src/core/db/data-source';
import { encodeId } from '../src/core/hashids';
import { raiseSequenceTo } from '../src/core/sequence/sequence.service';
import { Company } from '../src/modules/tenancy/entities/company.entity';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { createTenant } from '../src/modules/tenancy/tenant.service';
import { findStockMismatches } from '../src/modules/stock/stock.repository';
import { listOrders } from '../src/modules/sales-order/services/query.service';
import { SALES_ORDER_CODE_SEQUENCE } from '../src/modules/sales-order/services/create.service';
import {
  CpuPerOp,
  cpuMeter,
  fmtCpu,
  load,
  LoadResult,
  machine,
  prepareDatabase,
  profiled,
  rawQuickSaleFloor,
  reportFile,
  ServerProcess,
  Stage,
  stagesOfCpuProfile,
  startServerProcess,
} from './support';

const N = {
  orders: Number(process.env.ORDERS ?? 1_000_000),
  customers: Number(process.env.CUSTOMERS ?? 100_000),
  sellers: Number(process.env.SELLERS ?? 50),
  products: Number(process.env.PRODUCTS ?? 1_000),
  open: Number(process.env.OPEN_ORDERS ?? 50_000),
  listSecs: Number(process.env.LIST_SECS ?? 10),
  fulfillSecs: Number(process.env.FULFILL_SECS ?? 30),
  listConnections: Number(process.env.LIST_CONNECTIONS ?? 1),
};
/** Which list PROFILE_SECS profiles: numeric (search), text (search) or page500. */
const profileList = process.env.PROFILE_LIST ?? 'numeric';
const COMPANY_CNPJ = '11222333000181';
const BATCH = 2_000;
const STOCK = 10_000_000;

const FIRST = (
  'MARIA ANA FRANCISCA ANTONIA ADRIANA JULIANA MARCIA FERNANDA PATRICIA ALINE SANDRA CAMILA AMANDA BRUNA JESSICA LETICIA JULIA LUCIANA VANESSA MARIANA ' +
  'JOSE JOAO ANTONIO FRANCISCO CARLOS PAULO PEDRO LUCAS LUIZ MARCOS LUIS GABRIEL RAFAEL DANIEL MARCELO BRUNO EDUARDO FELIPE RAIMUNDO RODRIGO ' +
  'MANOEL MATEUS ANDRE FERNANDO FABIO LEONARDO GUSTAVO GUILHERME LEANDRO TIAGO ANDERSON RICARDO MARCIO JORGE SEBASTIAO ALEXANDRE ROBERTO EDSON DIEGO VITOR ' +
  'SERGIO CLAUDIO MATHEUS THIAGO GERALDO ADRIANO LUCIANO JULIO RENATO ALEX VINICIUS ROGERIO SAMUEL RONALDO MARIO FLAVIO IGOR DOUGLAS DAVI MAURICIO OTAVIO ' +
  'HELENA BEATRIZ LARISSA GABRIELA CAROLINA RAQUEL SIMONE CRISTINA DANIELA ROSANGELA TATIANA VERA SONIA LUANA DEBORA RENATA PRISCILA BIANCA ELAINE VALERIA'
).split(' ');
const LAST = (
  'SILVA SANTOS OLIVEIRA SOUZA RODRIGUES FERREIRA ALVES PEREIRA LIMA GOMES COSTA RIBEIRO MARTINS CARVALHO ALMEIDA LOPES SOARES FERNANDES VIEIRA BARBOSA ' +
  'ROCHA DIAS NASCIMENTO ANDRADE MOREIRA NUNES MARQUES MACHADO MENDES FREITAS CARDOSO RAMOS GONCALVES SANTANA TEIXEIRA ARAUJO PINTO CORREIA CAVALCANTI MONTEIRO'
).split(' ');
const SELLER_ALIASES = Array.from({ length: 200 }, (_v, i) => `VEND${String(i + 1).padStart(3, '0')}`);

/** Deterministic pseudo-random numbers (the data set is the same on every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const sqlDate = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
const q = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);

async function insertRows(table: string, columns: string[], count: number, row: (i: number) => string, label: string): Promise<void> {
  const started = Date.now();
  for (let from = 0; from < count; from += BATCH) {
    const rows: string[] = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) rows.push(`(${row(i)})`);
    await dataSource.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.join(',')}`);
    if ((from / BATCH) % 50 === 0 && from)
      process.stdout.write(`  ${label}: ${from.toLocaleString('en')} rows, ${((Date.now() - started) / 1000).toFixed(0)} s\r`);
  }
  console.log(`  ${label}: ${count.toLocaleString('en')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s          `);
}

interface Tenant {
  companyId: number;
  filialId: number;
}

async function tenant(): Promise<Tenant> {
  const existing = await dataSource.manager.findOneBy(Company, { cnpj: COMPANY_CNPJ });
  if (existing) {
    const filial = await dataSource.manager.findOneByOrFail(Filial, { companyId: existing.id });
    return { companyId: existing.id, filialId: filial.id };
  }
  const { company, filiais } = await createTenant({
    name: 'Bench Vendas',
    cnpj: COMPANY_CNPJ,
    filiais: [{ name: 'Loja 1', cnpj: COMPANY_CNPJ, uf: 'SP' }],
  });
  return { companyId: company.id, filialId: filiais[0].id };
}

/** Bulk load; ids are explicit (the tables are empty on a fresh run), so orders and items line up. */
async function loadData(t: Tenant): Promise<number> {
  const started = Date.now();
  const c = t.companyId;
  const r = rng(42);
  const now = Date.now();
  await insertRows(
    'seller',
    ['id', 'company_id', 'name', 'alias', 'search_name', 'active', 'version'],
    N.sellers,
    (i) => {
      const name = `${FIRST[(i * 7) % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`;
      return `${i + 1}, ${c}, ${q(name)}, ${q(SELLER_ALIASES[i])}, ${q(`${name} ${SELLER_ALIASES[i]}`)}, 1, 1`;
    },
    'sellers',
  );
  await insertRows(
    'customer',
    ['id', 'company_id', 'name', 'trade_name', 'search_name', 'search_trade_name', 'document', 'active', 'version'],
    N.customers,
    (i) => {
      const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${LAST[Math.floor(i / 7) % LAST.length]}`;
      const trade = i % 10 === 0 ? `${LAST[i % LAST.length]} COMERCIO ${i}` : null;
      const document = String(10_000_000_000 + i * 7919).slice(0, 11);
      return `${i + 1}, ${c}, ${q(name)}, ${q(trade)}, ${q(name)}, ${q(trade)}, ${q(document)}, 1, 1`;
    },
    'customers',
  );
  // The word index of customers and sellers, built as the migration's backfill builds it (a
  // BENCH_TARGET from before the index has no such table).
  if ((await dataSource.query("SHOW TABLES LIKE 'party_search_token'")).length) {
    const { backfillPartySearchTokens } = await import('../migrations/backfill-party-search-tokens');
    const indexStarted = Date.now();
    const runner = dataSource.createQueryRunner();
    try {
      await backfillPartySearchTokens(runner);
    } finally {
      await runner.release();
    }
    console.log(`  party word index in ${((Date.now() - indexStarted) / 1000).toFixed(1)} s`);
  }
  await insertRows(
    'product',
    ['id', 'company_id', 'code', 'name', 'search_name', 'unit', 'price', 'active', 'stock_controlled', 'version'],
    N.products,
    (i) =>
      `${i + 1}, ${c}, ${q(`P${i + 1}`)}, ${q(`PRODUTO ${i + 1}`)}, ${q(`PRODUTO ${i + 1}`)}, 'UN', ${(5 + (i % 50)).toFixed(2)}, 1, 1, 1`,
    'products',
  );
  // Opening stock through the ledger's tables: one IN movement per product and the matching balance.
  await insertRows(
    'stock_movement',
    [
      'company_id',
      'filial_id',
      'product_id',
      'direction',
      'reason',
      'quantity',
      'unit_cost',
      'balance_after',
      'average_cost_after',
      'reference_type',
      'reference_id',
    ],
    N.products,
    (i) => `${c}, ${t.filialId}, ${i + 1}, 'IN', 'OPENING_BALANCE', ${STOCK}, 3, ${STOCK}, 3, 'bench', 1`,
    'stock movements',
  );
  await insertRows(
    'stock_balance',
    ['company_id', 'filial_id', 'product_id', 'quantity', 'average_cost'],
    N.products,
    (i) => `${c}, ${t.filialId}, ${i + 1}, ${STOCK}, 3`,
    'stock balances',
  );

  // Orders: codes 1..N in time order over ~2 years; the newest OPEN (to fulfil), the rest FULFILLED.
  const span = 2 * 365 * 86_400_000;
  const openFrom = N.orders - N.open;
  const prices = (p: number) => 5 + ((p - 1) % 50);
  const itemOf = (orderIndex: number, line: number) => {
    const product = 1 + (((Math.imul(orderIndex + 1, 2654435761) + line * 7919) >>> 0) % N.products);
    const quantity = orderIndex >= openFrom ? 1000 : 1 + ((orderIndex + line) % 5);
    return { product, quantity, price: prices(product), total: quantity * prices(product) };
  };
  await insertRows(
    'sales_order',
    [
      'id',
      'company_id',
      'filial_id',
      'code',
      'type',
      'flow_mode',
      'status',
      'customer_id',
      'seller_id',
      'alias',
      'search_alias',
      'gross_total',
      'items_discount',
      'discount',
      'freight',
      'total',
      'version',
      'created_at',
      'created_day',
      'updated_at',
    ],
    N.orders,
    (i) => {
      const total = [0, 1, 2].reduce((s, l) => s + itemOf(i, l).total, 0);
      const alias = i % 97 === 0 ? `OBRA ${LAST[i % LAST.length]} ${i}` : null;
      const at = sqlDate(now - span + Math.floor((i / N.orders) * span));
      return `${i + 1}, ${c}, ${t.filialId}, ${i + 1}, 'ORDER', 'STANDARD', '${i >= openFrom ? 'OPEN' : 'FULFILLED'}', ${1 + Math.floor(r() * N.customers)}, ${1 + Math.floor(r() * N.sellers)}, ${q(alias)}, ${q(alias)}, ${total.toFixed(2)}, 0, 0, 0, ${total.toFixed(2)}, 1, '${at}', '${at.slice(0, 10)}', '${at}'`;
    },
    'orders',
  );
  await insertRows(
    'sales_order_item',
    [
      'id',
      'company_id',
      'sales_order_id',
      'line_number',
      'product_id',
      'description',
      'unit',
      'quantity',
      'unit_price',
      'discount',
      'total',
      'order_discount_share',
      'fulfilled_quantity',
      'returned_quantity',
      'cancelled_quantity',
    ],
    N.orders * 3,
    (k) => {
      const i = Math.floor(k / 3);
      const line = k % 3;
      const it = itemOf(i, line);
      return `${k + 1}, ${c}, ${i + 1}, ${line + 1}, ${it.product}, ${q(`PRODUTO ${it.product}`)}, 'UN', ${it.quantity}, ${it.price}, 0, ${it.total.toFixed(2)}, 0, ${i >= openFrom ? 0 : it.quantity}, 0, 0`;
    },
    'order items',
  );
  await dataSource.transaction((em) => raiseSequenceTo(em, c, SALES_ORDER_CODE_SEQUENCE, N.orders));
  await dataSource.query('ANALYZE TABLE sales_order, sales_order_item, customer, seller');
  return (Date.now() - started) / 1000;
}

/** Every SELECT a list call sends (phase 1 ids and count, then phase 2 by primary key), captured from TypeORM's logger and EXPLAINed. */
async function explainList(t: Tenant, label: string, query: Record<string, unknown>): Promise<string> {
  const captured: { sql: string; params: unknown[] }[] = [];
  const logger = dataSource.logger;
  const original = logger.logQuery.bind(logger);
  logger.logQuery = (sql: string, params?: unknown[]) => {
    if (/^\s*SELECT/i.test(sql)) captured.push({ sql, params: params ?? [] });
  };
  try {
    await listOrders({ companyId: t.companyId, actor: 'bench', grantedFiliais: '*', scopes: ['*'] }, t.filialId, {
      page: 1,
      pageSize: 20,
      includeTotal: true,
      sort: '-code',
      ...query,
    } as never);
  } finally {
    logger.logQuery = original;
  }
  // A batch of several statements (one round trip) is explained statement by statement.
  const statements = captured.flatMap(({ sql, params }) => {
    let next = 0;
    return sql.split(';\n').map((one) => {
      const count = (one.match(/\?/g) ?? []).length;
      const own = params.slice(next, next + count);
      next += count;
      return { sql: one, params: own };
    });
  });
  const parts: string[] = [`### ${label}`];
  for (const { sql, params } of statements) {
    const rows: Record<string, unknown>[] = await dataSource.query(`EXPLAIN ${sql}`, params);
    parts.push(
      '```sql',
      sql.replace(/\s+/g, ' ').slice(0, 1200),
      '```',
      '| id | select_type | table | type | key | rows | Extra |',
      '|---|---|---|---|---|---|---|',
    );
    for (const r of rows)
      parts.push(`| ${[r.id, r.select_type, r.table, r.type, r.key ?? '', r.rows, r.Extra ?? ''].map(String).join(' | ')} |`);
  }
  return parts.join('\n');
}

const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s · p50 ${r.p50} ms · p97.5 ${r.p95} ms · p99 ${r.p99} ms · ${r.requests} requests · errors ${r.errors} · non-2xx ${r.non2xx}`;

async function main(): Promise<void> {
  const { reused } = await prepareDatabase();
  const t = await tenant();
  const [{ n }] = await dataSource.query('SELECT COUNT(*) AS n FROM sales_order WHERE company_id = ?', [t.companyId]);
  let loadSecs: number | null = null;
  if (Number(n) !== N.orders) {
    if (Number(n)) throw new Error(`the bench database holds ${n} orders, not ${N.orders}: run without BENCH_REUSE`);
    console.log(
      `loading ${N.orders.toLocaleString('en')} orders × 3 items, ${N.customers.toLocaleString('en')} customers, ${N.sellers} sellers…`,
    );
    loadSecs = await loadData(t);
  } else {
    console.log(`reusing ${N.orders.toLocaleString('en')} loaded orders`);
  }
  const filialHash = encodeId('filial', t.filialId);
  const token = signToken({ sub: 'bench', companyId: encodeId('company', t.companyId), filiais: ['*'], scope: '*' }, '2h');
  const headers = {
    authorization: `Bearer ${token}`,
    'x-company-id': encodeId('company', t.companyId),
    'x-filial-id': filialHash,
    'content-type': 'application/json',
  };

  const explains = !N.listSecs
    ? '(lists not run: LIST_SECS=0)'
    : [
        await explainList(t, 'numeric search "4711"', { search: '4711' }),
        await explainList(t, 'text search "MARIA SILVA" (customers + sellers + alias)', { search: 'MARIA SILVA' }),
        await explainList(t, 'text search "VEND007" (a seller alias)', { search: 'VEND007' }),
        await explainList(t, 'page 500, unfiltered', { page: 500 }),
      ].join('\n\n');

  const loadAvg = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ');
  const loadBefore = loadAvg();
  const server: ServerProcess = await startServerProcess([], { DB_POOL_SIZE: '24' });
  const baseUrl = server.baseUrl;
  const r = rng(7);
  const listPath = `/api/sales-order/${filialHash}`;
  const results: Record<string, LoadResult & { cpu: CpuPerOp }> = {};
  let listStages: { stage: Stage; ms: number; share: number }[] = [];
  let fulfillStages: { stage: Stage; ms: number; share: number }[] = [];
  try {
    const listLoad = async (label: string, pathOf: () => string, connections = N.listConnections) => {
      const meter = await cpuMeter(server);
      const res = await load({
        url: baseUrl,
        connections,
        duration: N.listSecs,
        headers,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf() }) }],
      });
      const cpu = await meter.stop(res.requests);
      results[label] = { ...res, cpu };
      console.log(`${label}: ${fmt(res)}; ${fmtCpu(cpu)}`);
    };
    if (N.listSecs) await listLoad('warm-up', () => `${listPath}?search=${1 + Math.floor(r() * 999)}`);
    if (N.listSecs) {
      await listLoad(
        'floor: read one order by primary key',
        () => `/api/sales-order/detail/${encodeId('sales-order', 1 + Math.floor(r() * N.orders))}`,
      );
      await listLoad(
        'numeric search',
        () => `${listPath}?search=${String(1 + Math.floor(r() * N.orders)).slice(0, 1 + Math.floor(r() * 6))}`,
      );
      const textTerms = [
        ...FIRST.slice(0, 40).map((f, i) => `${f} ${LAST[i % LAST.length]}`),
        ...FIRST.slice(40, 60),
        ...SELLER_ALIASES.slice(0, N.sellers).slice(0, 20),
        'OBRA SILVA',
      ];
      await listLoad('text search', () => `${listPath}?search=${encodeURIComponent(textTerms[Math.floor(r() * textTerms.length)])}`);
      await listLoad('page 500, unfiltered', () => `${listPath}?page=500&pageSize=20`);
      const profileSecs = Number(process.env.PROFILE_SECS ?? 10);
      if (profileSecs > 0) {
        const profilePath: Record<string, () => string> = {
          numeric: () => `${listPath}?search=${String(1 + Math.floor(r() * N.orders)).slice(0, 1 + Math.floor(r() * 6))}`,
          text: () => `${listPath}?search=${encodeURIComponent(textTerms[Math.floor(r() * textTerms.length)])}`,
          page500: () => `${listPath}?page=500&pageSize=20`,
        };
        const pathOf = profilePath[profileList];
        if (!pathOf) throw new Error(`PROFILE_LIST must be one of ${Object.keys(profilePath).join(', ')}`);
        await profiled(server, 'sales-order-list', () =>
          load({
            url: baseUrl,
            connections: N.listConnections,
            duration: profileSecs,
            headers,
            requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf() }) }],
          }),
        );
        listStages = stagesOfCpuProfile(reportFile('sales-order-list').replace(/\.md$/, '.cpuprofile'));
      }
    }

    // Fulfill: 2 items of a random OPEN order, 1 unit each (items hold 1000 units, stock 10M).
    const openRows: { id: number; item1: number; item2: number }[] = await dataSource.query(
      `SELECT o.id AS id, MIN(i.id) AS item1, MAX(i.id) AS item2 FROM sales_order o JOIN sales_order_item i ON i.sales_order_id = o.id AND i.company_id = o.company_id AND i.line_number IN (1, 2)
       WHERE o.company_id = ? AND o.status IN ('OPEN', 'PARTIALLY_FULFILLED') GROUP BY o.id ORDER BY o.id DESC LIMIT 20000`,
      [t.companyId],
    );
    const targets = openRows.map((o) => ({
      path: `/api/sales-order/${encodeId('sales-order', Number(o.id))}/fulfill`,
      body: JSON.stringify({
        items: [
          { salesOrderItemId: encodeId('sales-order-item', Number(o.item1)), quantity: 1 },
          { salesOrderItemId: encodeId('sales-order-item', Number(o.item2)), quantity: 1 },
        ],
      }),
    }));
    const stockBefore: { q: string }[] = await dataSource.query('SELECT SUM(quantity) AS q FROM stock_balance WHERE company_id = ?', [
      t.companyId,
    ]);
    const fulfilledBefore: { q: string }[] = await dataSource.query(
      'SELECT SUM(fulfilled_quantity) AS q FROM sales_order_item WHERE company_id = ?',
      [t.companyId],
    );
    const fulfillLoad = (duration: number) =>
      load({
        url: baseUrl,
        connections: 16,
        duration,
        headers,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const target = targets[Math.floor(r() * targets.length)];
              return { ...req, path: target.path, body: target.body };
            },
          },
        ],
      });
    if (!N.listSecs) await fulfillLoad(3); // warm-up (the lists warm the API otherwise)
    const fulfillMeter = await cpuMeter(server);
    const fulfill = await fulfillLoad(N.fulfillSecs);
    const fulfillCpu = await fulfillMeter.stop(fulfill.requests - fulfill.non2xx);
    results.fulfill = { ...fulfill, cpu: fulfillCpu };
    console.log(`fulfill (2 items, 16 clients): ${fmt(fulfill)}; ${fmtCpu(fulfillCpu)}`);
    const fulfillProfileSecs = Number(process.env.FULFILL_PROFILE_SECS ?? 0);
    if (fulfillProfileSecs > 0) {
      await profiled(server, 'sales-order-fulfill', () => fulfillLoad(fulfillProfileSecs));
      fulfillStages = stagesOfCpuProfile(reportFile('sales-order-fulfill').replace(/\.md$/, '.cpuprofile'));
      for (const x of fulfillStages) console.log(`  fulfil profile: ${x.stage}: ${x.ms} ms, ${x.share}%`);
    }
    // Requests autocannon gave up on at the end may still be committing: stop the server first.
    await server.stop();
    const stockAfter: { q: string }[] = await dataSource.query('SELECT SUM(quantity) AS q FROM stock_balance WHERE company_id = ?', [
      t.companyId,
    ]);
    const fulfilledAfter: { q: string }[] = await dataSource.query(
      'SELECT SUM(fulfilled_quantity) AS q FROM sales_order_item WHERE company_id = ?',
      [t.companyId],
    );
    const stockDrop = Number(stockBefore[0].q) - Number(stockAfter[0].q);
    const fulfilledUp = Number(fulfilledAfter[0].q) - Number(fulfilledBefore[0].q);
    const mismatches = await findStockMismatches(dataSource.manager, t.companyId);
    const consistent = stockDrop === fulfilledUp && mismatches.length === 0;
    console.log(
      `stock check: stock down ${stockDrop}, fulfilled up ${fulfilledUp}, ledger mismatches ${mismatches.length} → ${consistent ? 'OK' : 'MISMATCH'}`,
    );

    const floor = rawQuickSaleFloor(15);
    console.log(`raw-SQL floor (quick sale of 3 items, 16 connections): ${JSON.stringify(floor)}`);
    const ratio = floor ? fulfill.rps / floor.tps : null;
    if (ratio !== null) console.log(`fulfill / raw floor = ${ratio.toFixed(3)}`);

    const report = [
      `# Sales-order benchmark — ${machine()}`,
      '',
      `Data: ${N.orders.toLocaleString('en')} orders × 3 items, ${N.customers.toLocaleString('en')} customers, ${N.sellers} sellers, ${N.products} products (MariaDB, ${reused || loadSecs === null ? 'data reused' : `loaded in ${loadSecs.toFixed(0)} s`}).`,
      `Load average (1/5/15 min) of this shared machine: ${loadBefore} before the runs, ${loadAvg()} after.`,
      `List runs: ${N.listSecs} s, ${N.listConnections} connection(s); fulfill: ${N.fulfillSecs} s, 16 connections (autocannon; "p97.5" is autocannon's closest percentile to p95).`,
      '',
      'CPU per request: the API process (process.cpuUsage) and the MariaDB server (/proc; every client of the server counts).',
      '',
      '| run | req/s | p50 ms | p97.5 ms | p99 ms | requests | errors | non-2xx | API CPU ms/req | MariaDB CPU ms/req |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...Object.entries(results).map(
        ([k, v]) =>
          `| ${k} | ${v.rps.toFixed(0)} | ${v.p50} | ${v.p95} | ${v.p99} | ${v.requests} | ${v.errors} | ${v.non2xx} | ${v.cpu.api.toFixed(3)} | ${v.cpu.db?.toFixed(3) ?? 'n/a'} |`,
      ),
      '',
      `Stock check after fulfill: stock down ${stockDrop}, fulfilled up ${fulfilledUp}, ledger mismatches ${mismatches.length} (${consistent ? 'OK' : 'MISMATCH'}).`,
      `Raw-SQL floor (same run): ${JSON.stringify(floor)}; fulfill / floor = ${ratio === null ? 'n/a' : ratio.toFixed(3)}.`,
      '',
      ...(listStages.length
        ? [
            `## Where a list request spends the API's CPU (${profileList} list, profile by stage; bench/out/sales-order-list.cpuprofile)`,
            '',
            '| stage | ms | share |',
            '|---|---|---|',
            ...listStages.map((x) => `| ${x.stage} | ${x.ms} | ${x.share}% |`),
            '',
          ]
        : []),
      ...(fulfillStages.length
        ? [
            "## Where a fulfil spends the API's CPU (profile by stage; bench/out/sales-order-fulfill.cpuprofile)",
            '',
            '| stage | ms | share |',
            '|---|---|---|',
            ...fulfillStages.map((x) => `| ${x.stage} | ${x.ms} | ${x.share}% |`),
            '',
          ]
        : []),
      '## EXPLAIN of the list queries (phase 1: ids and count, and the customer/seller resolution of a text search; phase 2: rows by primary key)',
      '',
      explains,
      '',
    ].join('\n');
    const file = reportFile('sales-order');
    fs.writeFileSync(file, report);
    console.log(`\nreport: ${file}`);
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
