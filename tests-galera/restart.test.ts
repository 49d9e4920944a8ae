import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type mysql from 'mysql2/promise';
import { decodeId } from '../src/core/hashids';
import { addStock, makeProduct } from '../tests/support/catalog';
import { createTestTenant, TestTenant } from '../tests/support/tenant';
import { call, checksums, galera, onNode, openCounter, Replica, sleep, startReplica, wsrepStatus } from './support';

/*
 * The whole cluster down and back (issue 50, docs/operations.md "Whole-cluster restart"): all three
 * nodes stopped cleanly, then all three SIGKILLed at once under load. `scripts/galera.sh start` brings
 * the cluster back from the most advanced node (safe_to_bootstrap after a clean stop; the highest
 * seqno read back by --wsrep-recover after a crash). Every acknowledged sale must be there afterwards,
 * on every node, once; while the cluster is down a replica answers 503 with Retry-After, within its
 * deadlines, never a hang or a 500.
 */
describe('Galera: the whole cluster restarted', () => {
  let t: TestTenant;
  let r: Replica;
  let productHash: string;

  before(async function () {
    this.timeout(600_000);
    expect((await wsrepStatus(1)).wsrep_cluster_size, 'the cluster has three nodes').to.equal('3');
    t = await createTestTenant({ filiais: 1 });
    // A statement sent to a node as it went down or came back is given up after 10 s (default 60 s).
    r = await startReplica('restart', [1, 2, 3], { DB_STATEMENT_TIMEOUT_MS: '10000' });
    await openCounter(t, r);
    const p = await makeProduct(t);
    await addStock(t, 0, p.id, 100_000);
    productHash = p.hash;
  });

  after(async function () {
    this.timeout(300_000);
    await r?.stop();
    // The next suite (or CI's stop) finds a whole cluster.
    await galera('start');
  });

  const sell = (key: string) =>
    call(
      r.baseUrl,
      'POST',
      '/sales-order',
      { ...t.headers(), 'Idempotency-Key': key },
      { flowMode: 'QUICK_SALE', items: [{ productId: productHash, quantity: 1 }], notes: key },
    );

  /** The sales of keys starting with `prefix` on node n: key → ids. */
  const salesOn = (n: number, prefix: string) =>
    onNode(n, async (c) => {
      const [rows] = await c.query('SELECT id, notes FROM sales_order WHERE company_id = ? AND notes LIKE ?', [t.companyId, `${prefix}%`]);
      const byKey = new Map<string, number[]>();
      for (const row of rows as { id: number; notes: string }[]) byKey.set(row.notes, [...(byKey.get(row.notes) ?? []), Number(row.id)]);
      return byKey;
    });

  /** Every acknowledged sale on every node, each key once, nothing unacknowledged, nodes identical. */
  async function expectEverySale(prefix: string, acknowledged: Map<string, string>) {
    for (const n of [1, 2, 3]) {
      const byKey = await salesOn(n, prefix);
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

  /** A key answered 409 again and again: its row, the nodes' lock waits and replication state, and the replica's warnings. */
  async function whatHolds(key: string, answer: string): Promise<string[]> {
    const out = [`${key} answered ${answer} three times; at ${new Date().toISOString()}:`];
    for (const n of [1, 2, 3]) {
      try {
        out.push(
          await onNode(
            n,
            async (c) => {
              const [keyRows] = await c.query('SELECT * FROM idempotency_key WHERE company_id = ? AND `key` = ?', [t.companyId, key]);
              const [trx] = await c.query('SELECT * FROM information_schema.innodb_trx');
              const [procs] = await c.query(
                "SELECT id, user, command, time, state, LEFT(info, 200) AS info FROM information_schema.processlist WHERE command <> 'Sleep'",
              );
              const [status] = await c.query<mysql.RowDataPacket[]>('SHOW ENGINE INNODB STATUS');
              const ws = await wsrepStatus(n);
              const pick = [
                'wsrep_local_state_comment',
                'wsrep_cluster_size',
                'wsrep_local_bf_aborts',
                'wsrep_local_cert_failures',
                'wsrep_last_committed',
              ];
              return [
                `node ${n}: key ${JSON.stringify(keyRows)}`,
                `node ${n}: wsrep ${JSON.stringify(Object.fromEntries(pick.map((k) => [k, ws[k]])))}`,
                `node ${n}: trx ${JSON.stringify(trx)}`,
                `node ${n}: processes ${JSON.stringify(procs)}`,
                `node ${n}: innodb ${
                  String(status[0]?.Status ?? '')
                    .split('------------\nTRANSACTIONS')[1]
                    ?.slice(0, 3000) ?? ''
                }`,
              ].join('\n');
            },
            false,
          ),
        );
      } catch (err) {
        out.push(`node ${n}: ${(err as Error).message}`);
      }
    }
    out.push(`replica stats ${JSON.stringify(await r.stats())}`);
    console.log(out.join('\n'));
    return out;
  }

  /** Retries `key` until the replica answers 201 (the first answers after a restart may be 503). */
  async function sellUntilAnswered(key: string, acknowledged: Map<string, string>) {
    // Up to ~3 min: a key an attempt held at the cut is free again once that attempt ends (its statements' deadlines) and the lease runs out.
    const seen = new Map<string, number>();
    const diagnostics: string[] = [];
    for (let attempt = 1; attempt <= 180; attempt++) {
      const res = await sell(key);
      // The detail tells a conflict the unit gave up on (a deadlock) from a business check's 409.
      const answer = `${res.status} ${res.body?.code ?? ''} ${res.status === 409 ? (res.body?.detail ?? '') : ''}`.trim();
      seen.set(answer, (seen.get(answer) ?? 0) + 1);
      if (res.status === 201) return void acknowledged.set(key, res.body.id);
      expect([0, 503, 409], `${key}: ${res.status} ${JSON.stringify(res.body)}`).to.include(res.status);
      if (res.status === 409) expect(res.body.code, key).to.be.oneOf(['IDEMPOTENCY_KEY_IN_PROGRESS', 'CONCURRENT_UPDATE']);
      if (res.status === 409 && seen.get(answer) === 3) diagnostics.push(...(await whatHolds(key, answer)));
      await sleep(res.status === 503 ? 1000 * Number(res.retryAfter ?? 1) : 500);
    }
    expect.fail(
      `${key} never answered 201 (answers: ${JSON.stringify(Object.fromEntries(seen))})\n${diagnostics.join('\n')}\n${r.warnings().slice(-30).join('\n')}`,
    );
  }

  it('all three nodes stopped cleanly: the last to leave bootstraps; every sale is there; the replica answered 503 meanwhile', async function () {
    this.timeout(600_000);
    const prefix = 'restart-clean-';
    const acknowledged = new Map<string, string>();
    for (let i = 0; i < 20; i++) await sellUntilAnswered(`${prefix}${i}`, acknowledged);
    await galera('stop');
    // The cluster is down: an answer, at once and within the pool's deadlines, is 503 with Retry-After.
    const started = Date.now();
    const down = await sell(`${prefix}down`);
    expect(Date.now() - started, 'answered within the deadlines').to.be.below(15_000);
    expect([down.status, down.body?.code], JSON.stringify(down.body)).to.deep.equal([503, 'DATABASE_UNAVAILABLE']);
    expect(down.retryAfter).to.match(/^\d+$/);
    const { stdout } = await galera('start');
    expect(stdout).to.match(/node 1 bootstraps the cluster .*safe_to_bootstrap/);
    // The refused sale never took effect; its key sold after the restart counts once.
    await sellUntilAnswered(`${prefix}down`, acknowledged);
    await expectEverySale(prefix, acknowledged);
  });

  it('all three nodes SIGKILLed under load: back from the highest recovered seqno; every acknowledged sale there, each key once', async function () {
    this.timeout(600_000);
    const prefix = 'restart-crash-';
    const acknowledged = new Map<string, string>();
    const unanswered = new Set<string>();
    let stop = false;
    async function worker(w: number) {
      for (let i = 0; !stop; i++) {
        const key = `${prefix}${w}-${i}`;
        const res = await sell(key);
        if (res.status === 201) acknowledged.set(key, res.body.id);
        else {
          // The cut came while it was in flight: it may or may not have committed. The client keeps the key.
          expect([0, 503, 409], `${key}: ${res.status} ${JSON.stringify(res.body)}`).to.include(res.status);
          unanswered.add(key);
          await sleep(200);
        }
      }
    }
    const workers = Array.from({ length: 4 }, (_v, w) => worker(w));
    await sleep(3000);
    await galera('kill-all');
    await sleep(2000);
    stop = true;
    await Promise.all(workers);
    const before = acknowledged.size;
    expect(before, 'sales acknowledged before the cut').to.be.above(5);

    const { stdout: plan } = await galera('recover');
    const { stdout } = await galera('start');
    const chosen = /bootstrap from: (\d) (-?\d+) (\S+)/.exec(plan);
    expect(chosen, plan).to.not.equal(null);
    expect(chosen![3], plan).to.equal('highest-seqno');
    // The node started from held the highest position of the three.
    const positions = [...plan.matchAll(/start position (-?\d+)/g)].map((m) => Number(m[1]));
    expect(Number(chosen![2])).to.equal(Math.max(...positions));
    expect(stdout).to.match(new RegExp(`node ${chosen![1]} bootstraps the cluster`));
    fs.mkdirSync(path.resolve(__dirname, '../bench/out'), { recursive: true });
    fs.writeFileSync(
      path.resolve(__dirname, '../bench/out/galera-restart.json'),
      JSON.stringify({ acknowledgedBeforeCut: before, unanswered: unanswered.size, plan }, null, 2),
    );

    // What the cut left unanswered is retried under its key: the stored outcome, or the sale made now, once.
    for (const key of unanswered) await sellUntilAnswered(key, acknowledged);
    await expectEverySale(prefix, acknowledged);
  });
});
