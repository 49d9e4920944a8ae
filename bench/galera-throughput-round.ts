/*
 * One round of bench/galera-throughput.bench.ts, on the database of DB_URL: the schema by the
 * migrations, a counter tenant, REPLICA_URLS.length API processes (each on its own DB_URL), then
 * SECS s of quick sales and SECS s of order + fulfil pairs from CONC clients spread over the
 * replicas. Prints one line `ROUND {json}` with the figures.
 */
import mysql from 'mysql2/promise';
import { signToken } from '../src/core/auth/jwt';
import { config } from '../src/core/config';
import { dataSource } from '../src/core/db/data-source';
import { encodeId } from '../src/core/hashids';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { SalesOrder } from '../src/modules/sales-order/entities/sales-order.entity';
import { findStockMismatches } from '../src/modules/stock/stock.repository';
import { counterTenant } from './counter-setup';
import { percentile, prepareDatabase, startServerProcess } from './support';

const SECS = Number(process.env.SECS ?? 20);
const CONC = Number(process.env.CONC ?? 12);
const REPLICA_URLS: string[] = JSON.parse(process.env.REPLICA_URLS ?? '[]');
const PRODUCTS = 1000;

/** Galera's conflict counters summed over the nodes (0 on a plain server). */
async function conflictCounters(): Promise<{ certFailures: number; bfAborts: number }> {
  let certFailures = 0;
  let bfAborts = 0;
  for (const h of config.db.hosts) {
    const c = await mysql.createConnection({ host: h.host, port: h.port, user: 'root' });
    const [rows] = await c.query<mysql.RowDataPacket[]>(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')",
    );
    for (const r of rows) {
      if (r.Variable_name === 'wsrep_local_cert_failures') certFailures += Number(r.Value);
      if (r.Variable_name === 'wsrep_local_bf_aborts') bfAborts += Number(r.Value);
    }
    await c.end();
  }
  return { certFailures, bfAborts };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  } catch {
    return { status: 0, body: null };
  }
}

/** CONC clients for SECS s, each doing `op` on replica (client % replicas); latencies of the successes. */
async function drive(
  bases: string[],
  op: (base: string) => Promise<boolean>,
  secs = SECS,
): Promise<{ ok: number; failed: number; ms: number[] }> {
  const until = Date.now() + secs * 1000;
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONC }, async (_v, client) => {
      const base = bases[client % bases.length];
      while (Date.now() < until) {
        const t0 = performance.now();
        if (await op(base)) ms.push(performance.now() - t0);
        else failed++;
      }
    }),
  );
  return { ok: ms.length, failed, ms };
}

(async () => {
  await prepareDatabase();
  const { company, filial, products, customer } = await counterTenant(PRODUCTS, 1_000_000);
  const companyHash = encodeId('company', company.id);
  const token = signToken({ sub: 'bench', companyId: companyHash, filiais: ['*'], scope: '*' }, '2h');
  const headers = {
    authorization: `Bearer ${token}`,
    'x-company-id': companyHash,
    'x-filial-id': encodeId('filial', filial.id),
    'content-type': 'application/json',
  };
  const productHashes = products.map((p) => encodeId('product', p.id));
  const picks = () => {
    const s = new Set<number>();
    while (s.size < 3) s.add(Math.floor(Math.random() * PRODUCTS));
    return [...s].map((i) => productHashes[i]);
  };
  const servers = await Promise.all(REPLICA_URLS.map((url) => startServerProcess([], { DB_URL: url, DB_POOL_SIZE: '12' })));
  const bases = servers.map((s) => `${s.baseUrl}/api`);
  const quickSale = async (base: string) =>
    (
      await post(`${base}/sales-order`, headers, {
        flowMode: 'QUICK_SALE',
        items: picks().map((productId) => ({ productId, quantity: 1 })),
        payments: [{ method: 'CASH', amount: '30.00' }],
      })
    ).status === 201;
  const fulfil = async (base: string) => {
    const order = await post(`${base}/sales-order`, headers, {
      customerId: encodeId('customer', customer.id),
      items: picks().map((productId) => ({ productId, quantity: 1 })),
    });
    if (order.status !== 201) return false;
    const items = order.body.items.map((i: { salesOrderItemId: string; quantity: string }) => ({
      salesOrderItemId: i.salesOrderItemId,
      quantity: i.quantity,
    }));
    return (await post(`${base}/sales-order/${order.body.id}/fulfill`, headers, { items })).status === 201;
  };
  // Warm-up: JIT and pools of every replica.
  await drive(bases, quickSale, 3);

  const c0 = await conflictCounters();
  const sales = await drive(bases, quickSale);
  const c1 = await conflictCounters();
  const fulfils = await drive(bases, fulfil);
  const c2 = await conflictCounters();
  await Promise.all(servers.map((s) => s.stop()));
  const mismatches = (await findStockMismatches(dataSource.manager, company.id)).length;
  const orders = await dataSource.manager.countBy(SalesOrder, { companyId: company.id });
  const figure = (r: { ok: number; failed: number; ms: number[] }, c: { certFailures: number; bfAborts: number }) => ({
    perSecond: Number((r.ok / SECS).toFixed(1)),
    failed: r.failed,
    p50: Number(percentile(r.ms, 0.5)?.toFixed(1)),
    p99: Number(percentile(r.ms, 0.99)?.toFixed(1)),
    certFailures: c.certFailures,
    bfAborts: c.bfAborts,
    conflictsPerOp: r.ok ? Number(((c.certFailures + c.bfAborts) / r.ok).toFixed(4)) : 0,
  });
  console.log(
    `ROUND ${JSON.stringify({
      hosts: config.db.hosts.length,
      replicas: REPLICA_URLS.length,
      quickSale: figure(sales, { certFailures: c1.certFailures - c0.certFailures, bfAborts: c1.bfAborts - c0.bfAborts }),
      orderAndFulfil: figure(fulfils, { certFailures: c2.certFailures - c1.certFailures, bfAborts: c2.bfAborts - c1.bfAborts }),
      orders,
      stockMismatches: mismatches,
    })}`,
  );
  await closeSequencePool();
  await dataSource.destroy();
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
