import { expect } from 'chai';
import { Brackets } from 'typeorm';
import { dataSource } from '../../src/core/db/data-source';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { applyProductSearch } from '../../src/modules/catalog/product.service';
import { ProductSearchTerm } from '../../src/modules/catalog/entities/product-search-term.entity';
import { ProductSearchToken } from '../../src/modules/catalog/entities/product-search-token.entity';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { BASE } from './support';

describe('Product map: GET /search and GET /next-code', () => {
  describe('search', () => {
    let t: TestTenant;
    let other: TestTenant;
    const codes = async (tenant: TestTenant, q: string, extra: object = {}) => {
      const res = await api()
        .get(`${BASE}/search`)
        .query({ q, ...extra })
        .set(tenant.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((p: { code: string }) => p.code);
    };

    before(async () => {
      t = await createTestTenant({ filiais: 1 });
      other = await createTestTenant({ filiais: 1 });
      await makeProduct(t, { code: '7001', name: 'Cerveja Pilsen 350ml lata', gtin: '7891234567895' });
      await makeProduct(t, { code: '7002', name: 'Cerveja Puro Malte 350ml Garrafa' });
      await makeProduct(t, { code: '7010', name: 'Refrigerante Guaraná 2L' });
      await makeProduct(t, { code: '8001', name: 'Café Torrado e Moído 500g' });
      await makeProduct(t, { code: '8002', name: 'Açúcar Cristal 5kg', active: false });
      await makeProduct(other, { code: '7003', name: 'Cerveja Pilsen de outra empresa' });
    });

    it('exact code, code prefix and GTIN', async () => {
      expect(await codes(t, '7001')).to.deep.equal(['7001']);
      expect(await codes(t, '700')).to.deep.equal(['7001', '7002']);
      expect(await codes(t, '70')).to.deep.equal(['7001', '7002', '7010']);
      expect(await codes(t, '7891234567895')).to.deep.equal(['7001']);
    });

    it('name words: all must match, accent- and case-insensitive, as word starts; measures either way', async () => {
      expect(await codes(t, 'cerveja')).to.deep.equal(['7001', '7002']);
      expect(await codes(t, 'CERV pilsen')).to.deep.equal(['7001']);
      expect(await codes(t, 'cerveja refrigerante')).to.deep.equal([]);
      expect(await codes(t, 'guarana')).to.deep.equal(['7010']);
      expect(await codes(t, 'CAFÉ moido')).to.deep.equal(['8001']);
      expect(await codes(t, '350ml')).to.deep.equal(['7001', '7002']);
      expect(await codes(t, '350 ml lata')).to.deep.equal(['7001']);
      expect(await codes(t, 'açucar', { active: true })).to.deep.equal([]);
      expect(await codes(t, 'acucar')).to.deep.equal(['8002']);
    });

    it("never another company's products", async () => {
      expect(await codes(t, 'outra empresa')).to.deep.equal([]);
      expect(await codes(t, '7003')).to.deep.equal([]);
      expect(await codes(other, 'cerveja')).to.deep.equal(['7003']);
    });

    it('paginates (two-phase, with total and cursor)', async () => {
      const res = await api().get(`${BASE}/search`).query({ q: 'cerveja', pageSize: 1 }).set(t.headers());
      expect(res.body.pagination).to.deep.include({ page: 1, pageSize: 1, total: 2, totalPages: 2, hasMore: true });
      expect(res.body.data[0]).to.include.keys('id', 'code', 'name', 'unit', 'gtin', 'price', 'active', 'version');
      const next = await api()
        .get(`${BASE}/search`)
        .query({ q: 'cerveja', pageSize: 1, cursor: res.body.pagination.nextCursor })
        .set(t.headers());
      expect(next.body.data.map((p: { code: string }) => p.code)).to.deep.equal(['7002']);
    });

    it('follows renames and creations through the catalog (one index, one search for both routes)', async () => {
      const created = await api().post('/api/catalog/products').set(t.headers()).send({ name: 'Biscoito Água e Sal 200g', unit: 'UN' });
      expect(created.status).to.equal(201);
      expect(await codes(t, 'biscoito agua')).to.deep.equal([created.body.code]);
      const renamed = await api()
        .patch(`/api/catalog/products/${created.body.id}`)
        .set(t.headers())
        .send({ version: 1, name: 'Bolacha Cream Cracker 200g' });
      expect(renamed.status).to.equal(200);
      expect(await codes(t, 'biscoito')).to.deep.equal([]);
      expect(await codes(t, 'bolacha cream')).to.deep.equal([created.body.code]);
      const catalog = await api().get('/api/catalog/products').query({ search: 'bolacha cream' }).set(t.headers());
      expect(catalog.body.data.map((p: { code: string }) => p.code)).to.deep.equal([created.body.code]);
      const tokens = await dataSource.manager.findBy(ProductSearchToken, { companyId: t.companyId, token: 'BISCOITO' });
      expect(tokens).to.deep.equal([]);
      // the term dictionary follows: the old word is no longer counted, the new one is
      const count = async (token: string) =>
        (await dataSource.manager.findOneBy(ProductSearchTerm, { companyId: t.companyId, token }))?.productCount ?? 0;
      expect([await count('BISCOITO'), await count('BOLACHA'), await count('200G'), await count('CERVEJA')]).to.deep.equal([0, 1, 1, 2]);
    });

    it('the synchronous WHERE form (catalog resource hook) finds the same products as the routes', async () => {
      for (const q of ['7001', '70', 'cerv pilsen', 'cafe moido', '350 ml', 'acucar', 'nada disso']) {
        const qb = dataSource.manager.createQueryBuilder(Product, 'r').where('r.company_id = :companyId', { companyId: t.companyId });
        qb.andWhere(new Brackets((w) => applyProductSearch(w as never, 'r', q, t.companyId)));
        const viaCondition = (await qb.orderBy('r.code').getMany()).map((p) => p.code);
        expect(viaCondition, q).to.deep.equal(await codes(t, q));
      }
    });

    it('q is required → 400; needs entry-document:read', async () => {
      const res = await api().get(`${BASE}/search`).set(t.headers());
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['query.q']);
      expectProblem(
        await api()
          .get(`${BASE}/search`)
          .query({ q: 'x' })
          .set(t.headersWith({ scope: 'nfe:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });

  describe('next-code', () => {
    it('30 parallel calls → 30 distinct consecutive codes', async () => {
      const t = await createTestTenant({ filiais: 1 });
      const results = await Promise.all(Array.from({ length: 30 }, () => api().get(`${BASE}/next-code`).set(t.headers())));
      expect(results.every((r) => r.status === 200)).to.equal(true);
      const got = results.map((r) => Number(r.body.code)).sort((a, b) => a - b);
      expect(new Set(got).size).to.equal(30);
      expect(got).to.deep.equal(Array.from({ length: 30 }, (_v, i) => got[0] + i));
    });

    it('skips codes taken by hand, also under concurrency', async () => {
      const t = await createTestTenant({ filiais: 1 });
      const first = Number((await api().get(`${BASE}/next-code`).set(t.headers())).body.code);
      const taken = [first + 1, first + 2, first + 5, first + 9].map(String);
      for (const code of taken) await makeProduct(t, { code });
      const results = await Promise.all(Array.from({ length: 10 }, () => api().get(`${BASE}/next-code`).set(t.headers())));
      const got = results.map((r) => r.body.code as string);
      expect(new Set(got).size).to.equal(10);
      for (const code of taken) expect(got).to.not.include(code);
      const expected = Array.from({ length: 14 }, (_v, i) => String(first + 1 + i)).filter((c) => !taken.includes(c));
      expect([...got].sort((a, b) => Number(a) - Number(b))).to.deep.equal(expected);
    });

    it('needs product-map:write', async () => {
      const t = await createTestTenant({ filiais: 1 });
      expectProblem(
        await api()
          .get(`${BASE}/next-code`)
          .set(t.headersWith({ scope: 'entry-document:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });
});
