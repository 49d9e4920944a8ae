/*
 * Purchase orders (issue 14): a signed 990-item NF-e from a supplier with 50 open (APPROVED) orders,
 * through real HTTP on MariaDB.
 *   POST /entry-document/nfe/preview-import   target < 1 s (parse, map, link every line, three-way match)
 *   POST /entry-document/nfe/importar-xml     reported (creates the linked draft)
 *   GET  /entry-document/confirm-preview/:id  reported
 *   POST /entry-document/confirm/:id          target < 1 s (stock, payables, receipts on 50 orders)
 * 5 runs each (median), each run its own invoice; and the SQL statements of one confirm. As the
 * machine is shared, each step is also run, interleaved, for a baseline invoice of the same supplier
 * and size whose products have no purchase orders (no links, no match): the ratio of the two is the
 * cost of the purchase-order work, comparable across noisy runs.
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<own db> npm run bench -- purchase
 *
 * The 50 orders have 20 lines each (990 in all, one product per line); the invoice has one line per
 * product: half name their order and line (xPed + nItemPed), half link by product (the supplier's
 * oldest open line). Items resolve through the supplier's product map.
 */
import os from 'node:os';
import { normalizeText } from '../src/core/br-documents';
import { dataSource } from '../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../src/core/db/transaction';
import { Dec } from '../src/core/decimal';
import { encodeId } from '../src/core/hashids';
import { Product } from '../src/modules/catalog/entities/product.entity';
import { ProductMapEntry } from '../src/modules/product-map/entities/product-map-entry.entity';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { buildNfe } from '../tests/support/nfe-builder';
import { createTestTenant, installStatementCounter, machine, median, prepareDatabase, startServer } from './support';

const ITEMS = 990;
const ORDERS = 50;
const LINES = Math.ceil(ITEMS / ORDERS);
const RUNS = 5;
const SUPPLIER = '11444777000161';

const price = (i: number) => `${5 + (i % 40)}.${String((i * 37) % 100).padStart(2, '0')}`;

async function main() {
  await prepareDatabase();
  const server = await startServer();
  const counter = installStatementCounter();
  try {
    const t = await createTestTenant({ filiais: 1 });
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] });
    const headers = { ...t.headers(), 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown, expected = 200): Promise<any> => {
      const res = await fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = res.status === 204 ? null : await res.json();
      if (res.status !== expected) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 400)}`);
      return json;
    };

    // 2 × 990 products, each in the supplier's map (factor 1): the first half ordered, the second not.
    const all = await inTransaction(NO_UNIT, async (em) => {
      const rows = Array.from({ length: 2 * ITEMS }, (_v, i) => ({
        companyId: t.companyId,
        code: `B${String(i + 1).padStart(5, '0')}`,
        name: `Produto bench ${i + 1}`,
        searchName: normalizeText(`Produto bench ${i + 1}`),
        unit: 'UN',
        price: new Dec('10'),
        active: true,
        stockControlled: true,
      }));
      await em.insert(Product, rows);
      const list = await em.find(Product, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
      const entries = list.map((p, i) => ({
        companyId: t.companyId,
        supplierDocument: SUPPLIER,
        supplierProductCode: i < ITEMS ? `SKU${i + 1}` : `NOPO${i + 1 - ITEMS}`,
        supplierUnit: 'UN',
        supplierDescription: null,
        gtin: null,
        productId: p.id,
        conversionFactor: new Dec(1),
        useCount: 1,
        lastUsedAt: null,
      }));
      for (let i = 0; i < entries.length; i += 500) await em.insert(ProductMapEntry, entries.slice(i, i + 500));
      return list;
    });
    const products = all.slice(0, ITEMS);

    // 50 approved orders of the supplier, 20 lines each, enough for every run.
    console.log(`creating and approving ${ORDERS} purchase orders of ${LINES} lines…`);
    const codes: number[] = [];
    for (let o = 0; o < ORDERS; o++) {
      const slice = products.slice(o * LINES, (o + 1) * LINES);
      if (!slice.length) break;
      const order = await call(
        'POST',
        '/purchase',
        {
          supplier: { document: SUPPLIER, name: 'ALFA DISTRIBUIDORA LTDA' },
          items: slice.map((p, j) => ({ productId: encodeId('product', p.id), quantity: 1000, unitPrice: price(o * LINES + j) })),
        },
        201,
      );
      await call('POST', `/purchase/${order.id}/approve`);
      codes.push(order.code);
    }
    const invoice = (n: number, ordered: boolean) =>
      buildNfe({
        number: (ordered ? 700000 : 800000) + n,
        issuer: { cnpj: SUPPLIER, name: 'ALFA DISTRIBUIDORA LTDA' },
        recipient: { cnpj: filial.cnpj },
        items: products.map((_p, i) => ({
          code: ordered ? `SKU${i + 1}` : `NOPO${i + 1}`,
          description: `PRODUTO BENCH ${i + 1}`,
          quantity: '2',
          unitPrice: price(i),
          ...(ordered && i % 2 === 0
            ? { purchaseOrder: String(codes[Math.floor(i / LINES)]), purchaseOrderLine: String((i % LINES) + 1) }
            : {}),
        })),
      });
    console.log(`building and signing ${2 * (RUNS + 1)} invoices of ${ITEMS} items…`);
    const docs = Array.from({ length: RUNS + 1 }, (_v, i) => invoice(i, true));
    const baselineDocs = Array.from({ length: RUNS + 1 }, (_v, i) => invoice(i, false));
    // Signing blocked the event loop past the server's keep-alive timeout: drop the sockets it closed.
    for (let i = 0; i < 3; i++) await fetch(`${server.baseUrl}/api/health`).catch(() => undefined);

    const loadBefore = os.loadavg()[0];
    const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      const t0 = performance.now();
      const r = await fn();
      return [r, performance.now() - t0];
    };
    type Times = { preview: number[]; import: number[]; confirmPreview: number[]; confirm: number[] };
    const times: Times = { preview: [], import: [], confirmPreview: [], confirm: [] };
    const baseline: Times = { preview: [], import: [], confirmPreview: [], confirm: [] };
    let statements: Awaited<ReturnType<typeof counter.during>> | null = null;
    let baselineStatements: Awaited<ReturnType<typeof counter.during>> | null = null;
    /** One invoice through preview-import, importar-xml, confirm-preview and confirm. */
    const cycle = async (xml: string, ordered: boolean, into: Times | null) => {
      const [preview, previewMs] = await timed(() => call('POST', '/entry-document/nfe/preview-import', { xml }));
      const linked = preview.items.filter((i: { purchaseOrderLinkSource: string | null }) => i.purchaseOrderLinkSource).length;
      if (
        linked !== (ordered ? ITEMS : 0) ||
        (ordered && (preview.purchaseMatch.lines.length !== ITEMS || preview.purchaseMatch.blockingProblems.length))
      ) {
        throw new Error(`preview-import: ${linked} linked, ${JSON.stringify(preview.purchaseMatch?.blockingProblems).slice(0, 300)}`);
      }
      const [imported, importMs] = await timed(() => call('POST', '/entry-document/nfe/importar-xml', { xml }, 201));
      const id = imported.entryDocument.id;
      const [cp, cpMs] = await timed(() => call('GET', `/entry-document/confirm-preview/${id}`));
      if (cp.blockingProblems.length) throw new Error(JSON.stringify(cp.blockingProblems).slice(0, 300));
      const [counted, confirmMs] = await timed(() => counter.during(() => call('POST', `/entry-document/confirm/${id}`)));
      if (!into) return; // warm-up (JIT, pools, statement caches)
      into.preview.push(previewMs);
      into.import.push(importMs);
      into.confirmPreview.push(cpMs);
      into.confirm.push(confirmMs);
      if (ordered) statements = counted;
      else baselineStatements = counted;
    };
    for (let run = 0; run <= RUNS; run++) {
      await cycle(docs[run].xml, true, run ? times : null);
      await cycle(baselineDocs[run].xml, false, run ? baseline : null);
    }
    const received = await dataSource.query(
      'SELECT COUNT(*) AS n FROM purchase_order_item WHERE company_id = ? AND received_quantity = ?',
      [t.companyId, String(2 * (RUNS + 1))],
    );
    if (Number(received[0].n) !== ITEMS)
      throw new Error(`expected every order line to have received ${2 * (RUNS + 1)}, ${received[0].n} did`);

    const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`;
    const kinds = (c: Record<string, number>) =>
      Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    console.log(
      `## Purchase orders: ${ITEMS}-item NF-e against ${ORDERS} open orders — ${machine()}, MariaDB ${(await dataSource.query('SELECT VERSION() AS v'))[0].v}`,
    );
    console.log('');
    console.log(`Load average (1 min) on the shared machine: ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after.`);
    console.log('');
    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
    console.log(`| step | against ${ORDERS} orders, median of ${RUNS} | baseline (no orders), median of ${RUNS} | ratio |`);
    console.log('|---|---|---|---|');
    const row = (label: string, k: keyof Times) =>
      console.log(`| ${label} | ${fmt(times[k])} | ${fmt(baseline[k])} | ${ratio(times[k], baseline[k])} |`);
    row(`POST /entry-document/nfe/preview-import (${ITEMS} lines linked, match)`, 'preview');
    row('POST /entry-document/nfe/importar-xml', 'import');
    row('GET /entry-document/confirm-preview/:id', 'confirmPreview');
    row(`POST /entry-document/confirm/:id (receipts on ${ORDERS} orders)`, 'confirm');
    console.log('');
    console.log(
      `SQL statements of one confirm request: ${statements!.total} (${kinds(statements!.counts)}); baseline ${baselineStatements!.total} (${kinds(baselineStatements!.counts)})`,
    );
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
