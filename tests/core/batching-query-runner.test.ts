import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { DeferredWriteFailed, isUniqueViolation } from '../../src/core/db/db-errors';
import { isMysql } from '../../src/core/db/engine';
import { deferWrite, inTransaction, NO_UNIT, readBatch } from '../../src/core/db/transaction';
import { createTestTenant } from '../support/tenant';
import { recordStatements } from '../support/statements';

/*
 * The batching of a transaction's statements (core/db/batching-query-runner.ts on MySQL; on SQLite every
 * statement runs as issued, with the same outcomes): deferred writes are seen by later reads, their
 * checks and their failures still roll the whole transaction back.
 */
describe('Transactions: deferred writes and batched reads', () => {
  const valueOf = async (companyId: number, name: string): Promise<number | null> => {
    const rows: { value: number | string }[] = await dataSource.query('SELECT value FROM sequence WHERE company_id = ? AND name = ?', [
      companyId,
      name,
    ]);
    return rows.length ? Number(rows[0].value) : null;
  };
  const insert = (companyId: number, name: string, value: number) => ({
    label: `counter ${name}`,
    sql: 'INSERT INTO sequence (company_id, name, value) VALUES (?, ?, ?)',
    params: [companyId, name, value],
  });

  it('a later read sees the writes deferred before it, and the commit keeps them', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const seen = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-a', 5));
      await deferWrite(em, {
        label: 'bump',
        sql: 'UPDATE sequence SET value = value + 1 WHERE company_id = ? AND name = ?',
        params: [companyId, 'batch-a'],
      });
      const [rows] = (await readBatch(em, [
        { sql: 'SELECT value FROM sequence WHERE company_id = ? AND name = ?', params: [companyId, 'batch-a'] },
      ])) as { value: number | string }[][];
      return Number(rows[0].value);
    });
    expect(seen).to.equal(6);
    expect(await valueOf(companyId, 'batch-a')).to.equal(6);
  });

  it('a failed check of a deferred write rolls back everything the transaction wrote', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const failure = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-b', 1));
      await deferWrite(em, {
        label: 'set a missing counter',
        sql: 'UPDATE sequence SET value = 9 WHERE company_id = ? AND name = ?',
        params: [companyId, 'no-such-counter'],
        check: (affected) => {
          if (!affected) throw new Error('nothing updated');
        },
      });
    }).catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error).with.property('message', 'nothing updated');
    expect(await valueOf(companyId, 'batch-b')).to.equal(null);
  });

  it('a guarded deferred write (expect) is enforced by the database: its error, nothing after it runs, and no round trip of its own before the COMMIT', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    await inTransaction(NO_UNIT, async (em) => deferWrite(em, insert(companyId, 'guarded', 1)));
    const bumpIf = (value: number) => ({
      label: 'bump the counter if it still holds the value read',
      sql: 'UPDATE sequence SET value = value + 1 WHERE company_id = ? AND name = ? AND value = ?',
      params: [companyId, 'guarded', value],
      expect: { rows: 1, error: () => new Error('the counter moved') },
    });
    // Met: the update, the write after it and the COMMIT in one round trip on MySQL.
    const { roundTrips } = await recordStatements(() =>
      inTransaction(NO_UNIT, async (em) => {
        await deferWrite(em, bumpIf(1));
        await deferWrite(em, insert(companyId, 'after-guard', 7));
      }),
    );
    if (isMysql) expect(roundTrips.map((t) => t.length)).to.deep.equal([5]); // START, UPDATE, its guard, INSERT, COMMIT
    expect(await valueOf(companyId, 'guarded')).to.equal(2);
    expect(await valueOf(companyId, 'after-guard')).to.equal(7);
    // Not met (the value moved to 2): the guard's error, the write queued after it never lands.
    const failure = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'before-guard', 3));
      await deferWrite(em, bumpIf(1));
      await deferWrite(em, insert(companyId, 'after-failed-guard', 8));
    }).catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error).with.property('message', 'the counter moved');
    expect(await valueOf(companyId, 'guarded')).to.equal(2);
    expect(await valueOf(companyId, 'before-guard')).to.equal(null);
    expect(await valueOf(companyId, 'after-failed-guard')).to.equal(null);
  });

  it('a deferred write the database refuses fails the transaction, nothing written', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const failure = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-c', 1));
      await deferWrite(em, insert(companyId, 'batch-c', 2)); // same (company, name): unique violation
    }).catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(await valueOf(companyId, 'batch-c')).to.equal(null);
  });

  it("a deferred write that fails in a later batch is a DeferredWriteFailed, not that statement's error", async function () {
    // SQLite runs a deferred write as it is issued: its error surfaces at its own call.
    if (!isMysql) this.skip();
    const { companyId } = await createTestTenant({ filiais: 1 });
    await inTransaction(NO_UNIT, async (em) => void (await deferWrite(em, insert(companyId, 'batch-f', 1))));
    let swallowed = false;
    const failure = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-f', 2)); // duplicate (company, name)
      try {
        await em.query('INSERT INTO sequence (company_id, name, value) VALUES (?, ?, ?)', [companyId, 'batch-g', 1]);
      } catch (err) {
        // The shape of a caller handling its own duplicate: it must not see the deferred one.
        if (!isUniqueViolation(err)) throw err;
        swallowed = true;
      }
    }).catch((err: unknown) => err);
    expect(swallowed).to.equal(false);
    expect(failure).to.be.instanceOf(DeferredWriteFailed).with.property('label', 'counter batch-f');
    expect(isUniqueViolation((failure as DeferredWriteFailed).cause)).to.equal(true);
    expect(await valueOf(companyId, 'batch-f')).to.equal(1);
    expect(await valueOf(companyId, 'batch-g')).to.equal(null);
  });

  it("a statement's own unique violation stays its own when deferred writes share its round trip", async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    await inTransaction(NO_UNIT, async (em) => void (await deferWrite(em, insert(companyId, 'batch-h', 1))));
    const handled = await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-i', 7));
      try {
        await em.query('INSERT INTO sequence (company_id, name, value) VALUES (?, ?, ?)', [companyId, 'batch-h', 2]);
        return false;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        return true;
      }
    });
    expect(handled).to.equal(true);
    expect(await valueOf(companyId, 'batch-i')).to.equal(7);
  });

  it("TypeORM's transaction events reach subscribers on both engines", async () => {
    const seen: string[] = [];
    const subscriber = {
      afterTransactionStart: () => void seen.push('start'),
      beforeTransactionCommit: () => void seen.push('before commit'),
      afterTransactionCommit: () => void seen.push('after commit'),
      afterTransactionRollback: () => void seen.push('rollback'),
    };
    dataSource.subscribers.push(subscriber as never);
    try {
      const { companyId } = await createTestTenant({ filiais: 1 });
      seen.length = 0;
      await inTransaction(NO_UNIT, async (em) => void (await deferWrite(em, insert(companyId, 'batch-j', 1))));
      expect(seen).to.deep.equal(['start', 'before commit', 'after commit']);
      seen.length = 0;
      await inTransaction(NO_UNIT, async () => {
        throw new Error('refused');
      }).catch(() => undefined);
      expect(seen).to.deep.equal(['start', 'rollback']);
    } finally {
      dataSource.subscribers.splice(dataSource.subscribers.indexOf(subscriber as never), 1);
    }
  });

  it('only the batching connections take several statements in one round trip', async function () {
    if (!isMysql) this.skip(); // SQLite has no multi-statement queries in this service
    const failure = await dataSource.query('SELECT 1; SELECT 2').catch((err: { code?: string }) => err);
    expect(failure).to.have.property('code', 'ER_PARSE_ERROR');
    const [one, two] = (await readBatch(dataSource.manager, [{ sql: 'SELECT 1 AS n' }, { sql: 'SELECT 2 AS n' }])) as { n: number }[][];
    expect([Number(one[0].n), Number(two[0].n)]).to.deep.equal([1, 2]);
  });

  it('reads issued side by side each get their own result', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    await inTransaction(NO_UNIT, async (em) => {
      await deferWrite(em, insert(companyId, 'batch-d', 1));
      await deferWrite(em, insert(companyId, 'batch-e', 2));
    });
    const read = (name: string) => async () => {
      const [rows] = (await readBatch(dataSource.manager, [
        { sql: 'SELECT value FROM sequence WHERE company_id = ? AND name = ?', params: [companyId, name] },
      ])) as { value: number | string }[][];
      return Number(rows[0].value);
    };
    const inside = await inTransaction(NO_UNIT, async (em) => {
      const one = (name: string) =>
        em
          .query('SELECT value FROM sequence WHERE company_id = ? AND name = ?', [companyId, name])
          .then((r: { value: number | string }[]) => Number(r[0].value));
      return Promise.all([one('batch-d'), one('batch-e'), one('batch-d')]);
    });
    expect(inside).to.deep.equal([1, 2, 1]);
    expect(await Promise.all([read('batch-e')(), read('batch-d')()])).to.deep.equal([2, 1]);
  });
});
