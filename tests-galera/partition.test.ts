import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { decodeId } from '../src/core/hashids';
import { addStock, makeProduct } from '../tests/support/catalog';
import { createTestTenant, TestTenant } from '../tests/support/tenant';
import { cut, cutPort, heal, netfilterUsable } from './netfilter';
import { call, causalBarrier, checksums, nodes, onNode, openCounter, Replica, sleep, startReplica, wsrepStatus } from './support';

/*
 * Network partitions (issue 50). Each node on its own loopback address; the suite cuts links with
 * nftables rules of its own (tests-galera/netfilter.ts):
 * 1. node 1 away from nodes 2 and 3: node 1 is a minority, non-primary, and refuses writes; the
 *    replica's sales go on through nodes 2 and 3; healed, node 1 rejoins by IST;
 * 2. the replica away from node 2 (its SQL port goes silent, as a frozen server's would): the
 *    replica's deadlines take node 2 out and the sales go on through the others; healed.
 * A replica given all three nodes sells throughout; each answer is 201, or 503 / no answer (then the
 * client retries under the same key). Afterwards every acknowledged sale is on every node, once, and
 * nothing unacknowledged; the nodes are identical.
 */
describe('Galera: network partitions', () => {
  let t: TestTenant;
  let r: Replica;
  let productHash: string;
  const figures: Record<string, unknown>[] = [];

  before(async function () {
    this.timeout(600_000);
    const unusable = await netfilterUsable();
    if (unusable) {
      console.log(`partition tests skipped: nft cannot change the ruleset (${unusable})`);
      return this.skip();
    }
    await heal();
    expect((await wsrepStatus(1)).wsrep_cluster_size, 'the cluster has three nodes').to.equal('3');
    t = await createTestTenant({ filiais: 1 });
    // Short deadlines: a silent node is given up in seconds (the defaults are 5 s and 60 s).
    r = await startReplica('partition', [1, 2, 3], { DB_ACQUIRE_TIMEOUT_MS: '2000', DB_STATEMENT_TIMEOUT_MS: '10000' });
    await openCounter(t, r);
    const p = await makeProduct(t);
    await addStock(t, 0, p.id, 100_000);
    productHash = p.hash;
  });

  after(async function () {
    this.timeout(120_000);
    await heal().catch(() => undefined);
    await r?.stop();
    if (figures.length) {
      const out = path.resolve(__dirname, '../bench/out');
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, 'galera-partitions.json'), JSON.stringify(figures, null, 2));
      console.log(JSON.stringify(figures, null, 2));
    }
  });

  const sell = (key: string) =>
    call(
      r.baseUrl,
      'POST',
      '/sales-order',
      { ...t.headers(), 'Idempotency-Key': key },
      { flowMode: 'QUICK_SALE', items: [{ productId: productHash, quantity: 1 }], notes: key },
    );

  /** Sells until stopped; every answer is 201, 503 or none (then the same key again). */
  function load(prefix: string) {
    const acknowledged = new Map<string, string>();
    const refused: string[] = [];
    const log: { status: number; at: number; ms: number }[] = [];
    let stop = false;
    async function worker(w: number) {
      for (let i = 0; !stop; i++) {
        const key = `${prefix}${w}-${i}`;
        for (let attempt = 1; attempt <= 60; attempt++) {
          const started = Date.now();
          const res = await sell(key);
          log.push({ status: res.status, at: started, ms: Date.now() - started });
          if (res.status === 201) {
            acknowledged.set(key, res.body.id);
            break;
          }
          const retryable =
            res.status === 0 ||
            res.status === 503 ||
            (res.status === 409 && ['IDEMPOTENCY_KEY_IN_PROGRESS', 'CONCURRENT_UPDATE'].includes(res.body?.code));
          if (!retryable) {
            refused.push(`${key}: ${res.status} ${JSON.stringify(res.body)}`);
            break;
          }
          if (res.status === 503 && !/^\d+$/.test(res.retryAfter ?? '')) refused.push(`${key}: 503 without Retry-After`);
          await sleep(res.status === 503 ? 1000 * Number(res.retryAfter ?? 1) : 300);
          if (stop && attempt > 30) break;
        }
      }
    }
    const workers = Array.from({ length: 4 }, (_v, w) => worker(w));
    return {
      acknowledged,
      refused,
      log,
      async finish() {
        stop = true;
        await Promise.all(workers);
      },
    };
  }

  async function waitFor(what: string, check: () => Promise<boolean>, seconds = 90) {
    for (let i = 0; i < seconds * 2; i++) {
      if (await check().catch(() => false)) return;
      await sleep(500);
    }
    expect.fail(`${what} within ${seconds} s`);
  }

  const whole = () =>
    waitFor('every node Synced in one cluster of three', async () =>
      (await Promise.all([1, 2, 3].map((n) => wsrepStatus(n)))).every(
        (s) => s.wsrep_local_state_comment === 'Synced' && s.wsrep_cluster_size === '3',
      ),
    );

  async function expectEverySale(prefix: string, acknowledged: Map<string, string>) {
    await causalBarrier();
    for (const n of [1, 2, 3]) {
      const byKey = await onNode(n, async (c) => {
        const [rows] = await c.query('SELECT id, notes FROM sales_order WHERE company_id = ? AND notes LIKE ?', [
          t.companyId,
          `${prefix}%`,
        ]);
        const map = new Map<string, number[]>();
        for (const row of rows as { id: number; notes: string }[]) map.set(row.notes, [...(map.get(row.notes) ?? []), Number(row.id)]);
        return map;
      });
      const missing = [...acknowledged].filter(([key, hash]) => !byKey.get(key)?.includes(decodeId('sales-order', hash)));
      expect(missing, `acknowledged sales missing on node ${n}`).to.deep.equal([]);
      expect(
        [...byKey.keys()].filter((key) => !acknowledged.has(key)),
        `sales on node ${n} never acknowledged`,
      ).to.deep.equal([]);
      expect(
        [...byKey].filter(([, ids]) => ids.length > 1),
        `keys that took effect twice on node ${n}`,
      ).to.deep.equal([]);
    }
    const sums = await Promise.all([1, 2, 3].map((n) => checksums(n)));
    expect(sums[1]).to.deep.equal(sums[0]);
    expect(sums[2]).to.deep.equal(sums[0]);
  }

  it('node 1 cut off from nodes 2 and 3: it turns non-primary and refuses writes, sales go on through the majority, it rejoins by IST', async function () {
    this.timeout(600_000);
    await whole();
    const prefix = 'partition-node-';
    const work = load(prefix);
    await sleep(3000);
    const [one, ...rest] = nodes.map((n) => n.host);
    const cutAt = Date.now();
    await cut([one], rest);
    await waitFor('node 1 non-primary', async () => (await wsrepStatus(1)).wsrep_cluster_status === 'non-Primary');
    await waitFor('nodes 2 and 3 a primary component of two', async () => {
      const [s2, s3] = await Promise.all([wsrepStatus(2), wsrepStatus(3)]);
      return s2.wsrep_cluster_status === 'Primary' && s2.wsrep_cluster_size === '2' && s3.wsrep_cluster_size === '2';
    });
    // The minority refuses work: a write on node 1 answers 1047 (not prepared for application use).
    const write = await onNode(1, (c) => c.query('UPDATE sales_order SET notes = notes WHERE id = 0'), false).then(
      () => null,
      (e: { errno?: number }) => e.errno,
    );
    expect(write, 'a write on the minority node').to.equal(1047);
    const during = work.acknowledged.size;
    await sleep(6000);
    const servedByMajority = work.acknowledged.size - during;
    expect(servedByMajority, 'sales acknowledged while node 1 was away').to.be.above(0);
    const logFile = path.resolve(__dirname, '../data/galera/node1/error.log');
    const offset = fs.statSync(logFile).size;
    const healedAt = Date.now();
    await heal();
    await whole();
    const rejoinMs = Date.now() - healedAt;
    await sleep(2000);
    await work.finish();
    expect(work.refused).to.deep.equal([]);
    const rejoin = fs.readFileSync(logFile, 'utf8').slice(offset);
    figures.push({
      partition: 'node 1 | nodes 2, 3',
      acknowledged: work.acknowledged.size,
      servedByMajorityIn6s: servedByMajority,
      answered503: work.log.filter((l) => l.status === 503).length,
      noAnswer: work.log.filter((l) => l.status === 0).length,
      slowestRequestMs: Math.max(...work.log.map((l) => l.ms)),
      firstSuccessAfterCutMs: (() => {
        const first = work.log.find((l) => l.status === 201 && l.at >= cutAt);
        return first ? first.at + first.ms - cutAt : null;
      })(),
      rejoinMs,
      rejoinedBy: /IST received/.test(rejoin) ? 'IST' : /SST/.test(rejoin) ? 'SST' : 'view change only',
    });
    await expectEverySale(prefix, work.acknowledged);
  });

  it("the replica cut off from node 2's SQL port (silent): its deadlines take node 2 out, sales go on through nodes 1 and 3", async function () {
    this.timeout(600_000);
    await whole();
    const prefix = 'partition-replica-';
    const work = load(prefix);
    await sleep(3000);
    const cutAt = Date.now();
    await cutPort(nodes[1].host, nodes[1].port);
    await sleep(12_000);
    const duringCut = work.log.filter((l) => l.at >= cutAt);
    expect(duringCut.filter((l) => l.status === 201).length, 'sales acknowledged while node 2 was silent').to.be.above(0);
    await heal();
    await sleep(4000);
    await work.finish();
    expect(work.refused).to.deep.equal([]);
    const stats = await r.stats();
    const node2 = stats.hosts.find((h) => h.name === `${nodes[1].host}:${nodes[1].port}`);
    figures.push({
      partition: 'replica | node 2 (SQL port silent)',
      acknowledged: work.acknowledged.size,
      answered503: work.log.filter((l) => l.status === 503).length,
      noAnswer: work.log.filter((l) => l.status === 0).length,
      slowestRequestMs: Math.max(...work.log.map((l) => l.ms)),
      node2TimesLeftOut: node2?.timesLeftOut,
      node2LastReason: node2?.reason,
    });
    expect(
      Math.max(...work.log.map((l) => l.ms)),
      'no request waited past the deadlines (10 s statement + 2 s acquire, and the retries of a unit of work)',
    ).to.be.below(40_000);
    await expectEverySale(prefix, work.acknowledged);
  });
});
