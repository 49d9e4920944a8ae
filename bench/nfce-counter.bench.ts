/*
 * Issue 31, speed: the quick sale with its NFC-e issued online (the local authority simulator on the
 * same box, in this process) beside the quick sale without NFC-e (the tenant's second filial), and
 * beside the signing floor — the RSA-SHA1 signature of the same bytes with node's crypto alone (SHA-1
 * of a stored note's canonical infNFe + one RSA-2048 signature of its SignedInfo), measured in this
 * process in the same rounds. CPU per sale of the API process (its own process, bench/serve.ts),
 * MariaDB. Rounds alternate NFC-e / plain / floor; medians are reported (the box is shared). Each
 * round also measures the API's CPU over an idle window as long as a load window (timers, pools'
 * keep-alives), subtracted from both load windows before dividing by their sales: the background
 * no longer weighs on the side with fewer sales.
 * Target: the NFC-e adds at most 2× the floor's CPU to a sale.
 *   npm run bench -- nfce-counter        env: ROUNDS (5), SECS (8), CONC (4), FLOOR_OPS (400), PROFILE_SECS (0), PROFILE_FILIAL (0)
 */
import './mocha-globals';
import fs from 'node:fs';
import { dataSource } from '../src/core/db/data-source';
import { NfceDocument } from '../src/modules/nfce/entities/nfce-document.entity';
import { SalesOrder } from '../src/modules/sales-order/entities/sales-order.entity';
import { authorizedCounter } from './nfce-setup';
import { cpuMeter, load, machine, median, prepareDatabase, profiled, reportFile, startServerProcess } from './support';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECS = Number(process.env.SECS ?? 8);
const CONC = Number(process.env.CONC ?? 4);
const FLOOR_OPS = Number(process.env.FLOOR_OPS ?? 400);
const PROFILE_SECS = Number(process.env.PROFILE_SECS ?? 0);
/** 0: profile the NFC-e sales; 1: the sales without NFC-e. */
const PROFILE_FILIAL = process.env.PROFILE_FILIAL === '1' ? 1 : 0;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

(async () => {
  await prepareDatabase();
  // One sale online first, for the floor's bytes and to be sure the path works.
  const { c, floorOnce } = await authorizedCounter(1_000_000, [1, 0]);
  const t = c.t;

  const server = await startServerProcess([], { DB_POOL_SIZE: '16' });
  const body = JSON.stringify({
    flowMode: 'QUICK_SALE',
    items: [
      { productId: t.products[0].hash, quantity: 2, unitPrice: '10.50' },
      { productId: t.products[1].hash, quantity: 1, unitPrice: '19.90' },
    ],
    payments: [{ method: 'CASH', amount: '50.00' }],
  });
  const run = async (filial: 0 | 1, secs: number) => {
    const before = await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId, filialId: t.filialIds[filial] });
    const meter = await cpuMeter(server);
    const r = await load({
      url: `${server.baseUrl}/api/sales-order`,
      connections: CONC,
      duration: secs,
      headers: { ...t.headers(filial), 'content-type': 'application/json' },
      requests: [{ method: 'POST', body }],
    });
    const sales = (await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId, filialId: t.filialIds[filial] })) - before;
    const cpu = await meter.stop(sales);
    if (r.errors || r.non2xx) throw new Error(`filial ${filial}: ${r.errors} errors, ${r.non2xx} non-2xx`);
    return { api: cpu.api, apiTotal: cpu.api * Math.max(1, sales), db: cpu.db, sales, p50: r.p50, p99: r.p99 };
  };
  /** The API's CPU (ms) over `secs` seconds without requests. */
  const idle = async (secs: number) => {
    const meter = await cpuMeter(server);
    await new Promise((r) => setTimeout(r, secs * 1000));
    return (await meter.stop(1)).api;
  };
  /** CPU per sale with the idle window's CPU taken out. */
  const net = (x: { apiTotal: number; sales: number }, idleMs: number) => (x.apiTotal - idleMs) / Math.max(1, x.sales);
  // Warm-up of both paths (JIT, pools, the signer cache).
  await run(0, 2);
  await run(1, 2);
  for (let i = 0; i < 50; i++) floorOnce();

  const nfce: Awaited<ReturnType<typeof run>>[] = [];
  const plain: Awaited<ReturnType<typeof run>>[] = [];
  const floor: number[] = [];
  const idles: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    nfce.push(await run(0, SECS));
    plain.push(await run(1, SECS));
    idles.push(await idle(SECS));
    const c0 = cpuMs();
    for (let i = 0; i < FLOOR_OPS; i++) floorOnce();
    floor.push((cpuMs() - c0) / FLOOR_OPS);
  }
  const hot =
    PROFILE_SECS > 0
      ? await profiled(server, 'nfce-counter', () =>
          load({
            url: `${server.baseUrl}/api/sales-order`,
            connections: CONC,
            duration: PROFILE_SECS,
            headers: { ...t.headers(PROFILE_FILIAL), 'content-type': 'application/json' },
            requests: [{ method: 'POST', body }],
          }),
        )
      : [];
  await server.stop();

  const notAuthorized = await dataSource.manager.countBy(NfceDocument, { companyId: t.companyId, status: 'CONTINGENCY' });
  const nfceNet = nfce.map((x, i) => net(x, idles[i]));
  const plainNet = plain.map((x, i) => net(x, idles[i]));
  const mNfce = median(nfceNet);
  const mPlain = median(plainNet);
  const mFloor = median(floor);
  // The NFC-e's share per round (the same round's two windows and idle window), then its median.
  const shares = nfceNet.map((x, i) => x - plainNet[i]);
  const added = median(shares);
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
  const lines = [
    `## NFC-e at the counter (issue 31) — ${machine()}`,
    '',
    `${ROUNDS} alternating rounds of ${SECS} s (NFC-e sales / sales without NFC-e / ${SECS} s idle / signing floor), ${CONC} concurrent clients, 2 items per sale, MariaDB, API in its own process, the authority simulator in the bench process (same box). API CPU per sale = (CPU of the load window − CPU of the round's idle window) ÷ sales.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| API CPU per sale, NFC-e online (median; rounds) | ${mNfce.toFixed(3)} ms (${fmt(nfceNet)}) |`,
    `| API CPU per sale, no NFC-e (median; rounds) | ${mPlain.toFixed(3)} ms (${fmt(plainNet)}) |`,
    `| API idle CPU per ${SECS} s window (median; rounds) | ${median(idles).toFixed(1)} ms (${fmt(idles)}) |`,
    `| without the idle subtraction, NFC-e / plain (medians) | ${median(nfce.map((x) => x.api)).toFixed(3)} / ${median(plain.map((x) => x.api)).toFixed(3)} ms |`,
    `| the NFC-e's share of a sale (median of the rounds' differences; rounds) | ${added.toFixed(3)} ms (${fmt(shares)}) |`,
    `| signing floor: SHA-1 of the note's infNFe + RSA-SHA1 of its SignedInfo, node's crypto (median; rounds) | ${mFloor.toFixed(3)} ms (${fmt(floor)}) |`,
    `| NFC-e ÷ floor (target ≤ 2) | ${(added / mFloor).toFixed(2)}× |`,
    `| sales per round, NFC-e / plain (medians) | ${median(nfce.map((x) => x.sales))} / ${median(plain.map((x) => x.sales))} |`,
    `| latency p50 / p99, NFC-e (ms, median of rounds) | ${median(nfce.map((x) => Number(x.p50)))} / ${median(nfce.map((x) => Number(x.p99)))} |`,
    `| latency p50 / p99, plain (ms, median of rounds) | ${median(plain.map((x) => Number(x.p50)))} / ${median(plain.map((x) => Number(x.p99)))} |`,
    `| MariaDB CPU per sale, NFC-e / plain (median) | ${median(nfce.map((x) => x.db ?? NaN)).toFixed(3)} / ${median(plain.map((x) => x.db ?? NaN)).toFixed(3)} ms |`,
    `| notes left in contingency (must be 0) | ${notAuthorized} |`,
    ...(hot.length
      ? [
          '',
          `CPU profile of the API over ${PROFILE_SECS} s of NFC-e sales (bench/out/nfce-counter.cpuprofile):`,
          '',
          '| where | ms | share |',
          '|---|---|---|',
          ...hot.map((h) => `| ${h.where} | ${h.ms} | ${h.share}% |`),
        ]
      : []),
  ];
  const text = lines.join('\n');
  console.log(text);
  fs.writeFileSync(reportFile('nfce-counter'), text + '\n');
  await t.sim.stop();
  await dataSource.destroy();
  process.exit(notAuthorized === 0 ? 0 : 1);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
