import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { readBatch } from '../../src/core/db/transaction';
import { isMysql } from '../../src/core/db/engine';
import { startOfBusinessDay } from '../../src/core/business-date';
import { Page, PageRequest, paginate, TypedSortKey } from '../../src/core/pagination';
import { paginateParts } from '../../src/core/pagination-union';
import {
  baseListSql,
  byCreationDays,
  byCreationRange,
  ListFilters,
  MAX_CREATION_DAYS,
} from '../../src/modules/sales-order/sales-order.repository';
import { createdDayOf } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { recordStatements } from '../support/statements';
import { createTestTenant, TestTenant } from '../support/tenant';
import { insertOrders } from './support';

/*
 * A list filtered by creation dates alone and sorted by code is read, on MySQL, as one part per UTC
 * day (byCreationDays, paginateParts). Its pages, totals and cursors must be those of the plain query:
 * checked against an independent computation (the orders as written, filtered and sorted here), and
 * against the same list paginated without the split, for bounds at and off midnight, both directions,
 * offset and cursor pages. Codes are deliberately out of creation order, and some orders have no
 * created_day (written by a previous version during a rolling restart).
 */
describe('Sales orders: a creation range sorted by code, read day by day', () => {
  let t: TestTenant;
  /** Every order of the tenant as written: filial, code, creation instant. */
  const written: { id: number; filialId: number; code: number; createdAt: Date; dayless: boolean }[] = [];
  const DAY = 86_400_000;
  const base = Date.UTC(2026, 0, 1);

  before(async () => {
    t = await createTestTenant({ filiais: 2 });
    const p = await makeProduct(t);
    // A deterministic scramble: instants over 80 days, codes in an order unrelated to them.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const instants: number[] = [];
    for (let i = 0; i < 360; i++) instants.push(base + (next() % (80 * DAY)));
    // Instants at the edges the list's bounds and the UTC days fall on.
    const edges = (day: number) => {
      const from = Date.parse(`${startOfBusinessDay(new Date(base + day * DAY).toISOString().slice(0, 10)).replace(' ', 'T')}Z`);
      return [from, from - 1, from + 1, base + day * DAY, base + day * DAY - 1, base + day * DAY + 12 * 3_600_000 + 34_567];
    };
    for (const day of [10, 11, 40, 41, 70, 71]) instants.push(...edges(day));
    const codes = instants.map((_x, i) => 500_000 + ((i * 7_919) % 1_000) * 10 + (i % 10));
    // Every 13th without created_day, as a previous version writes it during a rolling restart.
    const rows = instants.map((ms, i) => ({
      code: codes[i],
      createdAt: new Date(ms),
      filialId: t.filialIds[i % 9 === 0 ? 1 : 0],
      ...(i % 13 === 5 ? { createdDay: null } : {}),
    }));
    const orders = await insertOrders(t, p.id, rows);
    for (const o of orders)
      written.push({ id: o.id, filialId: o.filialId, code: o.code, createdAt: o.createdAt, dayless: o.createdDay === null });
  });

  it('created_day is the UTC date of created_at (null where a previous version wrote the order)', async () => {
    const rows: { id: number; created_day: unknown }[] = await dataSource.query(
      'SELECT id, created_day FROM sales_order WHERE company_id = ?',
      [t.companyId],
    );
    expect(rows).to.have.length(written.length);
    const byId = new Map(written.map((w) => [w.id, w.dayless ? null : createdDayOf(w.createdAt)]));
    for (const r of rows) {
      const day =
        r.created_day === null ? null : String(r.created_day instanceof Date ? r.created_day.toISOString() : r.created_day).slice(0, 10);
      expect(day, `order ${r.id}`).to.equal(byId.get(Number(r.id)));
    }
    expect(written.filter((w) => w.dayless).length, 'some written without created_day').to.be.greaterThan(10);
  });

  /** The codes of the filial's orders created in [from, before), in code order (independent of SQL). */
  const expected = (from: number, before: number, direction: 'ASC' | 'DESC') =>
    written
      .filter((w) => w.filialId === t.filialIds[0] && w.createdAt.getTime() >= from && w.createdAt.getTime() < before)
      .map((w) => w.code)
      .sort((a, b) => (direction === 'ASC' ? a - b : b - a));

  const list = (query: Record<string, unknown>) => api().get(`/api/sales-order/list/${t.filialHashes[0]}`).query(query).set(t.headers());
  const codesOf = (res: { body: { data: { code: number }[] } }) => res.body.data.map((o) => o.code);
  const instantOf = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

  for (const [createdFrom, createdTo] of [
    ['2026-01-10', '2026-02-08'],
    ['2026-01-11', '2026-01-11'],
    ['2026-02-10', '2026-03-12'],
    ['2026-01-02', '2026-03-20'],
  ] as const) {
    it(`API, ${createdFrom} … ${createdTo}: first and deep pages, cursor walks, totals (both directions) are the plain query's`, async () => {
      const from = instantOf(startOfBusinessDay(createdFrom));
      const before = instantOf(startOfBusinessDay(new Date(Date.parse(`${createdTo}T00:00:00Z`) + DAY).toISOString().slice(0, 10)));
      const days = Math.floor((before - 1) / DAY) - Math.floor(from / DAY) + 1;
      for (const [sort, direction] of [
        ['-code', 'DESC'],
        ['code', 'ASC'],
      ] as const) {
        const all = expected(from, before, direction);
        expect(all.length, 'the range holds orders').to.be.greaterThan(4);
        // Offset pages: the first, a deep one, the last (partial) one and one past the end.
        const pageSize = 7;
        const pages = Math.ceil(all.length / pageSize);
        for (const page of [1, 2, Math.max(1, pages - 1), pages, pages + 1]) {
          const { result: res, roundTrips } = await recordStatements(() => list({ createdFrom, createdTo, sort, page, pageSize }));
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(codesOf(res), `${sort} page ${page}`).to.deep.equal(all.slice((page - 1) * pageSize, page * pageSize));
          expect(res.body.pagination).to.include({ total: all.length, hasMore: page * pageSize < all.length });
          // On MySQL a range of up to MAX_CREATION_DAYS days is read day by day; SQLite reads it whole.
          const sql = roundTrips.flat().join('\n');
          expect(/UNION ALL/.test(sql), 'read by day').to.equal(isMysql && days <= MAX_CREATION_DAYS);
          // Whole days from the creation-day index (a single Brasília day is two cut UTC days).
          if (isMysql && days > 2 && days <= MAX_CREATION_DAYS) expect(sql).to.match(/FORCE INDEX \(ix_sales_order_filial_created_day\)/);
        }
        // Cursor pages, from the first to the last.
        const seen: number[] = [];
        let cursor: string | undefined;
        do {
          const res = await list({ createdFrom, createdTo, sort, pageSize: 5, ...(cursor ? { cursor } : {}) });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          seen.push(...codesOf(res));
          cursor = res.body.pagination.nextCursor ?? undefined;
        } while (cursor && seen.length <= all.length);
        expect(seen, `${sort} by cursor`).to.deep.equal(all);
      }
    });
  }

  describe('the parts against the same list read whole (bounds anywhere)', () => {
    const SORTS: Record<'ASC' | 'DESC', TypedSortKey[]> = {
      ASC: [
        { column: 'o.code', direction: 'ASC', type: 'int' },
        { column: 'o.id', direction: 'ASC', type: 'int' },
      ],
      DESC: [
        { column: 'o.code', direction: 'DESC', type: 'int' },
        { column: 'o.id', direction: 'DESC', type: 'int' },
      ],
    };
    const run = (statements: { sql: string; params: unknown[] }[]) => readBatch(dataSource.manager, statements);
    const load = (ids: number[]) => Promise.resolve(ids.map((id) => ({ id })));
    const idOf = (r: { id: number }) => r.id;
    const text = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    const ids = (page: Page<{ id: number }>) => page.data.map((r) => r.id);

    /** Both readings of one request: the day parts (MySQL) and the plain list. */
    async function both(f: ListFilters, direction: 'ASC' | 'DESC', request: PageRequest) {
      const whole = byCreationRange(baseListSql(t.companyId, f), f, true);
      const plain = baseListSql(t.companyId, f);
      const parts = byCreationDays(t.companyId, f, true);
      const split = parts ? await paginateParts(parts, whole, SORTS[direction], request, load, idOf, run) : null;
      const reference = await paginate(plain, SORTS[direction], { ...request, cursor: undefined }, load, idOf, run);
      return { parts, split, reference };
    }

    for (const [label, fromMs, beforeMs] of [
      ['midnight to midnight (whole days only)', base + 10 * DAY, base + 41 * DAY],
      ['off midnight on both ends (ms edges)', base + 10 * DAY + 3 * 3_600_000 + 1, base + 40 * DAY + 12 * 3_600_000 + 34_567],
      ['within one day', base + 41 * DAY + 3_600_000, base + 41 * DAY + 13 * 3_600_000],
      ['the longest range read by day', base + 5 * DAY + 1, base + (5 + MAX_CREATION_DAYS) * DAY],
      ['one day too long', base + 5 * DAY, base + (5 + MAX_CREATION_DAYS) * DAY + 1],
    ] as const) {
      it(`${label}: every offset page and every cursor page, both directions`, async () => {
        const f: ListFilters = { filialId: t.filialIds[0], createdFrom: text(fromMs), createdBefore: text(beforeMs) };
        const days = Math.floor((beforeMs - 1) / DAY) - Math.floor(fromMs / DAY) + 1;
        for (const direction of ['ASC', 'DESC'] as const) {
          const all = expected(fromMs, beforeMs, direction);
          const pageSize = 6;
          for (let page = 1; page <= Math.ceil(all.length / pageSize) + 1; page++) {
            const { parts, split, reference } = await both(f, direction, { page, pageSize });
            expect(parts === null, 'parts only on MySQL, up to the day limit').to.equal(!isMysql || days > MAX_CREATION_DAYS);
            // One part per day, and one for the whole days' orders without created_day.
            if (parts) expect(parts.length - days).to.be.oneOf([0, 1]);
            const codesOfIds = (xs: number[]) => xs.map((id) => written.find((w) => w.id === id)!.code);
            expect(codesOfIds(ids(reference)), `plain ${direction} page ${page}`).to.deep.equal(
              all.slice((page - 1) * pageSize, page * pageSize),
            );
            if (split) {
              expect(ids(split), `${direction} page ${page}`).to.deep.equal(ids(reference));
              expect(split.pagination).to.deep.equal({ ...reference.pagination, nextCursor: split.pagination.nextCursor });
            }
          }
          // Cursor walk through the parts; each cursor also opens the plain reading (same binding).
          if (!isMysql || days > MAX_CREATION_DAYS) continue;
          const whole = byCreationRange(baseListSql(t.companyId, f), f, true);
          const parts = byCreationDays(t.companyId, f, true)!;
          const seen: number[] = [];
          let cursor: string | undefined;
          do {
            const page = await paginateParts(parts, whole, SORTS[direction], { page: 1, pageSize: 4, cursor }, load, idOf, run);
            if (cursor) {
              const plain = await paginate(whole, SORTS[direction], { page: 1, pageSize: 4, cursor }, load, idOf, run);
              expect(ids(plain)).to.deep.equal(ids(page));
              expect(plain.pagination.nextCursor).to.equal(page.pagination.nextCursor);
            }
            seen.push(...ids(page));
            cursor = page.pagination.nextCursor ?? undefined;
          } while (cursor && seen.length <= all.length);
          expect(seen.map((id) => written.find((w) => w.id === id)!.code)).to.deep.equal(all);
        }
      });
    }
  });
});
