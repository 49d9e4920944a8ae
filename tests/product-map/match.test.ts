import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import { matchSupplierItems } from '../../src/modules/product-map/product-match.service';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, randomCpf, TestTenant } from '../support/tenant';
import { countQueries } from '../support/statements';
import { BASE, makeEntry, punctuatedCnpj } from './support';

describe('Product map: POST /match', () => {
  let t: TestTenant;
  let other: TestTenant;
  let supplier: string;
  const match = (tenant: TestTenant, body: object) => api().post(`${BASE}/match`).set(tenant.headers()).send(body);

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    supplier = randomCnpj();
  });

  it('resolves by map entry first (its factor), then by GTIN (factor 1), then suggests by description', async () => {
    const mapped = await makeProduct(t, { name: 'Refrigerante Guaraná 2L', gtin: '7891000053508' });
    const byGtin = await makeProduct(t, { name: 'Água Mineral 500ml', gtin: '7894900530001' });
    const target = await makeProduct(t, { name: 'Cerveja Pilsen 350ml lata' });
    for (const name of [
      'Cerveja Pilsen 600ml garrafa',
      'Cerveja Puro Malte lata 350ml',
      'Refrigerante Cola Lata 350ml',
      'Chopp Pilsen 350ml',
      'Cerveja Pilsen Lata 473ml',
    ]) {
      await makeProduct(t, { name });
    }
    const entry = await makeEntry(t, {
      supplierDocument: supplier,
      supplierProductCode: 'G-2L',
      productId: mapped.id,
      conversionFactor: '6',
      supplierUnit: 'FD',
    });

    const res = await match(t, {
      supplierDocument: punctuatedCnpj(supplier),
      items: [
        // the map wins even though the GTIN names another product
        { code: 'G-2L', description: 'REFRIG GUARANA 2L FD C/6', gtin: '7894900530001', unit: 'FD' },
        { code: 'AGUA-500', description: 'AGUA MIN 500ML', gtin: '7894900530001', unit: 'UN' },
        { code: 'CERV-350', description: 'CERVEJA PILSEN LATA 350ML', gtin: 'SEM GTIN', unit: 'CX' },
        { code: 'NADA', description: 'PARAFUSO SEXTAVADO M8', unit: 'UN' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.supplierDocument).to.equal(supplier);
    expect(res.body.summary).to.deep.equal({ total: 4, matched: 2, suggested: 1, unmatched: 1 });
    const [a, b, c, d] = res.body.items;
    expect(a).to.deep.include({
      index: 0,
      code: 'G-2L',
      status: 'MATCHED',
      source: 'MAP',
      productId: mapped.hash,
      conversionFactor: 6,
      mapEntryId: entry.hash,
      suggestions: [],
    });
    expect(a.product).to.deep.equal({ id: mapped.hash, code: mapped.code, name: mapped.name, unit: 'UN', active: true });
    expect(b).to.deep.include({ status: 'MATCHED', source: 'GTIN', productId: byGtin.hash, conversionFactor: 1, mapEntryId: null });
    expect(c).to.deep.include({ status: 'SUGGESTED', source: 'DESCRIPTION', productId: null, conversionFactor: null, product: null });
    expect(c.suggestions[0]).to.deep.include({ productId: target.hash, score: 1 });
    expect(c.suggestions.length).to.be.within(2, 5);
    for (let i = 1; i < c.suggestions.length; i++) {
      expect(c.suggestions[i].score).to.be.within(0, c.suggestions[i - 1].score);
    }
    expect(d).to.deep.include({ status: 'UNMATCHED', source: null, productId: null, suggestions: [] });
  });

  it('"SEM GTIN", empty and invalid check digits never match; GTIN-14 with leading zero matches the GTIN-13', async () => {
    const p = await makeProduct(t, { name: 'Detergente Neutro 500ml', gtin: '7891024134702' });
    const res = await match(t, {
      supplierDocument: supplier,
      items: [
        { code: 'D1', description: 'XYZ', gtin: '07891024134702', unit: 'UN' },
        { code: 'D2', description: 'XYZ', gtin: '7891024134703', unit: 'UN' },
        { code: 'D3', description: 'XYZ', gtin: 'SEM GTIN', unit: 'UN' },
        { code: 'D4', description: 'XYZ', gtin: '', unit: 'UN' },
        { code: 'D5', description: 'XYZ', unit: 'UN' },
      ],
    });
    expect(res.status).to.equal(200);
    expect(res.body.items.map((i: { status: string }) => i.status)).to.deep.equal([
      'MATCHED',
      'UNMATCHED',
      'UNMATCHED',
      'UNMATCHED',
      'UNMATCHED',
    ]);
    expect(res.body.items[0].productId).to.equal(p.hash);
  });

  it('a GTIN carried by two products is a suggestion, never a match; inactive products are not matched by GTIN', async () => {
    const gtin = '7896005800010';
    const p1 = await makeProduct(t, { name: 'Sabonete A', gtin });
    const p2 = await makeProduct(t, { name: 'Sabonete B', gtin });
    await makeProduct(t, { name: 'Sabonete Velho', gtin: '7896005800027', active: false });
    const res = await match(t, {
      supplierDocument: supplier,
      items: [
        { code: 'S1', description: 'SABONETE', gtin, unit: 'UN' },
        { code: 'S2', description: 'QWERTY', gtin: '7896005800027', unit: 'UN' },
      ],
    });
    expect(res.body.items[0]).to.deep.include({ status: 'SUGGESTED', source: 'GTIN', productId: null });
    expect(res.body.items[0].suggestions.map((s: { productId: string }) => s.productId)).to.deep.equal([p1.hash, p2.hash]);
    expect(res.body.items[1].status).to.equal('UNMATCHED');
  });

  it('a CPF supplier works; an invalid CPF/CNPJ → 400 naming the field', async () => {
    const cpf = randomCpf();
    const p = await makeProduct(t, { name: 'Ovos Caipira Dúzia' });
    await makeEntry(t, { supplierDocument: cpf, supplierProductCode: 'OVO', productId: p.id });
    const ok = await match(t, {
      supplierDocument: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
      items: [{ code: 'OVO', description: 'OVOS', unit: 'DZ' }],
    });
    expect(ok.body.items[0]).to.deep.include({ status: 'MATCHED', productId: p.hash });

    const bad = await match(t, {
      supplierDocument: supplier.slice(0, 13) + ((Number(supplier[13]) + 1) % 10),
      items: [{ code: 'X', description: 'X', unit: 'UN' }],
    });
    expectProblem(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['supplierDocument']);
  });

  it('bad input → 400 with field paths: no items, more than 990, missing code/unit', async () => {
    expectProblem(await match(t, { supplierDocument: supplier, items: [] }), 400, 'VALIDATION_ERROR');
    const tooMany = await match(t, {
      supplierDocument: supplier,
      items: Array.from({ length: 991 }, (_v, i) => ({ code: `C${i}`, description: 'X', unit: 'UN' })),
    });
    expectProblem(tooMany, 400, 'VALIDATION_ERROR');
    expect(tooMany.body.errors[0].path).to.equal('items');
    const missing = await match(t, { supplierDocument: supplier, items: [{ description: 'X' }] });
    expectProblem(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.errors.map((e: { path: string }) => e.path)).to.have.members(['items[0].code', 'items[0].unit']);
  });

  it("another company's map entries and products never resolve this company's items", async () => {
    const foreign = await makeProduct(other, { name: 'Biscoito Recheado Chocolate 140g', gtin: '7891000100004' });
    await makeEntry(other, { supplierDocument: supplier, supplierProductCode: 'BISC-140', productId: foreign.id });
    const res = await match(t, {
      supplierDocument: supplier,
      items: [{ code: 'BISC-140', description: 'BISCOITO RECHEADO CHOCOLATE 140G', gtin: '7891000100004', unit: 'UN' }],
    });
    expect(res.body.items[0]).to.deep.include({ status: 'UNMATCHED', productId: null, suggestions: [] });
    // and the other company sees its own
    const theirs = await match(other, { supplierDocument: supplier, items: [{ code: 'BISC-140', description: '', unit: 'UN' }] });
    expect(theirs.body.items[0]).to.deep.include({ status: 'MATCHED', productId: foreign.hash });
  });

  it('supplier codes are exact: "ab-1" is not "AB-1"', async () => {
    const p = await makeProduct(t, { name: 'Produto Caixa Alta' });
    await makeEntry(t, { supplierDocument: supplier, supplierProductCode: 'AB-1', productId: p.id });
    const res = await match(t, {
      supplierDocument: supplier,
      items: [
        { code: 'AB-1', description: '', unit: 'UN' },
        { code: 'ab-1', description: '', unit: 'UN' },
      ],
    });
    expect(res.body.items.map((i: { status: string }) => i.status)).to.deep.equal(['MATCHED', 'UNMATCHED']);
  });

  it('990 items are answered with a bounded number of queries (not one per item)', async function () {
    this.timeout(60_000);
    const s = await createTestTenant({ filiais: 1 });
    const doc = randomCnpj();
    const products: Awaited<ReturnType<typeof makeProduct>>[] = [];
    for (let i = 0; i < 40; i++) products.push(await makeProduct(s, { name: `Produto Linha ${i} Sabor ${i % 7} ${100 + i}g`, gtin: null }));
    const rows = Array.from({ length: 330 }, (_v, i) => ({
      companyId: s.companyId,
      supplierDocument: doc,
      supplierProductCode: `M${i}`,
      supplierUnit: 'UN',
      productId: products[i % products.length].id,
    }));
    for (let i = 0; i < rows.length; i += 100) await dataSource.manager.insert(ProductMapEntry, rows.slice(i, i + 100));
    const items = Array.from({ length: 990 }, (_v, i) =>
      i < 330
        ? { code: `M${i}`, description: 'X', unit: 'UN' }
        : { code: `N${i}`, description: `PRODUTO LINHA ${i % 40} SABOR ${i % 7} ${100 + (i % 40)}G ${i}`, unit: 'UN' },
    );
    const small = await countQueries(() => matchSupplierItems(s.ctx, doc, items.slice(0, 10).concat(items.slice(400, 410))));
    const large = await countQueries(() => matchSupplierItems(s.ctx, doc, items));
    expect(large.result.filter((r) => r.status === 'MATCHED')).to.have.length(330);
    expect(large.result.filter((r) => r.status === 'SUGGESTED').length).to.be.above(600);
    expect(small.queries).to.be.at.most(8);
    expect(large.queries).to.be.at.most(16);

    const res = await api().post(`${BASE}/match`).set(s.headers()).send({ supplierDocument: doc, items });
    expect(res.status).to.equal(200);
    expect(res.body.items).to.have.length(990);
    expect(res.body.items[5].productId).to.equal(encodeId('product', products[5].id));
  });

  it('needs a token with entry-document:read', async () => {
    const res = await api()
      .post(`${BASE}/match`)
      .set(t.headersWith({ scope: 'catalog:read' }))
      .send({ supplierDocument: supplier, items: [{ code: 'X', description: 'X', unit: 'UN' }] });
    expectProblem(res, 403, 'INSUFFICIENT_SCOPE');
  });
});
