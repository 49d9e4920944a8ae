/*
 * List scale benchmark (issue 37, "Scale"), MariaDB only: the sales-order and receivables lists of a
 * filial holding ORDERS orders (default 1,000,000) stay within 3× a primary-key read at p97.5.
 *
 * Data (seeded with INSERT … SELECT over MariaDB's SEQUENCE engine, chunks of CHUNK rows, deterministic):
 *   - three tenants: "Escala" with the measured filial (ORDERS orders) and a second filial (OTHER_ORDERS),
 *     and two other companies (OTHER_ORDERS each), so every index is shared with other tenants' rows;
 *   - per company CUSTOMERS customers (others: a twentieth), 50 sellers, 1,000 products; the word index of
 *     customers and sellers built as the migration's backfill builds it;
 *   - orders over two years (code and created_at grow together): 4 % quotes, half counter sales (60 % of
 *     them without customer), customers drawn skewed (customer k's share ∝ 1/√k: a few regulars, a long
 *     tail), statuses by age (recent: mostly OPEN/PARTIALLY_FULFILLED; older: FULFILLED, 4 % CANCELLED,
 *     CLOSED, a few left OPEN), 1–5 lines (3 on average), totals the sum of their lines, payment terms;
 *   - receivables as billing makes them: counter sales one per payment (cash/Pix born RECEIVED, cards the
 *     acquirer's with fee and D+1/D+30), standard orders one per installment of their terms (customer's,
 *     RECEIVED when old except 4 % open overdue, 2 % partially received, 1 % cancelled); receipts of what
 *     was received.
 * Measures, through HTTP (the API in its own process), each request sequential on one keep-alive
 * connection, ROUNDS alternating rounds of REQUESTS requests per route: latency p50/p97.5/p99 (µs
 * resolution) and the API's CPU per request; the floor of each list is the primary-key read of the same
 * module (GET /sales-order/detail/:id, GET /receivables/detail/:id). Target: p97.5(list) ≤ 3 × p97.5(floor).
 * EXPLAIN of each list's phase-1 statements goes into the report (bench/out/list-scale.md).
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<db> npm run bench -- list-scale
 *   env: ORDERS (1,000,000), OTHER_ORDERS (100,000), CUSTOMERS (100,000), CHUNK (50,000), ROUNDS (3), WALK_PAGES (100),
 *        REQUESTS (300 per route and round), WARMUP (20 per route), BENCH_REUSE=1 (keep the seeded data of a previous run),
 *        SEED_ONLY=1 (seed and stop), ONLY=<regexp> (routes whose label matches, floors always measured)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { signToken } from '../src/core/auth/jwt';
import { businessToday } from '../src/core/business-date';
import { dataSource } from '../src/core/db/data-source';
import { encodeId } from '../src/core/hashids';
import { raiseSequenceTo } from '../src/core/sequence/sequence.service';
import { Company } from '../src/modules/tenancy/entities/company.entity';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { createTenant } from '../src/modules/tenancy/tenant.service';
import { SALES_ORDER_CODE_SEQUENCE } from '../src/modules/sales-order/services/create.service';
import { machine, prepareDatabase, reportFile, ServerProcess, startServerProcess } from './support';

const N = {
  orders: Number(process.env.ORDERS ?? 1_000_000),
  otherOrders: Number(process.env.OTHER_ORDERS ?? 100_000),
  customers: Number(process.env.CUSTOMERS ?? 100_000),
  chunk: Number(process.env.CHUNK ?? 50_000),
  rounds: Number(process.env.ROUNDS ?? 3),
  requests: Number(process.env.REQUESTS ?? 300),
  /** Pages of 100 walked by cursor for the deep-page routes (every 10th cursor kept). */
  walk: Number(process.env.WALK_PAGES ?? 100),
  warmup: Number(process.env.WARMUP ?? 20),
};
const SELLERS = 50;
const PRODUCTS = 1_000;
const SPAN_DAYS = 730;
const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : null;

const FIRST = (
  'MARIA ANA FRANCISCA ANTONIA ADRIANA JULIANA MARCIA FERNANDA PATRICIA ALINE SANDRA CAMILA AMANDA BRUNA JESSICA LETICIA JULIA LUCIANA VANESSA MARIANA ' +
  'JOSE JOAO ANTONIO FRANCISCO CARLOS PAULO PEDRO LUCAS LUIZ MARCOS LUIS GABRIEL RAFAEL DANIEL MARCELO BRUNO EDUARDO FELIPE RAIMUNDO RODRIGO'
).split(' ');
const LAST = (
  'SILVA SANTOS OLIVEIRA SOUZA RODRIGUES FERREIRA ALVES PEREIRA LIMA GOMES COSTA RIBEIRO MARTINS CARVALHO ALMEIDA LOPES SOARES FERNANDES VIEIRA BARBOSA ' +
  'ROCHA DIAS NASCIMENTO ANDRADE MOREIRA NUNES MARQUES MACHADO MENDES FREITAS CARDOSO RAMOS GONCALVES SANTANA TEIXEIRA ARAUJO PINTO CORREIA CAVALCANTI MONTEIRO'
).split(' ');
const elt = (expr: string, words: string[]) => `ELT(1 + ${expr} % ${words.length}, ${words.map((w) => `'${w}'`).join(', ')})`;

/** A well-mixed deterministic number of a row (`i`) and a salt, 0 … 2³²−1. */
const h = (i: string, salt: string) => `CRC32(CONCAT(${i}, '${salt}'))`;

interface Segment {
  label: string;
  companyId: number;
  filialId: number;
  orders: number;
  /** First order id − 1 and first code − 1 of the segment. */
  idBase: number;
  codeBase: number;
  customerBase: number;
  customers: number;
  sellerBase: number;
  productBase: number;
}

interface Seeded {
  companyId: number;
  filialId: number;
  /** Ids of the measured filial's receivables and orders, for the primary-key reads. */
  receivables: number[];
  orders: number[];
  /** Customers of the measured company with orders: a regular (many) and a few of the tail. */
  customers: number[];
}

const CNPJS = ['11222333000181', '11444777000161', '45997418000153'];

async function tenant(i: number): Promise<{ companyId: number; filialIds: number[] }> {
  const cnpj = CNPJS[i];
  const existing = await dataSource.manager.findOneBy(Company, { cnpj });
  if (existing) {
    const filiais = await dataSource.manager.find(Filial, { where: { companyId: existing.id }, order: { id: 'ASC' } });
    return { companyId: existing.id, filialIds: filiais.map((f) => f.id) };
  }
  const filiais =
    i === 0
      ? [
          { name: 'Matriz', cnpj, uf: 'SP' },
          { name: 'Loja 2', cnpj: '11222333000262', uf: 'SP' },
        ]
      : [{ name: 'Loja', cnpj, uf: 'MG' }];
  const { company, filiais: created } = await createTenant({ name: `Bench Escala ${i + 1}`, cnpj, filiais });
  return { companyId: company.id, filialIds: created.map((f) => f.id) };
}

const secs = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1);

/** INSERT … SELECT over seq_1_to_<n> in chunks of seq values (`from`, `to` replaced per chunk). */
async function chunked(label: string, count: number, sqlOf: (from: number, to: number) => string): Promise<void> {
  const t0 = Date.now();
  for (let from = 1; from <= count; from += N.chunk) {
    const to = Math.min(count, from + N.chunk - 1);
    await dataSource.query(sqlOf(from, to));
    process.stdout.write(`  ${label}: ${to.toLocaleString('en')} / ${count.toLocaleString('en')}, ${secs(t0)} s\r`);
  }
  console.log(`  ${label}: ${count.toLocaleString('en')} in ${secs(t0)} s                    `);
}

/** The SQL of one line's quantity and unit price, for order `i` (a number expression) and line `l`. */
const lineProduct = (s: Segment, i: string, l: string) => `(${s.productBase} + 1 + ${h(`${i} * 8 + ${l}`, 'p')} % ${PRODUCTS})`;
const lineQuantity = (i: string, l: string) => `(1 + ${h(`${i} * 8 + ${l}`, 'q')} % 5)`;
const linePrice = (s: Segment, i: string, l: string) => `(5.90 + (${lineProduct(s, i, l)} - ${s.productBase} - 1) % 50)`;
const lineCount = (i: string) => `(1 + ${h(i, 'n')} % 5)`;

async function seedSegment(s: Segment, today: string): Promise<void> {
  const t0 = Date.now();
  console.log(`seeding ${s.label}: ${s.orders.toLocaleString('en')} orders`);
  const i = 'q.seq';
  const recent = `${i} > ${Math.floor(s.orders * 0.97)}`;
  const kind = h(i, 'k');
  const type = `IF(${kind} % 25 = 0, 'QUOTE', 'ORDER')`;
  const quick = `(${kind} % 25 <> 0 AND ${kind} % 2 = 0)`;
  const st = `${h(i, 's')} % 100`;
  const status =
    `CASE WHEN ${kind} % 25 = 0 THEN IF(${recent}, 'OPEN', 'CANCELLED') ` +
    `WHEN ${quick} THEN IF(${st} = 0, 'CANCELLED', 'FULFILLED') ` +
    `WHEN ${recent} THEN CASE WHEN ${st} < 60 THEN 'OPEN' WHEN ${st} < 80 THEN 'PARTIALLY_FULFILLED' ELSE 'FULFILLED' END ` +
    `ELSE CASE WHEN ${st} < 4 THEN 'CANCELLED' WHEN ${st} < 5 THEN 'OPEN' WHEN ${st} < 6 THEN 'PARTIALLY_FULFILLED' WHEN ${st} < 8 THEN 'CLOSED' ELSE 'FULFILLED' END END`;
  // customer k's share ∝ 1/√k: u² over the customers (the first ones are regulars).
  const u = `(${h(i, 'c')} % 1000003) / 1000003`;
  const customer = `IF(${quick} AND ${h(i, 'a')} % 10 < 6, NULL, ${s.customerBase} + 1 + FLOOR(${s.customers} * ${u} * ${u}))`;
  const seconds = `FLOOR((${i} - 1) * ${SPAN_DAYS * 86_400} / ${s.orders}) + ${h(i, 't')} % 60`;
  const created = `TIMESTAMPADD(SECOND, ${seconds}, DATE_SUB('${today}', INTERVAL ${SPAN_DAYS} DAY) + INTERVAL 8 HOUR)`;
  const terms = `IF(${quick} OR ${kind} % 25 = 0, NULL, ELT(1 + ${h(i, 'm')} % 4, NULL, '30', '30/60', '30/60/90'))`;
  const gross = `(SELECT SUM(${lineQuantity(i, 'l.seq')} * ${linePrice(s, i, 'l.seq')}) FROM seq_1_to_5 l WHERE l.seq <= ${lineCount(i)})`;
  const alias = `IF(${h(i, 'o')} % 100 = 0, CONCAT('OBRA ', ${elt(h(i, 'w'), LAST)}, ' ', ${i}), NULL)`;
  await chunked(
    'orders',
    s.orders,
    (from, to) =>
      'INSERT INTO sales_order (id, company_id, filial_id, code, type, flow_mode, status, customer_id, seller_id, alias, search_alias, payment_terms, gross_total, items_discount, discount, freight, total, cancel_reason, cancelled_at, version, created_at, created_day, updated_at) ' +
      `SELECT x.id, ${s.companyId}, ${s.filialId}, x.code, x.type, x.flow, x.status, x.customer, x.seller, x.alias, x.alias, x.terms, x.gross, 0, 0, 0, x.gross, ` +
      "IF(x.status = 'CANCELLED', 'Desistência do cliente', NULL), IF(x.status = 'CANCELLED', x.created + INTERVAL 2 HOUR, NULL), IF(x.status = 'OPEN', 1, 3), x.created, DATE(x.created), x.created " +
      `FROM (SELECT ${s.idBase} + ${i} AS id, ${s.codeBase} + ${i} AS code, ${type} AS type, IF(${quick}, 'QUICK_SALE', 'STANDARD') AS flow, ${status} AS status, ${customer} AS customer, ` +
      `${s.sellerBase} + 1 + ${h(i, 'v')} % ${SELLERS} AS seller, ${alias} AS alias, ${terms} AS terms, ${gross} AS gross, ${created} AS created ` +
      `FROM seq_${from}_to_${to} q) x`,
  );
  // Lines: delivered in full when the order is FULFILLED/CLOSED, the first line of a PARTIALLY_FULFILLED one.
  const o = `(o.id - ${s.idBase})`;
  await chunked(
    'order lines',
    s.orders,
    (from, to) =>
      'INSERT INTO sales_order_item (company_id, sales_order_id, line_number, product_id, description, unit, quantity, unit_price, discount, total, order_discount_share, fulfilled_quantity, returned_quantity, cancelled_quantity) ' +
      `SELECT ${s.companyId}, o.id, l.seq, ${lineProduct(s, o, 'l.seq')}, CONCAT('PRODUTO ', ${lineProduct(s, o, 'l.seq')} - ${s.productBase}), 'UN', ${lineQuantity(o, 'l.seq')}, ${linePrice(s, o, 'l.seq')}, 0, ` +
      `${lineQuantity(o, 'l.seq')} * ${linePrice(s, o, 'l.seq')}, 0, ` +
      `CASE WHEN o.status IN ('FULFILLED', 'CLOSED') OR (o.status = 'PARTIALLY_FULFILLED' AND l.seq = 1) THEN ${lineQuantity(o, 'l.seq')} ELSE 0 END, 0, 0 ` +
      `FROM sales_order o JOIN seq_1_to_5 l ON l.seq <= ${lineCount(o)} WHERE o.id BETWEEN ${s.idBase + from} AND ${s.idBase + to} ORDER BY o.id, l.seq`,
  );
  // Receivables, as billing makes them (docs/decisions/receivables.md).
  const pay = `${h('o.id', 'pay')} % 10`;
  const method = `CASE WHEN o.flow_mode = 'STANDARD' THEN 'BOLETO' WHEN ${pay} < 4 THEN 'CASH' WHEN ${pay} < 6 THEN 'PIX' WHEN ${pay} < 9 THEN 'CREDIT_CARD' ELSE 'DEBIT_CARD' END`;
  const count = "IF(o.payment_terms IS NULL, 1, 1 + LENGTH(o.payment_terms) - LENGTH(REPLACE(o.payment_terms, '/', '')))";
  const days = `CASE WHEN o.flow_mode = 'STANDARD' THEN IF(o.payment_terms IS NULL, 0, 30 * k.seq) WHEN ${pay} < 6 THEN 0 WHEN ${pay} < 9 THEN 30 ELSE 1 END`;
  const fee = `CASE WHEN o.flow_mode = 'STANDARD' OR ${pay} < 6 THEN 0 WHEN ${pay} < 9 THEN 3.19 ELSE 1.5 END`;
  const r = `${h('o.id * 4 + k.seq', 'r')} % 100`;
  await chunked(
    'receivables',
    s.orders,
    (from, to) =>
      'INSERT INTO receivable (company_id, filial_id, debtor_type, customer_id, payment_method_code, origin_type, sales_order_id, sales_order_code, fulfillment_id, installment_number, installment_count, ' +
      'issue_date, due_date, gross_amount, fee_percent, fee_amount, amount, received_amount, credited_amount, status, cancelled_at, cancel_reason, version, created_at, updated_at) ' +
      'SELECT y.company_id, y.filial_id, y.debtor, y.customer_id, y.method, y.origin, y.id, y.code, y.id, y.n, y.count, y.issue, y.due, y.gross, y.fee, y.fee_amount, y.amount, ' +
      "CASE y.status WHEN 'RECEIVED' THEN y.amount WHEN 'PARTIALLY_RECEIVED' THEN ROUND(y.amount / 2, 2) ELSE 0 END, 0, y.status, " +
      "IF(y.status = 'CANCELLED', y.created + INTERVAL 20 DAY, NULL), IF(y.status = 'CANCELLED', 'NF-e cancelada', NULL), IF(y.status = 'OPEN', 1, 2), y.created, y.created " +
      'FROM (SELECT x.*, ROUND(x.gross * x.fee / 100, 2) AS fee_amount, x.gross - ROUND(x.gross * x.fee / 100, 2) AS amount, ' +
      `CASE WHEN x.method IN ('CASH', 'PIX') THEN 'RECEIVED' WHEN x.debtor = 'ACQUIRER' THEN IF(x.due < '${today}', 'RECEIVED', 'OPEN') ` +
      `WHEN x.due >= DATE_SUB('${today}', INTERVAL 5 DAY) THEN IF(x.r < 10, 'RECEIVED', 'OPEN') ` +
      "WHEN x.r < 93 THEN 'RECEIVED' WHEN x.r < 97 THEN 'OPEN' WHEN x.r < 99 THEN 'PARTIALLY_RECEIVED' ELSE 'CANCELLED' END AS status FROM (" +
      `SELECT o.company_id, o.filial_id, o.id, o.code, o.customer_id, o.created_at AS created, k.seq AS n, ${count} AS count, ${method} AS method, ` +
      `IF(o.flow_mode = 'STANDARD' OR ${pay} < 6, 'CUSTOMER', 'ACQUIRER') AS debtor, IF(o.flow_mode = 'STANDARD', 'FULFILLMENT', 'QUICK_SALE') AS origin, ` +
      `DATE(o.created_at) AS issue, DATE(o.created_at) + INTERVAL ${days} DAY AS due, ${fee} AS fee, ${r} AS r, ` +
      `IF(k.seq < ${count}, TRUNCATE(o.total / ${count}, 2), o.total - (${count} - 1) * TRUNCATE(o.total / ${count}, 2)) AS gross ` +
      `FROM sales_order o JOIN seq_1_to_4 k ON k.seq <= ${count} WHERE o.id BETWEEN ${s.idBase + from} AND ${s.idBase + to} AND o.type = 'ORDER' AND o.status IN ('FULFILLED', 'PARTIALLY_FULFILLED', 'CLOSED') ` +
      'ORDER BY o.id, k.seq) x) y',
  );
  console.log(`  ${s.label} in ${secs(t0)} s`);
}

async function seedCompany(companyId: number, customers: number, idBase: number): Promise<void> {
  const t0 = Date.now();
  const i = 'q.seq';
  const name = `CONCAT(${elt(h(i, 'f'), FIRST)}, ' ', ${elt(h(i, 'l'), LAST)}, ' ', ${elt(h(i, 'm'), LAST)})`;
  await dataSource.query(
    'INSERT INTO customer (id, company_id, name, trade_name, search_name, search_trade_name, document, active, version) ' +
      `SELECT ${idBase} + x.seq, ${companyId}, x.name, x.trade, x.name, x.trade, x.doc, 1, 1 FROM (SELECT ${i} AS seq, ${name} AS name, ` +
      `IF(${i} % 10 = 0, CONCAT(${elt(h(i, 'l'), LAST)}, ' COMERCIO ', ${i}), NULL) AS trade, LPAD(${h(i, 'd')} % 100000000000, 11, '0') AS doc FROM seq_1_to_${customers} q) x`,
  );
  await dataSource.query(
    'INSERT INTO seller (id, company_id, name, alias, search_name, active, version) ' +
      `SELECT ${idBase} + ${i}, ${companyId}, CONCAT(${elt(`${i} * 7`, FIRST)}, ' ', ${elt(`${i} * 3`, LAST)}), CONCAT('VEND', LPAD(${i}, 3, '0')), ` +
      `CONCAT(${elt(`${i} * 7`, FIRST)}, ' ', ${elt(`${i} * 3`, LAST)}, ' VEND', LPAD(${i}, 3, '0')), 1, 1 FROM seq_1_to_${SELLERS} q`,
  );
  await dataSource.query(
    'INSERT INTO product (id, company_id, code, name, search_name, unit, price, active, stock_controlled, version) ' +
      `SELECT ${idBase} + ${i}, ${companyId}, CONCAT('P', ${i}), CONCAT('PRODUTO ', ${i}), CONCAT('PRODUTO ', ${i}), 'UN', 5.90 + (${i} - 1) % 50, 1, 1, 1 FROM seq_1_to_${PRODUCTS} q`,
  );
  console.log(
    `  company ${companyId}: ${customers.toLocaleString('en')} customers, ${SELLERS} sellers, ${PRODUCTS} products in ${secs(t0)} s`,
  );
}

/** Seeds everything on an empty database; answers the seconds it took. */
async function seed(): Promise<number> {
  const t0 = Date.now();
  await dataSource.query('SET SESSION unique_checks = 0');
  const today = businessToday();
  const tenants = [await tenant(0), await tenant(1), await tenant(2)];
  const small = Math.max(1, Math.floor(N.customers / 20));
  // Id blocks per company (customers, sellers, products share the company's block base).
  const partyBase = [0, 10_000_000, 20_000_000];
  await seedCompany(tenants[0].companyId, N.customers, partyBase[0]);
  await seedCompany(tenants[1].companyId, small, partyBase[1]);
  await seedCompany(tenants[2].companyId, small, partyBase[2]);
  const segment = (
    label: string,
    t: number,
    filial: number,
    orders: number,
    idBase: number,
    codeBase: number,
    customers: number,
  ): Segment => ({
    label,
    companyId: tenants[t].companyId,
    filialId: tenants[t].filialIds[filial],
    orders,
    idBase,
    codeBase,
    customerBase: partyBase[t],
    customers,
    sellerBase: partyBase[t],
    productBase: partyBase[t],
  });
  // The other tenants' rows first and last, the measured filial's in between (ids as a shared table has them).
  const o = N.otherOrders;
  const segments = [
    segment('company 2', 1, 0, o, 0, 0, small),
    segment('company 1, measured filial', 0, 0, N.orders, o, 0, N.customers),
    segment('company 1, second filial', 0, 1, o, o + N.orders, N.orders, N.customers),
    segment('company 3', 2, 0, o, 2 * o + N.orders, 0, small),
  ];
  for (const s of segments) await seedSegment(s, today);
  const tr = Date.now();
  const [{ top }] = await dataSource.query('SELECT MAX(id) AS top FROM receivable');
  await chunked(
    'receipts (by receivable id)',
    Number(top),
    (from, to) =>
      'INSERT INTO receivable_receipt (company_id, filial_id, receivable_id, status, receipt_date, payment_method_id, payment_method_code, amount, interest, fine, discount, total, created_by, version, created_at, updated_at) ' +
      "SELECT company_id, filial_id, id, 'ACTIVE', LEAST(due_date, CURRENT_DATE), 0, payment_method_code, received_amount, 0, 0, 0, received_amount, 'bench', 1, created_at, created_at " +
      `FROM receivable WHERE id BETWEEN ${from} AND ${to} AND status IN ('RECEIVED', 'PARTIALLY_RECEIVED') ORDER BY id`,
  );
  console.log(`  receipts in ${secs(tr)} s`);
  const ti = Date.now();
  const { backfillPartySearchTokens } = await import('../migrations/backfill-party-search-tokens');
  const runner = dataSource.createQueryRunner();
  try {
    await backfillPartySearchTokens(runner);
  } finally {
    await runner.release();
  }
  console.log(`  party word index in ${secs(ti)} s`);
  for (const t of tenants) {
    const [{ top }] = await dataSource.query('SELECT MAX(code) AS top FROM sales_order WHERE company_id = ?', [t.companyId]);
    await dataSource.transaction((em) => raiseSequenceTo(em, t.companyId, SALES_ORDER_CODE_SEQUENCE, Number(top)));
  }
  await dataSource.query(
    'ANALYZE TABLE sales_order, sales_order_item, receivable, receivable_receipt, customer, seller, party_search_token',
  );
  return (Date.now() - t0) / 1000;
}

async function seeded(): Promise<Seeded> {
  const t = await tenant(0);
  const [companyId, filialId] = [t.companyId, t.filialIds[0]];
  // Ids sampled over the whole filial (bulk inserts leave gaps in the ids): every 97th row.
  const sample = async (table: string) =>
    (
      (await dataSource.query(`SELECT id FROM ${table} WHERE company_id = ? AND filial_id = ? AND id % 97 = 0 ORDER BY id LIMIT 20000`, [
        companyId,
        filialId,
      ])) as { id: number }[]
    ).map((r) => Number(r.id));
  const orders = await sample('sales_order');
  const receivables = await sample('receivable');
  // A regular (the most orders) and customers of the tail (a handful of orders each).
  const customers = [1, 2, 10, 100, 1_000, 10_000, 50_000].filter((k) => k <= N.customers);
  return {
    companyId,
    filialId,
    orders,
    receivables,
    customers,
  };
}

// ---- measuring ----------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(baseUrl: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(baseUrl + path, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface Route {
  label: string;
  module: 'sales-order' | 'receivables';
  floor?: boolean;
  /** The path of the i-th request of a round. */
  path: (i: number) => string;
}

interface Run {
  ms: number[];
  cpuMs: number;
  rows: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)];
};
const med = (xs: number[]) => pct(xs, 0.5);

async function measure(server: ServerProcess, route: Route, headers: Record<string, string>, requests: number): Promise<Run> {
  const ms: number[] = [];
  let rows = 0;
  const cpu0 = await server.ask('cpu');
  for (let i = 0; i < requests; i++) {
    const path = route.path(i);
    const t0 = process.hrtime.bigint();
    const res = await get(server.baseUrl, path, headers);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (res.status !== 200) throw new Error(`${route.label}: ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    const body = JSON.parse(res.body) as { data?: unknown[] };
    rows += body.data?.length ?? 1;
  }
  const cpuMs = ((await server.ask('cpu')) - cpu0) / requests;
  return { ms, cpuMs, rows: rows / requests };
}

/** Cursors of a list at depth: follows nextCursor `pages` pages of `pageSize`, keeping every `every`-th. */
async function cursorsOf(baseUrl: string, path: string, headers: Record<string, string>, pages: number, every: number): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let p = 1; p <= pages; p++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(
      baseUrl,
      `${path}${sep}pageSize=100&includeTotal=false${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers,
    );
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.slice(0, 300)}`);
    cursor = (JSON.parse(res.body) as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
    if (!cursor) break;
    if (p % every === 0) out.push(cursor);
  }
  return out;
}

/** EXPLAIN of the SELECTs a list request sends, captured from TypeORM's logger while the API serves it in this process. */
async function explainRoutes(routes: Route[], headers: Record<string, string>): Promise<string> {
  const { startServer } = await import('./support');
  const server = await startServer();
  const captured: { sql: string; params: unknown[] }[] = [];
  const logger = dataSource.logger;
  const original = logger.logQuery.bind(logger);
  const parts: string[] = [];
  try {
    for (const route of routes) {
      if (route.floor) continue;
      captured.length = 0;
      logger.logQuery = (sql: string, params?: unknown[]) => {
        if (/^\s*SELECT/i.test(sql)) captured.push({ sql, params: params ?? [] });
      };
      const path = route.path(0);
      const res = await get(server.baseUrl, path, headers);
      logger.logQuery = original;
      if (res.status !== 200) throw new Error(`${route.label}: ${res.status} ${res.body.slice(0, 300)}`);
      parts.push(`### ${route.label}`, '', `\`GET ${decodeURIComponent(path.replace(/cursor=[^&]+/, 'cursor=…'))}\``, '');
      const statements = captured.flatMap(({ sql, params }) => {
        let next = 0;
        return sql.split(';\n').map((one) => {
          const n = (one.match(/\?/g) ?? []).length;
          const own = params.slice(next, next + n);
          next += n;
          return { sql: one, params: own };
        });
      });
      for (const { sql, params } of statements) {
        if (/FROM filial\b/.test(sql) && !/sales_order|receivable/.test(sql)) continue;
        const rows: Record<string, unknown>[] = await dataSource.query(`EXPLAIN ${sql}`, params);
        parts.push(
          '```sql',
          sql.replace(/\s+/g, ' ').slice(0, 900),
          '```',
          '| id | select_type | table | type | key | rows | Extra |',
          '|---|---|---|---|---|---|---|',
        );
        for (const r of rows)
          parts.push(`| ${[r.id, r.select_type, r.table, r.type, r.key ?? '', r.rows, r.Extra ?? ''].map(String).join(' | ')} |`);
        parts.push('');
      }
    }
  } finally {
    logger.logQuery = original;
    await server.close();
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  const { reused } = await prepareDatabase();
  const [{ n }] = await dataSource.query('SELECT COUNT(*) AS n FROM sales_order');
  const expected = N.orders + 3 * N.otherOrders;
  let seedSecs: number | null = null;
  if (Number(n) !== expected) {
    if (Number(n)) throw new Error(`the bench database holds ${n} orders, not ${expected}: run without BENCH_REUSE`);
    console.log(
      `seeding ${N.orders.toLocaleString('en')} orders in the measured filial, ${(3 * N.otherOrders).toLocaleString('en')} elsewhere (other filial, other tenants)…`,
    );
    seedSecs = await seed();
    console.log(`seeded in ${seedSecs.toFixed(0)} s`);
  } else {
    console.log(`reusing ${Number(n).toLocaleString('en')} seeded orders`);
  }
  const counts = Object.fromEntries(
    await Promise.all(
      ['sales_order', 'sales_order_item', 'receivable', 'receivable_receipt', 'customer'].map(async (table) => [
        table,
        Number((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n),
      ]),
    ),
  ) as Record<string, number>;
  const sizes: { t: string; mb: number }[] = await dataSource.query(
    "SELECT table_name AS t, ROUND((data_length + index_length) / 1048576) AS mb FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN ('sales_order', 'sales_order_item', 'receivable', 'receivable_receipt') ORDER BY table_name",
  );
  if (process.env.SEED_ONLY === '1') {
    console.log(counts, sizes);
    return;
  }
  const s = await seeded();
  const [statusMix]: { status: string; n: number }[][] = [
    await dataSource.query('SELECT status, COUNT(*) AS n FROM receivable WHERE company_id = ? AND filial_id = ? GROUP BY status', [
      s.companyId,
      s.filialId,
    ]),
  ];

  const filial = encodeId('filial', s.filialId);
  const token = signToken({ sub: 'bench', companyId: encodeId('company', s.companyId), filiais: ['*'], scope: '*' }, '4h');
  const headers = { authorization: `Bearer ${token}`, 'x-company-id': encodeId('company', s.companyId), 'x-filial-id': filial };
  const today = businessToday();
  const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length];
  const customers = s.customers.map((k) => encodeId('customer', k));
  const so = `/api/sales-order/list/${filial}`;
  const rc = `/api/receivables/${filial}`;
  // Pseudo-random picks of the sampled ids (a stride coprime with their count).
  const spread = (ids: number[]) => (i: number) => ids[(i * 7_919 + 13) % ids.length];
  const orderId = spread(s.orders);
  const receivableId = spread(s.receivables);
  const months = [1, 3, 6, 12, 20];
  const terms = ['SILVA', 'MARIA SILVA', 'JOSE SANTOS', 'OBRA', 'COMERCIO', 'VEND007', 'ANA', 'PEREIRA LIMA'];
  const routes: Route[] = [
    {
      label: 'floor: GET /sales-order/detail/:id',
      module: 'sales-order',
      floor: true,
      path: (i) => `/api/sales-order/detail/${encodeId('sales-order', orderId(i))}`,
    },
    { label: 'sales orders: first page, default sort (-code)', module: 'sales-order', path: () => so },
    { label: 'sales orders: status=OPEN', module: 'sales-order', path: () => `${so}?status=OPEN` },
    { label: 'sales orders: status=CANCELLED', module: 'sales-order', path: () => `${so}?status=CANCELLED` },
    { label: 'sales orders: by customer', module: 'sales-order', path: (i) => `${so}?customerId=${pick(customers, i)}` },
    {
      label: 'sales orders: created in a month (1–20 months ago)',
      module: 'sales-order',
      path: (i) => `${so}?createdFrom=${day(-30 * pick(months, i))}&createdTo=${day(-30 * pick(months, i) + 30)}`,
    },
    {
      label: 'sales orders: created in a month, sort createdAt',
      module: 'sales-order',
      path: (i) => `${so}?createdFrom=${day(-30 * pick(months, i))}&createdTo=${day(-30 * pick(months, i) + 30)}&sort=createdAt`,
    },
    { label: 'sales orders: text search', module: 'sales-order', path: (i) => `${so}?search=${encodeURIComponent(pick(terms, i))}` },
    {
      label: 'sales orders: numeric search (code prefix)',
      module: 'sales-order',
      path: (i) => `${so}?search=${String(orderId(i) * 37).slice(0, 1 + (i % 6))}`,
    },
    {
      label: 'floor: GET /receivables/detail/:id',
      module: 'receivables',
      floor: true,
      path: (i) => `/api/receivables/detail/${encodeId('receivable', receivableId(i))}`,
    },
    { label: 'receivables: first page, default sort (dueDate)', module: 'receivables', path: () => rc },
    { label: 'receivables: sort -dueDate', module: 'receivables', path: () => `${rc}?sort=-dueDate` },
    { label: 'receivables: status=OPEN', module: 'receivables', path: () => `${rc}?status=OPEN` },
    { label: 'receivables: overdue=true', module: 'receivables', path: () => `${rc}?overdue=true` },
    { label: 'receivables: by customer', module: 'receivables', path: (i) => `${rc}?customerId=${pick(customers, i)}` },
    {
      label: 'receivables: due in a month (1–20 months ago)',
      module: 'receivables',
      path: (i) => `${rc}?dueFrom=${day(-30 * pick(months, i))}&dueTo=${day(-30 * pick(months, i) + 30)}`,
    },
  ];

  console.log('explaining the lists…');
  const explains = await explainRoutes(
    routes.filter((r) => !ONLY || ONLY.test(r.label)),
    headers,
  );

  const loadAvg = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ');
  const loadBefore = loadAvg();
  const server = await startServerProcess([], { DB_POOL_SIZE: '8' });
  const runs = new Map<string, Run[]>();
  try {
    // Deep pages: cursors up to WALK_PAGES pages of 100 deep (ten of them, evenly spaced), walked through the API.
    console.log('walking cursors…');
    const wanted = (label: string) => !ONLY || ONLY.test(label);
    const walk = (label: string, path: string) =>
      wanted(label) ? cursorsOf(server.baseUrl, path, headers, N.walk, Math.max(1, Math.floor(N.walk / 10))) : Promise.resolve(['']);
    const soCursors = await walk('sales orders: deep', so);
    const soOpenCursors = await walk('sales orders: status=FULFILLED, deep', `${so}?status=FULFILLED`);
    const rcCursors = await walk('receivables: deep', rc);
    const rcOpenCursors = await walk('receivables: status=RECEIVED -dueDate, deep', `${rc}?status=RECEIVED&sort=-dueDate`);
    routes.push(
      {
        label: 'sales orders: deep pages by cursor',
        module: 'sales-order',
        path: (i) => `${so}?cursor=${encodeURIComponent(pick(soCursors, i))}`,
      },
      {
        label: 'sales orders: status=FULFILLED, deep by cursor',
        module: 'sales-order',
        path: (i) => `${so}?status=FULFILLED&cursor=${encodeURIComponent(pick(soOpenCursors, i))}`,
      },
      {
        label: 'receivables: deep pages by cursor',
        module: 'receivables',
        path: (i) => `${rc}?cursor=${encodeURIComponent(pick(rcCursors, i))}`,
      },
      {
        label: 'receivables: status=RECEIVED -dueDate, deep by cursor',
        module: 'receivables',
        path: (i) => `${rc}?status=RECEIVED&sort=-dueDate&cursor=${encodeURIComponent(pick(rcOpenCursors, i))}`,
      },
    );
    const measured = routes.filter((r) => r.floor || !ONLY || ONLY.test(r.label));
    // Warm-up: every route a few times (JIT, buffer pool).
    for (const r of measured) await measure(server, r, headers, N.warmup);
    for (let round = 1; round <= N.rounds; round++) {
      // Alternate the order of the routes between rounds, floors included.
      const order = round % 2 ? measured : [...measured].reverse();
      for (const r of order) {
        const run = await measure(server, r, headers, N.requests);
        runs.set(r.label, [...(runs.get(r.label) ?? []), run]);
        console.log(
          `round ${round} · ${r.label}: p50 ${med(run.ms).toFixed(2)} · p97.5 ${pct(run.ms, 0.975).toFixed(2)} · p99 ${pct(run.ms, 0.99).toFixed(2)} ms · API ${run.cpuMs.toFixed(2)} ms/req`,
        );
      }
    }
  } finally {
    await server.stop();
  }

  const floorOf = (module: Route['module']) => routes.find((r) => r.floor && r.module === module)!.label;
  const summary = (label: string) => {
    const rs = runs.get(label)!;
    return {
      p50: med(rs.map((r) => med(r.ms))),
      p975: med(rs.map((r) => pct(r.ms, 0.975))),
      p99: med(rs.map((r) => pct(r.ms, 0.99))),
      cpu: med(rs.map((r) => r.cpuMs)),
      rows: rs[0].rows,
      perRound: rs.map((r) => pct(r.ms, 0.975)),
    };
  };
  const lines: string[] = [];
  let misses = 0;
  for (const r of routes) {
    if (!runs.has(r.label)) continue;
    const x = summary(r.label);
    const f = summary(floorOf(r.module));
    const ratio = x.p975 / f.p975;
    if (!r.floor && ratio > 3) misses++;
    lines.push(
      `| ${r.label} | ${x.rows.toFixed(0)} | ${x.p50.toFixed(2)} | ${x.p975.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.perRound.map((v) => v.toFixed(1)).join(' / ')} | ${x.cpu.toFixed(2)} | ${r.floor ? '(floor)' : `${ratio.toFixed(2)}× ${ratio <= 3 ? 'met' : '**missed**'}`} |`,
    );
  }
  const report = [
    `# List scale benchmark — ${machine()}`,
    '',
    `Data: ${counts.sales_order.toLocaleString('en')} orders (${N.orders.toLocaleString('en')} in the measured filial), ${counts.sales_order_item.toLocaleString('en')} lines, ` +
      `${counts.receivable.toLocaleString('en')} receivables, ${counts.receivable_receipt.toLocaleString('en')} receipts, ${counts.customer.toLocaleString('en')} customers in 3 tenants; ` +
      `${reused && seedSecs === null ? 'data reused (BENCH_REUSE=1)' : `seeded in ${seedSecs?.toFixed(0)} s`}. Sizes (data + indexes): ${sizes.map((x) => `${x.t} ${x.mb} MB`).join(', ')}.`,
    `Measured filial's receivables by status: ${statusMix.map((x) => `${x.status} ${Number(x.n).toLocaleString('en')}`).join(', ')}.`,
    `Load average (1/5/15 min): ${loadBefore} before the runs, ${loadAvg()} after.`,
    `${N.rounds} alternating rounds × ${N.requests} sequential requests per route on one keep-alive connection; figures are the median over the rounds; the ratio is p97.5 over the same module's primary-key read.`,
    '',
    '| route | rows/page | p50 ms | p97.5 ms | p99 ms | p97.5 per round | API CPU ms/req | p97.5 / floor (≤ 3×) |',
    '|---|---|---|---|---|---|---|---|',
    ...lines,
    '',
    misses ? `**${misses} list(s) missed the 3× target.**` : 'Every list met the 3× target.',
    '',
    '## EXPLAIN of the lists (every SELECT a request sends)',
    '',
    explains,
    '',
  ].join('\n');
  const file = reportFile('list-scale');
  fs.writeFileSync(file, report);
  console.log(`\n${lines.join('\n')}\n\nreport: ${file}`);
}

main()
  .then(() => dataSource.destroy())
  .then(
    () => process.exit(process.exitCode ?? 0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
