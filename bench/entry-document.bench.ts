/*
 * Entry document of 990 items (the NF-e maximum) on MariaDB, through real HTTP:
 * create, confirm-preview and confirm, 5 runs each (median), and the SQL statements confirm issues —
 * counted by wrapping TypeORM's query logger while the request runs — for 10 and 990 items, to show
 * the count does not grow with the number of lines.
 *   DB_URL=mysql://root@127.0.0.1:3306/<own db> npm run bench -- entry-document
 */
import os from 'node:os';
import { normalizeText } from '../src/core/br-documents';
import { dataSource } from '../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../src/core/db/transaction';
import { Dec } from '../src/core/decimal';
import { encodeId } from '../src/core/hashids';
import { Product } from '../src/modules/catalog/entities/product.entity';
import { postToLedger } from '../src/modules/stock/stock-ledger.service';
import { createTestTenant, installStatementCounter, machine, median, prepareDatabase, startServer } from './support';

const RUNS = 5;
const ITEMS = 990;

async function main() {
  await prepareDatabase();
  const server = await startServer();
  const counter = installStatementCounter();
  try {
    const t = await createTestTenant({ filiais: 1 });
    const headers = { ...t.headers(), 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };

    // 990 products with an opening balance each (one bulk insert, one ledger posting).
    const rows = Array.from({ length: ITEMS }, (_v, i) => ({
      companyId: t.companyId,
      code: `B${String(i + 1).padStart(5, '0')}`,
      name: `Produto bench ${i + 1}`,
      searchName: normalizeText(`Produto bench ${i + 1}`),
      unit: 'UN',
      price: new Dec('10'),
      active: true,
      stockControlled: true,
    }));
    await dataSource.createQueryBuilder().insert().into(Product).values(rows).updateEntity(false).execute();
    const products = await dataSource.manager.find(Product, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
    await inTransaction(NO_UNIT, (em) =>
      postToLedger(em, {
        companyId: t.companyId,
        filialId: t.filialIds[0],
        reason: 'OPENING_BALANCE',
        referenceType: 'bench',
        referenceId: 1,
        lines: products.map((p) => ({ productId: p.id, direction: 'IN' as const, quantity: new Dec(50), unitCost: new Dec('7.5') })),
      }),
    );

    let number = 1;
    const body = (n: number) => ({
      number: String(number++),
      issueDate: '2026-03-02',
      entryDate: '2026-03-03',
      supplier: { document: '11222333000181', name: 'Fornecedor Bench Ltda', uf: 'SP' },
      charges: { freight: '150.00', discount: '42.10' },
      items: products.slice(0, n).map((p, i) => ({
        productId: encodeId('product', p.id),
        supplierProductCode: `SUP-${i + 1}`,
        description: `Item ${i + 1}`,
        ncm: '22021000',
        cfop: '5102',
        unit: 'CX',
        quantity: String(1 + (i % 7)),
        unitPrice: `${10 + (i % 13)}.${String(i % 100).padStart(2, '0')}`,
        conversionFactor: i % 3 === 0 ? '12' : '1',
        taxes: { icms: { cst: '00', base: 100, rate: 18, value: 18 }, ipi: { cst: '50', value: '1.25' } },
      })),
      installments: [
        { dueDate: '2026-04-02', amount: 1 },
        { dueDate: '2026-05-02', amount: 1 },
      ],
    });
    // Installments must add up to the total: ask preview-manual for it (not timed).
    const withInstallments = async (n: number) => {
      const b = body(n);
      const preview = await call('POST', '/entry-document/preview-manual', b);
      const total = new Dec(preview.totals.total);
      const first = total.div(2).toDecimalPlaces(2, Dec.ROUND_DOWN);
      b.installments = [
        { dueDate: '2026-04-02', amount: Number(first.toFixed(2)) },
        { dueDate: '2026-05-02', amount: Number(total.minus(first).toFixed(2)) },
      ];
      return b;
    };

    const loadBefore = os.loadavg()[0];
    // Warm-up (JIT, connection pool), not counted.
    const warm = await call('POST', '/entry-document', await withInstallments(ITEMS));
    await call('GET', `/entry-document/confirm-preview/${warm.id}`);
    await call('POST', `/entry-document/confirm/${warm.id}`);

    const times = { create: [] as number[], preview: [] as number[], confirm: [] as number[] };
    let confirmStatements: Awaited<ReturnType<typeof counter.during>> | null = null;
    for (let i = 0; i < RUNS; i++) {
      const b = await withInstallments(ITEMS);
      let t0 = performance.now();
      const created = await call('POST', '/entry-document', b);
      times.create.push(performance.now() - t0);
      t0 = performance.now();
      const preview = await call('GET', `/entry-document/confirm-preview/${created.id}`);
      times.preview.push(performance.now() - t0);
      if (preview.blockingProblems.length) throw new Error(JSON.stringify(preview.blockingProblems));
      t0 = performance.now();
      const counted = await counter.during(() => call('POST', `/entry-document/confirm/${created.id}`));
      times.confirm.push(performance.now() - t0);
      if (counted.result.stockMovements.length !== ITEMS) throw new Error('expected one movement per item');
      confirmStatements = counted;
    }
    const small = await call('POST', '/entry-document', await withInstallments(10));
    const smallCount = await counter.during(() => call('POST', `/entry-document/confirm/${small.id}`));

    const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`;
    const kinds = (c: Record<string, number>) =>
      Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    console.log(`## Entry document, ${ITEMS} items — ${machine()}, MariaDB ${(await dataSource.query('SELECT VERSION() AS v'))[0].v}`);
    console.log('');
    console.log(`Load average (1 min) on the shared machine: ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after.`);
    console.log('');
    console.log(`| step | median of ${RUNS} |`);
    console.log('|---|---|');
    console.log(`| POST /entry-document (create draft) | ${fmt(times.create)} |`);
    console.log(`| GET /entry-document/confirm-preview/:id | ${fmt(times.preview)} |`);
    console.log(`| POST /entry-document/confirm/:id | ${fmt(times.confirm)} |`);
    console.log('');
    console.log(
      `SQL statements of one confirm request (everything TypeORM sent while it ran, incl. auth, transaction control and the response's reload):`,
    );
    console.log(`- ${ITEMS} items: ${confirmStatements!.total} (${kinds(confirmStatements!.counts)})`);
    console.log(`- 10 items: ${smallCount.total} (${kinds(smallCount.counts)})`);
  } finally {
    await server.close();
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
