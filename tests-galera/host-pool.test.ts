import { expect } from 'chai';
import type mysql from 'mysql2';
import { HostPool, resetHostHealth } from '../src/core/db/host-pool';
import { database, nodes, onNode, sleep, wsrepStatus } from './support';

/*
 * The host pool over the three nodes (src/core/db/host-pool.ts), straight, without a replica: a node
 * that is up and answering but not Synced (desynced here, as a donor or a joiner is) gets no
 * connection until it is Synced again; a node whose statements answer 1047 is left out at once.
 */
describe('Galera host pool: a node up but not Synced gets no connection', () => {
  const RETRY_MS = 300;
  const hosts = nodes.map(({ host, port }) => ({ host, port }));
  let pool: HostPool;

  const take = () =>
    new Promise<mysql.PoolConnection>((resolve, reject) => pool.getConnection((err, c) => (err ? reject(err) : resolve(c!))));
  const ask = (c: mysql.PoolConnection, sql: string) =>
    new Promise<any>((resolve, reject) => c.query(sql, (err, rows) => (err ? reject(err) : resolve(rows))));
  /** The nodes that serve `k` connections taken at once (then given back). */
  async function servedBy(k: number): Promise<string[]> {
    const held: mysql.PoolConnection[] = [];
    try {
      for (let i = 0; i < k; i++) held.push(await take());
      return await Promise.all(held.map(async (c) => String((await ask(c, 'SELECT @@wsrep_node_name AS n'))[0].n)));
    } finally {
      held.forEach((c) => c.release());
    }
  }
  async function untilSynced(n: number) {
    for (let i = 0; (await wsrepStatus(n)).wsrep_local_state_comment !== 'Synced'; i++) {
      expect(i, `node ${n} Synced again`).to.be.below(120);
      await sleep(250);
    }
  }
  const health = (n: number) => pool.health()[n - 1];

  beforeEach(() => {
    resetHostHealth();
    pool = new HostPool({ user: 'root', database, connectionLimit: 4 }, hosts, RETRY_MS);
  });
  afterEach(async function () {
    this.timeout(60_000);
    await new Promise((resolve) => pool.end(resolve));
    await onNode(3, (c) => c.query('SET GLOBAL wsrep_desync = OFF'), false);
    await onNode(2, (c) => c.query("SET GLOBAL wsrep_reject_queries = 'NONE'"), false);
    await untilSynced(3);
  });

  it('spreads connections over the three Synced nodes', async () => {
    expect(new Set(await servedBy(6))).to.deep.equal(new Set(['node1', 'node2', 'node3']));
  });

  it('a desynced node is left out (re-checked with back-off) until it is Synced again', async function () {
    this.timeout(120_000);
    await onNode(3, (c) => c.query('SET GLOBAL wsrep_desync = ON'), false);
    const state = (await wsrepStatus(3)).wsrep_local_state_comment;
    expect(state, 'node 3 up but not Synced').to.not.equal('Synced');

    expect(await servedBy(6)).to.not.include('node3');
    expect(health(3).reason).to.match(/not Synced/);
    const firstOut = health(3).offlineUntil;
    // Re-checked after the back-off: still not Synced, left out again for longer.
    await sleep(RETRY_MS + 50);
    expect(await servedBy(6)).to.not.include('node3');
    expect(health(3).failures).to.be.at.least(2);
    expect(health(3).offlineUntil - firstOut).to.be.above(RETRY_MS);

    await onNode(3, (c) => c.query('SET GLOBAL wsrep_desync = OFF'), false);
    await untilSynced(3);
    // Back in service at its next check (the back-off is at most 8× DB_HOST_RETRY_MS).
    await sleep(8 * RETRY_MS + 50);
    expect(await servedBy(6)).to.include('node3');
    expect(health(3)).to.include({ failures: 0, offlineUntil: 0, probation: false });
    expect(health(3).timesNotSynced).to.be.at.least(2);
  });

  it('a node whose statements answer 1047 is left out, and checked before it serves again', async function () {
    this.timeout(120_000);
    // Open connections to every node, idle in the pools.
    expect(new Set(await servedBy(6))).to.deep.equal(new Set(['node1', 'node2', 'node3']));
    await onNode(2, (c) => c.query("SET GLOBAL wsrep_reject_queries = 'ALL'"), false);
    // The idle connections to node 2 are handed out unchecked; their statements answer 1047 (a
    // statement that reads a table: a bare SELECT or SET is served even by a node that is not ready).
    const held = await Promise.all(Array.from({ length: 6 }, () => take()));
    const answers = await Promise.all(
      held.map((c) =>
        ask(c, 'SELECT COUNT(*) AS n FROM schema_migrations').then(
          () => 'ok',
          (err: { errno?: number }) => err.errno,
        ),
      ),
    );
    held.forEach((c) => c.release());
    expect(answers).to.include(1047);
    expect(health(2).reason).to.match(/^1047/);
    expect(await servedBy(6)).to.not.include('node2');

    await onNode(2, (c) => c.query("SET GLOBAL wsrep_reject_queries = 'NONE'"), false);
    await sleep(8 * RETRY_MS + 50);
    expect(await servedBy(6)).to.include('node2');
    expect(health(2).probation).to.equal(false);
  });
});
