import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { config } from '../../src/core/config';
import { dataSource } from '../../src/core/db/data-source';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { encodeId } from '../../src/core/hashids';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Auth and tenancy (SPEC §0)', () => {
  let a: TestTenant;
  let b: TestTenant;
  before(async () => {
    a = await createTestTenant();
    b = await createTestTenant();
  });

  const tenantHeaders = (t: TestTenant) => ({ 'x-company-id': t.companyHash, 'x-filial-id': t.filialHashes[0] });
  const claimsOf = (t: TestTenant) => ({ sub: 'u', companyId: t.companyHash, filiais: ['*'], scope: '*' });

  describe('401 for every token that cannot be trusted', () => {
    it('no token', async () => {
      expectProblem(await api().get('/api/catalog/products').set(tenantHeaders(a)), 401, 'MISSING_TOKEN');
    });
    it('malformed token', async () => {
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', 'Bearer not.a.jwt'),
        401,
        'INVALID_TOKEN',
      );
    });
    it('bad signature', async () => {
      const forged = jwt.sign(claimsOf(a), 'another-secret-of-enough-length', { algorithm: 'HS256', expiresIn: '1h' });
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', `Bearer ${forged}`),
        401,
        'INVALID_TOKEN',
      );
    });
    it('expired token', async () => {
      const expired = jwt.sign({ ...claimsOf(a), exp: Math.floor(Date.now() / 1000) - 60 }, config.auth.secret!, { algorithm: 'HS256' });
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', `Bearer ${expired}`),
        401,
        'TOKEN_EXPIRED',
      );
    });
    it('token without exp', async () => {
      const noExp = jwt.sign(claimsOf(a), config.auth.secret!, { algorithm: 'HS256' });
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', `Bearer ${noExp}`),
        401,
        'INVALID_TOKEN',
      );
    });
    it('alg none', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify({ ...claimsOf(a), exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', `Bearer ${header}.${payload}.`),
        401,
        'INVALID_TOKEN',
      );
    });
    it('algorithm confusion (HS512 with the same secret)', async () => {
      const other = jwt.sign(claimsOf(a), config.auth.secret!, { algorithm: 'HS512', expiresIn: '1h' });
      expectProblem(
        await api().get('/api/catalog/products').set(tenantHeaders(a)).set('Authorization', `Bearer ${other}`),
        401,
        'INVALID_TOKEN',
      );
    });
  });

  describe('verified tokens are remembered per token, never past their expiry or across tenants', () => {
    it('a token accepted moments ago is refused once its exp has passed', async function () {
      this.timeout(10_000);
      const shortLived = jwt.sign({ ...claimsOf(a), exp: Math.floor(Date.now() / 1000) + 2 }, config.auth.secret!, { algorithm: 'HS256' });
      const headers = { ...tenantHeaders(a), Authorization: `Bearer ${shortLived}` };
      expect((await api().get('/api/me').set(headers)).status).to.equal(200);
      expect((await api().get('/api/me').set(headers)).status).to.equal(200);
      await new Promise((r) => setTimeout(r, (Math.floor(Date.now() / 1000) + 3) * 1000 - Date.now()));
      expectProblem(await api().get('/api/me').set(headers), 401, 'TOKEN_EXPIRED');
    });
    it("a token remembered for one company answers for that company only (another's x-company-id → 403)", async () => {
      expect((await api().get('/api/me').set(a.headers())).status).to.equal(200);
      expectProblem(
        await api()
          .get('/api/me')
          .set({ ...a.headers(), 'x-company-id': b.companyHash, 'x-filial-id': b.filialHashes[0] }),
        403,
        'COMPANY_NOT_GRANTED',
      );
      const res = await api().get('/api/me').set(b.headers());
      expect(res.status).to.equal(200);
      expect(res.body.company.id).to.equal(b.companyHash);
    });
  });

  describe('the x-filial-id filial is read after validation', () => {
    it('an inactive filial → 403, whether or not the request is valid (authorization before validation)', async () => {
      const t = await createTestTenant();
      const headers = t.headers(1);
      await dataSource.manager.update(Filial, { id: t.filialIds[1] }, { active: false });
      expectProblem(await api().get('/api/catalog/products').set(headers), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get('/api/catalog/products?pageSize=0').set(headers), 403, 'FILIAL_NOT_GRANTED');
      // A filial the token does not list is refused before anything else, as before.
      expectProblem(
        await api()
          .get('/api/catalog/products?pageSize=0')
          .set(t.headersWith({ filiais: [t.filialHashes[0]] }, 1)),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });
  });

  describe('403 for tenants and filiais the token does not grant', () => {
    it('x-company-id of another company', async () => {
      const res = await api()
        .get('/api/catalog/products')
        .set({ ...a.headers(), 'x-company-id': b.companyHash });
      expectProblem(res, 403, 'COMPANY_NOT_GRANTED');
    });
    it('x-filial-id of another company', async () => {
      const res = await api()
        .get('/api/catalog/products')
        .set({ ...a.headers(), 'x-filial-id': b.filialHashes[0] });
      expectProblem(res, 403, 'FILIAL_NOT_GRANTED');
    });
    it("x-filial-id not in the token's filiais", async () => {
      const res = await api()
        .get('/api/catalog/products')
        .set(a.headersWith({ filiais: [a.filialHashes[0]] }, 1));
      expectProblem(res, 403, 'FILIAL_NOT_GRANTED');
    });
    it(':filialId in the path not granted by the token', async () => {
      const res = await api()
        .get(`/api/catalog/stock/${a.filialHashes[1]}`)
        .set(a.headersWith({ filiais: [a.filialHashes[0]] }));
      expectProblem(res, 403, 'FILIAL_NOT_GRANTED');
    });
    it(':filialId in the path of another company', async () => {
      expectProblem(await api().get(`/api/catalog/stock/${b.filialHashes[0]}`).set(a.headers()), 403, 'FILIAL_NOT_GRANTED');
    });
    it('missing scope', async () => {
      const res = await api()
        .post('/api/catalog/products')
        .set(a.headersWith({ scope: 'catalog:read' }))
        .send({ name: 'X', unit: 'UN' });
      expectProblem(res, 403, 'INSUFFICIENT_SCOPE');
    });
    it('a granted filial in the path works', async () => {
      const res = await api()
        .get(`/api/catalog/stock/${a.filialHashes[0]}`)
        .set(a.headersWith({ filiais: [a.filialHashes[0]], scope: 'catalog:read' }));
      expect(res.status).to.equal(200);
    });
    it('missing x-company-id → 400', async () => {
      expectProblem(await api().get('/api/catalog/products').set('Authorization', `Bearer ${a.token}`), 400, 'MISSING_TENANT_HEADER');
    });
  });

  describe('ids', () => {
    it('a product of another company → 404', async () => {
      const foreign = await makeProduct(b);
      expectProblem(await api().get(`/api/catalog/products/${foreign.hash}`).set(a.headers()), 404, 'PRODUCT_NOT_FOUND');
    });
    it('a customer of another company → 404, also on PATCH (nothing written)', async () => {
      const foreign = await makeCustomer(b, { name: 'Cliente B' });
      expectProblem(await api().get(`/api/catalog/customers/${foreign.hash}`).set(a.headers()), 404, 'CUSTOMER_NOT_FOUND');
      const res = await api().patch(`/api/catalog/customers/${foreign.hash}`).set(a.headers()).send({ name: 'Hijacked', version: 1 });
      expectProblem(res, 404, 'CUSTOMER_NOT_FOUND');
      const still = await api().get(`/api/catalog/customers/${foreign.hash}`).set(b.headers());
      expect(still.body.name).to.equal('Cliente B');
    });
    it('malformed hashid → 400 INVALID_ID', async () => {
      const res = await api().get('/api/catalog/products/!!bad!!').set(a.headers());
      expectProblem(res, 400, 'INVALID_ID');
      expect(res.body.errors[0].path).to.equal('params.id');
    });
    it('an id of another resource type (customer id as product id) → 404', async () => {
      const customer = await makeCustomer(a);
      expectProblem(await api().get(`/api/catalog/products/${customer.hash}`).set(a.headers()), 404, 'PRODUCT_NOT_FOUND');
    });
    it('per-type salts: one integer encodes differently per type', () => {
      expect(encodeId('product', 7)).to.not.equal(encodeId('customer', 7));
    });
  });

  it('GET /api/me answers the user, company and granted filiais', async () => {
    const res = await api()
      .get('/api/me')
      .set(a.headersWith({ filiais: [a.filialHashes[1]], sub: 'maria' }, 1));
    expect(res.status).to.equal(200);
    expect(res.body.user).to.equal('maria');
    expect(res.body.company.id).to.equal(a.companyHash);
    expect(res.body.filiais.map((f: { id: string }) => f.id)).to.deep.equal([a.filialHashes[1]]);
    expect(res.body.filiais[0]).to.include.keys('name', 'cnpj', 'uf');
  });
});
