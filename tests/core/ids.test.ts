import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { insertStatement } from '../../src/core/db/sql';
import { sqlTime } from '../../src/core/db/sql-time';
import { allocateIds, resetIdBlocks } from '../../src/core/sequence/ids';
import { Fulfillment } from '../../src/modules/sales-order/entities/fulfillment.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { createTestTenant, TestTenant } from '../support/tenant';

/* Ids taken before the INSERT (core/sequence/ids.ts), on both engines. */
describe('Ids taken before the INSERT', () => {
  let t: TestTenant;

  before(async () => {
    t = await createTestTenant();
  });

  it('hands out unique ids, increasing within each call, to callers at the same time', async () => {
    const calls = await Promise.all(Array.from({ length: 40 }, (_v, i) => allocateIds(dataSource.manager, Fulfillment, 1 + (i % 4))));
    const all = calls.flat();
    expect(new Set(all).size).to.equal(all.length);
    for (const ids of calls) ids.forEach((id, i) => i && expect(id).to.equal(ids[i - 1] + 1));
  });

  it('starts above rows written before the process first allocated (a restore, a bulk load)', async () => {
    const [{ m }] = (await dataSource.query('SELECT COALESCE(MAX(id), 0) AS m FROM fulfillment')) as { m: number | string }[];
    const written = Number(m) + 5000;
    await dataSource.query(
      'INSERT INTO fulfillment (id, company_id, filial_id, sales_order_id, actor, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [written, t.companyId, t.filialIds[0], 0, 'test', sqlTime(new Date())],
    );
    resetIdBlocks();
    const [id] = await allocateIds(dataSource.manager, Fulfillment, 1);
    expect(id).to.be.greaterThan(written);
  });

  it('refuses an INSERT into those tables without its id, and ids for any other table', async () => {
    expect(() =>
      insertStatement(dataSource.manager, Fulfillment, [
        { companyId: t.companyId, filialId: t.filialIds[0], salesOrderId: 1, actor: 'x', createdAt: new Date() },
      ]),
    ).to.throw(/without its id/);
    let refused: unknown;
    await allocateIds(dataSource.manager, Product, 1).catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/not allocated before the INSERT/);
  });
});
