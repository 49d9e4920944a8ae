/*
 * Throughput on the 3-node Galera cluster against one MariaDB server (issue 50), same box, same run,
 * rounds alternating: quick sales/s and order + fulfil pairs/s from CONC clients spread over three API
 * replicas — on Galera each replica on its own node (GALERA_SPREAD=pinned, the default: every node
 * writes, so certification decides the conflicts) or each given all three (GALERA_SPREAD=all) —
 * with the certification failures and brute-force aborts per operation (each one a transaction run
 * again by the service). Needs the cluster: `npm run galera:start`. Figures: bench/out/galera-throughput.md.
 *
 *   npm run bench -- galera-throughput      env: ROUNDS (2), SECS (20), CONC (12), GALERA_SPREAD
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { machine, reportFile } from './support';

const ROUNDS = Number(process.env.ROUNDS ?? 2);
const SPREAD = process.env.GALERA_SPREAD ?? 'pinned';
const root = path.resolve(__dirname, '..');

function galeraHosts(): string[] {
  const out = execFileSync('bash', [path.join(root, 'scripts/galera.sh'), 'env'], { encoding: 'utf8' });
  const hosts = /^DB_HOSTS=(.*)$/m.exec(out)?.[1];
  if (!hosts) throw new Error('scripts/galera.sh env printed no DB_HOSTS: is the cluster running (npm run galera:start)?');
  return hosts.split(',');
}

async function createDatabase(host: string, port: number, name: string) {
  const c = await mysql.createConnection({ host, port, user: 'root' });
  await c.query(`CREATE DATABASE IF NOT EXISTS \`${name}\``);
  await c.end();
}

(async () => {
  const nodes = galeraHosts();
  const [h1, p1] = nodes[0].split(':');
  await createDatabase(h1, Number(p1), 'bench_galera');
  await createDatabase('127.0.0.1', 3306, 'bench_single');
  const single = 'mysql://root@127.0.0.1:3306/bench_single';
  const galera = `mysql://root@${nodes.join(',')}/bench_galera`;
  const targets = {
    'one server': { url: single, replicas: [single, single, single] },
    'Galera, 3 nodes': {
      url: galera,
      replicas: SPREAD === 'all' ? [galera, galera, galera] : nodes.map((n) => `mysql://root@${n}/bench_galera`),
    },
  };
  const rounds: { target: string; round: number; figures: any }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [target, t] of Object.entries(targets)) {
      const res = spawnSync(process.execPath, ['-r', 'ts-node/register', path.join(__dirname, 'galera-throughput-round.ts')], {
        env: { ...process.env, DB_URL: t.url, REPLICA_URLS: JSON.stringify(t.replicas) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 24,
      });
      const line = /^ROUND (.*)$/m.exec(res.stdout ?? '')?.[1];
      if (res.status !== 0 || !line) throw new Error(`${target} round ${round} failed (${res.status}):\n${res.stdout}`);
      rounds.push({ target, round, figures: JSON.parse(line) });
      console.log(target, round, line);
    }
  }
  const row = (r: (typeof rounds)[number], op: 'quickSale' | 'orderAndFulfil') => {
    const f = r.figures[op];
    return `| ${r.target} | ${r.round} | ${op === 'quickSale' ? 'quick sale' : 'order + fulfil'} | ${f.perSecond} | ${f.p50} / ${f.p99} | ${f.failed} | ${f.certFailures} + ${f.bfAborts} | ${f.conflictsPerOp} | ${r.figures.stockMismatches} |`;
  };
  const ratio = (op: 'quickSale' | 'orderAndFulfil') => {
    const of = (target: string) => rounds.filter((r) => r.target === target).map((r) => r.figures[op].perSecond as number);
    const g = of('Galera, 3 nodes');
    const s = of('one server');
    return g.map((x, i) => (x / s[i]).toFixed(2)).join(' · ');
  };
  const lines = [
    `## Galera throughput against one server (issue 50) — ${machine()}`,
    '',
    `${process.env.CONC ?? 12} clients over 3 API replicas, ${process.env.SECS ?? 20} s per operation after a 3 s warm-up, rounds alternating; Galera replicas ${SPREAD === 'all' ? 'each given all three nodes' : 'each on its own node'}.`,
    '',
    '| target | round | operation | per second | p50 / p99 ms | failed | cert failures + BF aborts | conflicts per op | stock mismatches |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rounds.flatMap((r) => [row(r, 'quickSale'), row(r, 'orderAndFulfil')]),
    '',
    `Galera ÷ one server, per round: quick sale ${ratio('quickSale')}; order + fulfil ${ratio('orderAndFulfil')}.`,
    '',
  ];
  fs.writeFileSync(reportFile('galera-throughput'), lines.join('\n'));
  console.log(lines.join('\n'));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
