/*
 * Quick-sale benchmark (issue 7), MariaDB: a counter sale of 3 items (create + fulfil + payment in one
 * transaction) with 16 concurrent clients for 30 s through HTTP; final stock checked exactly; the
 * raw-SQL floor of the same sale measured in the same run for the ratio; API CPU per sale
 * (process.cpuUsage of the API process) and MariaDB CPU (/proc); then a CPU profile of the API process
 * over PROFILE_SECS more of the same load, summarized by where the time goes. Figures go to
 * bench/out/quick-sale.md.
 *
 *   npm run bench -- quick-sale        env: SECS (30), CONC (16), FLOOR_SECS (15), PROFILE_SECS (10; 0: none)
 */
import fs from 'node:fs';
import { signToken } from '../src/core/auth/jwt';
import { dataSource } from '../src/core/db/data-source';
import { Dec } from '../src/core/decimal';
import { encodeId } from '../src/core/hashids';
import { closeSequencePool } from '../src/core/sequence/sequence.service';
import { SalesOrder } from '../src/modules/sales-order/entities/sales-order.entity';
import { StockBalance } from '../src/modules/stock/entities/stock-balance.entity';
import { findStockMismatches } from '../src/modules/stock/stock.repository';
import { counterTenant } from './counter-setup';
import {
  cpuMeter,
  fmtCpu,
  load,
  machine,
  prepareDatabase,
  profiled,
  rawQuickSaleFloor,
  reportFile,
  stagesOfCpuProfile,
  startServerProcess,
} from './support';

const SECS = Number(process.env.SECS ?? 30);
const CONC = Number(process.env.CONC ?? 16);
const FLOOR_SECS = Number(process.env.FLOOR_SECS ?? 15);
const PROFILE_SECS = Number(process.env.PROFILE_SECS ?? 10);
const PRODUCTS = 1000;

const STOCK = 1_000_000;

(async () => {
  await prepareDatabase();
  const { company, filial, products } = await counterTenant(PRODUCTS, STOCK);
  const companyHash = encodeId('company', company.id);
  const filialHash = encodeId('filial', filial.id);
  const token = signToken({ sub: 'bench', companyId: companyHash, filiais: ['*'], scope: '*' }, '2h');
  const productHashes = products.map((p) => encodeId('product', p.id));
  const server = await startServerProcess([], { DB_POOL_SIZE: '24' });
  const body = () => {
    const picks = new Set<number>();
    while (picks.size < 3) picks.add(Math.floor(Math.random() * PRODUCTS));
    return JSON.stringify({
      flowMode: 'QUICK_SALE',
      items: [...picks].map((i) => ({ productId: productHashes[i], quantity: 1 })),
      payments: [{ method: 'CASH', amount: '30.00' }],
    });
  };
  const headers = {
    authorization: `Bearer ${token}`,
    'x-company-id': companyHash,
    'x-filial-id': filialHash,
    'content-type': 'application/json',
  };
  // Warm-up (JIT, pools), then the measured run.
  await load({
    url: `${server.baseUrl}/api/sales-order`,
    connections: CONC,
    duration: 3,
    headers,
    requests: [{ method: 'POST', setupRequest: (r) => ({ ...r, body: body() }) }],
  });
  const warmOrders = await dataSource.manager.countBy(SalesOrder, { companyId: company.id });
  const meter = await cpuMeter(server);
  const run = await load({
    url: `${server.baseUrl}/api/sales-order`,
    connections: CONC,
    duration: SECS,
    headers,
    requests: [{ method: 'POST', setupRequest: (r) => ({ ...r, body: body() }) }],
  });
  const measuredOrders = (await dataSource.manager.countBy(SalesOrder, { companyId: company.id })) - warmOrders;
  const cpu = await meter.stop(measuredOrders);
  const hot =
    PROFILE_SECS > 0
      ? await profiled(server, 'quick-sale', () =>
          load({
            url: `${server.baseUrl}/api/sales-order`,
            connections: CONC,
            duration: PROFILE_SECS,
            headers,
            requests: [{ method: 'POST', setupRequest: (r) => ({ ...r, body: body() }) }],
          }),
        )
      : [];
  const stages = hot.length ? stagesOfCpuProfile(reportFile('quick-sale').replace(/\.md$/, '.cpuprofile')) : [];
  await server.stop();

  const orders = await dataSource.manager.countBy(SalesOrder, { companyId: company.id });
  const balances = await dataSource.manager.findBy(StockBalance, { companyId: company.id });
  const unitsOut = balances.reduce((acc, b) => acc.plus(new Dec(STOCK).minus(b.quantity)), new Dec(0));
  const stockExact = unitsOut.eq(orders * 3) && (await findStockMismatches(dataSource.manager, company.id)).length === 0;

  const floor = rawQuickSaleFloor(FLOOR_SECS);

  const tps = measuredOrders / SECS;
  const lines = [
    `## Quick sale (issue 7) — ${machine()}`,
    '',
    `3 items per sale, ${CONC} concurrent clients, ${SECS} s after a 3 s warm-up, MariaDB, API in its own process.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| sales/s (orders committed ÷ ${SECS} s) | ${tps.toFixed(1)} |`,
    `| autocannon requests/s (avg) | ${run.rps.toFixed(1)} |`,
    `| latency p50 / p97.5 / p99 (ms) | ${run.p50} / ${run.p95} / ${run.p99} |`,
    `| errors / non-2xx | ${run.errors} / ${run.non2xx} |`,
    `| final stock exact (units out = 3 × orders, balances = Σ movements) | ${stockExact ? 'yes' : 'NO'} (${orders} orders, ${unitsOut.toString()} units) |`,
    `| raw-SQL floor (same run, ${FLOOR_SECS} s) | ${floor ? `${floor.tps} tps, p50 ${floor.p50} ms, p99 ${floor.p99} ms` : 'not available'} |`,
    `| ratio to the floor | ${floor ? (tps / floor.tps).toFixed(3) : 'n/a'} |`,
    `| CPU per sale (API: process.cpuUsage; MariaDB: /proc, every client of the server counts) | ${fmtCpu(cpu)} |`,
    '',
    hot.length
      ? `CPU profile of the API process over ${PROFILE_SECS} s more of the same load (self time, grouped by where the code lives; bench/out/quick-sale.cpuprofile):`
      : '',
    '',
    ...(hot.length ? ['| where | ms | share |', '|---|---|---|', ...hot.map((h) => `| ${h.where} | ${h.ms} | ${h.share}% |`)] : []),
    ...(stages.length
      ? [
          '',
          'The same profile by stage of the request (bench/support.ts stagesOfCpuProfile):',
          '',
          '| stage | ms | share |',
          '|---|---|---|',
          ...stages.map((s) => `| ${s.stage} | ${s.ms} | ${s.share}% |`),
        ]
      : []),
  ];
  const text = lines.join('\n');
  console.log(text);
  fs.writeFileSync(reportFile('quick-sale'), text + '\n');
  await closeSequencePool();
  await dataSource.destroy();
  process.exit(stockExact && run.errors === 0 && run.non2xx === 0 ? 0 : 1);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
