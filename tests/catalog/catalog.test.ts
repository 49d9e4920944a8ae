import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { api } from '../support/api';
import { addStock, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';

describe('Catalog (master data)', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  describe('products', () => {
    it('create → read → patch with version; audited; code from the sequence when not given', async () => {
      const created = await api()
        .post('/api/catalog/products')
        .set(t.headers())
        .send({ name: 'Leite Integral 1L', unit: 'un', price: 5.49, gtin: '7891000100103', ncm: '04012010' });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({ name: 'Leite Integral 1L', unit: 'UN', price: 5.49, gtin: '7891000100103', version: 1 });
      expect(created.body.code).to.match(/^\d+$/);
      expect(Object.keys(created.body)).to.have.members([
        'id',
        'code',
        'name',
        'unit',
        'gtin',
        'ncm',
        'cest',
        'price',
        'active',
        'stockControlled',
        'origin',
        'taxableUnit',
        'taxableFactor',
        'taxGroupId',
        'version',
        'createdAt',
        'updatedAt',
      ]);

      const patched = await api()
        .patch(`/api/catalog/products/${created.body.id}`)
        .set(t.headers())
        .send({ version: 1, price: '5.99', name: 'Leite Integral UHT 1L' });
      expect(patched.status).to.equal(200);
      expect(patched.body).to.include({ price: 5.99, name: 'Leite Integral UHT 1L', version: 2 });

      const stale = await api().patch(`/api/catalog/products/${created.body.id}`).set(t.headers()).send({ version: 1, price: '1.00' });
      expectProblem(stale, 409, 'STALE_VERSION');
      expect((await api().get(`/api/catalog/products/${created.body.id}`).set(t.headers())).body.price).to.equal(5.99);

      const audit = await dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity: 'product' }, order: { id: 'ASC' } });
      expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
      expect(audit[1].changes).to.deep.equal({ name: ['Leite Integral 1L', 'Leite Integral UHT 1L'], price: ['5.49', '5.99'] });
      expect(audit[1].actor).to.equal('test-user');
    });

    it('a taken code → 409; an invalid GTIN check digit → 400; nothing written', async () => {
      await makeProduct(t, { code: 'DUP-1' });
      expectProblem(
        await api().post('/api/catalog/products').set(t.headers()).send({ code: 'DUP-1', name: 'X', unit: 'UN' }),
        409,
        'PRODUCT_CODE_TAKEN',
      );
      expectProblem(
        await api().post('/api/catalog/products').set(t.headers()).send({ name: 'Y', unit: 'UN', gtin: '7891000100104' }),
        400,
        'INVALID_GTIN',
      );
      expect(await dataSource.manager.countBy(Product, { companyId: t.companyId, name: 'Y' })).to.equal(0);
    });

    it('search by exact code, code prefix, GTIN and all name tokens (accent-insensitive)', async () => {
      const s = await createTestTenant({ filiais: 1 });
      await makeProduct(s, { code: '5001', name: 'Pão Francês kg', searchName: 'PAO FRANCES KG' });
      await makeProduct(s, { code: '5002', name: 'Pão de Queijo 400g', searchName: 'PAO DE QUEIJO 400G', gtin: '7896004000015' });
      await makeProduct(s, { code: '6001', name: 'Queijo Minas', searchName: 'QUEIJO MINAS' });
      const names = async (q: string) =>
        (await api().get('/api/catalog/products').query({ search: q }).set(s.headers())).body.data.map((p: { code: string }) => p.code);
      expect(await names('5001')).to.deep.equal(['5001']);
      expect(await names('500')).to.deep.equal(['5001', '5002']);
      expect(await names('7896004000015')).to.deep.equal(['5002']);
      expect(await names('pao queijo')).to.deep.equal(['5002']);
      expect(await names('QUEIJO')).to.deep.equal(['5002', '6001']);
      expect(await names('pão')).to.deep.equal(['5001', '5002']);
    });

    it('pages with two-phase pagination and keyset cursors', async () => {
      const s = await createTestTenant({ filiais: 1 });
      for (let i = 1; i <= 7; i++) await makeProduct(s, { code: `P${i}` });
      const page1 = await api().get('/api/catalog/products').query({ pageSize: 3 }).set(s.headers());
      expect(page1.body.pagination).to.deep.equal({
        page: 1,
        pageSize: 3,
        total: 7,
        totalPages: 3,
        hasMore: true,
        nextCursor: page1.body.pagination.nextCursor,
      });
      expect(page1.body.data.map((p: { code: string }) => p.code)).to.deep.equal(['P1', 'P2', 'P3']);
      const page3 = await api().get('/api/catalog/products').query({ pageSize: 3, page: 3 }).set(s.headers());
      expect(page3.body.data.map((p: { code: string }) => p.code)).to.deep.equal(['P7']);
      expect(page3.body.pagination.hasMore).to.equal(false);
      const next = await api()
        .get('/api/catalog/products')
        .query({ pageSize: 3, cursor: page1.body.pagination.nextCursor, includeTotal: false })
        .set(s.headers());
      expect(next.body.data.map((p: { code: string }) => p.code)).to.deep.equal(['P4', 'P5', 'P6']);
      expect(next.body.pagination.total).to.equal(null);
      expectProblem(await api().get('/api/catalog/products').query({ cursor: 'garbage' }).set(s.headers()), 400, 'INVALID_CURSOR');
      expectProblem(await api().get('/api/catalog/products').query({ pageSize: 101 }).set(s.headers()), 400, 'VALIDATION_ERROR');
    });

    it("lists only the tenant's products", async () => {
      await makeProduct(other, { code: 'FOREIGN-1', name: 'Produto de outra empresa' });
      const res = await api().get('/api/catalog/products').query({ search: 'FOREIGN-1' }).set(t.headers());
      expect(res.body.data).to.deep.equal([]);
    });
  });

  describe('customers, sellers, suppliers, payment methods', () => {
    it('customer with a valid CPF (punctuation accepted, stored normalized); invalid CPF → 400', async () => {
      const ok = await api().post('/api/catalog/customers').set(t.headers()).send({ name: 'José Álvares', document: '529.982.247-25' });
      expect(ok.status).to.equal(201);
      expect(ok.body.document).to.equal('52998224725');
      expectProblem(
        await api().post('/api/catalog/customers').set(t.headers()).send({ name: 'X', document: '529.982.247-26' }),
        400,
        'VALIDATION_ERROR',
      );
      const found = await api().get('/api/catalog/customers').query({ search: 'jose alv' }).set(t.headers());
      expect(found.body.data.map((c: { id: string }) => c.id)).to.deep.equal([ok.body.id]);
    });

    it('customers are found by the start of any word of name or trade name, or by document digits; a rename moves the index', async () => {
      const s = await createTestTenant();
      const post = (body: object) => api().post('/api/catalog/customers').set(s.headers()).send(body);
      const maria = (await post({ name: 'Maria da Silva', document: '529.982.247-25' })).body;
      const padaria = (await post({ name: 'Padaria Pão Quente Ltda', tradeName: 'Pão Quente' })).body;
      const ids = async (q: string) =>
        (await api().get('/api/catalog/customers').query({ search: q }).set(s.headers())).body.data.map((c: { id: string }) => c.id);
      expect(await ids('silva')).to.deep.equal([maria.id]);
      expect(await ids('SILV')).to.deep.equal([maria.id]);
      expect(await ids('quente')).to.deep.equal([padaria.id]);
      expect(await ids('pao')).to.deep.equal([padaria.id]);
      expect(await ids('PÃO padaria')).to.deep.equal([padaria.id]);
      expect(await ids('529.982')).to.deep.equal([maria.id]);
      expect(await ids('ilva')).to.deep.equal([]);
      const renamed = await api()
        .patch(`/api/catalog/customers/${maria.id}`)
        .set(s.headers())
        .send({ name: 'Maria Souza', version: maria.version });
      expect(renamed.status).to.equal(200);
      expect(await ids('silva')).to.deep.equal([]);
      expect(await ids('souza')).to.deep.equal([maria.id]);
      const rows = await dataSource.query('SELECT token FROM party_search_token WHERE company_id = ? AND party_type = ? ORDER BY token', [
        s.companyId,
        'CUSTOMER',
      ]);
      expect(rows.map((r: { token: string }) => r.token)).to.deep.equal(['LTDA', 'MARIA', 'PADARIA', 'PAO', 'QUENTE', 'SOUZA']);
    });

    it('sellers are found by name or alias', async () => {
      const s = await api().post('/api/catalog/sellers').set(t.headers()).send({ name: 'Carla Mendes', alias: 'Carlinha' });
      expect(s.status).to.equal(201);
      const byAlias = await api().get('/api/catalog/sellers').query({ search: 'carlinha' }).set(t.headers());
      expect(byAlias.body.data.map((x: { id: string }) => x.id)).to.deep.equal([s.body.id]);
      const bySurname = await api().get('/api/catalog/sellers').query({ search: 'mend' }).set(t.headers());
      expect(bySurname.body.data.map((x: { id: string }) => x.id)).to.deep.equal([s.body.id]);
    });

    it('supplier documents are unique per company (409) but free across companies', async () => {
      const document = randomCnpj();
      expect(
        (await api().post('/api/catalog/suppliers').set(t.headers()).send({ document, name: 'Fornecedor A', uf: 'sp' })).status,
      ).to.equal(201);
      expectProblem(
        await api().post('/api/catalog/suppliers').set(t.headers()).send({ document, name: 'Fornecedor A2' }),
        409,
        'SUPPLIER_EXISTS',
      );
      expect((await api().post('/api/catalog/suppliers').set(other.headers()).send({ document, name: 'Fornecedor A' })).status).to.equal(
        201,
      );
    });

    it('payment methods: cash gives change by default', async () => {
      const res = await api().post('/api/catalog/payment-methods').set(t.headers()).send({ code: 'cash', name: 'Dinheiro', kind: 'CASH' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ code: 'CASH', givesChange: true });
      const list = await api().get('/api/catalog/payment-methods').set(t.headers());
      expect(list.body.data.map((m: { code: string }) => m.code)).to.include('CASH');
    });
  });

  describe('GET /catalog/stock/:filialId', () => {
    it('answers balances of the filial, optionally of one product', async () => {
      const p = await makeProduct(t, { name: 'Arroz 5kg' });
      const q = await makeProduct(t);
      await addStock(t, 0, p.id, '12.5', '3.1');
      await addStock(t, 1, q.id, 1, 1);
      const res = await api().get(`/api/catalog/stock/${t.filialHashes[0]}`).query({ productId: p.hash }).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(1);
      expect(res.body.data[0]).to.include({
        productId: p.hash,
        productName: 'Arroz 5kg',
        quantity: 12.5,
        averageCost: 3.1,
        filialId: t.filialHashes[0],
      });
      const none = await api().get(`/api/catalog/stock/${t.filialHashes[1]}`).query({ productId: p.hash }).set(t.headers());
      expect(none.body.data).to.deep.equal([]);
    });
  });
});
