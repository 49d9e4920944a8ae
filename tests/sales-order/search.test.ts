import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { readBatch } from '../../src/core/db/transaction';
import { normalizeText } from '../../src/core/br-documents';
import { encodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { findCustomerAndSellerIds, findCustomerIds, findPartyIds, indexCustomers } from '../../src/modules/catalog/party-search-index';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { isMysql } from '../../src/core/db/engine';
import { sqlPageQuery } from '../../src/core/pagination';
import { baseListSql, whereCustomerInSql } from '../../src/modules/sales-order/sales-order.repository';
import { CUSTOMER_SEARCH_CAP, codeRanges } from '../../src/modules/sales-order/services/query.service';
import { api } from '../support/api';
import { makeCustomer, makeProduct, makeSeller } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { insertOrders, setCreatedAt } from './support';

describe('Sales orders: list, search and pagination', () => {
  let t: TestTenant;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  const list = (query: Record<string, unknown> = {}, headers = () => t.headers()) =>
    api().get(`/api/sales-order/list/${t.filialHashes[0]}`).query(query).set(headers());
  const codes = (res: { body: { data: { code: number }[] } }) => res.body.data.map((o) => o.code);

  before(async () => {
    t = await createTestTenant();
    product = await makeProduct(t);
  });

  describe('numeric term: code equal or prefix', () => {
    before(async () => {
      await insertOrders(
        t,
        product.id,
        [12, 13, 112, 120, 125, 129, 130, 1200, 1234, 1299, 1300, 2120, 12000, 120001].map((code) => ({ code })),
      );
    });

    it('"12" finds 12, 120–129, 1200–1299, 12000… and nothing else, newest code first', async () => {
      const res = await list({ search: '12', pageSize: 100 });
      expect(res.status).to.equal(200);
      expect(codes(res)).to.deep.equal([120001, 12000, 1299, 1234, 1200, 129, 125, 120, 12]);
      expect(res.body.pagination).to.include({ total: 9, totalPages: 1, hasMore: false });
    });

    it('an exact long code finds just that order; leading zeros mean the number itself', async () => {
      expect(codes(await list({ search: '1234' }))).to.deep.equal([1234]);
      expect(codes(await list({ search: '0012' }))).to.deep.equal([12]);
      expect(codes(await list({ search: '0' }))).to.deep.equal([]);
      expect(codes(await list({ search: '99' }))).to.deep.equal([]);
    });

    it('the prefix becomes a few code ranges on the index (not a LIKE over every row)', () => {
      expect(codeRanges('12')!.slice(0, 4)).to.deep.equal([
        [12, 12],
        [120, 129],
        [1200, 1299],
        [12000, 12999],
      ]);
      expect(codeRanges('2')!.at(-1)).to.deep.equal([2_000_000_000, 2_147_483_647]);
      expect(codeRanges('maria')).to.equal(null);
      expect(codeRanges('12345678901')).to.equal(null);
    });

    it('pages and cursor over a numeric search', async () => {
      const p1 = await list({ search: '12', pageSize: 4 });
      expect(codes(p1)).to.deep.equal([120001, 12000, 1299, 1234]);
      expect(p1.body.pagination).to.include({ page: 1, total: 9, totalPages: 3, hasMore: true });
      const p3 = await list({ search: '12', pageSize: 4, page: 3 });
      expect(codes(p3)).to.deep.equal([12]);
      expect(p3.body.pagination.hasMore).to.equal(false);
      const next = await list({ search: '12', pageSize: 4, cursor: p1.body.pagination.nextCursor });
      expect(codes(next)).to.deep.equal([1200, 129, 125, 120]);
      const asc = await list({ search: '12', pageSize: 3, sort: 'code', includeTotal: false });
      expect(codes(asc)).to.deep.equal([12, 120, 125]);
      expect(asc.body.pagination.total).to.equal(null);
    });
  });

  describe('text term: customers (capped), sellers, order alias', () => {
    let tt: TestTenant;
    let p: Awaited<ReturnType<typeof makeProduct>>;
    const search = (q: Record<string, unknown>) => api().get(`/api/sales-order/${tt.filialHashes[0]}`).query(q).set(tt.headers());

    before(async () => {
      tt = await createTestTenant();
      p = await makeProduct(tt);
    });

    it('a customer name (or trade name, or document) finds their orders', async () => {
      const maria = await makeCustomer(tt, {
        name: 'Maria Aparecida',
        tradeName: 'Padaria Central',
        searchTradeName: normalizeText('Padaria Central'),
        document: '12345678909',
      });
      const mario = await makeCustomer(tt, { name: 'Mário Lopes' });
      const joao = await makeCustomer(tt, { name: 'João Maria' });
      const [m1, m2, o1, j1] = await insertOrders(tt, p.id, [
        { customerId: maria.id },
        { customerId: maria.id },
        { customerId: mario.id },
        { customerId: joao.id },
      ]);
      const ids = (res: any) => res.body.data.map((o: any) => o.id).sort();
      const hash = (o: SalesOrder) => encodeId('sales-order', o.id);
      // Any word of the name: "maria" is the first word of one customer and the last of another.
      expect(ids(await search({ search: 'maria' }))).to.deep.equal([hash(m1), hash(m2), hash(j1)].sort());
      expect(ids(await search({ search: 'MARI' }))).to.deep.equal([hash(m1), hash(m2), hash(o1), hash(j1)].sort());
      expect(ids(await search({ search: 'padaria' }))).to.deep.equal([hash(m1), hash(m2)].sort());
      expect(ids(await search({ search: 'central' }))).to.deep.equal([hash(m1), hash(m2)].sort());
      expect(ids(await search({ search: 'aparec' }))).to.deep.equal([hash(m1), hash(m2)].sort());
      expect(ids(await search({ search: 'lopes' }))).to.deep.equal([hash(o1)]);
      expect(ids(await search({ search: '123.456' }))).to.deep.equal([hash(m1), hash(m2)].sort());
      expect(ids(await search({ search: 'joão' }))).to.deep.equal([hash(j1)]);
      // Every word of the term must start some word of the party, in any order.
      expect(ids(await search({ search: 'maria jo' }))).to.deep.equal([hash(j1)]);
      expect(ids(await search({ search: 'mar lop' }))).to.deep.equal([hash(o1)]);
      expect(ids(await search({ search: 'ria' }))).to.deep.equal([]);
      expect((await search({ search: 'aparecida' })).body.data[0]).to.include({ customerName: 'Maria Aparecida' });
    });

    it('a seller name or alias finds their orders; an order alias finds it', async () => {
      const seller = await makeSeller(tt, { name: 'Carlos Pereira', alias: 'Carlão' });
      const [a, b] = await insertOrders(tt, p.id, [
        { sellerId: seller.id },
        { sellerId: seller.id, alias: 'Obra Ipanema', searchAlias: 'OBRA IPANEMA' },
      ]);
      const [c] = await insertOrders(tt, p.id, [{ alias: 'Obra Leblon', searchAlias: 'OBRA LEBLON' }]);
      const ids = (res: any) => res.body.data.map((o: any) => o.id).sort();
      const hash = (o: SalesOrder) => encodeId('sales-order', o.id);
      expect(ids(await search({ search: 'carlao' }))).to.deep.equal([hash(a), hash(b)].sort());
      expect(ids(await search({ search: 'pereira' }))).to.deep.equal([hash(a), hash(b)].sort());
      expect(ids(await search({ search: 'carlos per' }))).to.deep.equal([hash(a), hash(b)].sort());
      expect(ids(await search({ search: 'reira' }))).to.deep.equal([]);
      const obra = await search({ search: 'obra' });
      expect(ids(obra)).to.deep.equal([hash(b), hash(c)].sort());
      expect(obra.body.pagination.total).to.equal(2);
      expect(ids(await search({ search: 'obra leb' }))).to.deep.equal([hash(c)]);
    });

    it('an order matched by customer and by seller at once is listed once', async () => {
      const customer = await makeCustomer(tt, { name: 'Zuleica Duarte' });
      const seller = await makeSeller(tt, { name: 'Zuleica Vendas' });
      const [both, onlyCustomer] = await insertOrders(tt, p.id, [
        { customerId: customer.id, sellerId: seller.id },
        { customerId: customer.id },
      ]);
      const res = await search({ search: 'zuleica', pageSize: 1 });
      expect(res.body.pagination).to.include({ total: 2, totalPages: 2, hasMore: true });
      expect(res.body.data.map((o: any) => o.code)).to.deep.equal([onlyCustomer.code]);
      const page2 = await search({ search: 'zuleica', pageSize: 1, page: 2 });
      expect(page2.body.data.map((o: any) => o.code)).to.deep.equal([both.code]);
      const byCursor = await search({ search: 'zuleica', pageSize: 1, cursor: res.body.pagination.nextCursor });
      expect(byCursor.body.data.map((o: any) => o.code)).to.deep.equal([both.code]);
      expect(byCursor.body.pagination.hasMore).to.equal(false);
    });

    it(`300 matching customers → only the first ${CUSTOMER_SEARCH_CAP} (in index order: word, then id) are resolved`, async () => {
      const rows = Array.from({ length: 300 }, (_v, i) => {
        const name = `Xavante ${String(i + 1).padStart(3, '0')}`;
        return {
          companyId: tt.companyId,
          name,
          searchName: normalizeText(name),
          tradeName: null,
          searchTradeName: null,
          document: null,
          email: null,
          phone: null,
          active: true,
        };
      });
      for (let i = 0; i < rows.length; i += 100) await dataSource.manager.insert(Customer, rows.slice(i, i + 100));
      const customers = await dataSource.manager.find(Customer, { where: { companyId: tt.companyId }, order: { searchName: 'ASC' } });
      await indexCustomers(dataSource.manager, tt.companyId, customers);
      const xavantes = customers.filter((c) => c.name.startsWith('Xavante'));
      const orders = await insertOrders(
        tt,
        p.id,
        xavantes.map((c) => ({ customerId: c.id })),
      );
      const res = await search({ search: 'xavante', pageSize: 100 });
      expect(res.body.pagination.total).to.equal(250);
      const all = [];
      for (let page = 1; page <= 3; page++) all.push(...(await search({ search: 'xavante', pageSize: 100, page })).body.data);
      expect(all).to.have.length(250);
      const names = new Set(all.map((o: any) => o.customerName));
      expect(names.has('Xavante 250')).to.equal(true);
      expect(names.has('Xavante 251')).to.equal(false);
      // The orders of the customers beyond the cap still exist and are found by a narrower term.
      expect(orders).to.have.length(300);
      expect((await search({ search: 'xavante 29' })).body.data.map((o: any) => o.customerName).sort()).to.include('Xavante 299');
    });

    it("MariaDB: the customers' branch reads the customer index, whatever the page order", async function () {
      if (!isMysql) this.skip();
      const customers = Array.from({ length: CUSTOMER_SEARCH_CAP }, (_v, i) => i + 1);
      const branch = whereCustomerInSql(baseListSql(tt.companyId, { filialId: tt.filialIds[0] }), customers);
      for (const column of ['o.code', 'o.created_at']) {
        const page = sqlPageQuery(
          branch,
          [
            { column, direction: 'DESC' },
            { column: 'o.id', direction: 'DESC' },
          ],
          { page: 1, pageSize: 20 },
          null,
        );
        const plan: { key: string | null }[] = await dataSource.query(`EXPLAIN ${page.sql}`, page.params);
        expect(plan.map((r) => r.key)).to.deep.equal(['ix_sales_order_filial_customer']);
      }
    });

    it('the list resolves customers and sellers in one batch: the same ids, in the same order, as findCustomerIds and findPartyIds', async () => {
      await makeCustomer(tt, { name: 'Xavier Doc', document: '98765432100' });
      await makeSeller(tt, { name: 'Xavante Vendedor', alias: 'XV' });
      for (const term of ['xavante', 'xavante 29', 'maria', 'mari jo', '987.654', '123', 'carlao', 'x', 'inexistente', '%', '']) {
        const batched = await findCustomerAndSellerIds(
          (statements) => readBatch(dataSource.manager, statements),
          tt.companyId,
          term,
          CUSTOMER_SEARCH_CAP,
          250,
        );
        expect(batched.customers, term).to.deep.equal(await findCustomerIds(dataSource.manager, tt.companyId, term, CUSTOMER_SEARCH_CAP));
        expect(batched.sellers, term).to.deep.equal(await findPartyIds(dataSource.manager, tt.companyId, 'SELLER', term, 250));
      }
      expect(
        (
          await findCustomerAndSellerIds(
            (statements) => readBatch(dataSource.manager, statements),
            tt.companyId,
            'xavante',
            CUSTOMER_SEARCH_CAP,
            250,
          )
        ).customers,
      ).to.have.length(250);
    });

    it('a term matching nothing → an empty page', async () => {
      const res = await search({ search: 'inexistente' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.pagination).to.include({ total: 0, hasMore: false });
    });
  });

  describe('filters', () => {
    let ft: TestTenant;
    before(async () => {
      ft = await createTestTenant();
    });

    it('status, type, customerId, sellerId and created dates (Brasília days)', async () => {
      const p = await makeProduct(ft);
      const c = await makeCustomer(ft);
      const s = await makeSeller(ft);
      const [open, fulfilled, quote, ofCustomer, ofSeller] = await insertOrders(ft, p.id, [
        {},
        { status: 'FULFILLED' },
        { type: 'QUOTE' },
        { customerId: c.id },
        { sellerId: s.id },
      ]);
      // 2026-03-10 01:00 UTC is still 2026-03-09 in Brasília.
      await setCreatedAt(open.id, new Date('2026-03-10T01:00:00Z'));
      await setCreatedAt(fulfilled.id, new Date('2026-03-10T12:00:00Z'));
      const q = (query: Record<string, unknown>) => api().get(`/api/sales-order/${ft.filialHashes[0]}`).query(query).set(ft.headers());
      expect(codes(await q({ status: 'FULFILLED' }))).to.deep.equal([fulfilled.code]);
      expect(codes(await q({ type: 'QUOTE' }))).to.deep.equal([quote.code]);
      expect(codes(await q({ customerId: c.hash }))).to.deep.equal([ofCustomer.code]);
      expect(codes(await q({ sellerId: s.hash }))).to.deep.equal([ofSeller.code]);
      expect(codes(await q({ createdFrom: '2026-03-10', createdTo: '2026-03-10' }))).to.deep.equal([fulfilled.code]);
      expect(codes(await q({ createdFrom: '2026-03-09', createdTo: '2026-03-09' }))).to.deep.equal([open.code]);
      expect(codes(await q({ sort: '-createdAt', createdTo: '2026-03-10' }))).to.deep.equal([fulfilled.code, open.code]);
      // An id of another tenant simply matches nothing.
      const foreign = await makeCustomer(t);
      expect(codes(await q({ customerId: foreign.hash }))).to.deep.equal([]);
    });

    it('a creation-date range sorted by code (read from the creation index on MySQL): code order, page after page by cursor, whatever the creation order', async () => {
      const dt = await createTestTenant();
      const p = await makeProduct(dt);
      const orders = await insertOrders(dt, p.id, [{}, {}, {}, {}, {}, {}]);
      // Creation times out of code order, five inside 2026-04-01 (Brasília), the last outside it.
      const hours = [15, 11, 20, 9, 13, 30];
      for (const [i, o] of orders.entries()) await setCreatedAt(o.id, new Date(Date.UTC(2026, 3, 1, hours[i])));
      const inside = orders.slice(0, 5).map((o) => o.code);
      const q = (query: Record<string, unknown>) => api().get(`/api/sales-order/${dt.filialHashes[0]}`).query(query).set(dt.headers());
      for (const [sort, expected] of [
        ['-code', [...inside].sort((a, b) => b - a)],
        ['code', [...inside].sort((a, b) => a - b)],
      ] as const) {
        const seen: number[] = [];
        let cursor: string | undefined;
        do {
          const res = await q({ createdFrom: '2026-04-01', createdTo: '2026-04-01', sort, pageSize: 2, ...(cursor ? { cursor } : {}) });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          if (!cursor) expect(res.body.pagination).to.include({ total: 5 });
          seen.push(...codes(res));
          cursor = res.body.pagination.nextCursor ?? undefined;
        } while (cursor);
        expect(seen, sort).to.deep.equal(expected);
      }
      // With another filter the list keeps its own index (status, customer…): same answer.
      expect(codes(await q({ createdFrom: '2026-04-01', createdTo: '2026-04-01', status: 'OPEN', pageSize: 10 }))).to.deep.equal(
        [...inside].sort((a, b) => b - a),
      );
    });

    it('bad query → 400 with the paths', async () => {
      const res = await api()
        .get(`/api/sales-order/${ft.filialHashes[0]}`)
        .query({ status: 'DONE', pageSize: 101, createdFrom: '10/03/2026', sort: 'total' })
        .set(ft.headers());
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: any) => e.path)).to.include.members([
        'query.status',
        'query.pageSize',
        'query.createdFrom',
        'query.sort',
      ]);
      expectProblem(
        await api().get(`/api/sales-order/list/${ft.filialHashes[0]}`).query({ cursor: 'garbage' }).set(ft.headers()),
        400,
        'INVALID_CURSOR',
      );
    });

    it('pageSize defaults to 20; a deep list is counted up to the cap', async () => {
      const p = await makeProduct(ft);
      await insertOrders(
        ft,
        p.id,
        Array.from({ length: 25 }, () => ({})),
      );
      const res = await api().get(`/api/sales-order/list/${ft.filialHashes[0]}`).set(ft.headers());
      expect(res.body.data).to.have.length(20);
      expect(res.body.pagination).to.include({ pageSize: 20, total: 30, totalPages: 2, hasMore: true });
    });
  });
});
