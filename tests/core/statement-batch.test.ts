import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { deferWrite, inTransaction, readBatch } from '../../src/core/db/transaction';
import { createTestTenant } from '../support/tenant';

/*
 * The batching of a transaction's statements (core/db/statement-batch.ts on MySQL; on SQLite every
 * statement runs as issued, with the same outcomes): deferred writes are seen by later reads, their
 * checks and their failures still roll the whole transaction back.
 */
describe('Transactions: deferred writes and batched reads', () => {
  const valueOf = async (companyId: number, name: string): Promise<number | null> => {
    const rows: { value: number | string }[] = await dataSource.query('SELECT value FROM sequence WHERE company_id = ? AND name = ?', [companyId, name]);
    return rows.length ? Number(rows[0].value) : null;
  };
  const insert = (companyId: number, name: string, value: number) => ({ sql: 'INSERT INTO sequence (company_id, name, value) VALUES (?, ?, ?)', params: [companyId, name, value] });

  it('a later read sees the writes deferred before it, and the commit keeps them', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const seen = await inTransaction(async (em) => {
      await deferWrite(em, insert(companyId, 'batch-a', 5));
      await deferWrite(em, { sql: 'UPDATE sequence SET value = value + 1 WHERE company_id = ? AND name = ?', params: [companyId, 'batch-a'] });
      const [rows] = (await readBatch(em, [{ sql: 'SELECT value FROM sequence WHERE company_id = ? AND name = ?', params: [companyId, 'batch-a'] }])) as { value: number | string }[][];
      return Number(rows[0].value);
    });
    expect(seen).to.equal(6);
    expect(await valueOf(companyId, 'batch-a')).to.equal(6);
  });

  it('a failed check of a deferred write rolls back everything the transaction wrote', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const failure = await inTransaction(async (em) => {
      await deferWrite(em, insert(companyId, 'batch-b', 1));
      await deferWrite(em, {
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

  it('a deferred write the database refuses fails the transaction, nothing written', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    const failure = await inTransaction(async (em) => {
      await deferWrite(em, insert(companyId, 'batch-c', 1));
      await deferWrite(em, insert(companyId, 'batch-c', 2)); // same (company, name): unique violation
    }).catch((err: Error) => err);
    expect(failure).to.be.instanceOf(Error);
    expect(await valueOf(companyId, 'batch-c')).to.equal(null);
  });

  it('reads issued side by side each get their own result', async () => {
    const { companyId } = await createTestTenant({ filiais: 1 });
    await inTransaction(async (em) => {
      await deferWrite(em, insert(companyId, 'batch-d', 1));
      await deferWrite(em, insert(companyId, 'batch-e', 2));
    });
    const read = (name: string) => async () => {
      const [rows] = (await readBatch(dataSource.manager, [{ sql: 'SELECT value FROM sequence WHERE company_id = ? AND name = ?', params: [companyId, name] }])) as { value: number | string }[][];
      return Number(rows[0].value);
    };
    const inside = await inTransaction(async (em) => {
      const one = (name: string) => em.query('SELECT value FROM sequence WHERE company_id = ? AND name = ?', [companyId, name]).then((r: { value: number | string }[]) => Number(r[0].value));
      return Promise.all([one('batch-d'), one('batch-e'), one('batch-d')]);
    });
    expect(inside).to.deep.equal([1, 2, 1]);
    expect(await Promise.all([read('batch-e')(), read('batch-d')()])).to.deep.equal([2, 1]);
  });
});
