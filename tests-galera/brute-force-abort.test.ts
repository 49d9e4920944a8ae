import { expect } from 'chai';
import mysql from 'mysql2/promise';
import { inTransaction, NO_UNIT, readBatch } from '../src/core/db/transaction';
import { database, nodes, onNode, sleep } from './support';

/*
 * Why a transaction's statements go one per round trip on Galera (batching-query-runner.ts): a
 * replicated write that aborts a node's local transaction (brute-force abort) in the middle of a
 * multi-statement query. MariaDB rolls the transaction back but runs the query's remaining
 * statements in autocommit mode and answers no error; the service must instead see the abort and
 * run its unit of work again.
 */
describe('Galera: a replicated write aborts a transaction in the middle of a batch', () => {
  before(async () => {
    await onNode(1, (c) =>
      c.query(
        'CREATE TABLE IF NOT EXISTS bfa_row (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB; ' +
          'CREATE TABLE IF NOT EXISTS bfa_log (id INT AUTO_INCREMENT PRIMARY KEY, attempt INT NOT NULL, note VARCHAR(20) NOT NULL) ENGINE=InnoDB',
      ),
    );
  });
  beforeEach(async () => {
    await onNode(1, (c) => c.query('REPLACE INTO bfa_row VALUES (1, 0); DELETE FROM bfa_log'));
  });
  after(async () => {
    await onNode(1, (c) => c.query('DROP TABLE IF EXISTS bfa_row, bfa_log'));
  });

  const state = () =>
    onNode(1, async (c) => {
      const [[row]] = (await c.query('SELECT v FROM bfa_row WHERE id = 1')) as unknown as [{ v: number }[]];
      const [log] = (await c.query('SELECT attempt, note FROM bfa_log ORDER BY id')) as unknown as [{ attempt: number; note: string }[]];
      return { v: row.v, log: log.map((l) => `${l.attempt}:${l.note}`) };
    });

  it('MariaDB: the rest of the multi-statement query commits on its own and no error is answered', async () => {
    const connect = (n: number) =>
      mysql.createConnection({ host: nodes[n - 1].host, port: nodes[n - 1].port, user: 'root', database, multipleStatements: true });
    const [a, b] = await Promise.all([connect(1), connect(2)]);
    try {
      const batch = a
        .query(
          "START TRANSACTION; UPDATE bfa_row SET v = v + 1 WHERE id = 1; DO SLEEP(1); INSERT INTO bfa_log (attempt, note) VALUES (1, 'x'); INSERT INTO bfa_log (attempt, note) VALUES (1, 'y')",
        )
        .then(
          () => 'no error',
          (err: { code?: string }) => err.code,
        );
      await sleep(300);
      await b.query('UPDATE bfa_row SET v = v + 100 WHERE id = 1');
      const answer = await batch;
      const [[open]] = (await a.query('SELECT @@in_transaction AS t')) as unknown as [{ t: number }[]];
      await a.query('COMMIT');
      // The UPDATE is gone with the aborted transaction; the INSERTs after it committed alone (on
      // MariaDB 10.11.19 the first of them even twice: x, x, y).
      const { v, log } = await state();
      expect({ answer, inTransaction: Number(open.t), v }).to.deep.equal({ answer: 'no error', inTransaction: 0, v: 100 });
      expect(log, 'statements after the abort committed on their own').to.include.members(['1:x', '1:y']);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('the service: the aborted unit of work answers 1213, runs again, and commits once, whole', async () => {
    let attempt = 0;
    await inTransaction(NO_UNIT, async (em) => {
      attempt++;
      const [[{ node }]] = (await readBatch(em, [{ sql: 'SELECT @@wsrep_node_name AS node' }])) as { node: string }[][];
      await em.query('UPDATE bfa_row SET v = v + 1 WHERE id = 1');
      const other = node === 'node1' ? 2 : 1;
      const conflict =
        attempt === 1
          ? sleep(300).then(() => onNode(other, (c) => c.query('UPDATE bfa_row SET v = v + 100 WHERE id = 1'), false))
          : Promise.resolve();
      try {
        const log = 'INSERT INTO bfa_log (attempt, note) VALUES (?, ?)';
        await readBatch(em, [{ sql: 'DO SLEEP(1)' }, { sql: log, params: [attempt, 'x'] }, { sql: log, params: [attempt, 'y'] }]);
      } finally {
        await conflict;
      }
    });
    expect({ attempts: attempt, ...(await state()) }).to.deep.equal({ attempts: 2, v: 101, log: ['2:x', '2:y'] });
  });
});
