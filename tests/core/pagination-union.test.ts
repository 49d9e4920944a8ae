import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { COUNT_CAP, SqlList, TypedSortKey } from '../../src/core/pagination';
import { paginateUnion, unionCountSql } from '../../src/core/pagination-union';

/*
 * The capped count of a union list (core/pagination-union.ts): a branch beyond the cap caps the total
 * by itself; otherwise the branches' ids are united, so rows two branches share count once.
 */
describe('Union lists: the capped count', () => {
  const TABLE = 'union_count_probe';
  const ROWS = COUNT_CAP + 50;
  const branch = (where: string, ...params: unknown[]): SqlList => ({ from: `${TABLE} p`, where, params });
  const count = async (...branches: SqlList[]) => {
    const { sql, params } = unionCountSql(branches, 'p.id');
    const [{ n }] = await dataSource.query(sql, params);
    return Number(n);
  };

  before(async function () {
    this.timeout(60_000);
    await dataSource.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await dataSource.query(`CREATE TABLE ${TABLE} (id INT NOT NULL PRIMARY KEY, grp INT NOT NULL)`);
    for (let from = 1; from <= ROWS; from += 500) {
      const ids = Array.from({ length: Math.min(500, ROWS - from + 1) }, (_v, i) => from + i);
      await dataSource.query(
        `INSERT INTO ${TABLE} (id, grp) VALUES ${ids.map(() => '(?, ?)').join(', ')}`,
        ids.flatMap((id) => [id, id % 7]),
      );
    }
  });
  after(async () => {
    await dataSource.query(`DROP TABLE IF EXISTS ${TABLE}`);
  });

  it('overlapping branches under the cap: their union, each shared row once', async () => {
    expect(await count(branch('p.id <= ?', 6000), branch('p.id > ? AND p.id <= ?', 4000, 9000))).to.equal(9000);
    expect(await count(branch('p.id <= ?', 10), branch('p.grp = ? AND p.id <= ?', 3, 20), branch('p.id = ?', -1))).to.equal(11);
    expect(await count(branch('p.id = ?', -1), branch('p.id < ?', 0))).to.equal(0);
  });

  it('one branch beyond the cap caps the total; branches each within it may still pass it together', async () => {
    expect(await count(branch('p.id <= ?', 5), branch('p.id > ?', 0))).to.equal(COUNT_CAP + 1);
    // Exactly COUNT_CAP rows in a branch is not beyond the cap: the union decides.
    expect(await count(branch('p.id <= ?', COUNT_CAP), branch('p.id <= ?', 3))).to.equal(COUNT_CAP);
    expect(await count(branch('p.id <= ?', COUNT_CAP), branch('p.id > ? AND p.id <= ?', COUNT_CAP - 1, COUNT_CAP + 1))).to.equal(
      COUNT_CAP + 1,
    );
  });

  it('a branch of many index ranges is not walked ahead: the union counts it, capped all the same', async () => {
    const many = (where: string, ...params: unknown[]) => ({ ...branch(where, ...params), ranges: 250 });
    expect(unionCountSql([many('p.id > ?', 0), many('p.id <= ?', 5)], 'p.id').sql).not.to.match(/OFFSET/);
    expect(await count(many('p.id > ?', 0), many('p.id <= ?', 5))).to.equal(COUNT_CAP + 1);
    expect(await count(many('p.id > ?', 0), branch('p.id <= ?', 5))).to.equal(COUNT_CAP + 1);
    expect(await count(many('p.id <= ?', 6000), many('p.id > ? AND p.id <= ?', 4000, 9000))).to.equal(9000);
    // Mixed: the few-range branch is walked (and caps), the other one waits for the union.
    const mixed = unionCountSql([many('p.id <= ?', 5), branch('p.grp = ? OR p.grp <> ?', 1, 1)], 'p.id');
    expect(mixed.sql.match(/OFFSET/g)).to.have.length(1);
    expect(Number((await dataSource.query(mixed.sql, mixed.params))[0].n)).to.equal(COUNT_CAP + 1);
    expect(await count(many('p.id <= ?', 5), branch('p.id > ? AND p.id <= ?', 3, 8))).to.equal(8);
  });

  it('paginateUnion reports the capped total with the page', async () => {
    const sort: TypedSortKey[] = [{ column: 'p.id', direction: 'DESC', type: 'int' }];
    const run = (statements: { sql: string; params: unknown[] }[]) => Promise.all(statements.map((s) => dataSource.query(s.sql, s.params)));
    const load = async (ids: number[]) => ids;
    const capped = await paginateUnion(
      [branch('p.grp = ?', 1), branch('p.id > ?', 0)],
      sort,
      { page: 1, pageSize: 3 },
      load,
      (id) => id,
      run,
    );
    expect(capped.data).to.deep.equal([ROWS, ROWS - 1, ROWS - 2]);
    expect(capped.pagination).to.include({ total: COUNT_CAP, totalCapped: true, hasMore: true });
    const exact = await paginateUnion(
      [branch('p.id <= ?', 6000), branch('p.id > ? AND p.id <= ?', 4000, 9000)],
      sort,
      { page: 2, pageSize: 3 },
      load,
      (id) => id,
      run,
    );
    expect(exact.data).to.deep.equal([8997, 8996, 8995]);
    expect(exact.pagination).to.include({ total: 9000, totalPages: 3000, hasMore: true });
    expect(exact.pagination.totalCapped).to.equal(undefined);
  });
});
