/*
 * A request that fails validation: API CPU per request (issue 21: ≤ 0.5 ms). An authenticated
 * POST /api/sales-order whose body joi rejects (a quantity that is no number, an unknown field) →
 * 400, through the whole chain before validation (request id, helmet, per-address limit, JWT,
 * tenant headers, per-token limit, content type, JSON parser, validation, problem+json, log line).
 * Beside it, in the same run: GET /api/health (the public route: the chain without auth) and the
 * floor, express alone answering a JSON POST with a 400 problem in its own process.
 *
 * Then a CPU profile of the API over PROFILE_SECS more of the failing request, by stage
 * (bench/out/validation.cpuprofile).
 *
 *   npm run bench -- validation        env: SECS (10), CONC (8), PROFILE_SECS (10; 0: none)
 */
import fs from 'node:fs';
import { dataSource } from '../src/core/db/data-source';
import { makeProduct } from '../tests/support/catalog';
import {
  CpuPerOp,
  cpuMeter,
  createTestTenant,
  fmtCpu,
  load,
  LoadResult,
  machine,
  prepareDatabase,
  profiled,
  reportFile,
  ServerProcess,
  stagesOfCpuProfile,
  startServerProcess,
} from './support';

const SECS = Number(process.env.SECS ?? 10);
const CONC = Number(process.env.CONC ?? 8);
const TARGET_MS = 0.5;
const PROFILE_SECS = Number(process.env.PROFILE_SECS ?? 10);

async function measure(
  server: ServerProcess,
  label: string,
  opts: Parameters<typeof load>[0],
): Promise<{ label: string; run: LoadResult; cpu: CpuPerOp }> {
  await load({ ...opts, duration: 2 }); // warm-up (JIT)
  const meter = await cpuMeter(server);
  const run = await load({ ...opts, duration: SECS });
  const cpu = await meter.stop(run.requests);
  console.log(`${label}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${run.errors}; ${fmtCpu(cpu)}`);
  return { label, run, cpu };
}

(async () => {
  await prepareDatabase();
  const t = await createTestTenant();
  const product = await makeProduct(t);
  const api = await startServerProcess();
  const floor = await startServerProcess([], {}, 'express-floor.ts');
  try {
    const body = JSON.stringify({
      flowMode: 'QUICK_SALE',
      items: [{ productId: product.hash, quantity: 'three' }],
      payments: [{ method: 'CASH', amount: '30.00' }],
      colour: 'blue',
    });
    const headers = { ...t.headers(), 'content-type': 'application/json' };
    const probe = await fetch(`${api.baseUrl}/api/sales-order`, { method: 'POST', headers, body });
    const problem = (await probe.json()) as { code?: string; errors?: unknown[] };
    if (probe.status !== 400) throw new Error(`expected 400, got ${probe.status} ${JSON.stringify(problem)}`);
    console.log(`the failing request answers 400 ${problem.code} with ${problem.errors?.length ?? 0} field errors`);

    const rows = [
      await measure(api, 'POST /api/sales-order failing validation (400)', {
        url: `${api.baseUrl}/api/sales-order`,
        connections: CONC,
        method: 'POST',
        headers,
        body,
      }),
      await measure(api, 'GET /api/health (public: no auth, no validation)', { url: `${api.baseUrl}/api/health`, connections: CONC }),
      await measure(floor, 'floor: express alone, JSON POST → 400 problem', {
        url: `${floor.baseUrl}/floor`,
        connections: CONC,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    ];
    const failing = rows[0];
    const failingLoad = {
      url: `${api.baseUrl}/api/sales-order`,
      connections: CONC,
      method: 'POST' as const,
      headers,
      body,
      duration: PROFILE_SECS,
    };
    const stages =
      PROFILE_SECS > 0
        ? (await profiled(api, 'validation', () => load(failingLoad)),
          stagesOfCpuProfile(reportFile('validation').replace(/\.md$/, '.cpuprofile')))
        : [];
    const text = [
      `## A request that fails validation (issue 21) — ${machine()}`,
      '',
      `${CONC} connections, ${SECS} s per run after a 2 s warm-up; the API and the floor each in a process of their own. CPU: process.cpuUsage of that process; MariaDB: /proc of the server (every client counts).`,
      '',
      '| run | req/s | p50 / p99 ms | errors / non-2xx | API CPU ms/req | MariaDB CPU ms/req |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        ({ label, run, cpu }) =>
          `| ${label} | ${run.rps.toFixed(0)} | ${run.p50} / ${run.p99} | ${run.errors} / ${run.non2xx} | ${cpu.api.toFixed(3)} | ${cpu.db?.toFixed(3) ?? 'n/a'} |`,
      ),
      '',
      `Failing request: ${failing.cpu.api.toFixed(3)} ms of API CPU (target ≤ ${TARGET_MS} ms: ${failing.cpu.api <= TARGET_MS ? 'pass' : 'FAIL'}), ${(failing.cpu.api / rows[2].cpu.api).toFixed(1)}× the express floor.`,
      ...(stages.length
        ? [
            '',
            `Where the failing request's time goes (CPU profile over ${PROFILE_SECS} s more of it, by stage; bench/out/validation.cpuprofile):`,
            '',
            '| stage | ms | share |',
            '|---|---|---|',
            ...stages.map((s) => `| ${s.stage} | ${s.ms} | ${s.share}% |`),
          ]
        : []),
    ].join('\n');
    console.log(`\n${text}`);
    fs.writeFileSync(reportFile('validation'), `${text}\n`);
    // Every answer must be the 400 of validation: a 429 of a rate limit costs far less and would pass for it.
    const statuses = failing.run.statusCodes;
    const allValidation = failing.run.errors === 0 && Object.keys(statuses).join() === '400';
    if (!allValidation) console.log(`NOT every answer was the validation 400: ${JSON.stringify(statuses)}`);
    process.exitCode = allValidation ? 0 : 1;
  } finally {
    await api.stop();
    await floor.stop();
    await dataSource.destroy();
  }
})().then(
  // Exit when done: pools of the target commit (sequence, batching) would keep the process alive.
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
