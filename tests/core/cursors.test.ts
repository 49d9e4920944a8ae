import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeCursor, encodeCursor, sqlCursorBinding, sqlListOf, typedSort } from '../../src/core/pagination';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** The cursor's values replaced, its MAC kept. */
const withValues = (cursor: string, values: unknown) => `${b64(values)}.${cursor.split('.')[1]}`;

/*
 * SPEC §0: cursors are opaque, validated and bound to the list they came from (core/pagination.ts).
 * The crafted cursors of issue 12 (`[1e309,1]`, `[[1,2],1]`) used to reach SQL and answer 500.
 */
describe('List cursors: signed, bound to the list and its filters, typed', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant({ filiais: 1 });
    other = await createTestTenant({ filiais: 1 });
    for (let i = 1; i <= 5; i++) {
      await makeProduct(t, { code: `C${i}`, name: `Cursor product ${i}` });
      await makeProduct(other, { code: `C${i}`, name: `Cursor product ${i}` });
    }
  });
  const products = (tenant: TestTenant, query: Record<string, unknown>) =>
    api().get('/api/catalog/products').query(query).set(tenant.headers());

  it('crafted cursors → 400 INVALID_CURSOR before any SQL (the probe of issue 12)', async () => {
    for (const cursor of [
      'WzFlMzA5LDFd',
      b64([[1, 2], 1]),
      b64(['C1', 1]),
      'garbage',
      '.',
      'a.b.c',
      `${b64(['C1', 1])}.${'A'.repeat(22)}`,
    ]) {
      const res = await products(t, { cursor });
      expectProblem(res, 400, 'INVALID_CURSOR');
      expect(res.body.errors[0].path).to.equal('query.cursor');
    }
  });

  it('a real cursor pages on; its values changed under the same MAC → 400', async () => {
    const page1 = await products(t, { pageSize: 2 });
    const cursor: string = page1.body.pagination.nextCursor;
    expect(cursor).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const page2 = await products(t, { pageSize: 2, cursor });
    expect(page2.body.data.map((p: { code: string }) => p.code)).to.deep.equal(['C3', 'C4']);
    // eslint-disable-next-line no-loss-of-precision -- 1e309 is Infinity on purpose: a cursor value no sort key can hold
    const infinite = 1e309;
    for (const values of [
      [infinite, 1],
      [['C2'], 1],
      ['C2', 1.5],
      ['C2', '2'],
      ['C9', 1],
    ])
      expectProblem(await products(t, { pageSize: 2, cursor: withValues(cursor, values) }), 400, 'INVALID_CURSOR');
  });

  it('bound to the list, its filters and the tenant: elsewhere → 400', async () => {
    const cursor: string = (await products(t, { pageSize: 2 })).body.pagination.nextCursor;
    // Page size and includeTotal are not filters: the cursor goes on.
    expect((await products(t, { pageSize: 3, includeTotal: false, cursor })).status).to.equal(200);
    expectProblem(await products(t, { pageSize: 2, active: true, cursor }), 400, 'INVALID_CURSOR');
    expectProblem(await products(t, { pageSize: 2, search: 'cursor', cursor }), 400, 'INVALID_CURSOR');
    expectProblem(await products(other, { pageSize: 2, cursor }), 400, 'INVALID_CURSOR');
    expectProblem(await api().get('/api/catalog/customers').query({ cursor }).set(t.headers()), 400, 'INVALID_CURSOR');
  });

  it('union lists (sales-order text search) bind their cursors the same way', async () => {
    const customer = await makeCustomer(t, { name: 'Cursorina Union' });
    const product = await makeProduct(t);
    for (let i = 0; i < 3; i++) {
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ customerId: customer.hash, items: [{ productId: product.hash, quantity: 1 }] });
      expect(res.status).to.equal(201);
    }
    const list = (query: Record<string, unknown>) => api().get(`/api/sales-order/list/${t.filialHashes[0]}`).query(query).set(t.headers());
    const first = await list({ search: 'cursorina', pageSize: 2 });
    expect(first.body.data).to.have.length(2);
    const next = await list({ search: 'cursorina', pageSize: 2, cursor: first.body.pagination.nextCursor });
    expect(next.body.data).to.have.length(1);
    expectProblem(await list({ search: 'union', pageSize: 2, cursor: first.body.pagination.nextCursor }), 400, 'INVALID_CURSOR');
    expectProblem(
      // eslint-disable-next-line no-loss-of-precision -- Infinity on purpose (see above)
      await list({ search: 'cursorina', cursor: withValues(first.body.pagination.nextCursor, ['2026-01-01 00:00:00.000', 1e309]) }),
      400,
      'INVALID_CURSOR',
    );
  });

  it('value types come from the entity metadata; a signed cursor of the wrong types is still refused', () => {
    const qb = dataSource.manager.createQueryBuilder(SalesOrder, 'o').where('o.company_id = :c', { c: t.companyId });
    const list = sqlCursorBinding(
      [sqlListOf(qb)],
      typedSort(qb, [
        { column: 'o.created_at', direction: 'DESC' },
        { column: 'o.id', direction: 'DESC' },
      ]),
    );
    expect(list.types).to.deep.equal(['datetime', 'int']);
    expect(decodeCursor(encodeCursor(['2026-03-01 10:00:00.000', 7], list), list)).to.deep.equal(['2026-03-01 10:00:00.000', 7]);
    for (const values of [
      ['2026-02-30 10:00:00.000', 7],
      ['2026-03-01 25:00:00', 7],
      ['x', 7],
      ['2026-03-01', 7.5],
      // eslint-disable-next-line no-loss-of-precision -- -1e400 is -Infinity on purpose
      ['2026-03-01', -1e400],
      [null, 7],
      ['2026-03-01'],
    ]) {
      expect(() => decodeCursor(encodeCursor(values, list), list), JSON.stringify(values)).to.throw('Invalid cursor');
    }
  });
  it("a query builder is rendered once into the engine's SQL list: joins and their parameters in the FROM, the conditions in the WHERE; grouped builders are refused", async () => {
    const qb = dataSource.manager
      .createQueryBuilder(SalesOrder, 'o')
      .leftJoin('customer', 'c', 'c.id = o.customer_id AND c.company_id = :joined', { joined: t.companyId })
      .where('o.company_id = :c', { c: t.companyId })
      .andWhere('o.id IN (:...ids)', { ids: [1, 2, 3] });
    const list = sqlListOf(qb);
    expect(list.from).to.match(/sales_order.*LEFT JOIN.*customer/i);
    expect(list.from).to.not.match(/WHERE/i);
    expect(list.where).to.match(/company_id.*IN \(/);
    // Text and parameters are the builder's own rendering, split at its WHERE (SQLite inlines numbers).
    const [sql, params] = qb.clone().select('1').getQueryAndParameters();
    expect(`SELECT 1 FROM ${list.from} WHERE ${list.where}`).to.equal(sql);
    expect(list.params).to.deep.equal(params);
    // The rendered list runs as the builder would: the same rows.
    const rows: unknown[] = await dataSource.query(`SELECT o.id FROM ${list.from} WHERE ${list.where}`, list.params);
    expect(rows.length).to.equal((await qb.getMany()).length);
    const bare = sqlListOf(dataSource.manager.createQueryBuilder(SalesOrder, 'o'));
    expect(bare.where).to.equal('1 = 1');
    expect(bare.params).to.deep.equal([]);
    expect(() => sqlListOf(dataSource.manager.createQueryBuilder(SalesOrder, 'o').groupBy('o.status'))).to.throw(/grouped/);
  });
});
