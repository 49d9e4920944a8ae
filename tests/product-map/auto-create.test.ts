import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { BASE, makeEntry } from './support';

describe('Product map: POST /auto-create', () => {
  let t: TestTenant;
  let other: TestTenant;
  const autoCreate = (tenant: TestTenant, body: object) => api().post(`${BASE}/auto-create`).set(tenant.headers()).send(body);
  const productCount = (tenant: TestTenant) => dataSource.manager.countBy(Product, { companyId: tenant.companyId });
  const item = (over: object = {}) => ({
    supplierDocument: randomCnpj(),
    supplierProductCode: 'CRV-350',
    description: 'CERVEJA PILSEN LATA 350ML',
    unit: 'CX',
    productUnit: 'UN',
    conversionFactor: 12,
    ncm: '22030000',
    cest: '0302100',
    gtin: '7891149103102',
    ...over,
  });

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  it('creates the product (next code, description, unit, NCM, CEST, GTIN) and links the item, in one transaction', async () => {
    const body = item();
    const res = await autoCreate(t, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.codeSource).to.equal('NEXT_CODE');
    expect(res.body.product).to.deep.include({
      name: 'CERVEJA PILSEN LATA 350ML',
      unit: 'UN',
      ncm: '22030000',
      cest: '0302100',
      gtin: '7891149103102',
      active: true,
      version: 1,
    });
    expect(res.body.product.code).to.match(/^\d+$/);
    expect(res.body.entry).to.deep.include({
      supplierDocument: body.supplierDocument,
      supplierProductCode: 'CRV-350',
      supplierUnit: 'CX',
      productId: res.body.product.id,
      conversionFactor: 12,
      gtin: '7891149103102',
    });

    const product = await dataSource.manager.findOneByOrFail(Product, { companyId: t.companyId, gtin: '7891149103102' });
    const entry = await dataSource.manager.findOneByOrFail(ProductMapEntry, {
      companyId: t.companyId,
      supplierDocument: body.supplierDocument,
    });
    expect(entry.productId).to.equal(product.id);
    const audit = await dataSource.manager.find(AuditLog, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
    expect(audit.map((a) => `${a.entity}:${a.action}`)).to.include.members(['product:CREATED', 'product-map-entry:CREATED']);

    // findable at once through the shared search, and matched by the map next time
    const found = await api().get(`${BASE}/search`).query({ q: 'cerveja pilsen lata' }).set(t.headers());
    expect(found.body.data.map((p: { id: string }) => p.id)).to.include(res.body.product.id);
    const matched = await api()
      .post(`${BASE}/match`)
      .set(t.headers())
      .send({ supplierDocument: body.supplierDocument, items: [{ code: 'CRV-350', description: 'x', unit: 'CX' }] });
    expect(matched.body.items[0]).to.deep.include({
      status: 'MATCHED',
      source: 'MAP',
      productId: res.body.product.id,
      conversionFactor: 12,
    });
  });

  it('uses a given code when it is free; a taken one gives way to the next code; the next code continues after both', async () => {
    const free = await autoCreate(t, item({ supplierProductCode: 'C1', gtin: null, code: 'BEB-0001' }));
    expect(free.status).to.equal(201);
    expect(free.body).to.deep.include({ codeSource: 'GIVEN' });
    expect(free.body.product.code).to.equal('BEB-0001');
    const taken = await autoCreate(t, item({ supplierProductCode: 'C2', gtin: null, code: 'BEB-0001' }));
    expect(taken.status).to.equal(201);
    expect(taken.body.codeSource).to.equal('NEXT_CODE');
    expect(taken.body.product.code).to.match(/^\d+$/);
    const next = await api().get(`${BASE}/next-code`).set(t.headers());
    expect(Number(next.body.code)).to.equal(Number(taken.body.product.code) + 1);
  });

  it('the product unit defaults to the supplier unit; description/unit come from the supplier item', async () => {
    const res = await autoCreate(
      t,
      item({
        supplierProductCode: 'D1',
        productUnit: undefined,
        unit: 'kg',
        gtin: undefined,
        ncm: undefined,
        cest: undefined,
        conversionFactor: undefined,
        description: 'Queijo Mussarela Fatiado',
      }),
    );
    expect(res.status).to.equal(201);
    expect(res.body.product).to.deep.include({ unit: 'KG', name: 'Queijo Mussarela Fatiado', gtin: null, ncm: null, cest: null });
    expect(res.body.entry).to.deep.include({ supplierUnit: 'KG', conversionFactor: 1 });
  });

  it('an already mapped supplier code → 409 PRODUCT_MAP_ENTRY_EXISTS; a GTIN another product carries → 409 PRODUCT_GTIN_TAKEN; nothing written', async () => {
    const supplier = randomCnpj();
    const existing = await makeProduct(t, { name: 'Já Mapeado', gtin: '7896004000015' });
    await makeEntry(t, { supplierDocument: supplier, supplierProductCode: 'MAPPED', productId: existing.id });
    const before = await productCount(t);
    const mapped = await autoCreate(t, item({ supplierDocument: supplier, supplierProductCode: 'MAPPED', gtin: null }));
    expectProblem(mapped, 409, 'PRODUCT_MAP_ENTRY_EXISTS');
    expect(mapped.body.productId).to.equal(existing.hash);
    const gtin = await autoCreate(t, item({ supplierDocument: supplier, supplierProductCode: 'NEW', gtin: '7896004000015' }));
    expectProblem(gtin, 409, 'PRODUCT_GTIN_TAKEN');
    expect(gtin.body.productId).to.equal(existing.hash);
    expect(await productCount(t)).to.equal(before);
    expect(await dataSource.manager.countBy(ProductMapEntry, { companyId: t.companyId, supplierDocument: supplier })).to.equal(1);
  });

  it('bad input → 400 with field paths, nothing written', async () => {
    const before = await productCount(t);
    const res = await autoCreate(
      t,
      item({ supplierDocument: '123', gtin: '7891149103103', ncm: '2203', description: '', conversionFactor: 0 }),
    );
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.have.members([
      'supplierDocument',
      'gtin',
      'ncm',
      'description',
      'conversionFactor',
    ]);
    expect(await productCount(t)).to.equal(before);
  });

  it('two concurrent auto-creates of one supplier code → one product and one entry (the loser rolls back its product)', async () => {
    const supplier = randomCnpj();
    const before = await productCount(t);
    const body = item({ supplierDocument: supplier, supplierProductCode: 'RACE', gtin: null });
    const results = await Promise.all([autoCreate(t, body), autoCreate(t, body), autoCreate(t, body)]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectProblem(r, 409, 'PRODUCT_MAP_ENTRY_EXISTS');
    expect(await productCount(t)).to.equal(before + 1);
    expect(await dataSource.manager.countBy(ProductMapEntry, { companyId: t.companyId, supplierDocument: supplier })).to.equal(1);
  });

  it("creates in the caller's company only: a productId in the body is refused as unknown (nothing written); the other company sees nothing", async () => {
    const foreign = await makeProduct(other);
    const supplier = randomCnpj();
    const refused = await autoCreate(t, {
      ...item({ supplierDocument: supplier, supplierProductCode: 'OWN', gtin: null }),
      productId: foreign.hash,
    });
    expectProblem(refused, 400, 'UNKNOWN_FIELDS');
    expect(refused.body.errors).to.deep.equal([{ path: 'productId', message: 'productId is not allowed' }]);
    expect(await dataSource.manager.countBy(ProductMapEntry, { companyId: t.companyId, supplierDocument: supplier })).to.equal(0);
    const res = await autoCreate(t, item({ supplierDocument: supplier, supplierProductCode: 'OWN', gtin: null }));
    expect(res.status).to.equal(201);
    expect(res.body.product.id).to.not.equal(foreign.hash);
    const entry = await dataSource.manager.findOneByOrFail(ProductMapEntry, { companyId: t.companyId, supplierDocument: supplier });
    expect(await dataSource.manager.countBy(Product, { id: entry.productId, companyId: t.companyId })).to.equal(1);
    expect(await dataSource.manager.countBy(ProductMapEntry, { companyId: other.companyId, supplierDocument: supplier })).to.equal(0);
  });

  it('needs product-map:write', async () => {
    const res = await api()
      .post(`${BASE}/auto-create`)
      .set(t.headersWith({ scope: 'entry-document:read' }))
      .send(item());
    expectProblem(res, 403, 'INSUFFICIENT_SCOPE');
  });
});
