/*
 * Batch upload benchmark (issue 23): a ZIP of 2,000 signed NF-e (10 items each) for one filial,
 * through real HTTP on MariaDB, staged by the in-process worker.
 *   time to the 202 (upload read, checked and stored as a job)
 *   time until the job is DONE, files per second
 *   peak RSS of the process (API + worker) above its level before the upload
 * Progress is printed as the job reports it (GET of the job), as a client would show it.
 *
 *   DB_URL=mysql://root@127.0.0.1:3306/<own db> npm run bench -- nfe-batch
 */
import { dataSource } from '../src/core/db/data-source';
import { Filial } from '../src/modules/tenancy/entities/filial.entity';
import { zipOf } from '../tests/nfe/batch-support';
import { buildNfe, manyItems } from '../tests/support/nfe-builder';
import { createTestTenant, machine, prepareDatabase, rssMb, startServer } from './support';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const ITEMS = 10;

async function main() {
  await prepareDatabase();
  const t = await createTestTenant();
  const cnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] })).cnpj;
  console.log(`machine: ${machine()}`);
  console.log(`building and signing ${FILES} NF-e of ${ITEMS} items…`);
  const t0 = Date.now();
  const entries = Array.from({ length: FILES }, (_v, i) => ({
    name: `notas/${String(i + 1).padStart(4, '0')}.xml`,
    content: buildNfe({ recipient: { cnpj }, items: manyItems(ITEMS), number: 500_000 + i }).xml,
  }));
  const zip = await zipOf(entries);
  const rawBytes = entries.reduce((n, e) => n + Buffer.byteLength(e.content), 0);
  console.log(
    `built in ${((Date.now() - t0) / 1000).toFixed(1)} s: ZIP ${(zip.length / 2 ** 20).toFixed(1)} MB (${(rawBytes / 2 ** 20).toFixed(1)} MB of XML)`,
  );

  const server = await startServer();
  global.gc?.();
  const baseRss = rssMb();
  let peakRss = baseRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 100);
  const headers = { ...t.headers(), 'Content-Type': 'application/zip' };

  const start = process.hrtime.bigint();
  const res = await fetch(`${server.baseUrl}/api/entry-document/nfe/batch`, { method: 'POST', headers, body: zip });
  const accepted = Number(process.hrtime.bigint() - start) / 1e6;
  const job = (await res.json()) as { id: string; links: { self: string }; status: string };
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${JSON.stringify(job)}`);
  console.log(`202 after ${accepted.toFixed(0)} ms (job ${job.id}, ${job.status})`);

  let last: any = job;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    last = await (await fetch(`${server.baseUrl}${job.links.self}?pageSize=1`, { headers: t.headers() })).json();
    const s = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(
      `  ${s.toFixed(0).padStart(4)} s  ${last.progress.done}/${last.progress.total} (${last.progress.percent} %)  staged ${last.counts.staged}, duplicates ${last.counts.duplicates}, invalid ${last.counts.invalid}  rss ${rssMb()} MB`,
    );
    if (last.status === 'DONE' || last.status === 'FAILED') break;
  }
  const total = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(sampler);
  console.log('\nresult');
  console.log(`  files: ${FILES}, status ${last.status}, staged ${last.counts.staged}, invalid ${last.counts.invalid}`);
  console.log(`  202 after: ${accepted.toFixed(0)} ms`);
  console.log(`  done after: ${(total / 1000).toFixed(1)} s (${((FILES * 1000) / total).toFixed(1)} files/s)`);
  console.log(`  RSS: ${baseRss} MB before, peak ${peakRss} MB (+${peakRss - baseRss} MB)`);
  await server.close();
  await dataSource.destroy();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
