import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Customer, Product } from '../../src/modules/catalog';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { createTestTenant, TestTenant } from '../support/tenant';
import { fulfilledOrder } from '../invoices/support';
import { counterTenant, Counter } from '../nfce/support';

/*
 * The loader's rows kept between computations (issue 51, core/db/versioned-row-cache.ts): products and
 * customers come from the cache only while their version in the database is the cached one, so a
 * change through the routes, or one committed by another process, is seen by the next preview, NF-e
 * and NFC-e.
 */
const productRow = (id: number) => dataSource.manager.findOneByOrFail(Product, { id });
const customerRow = (id: number) => dataSource.manager.findOneByOrFail(Customer, { id });

describe('Tax engine cache of products and customers', () => {
  let t: TestTenant;
  let other: TestTenant;
  let product: Product & { hash: string };
  let customer: Customer & { hash: string };

  const preview = async (tenant = t, productHash = product.hash, customerHash = customer.hash) => {
    const res = await api()
      .post('/api/fiscal/preview')
      .set(tenant.headers())
      .send({ customerId: customerHash, date: '2026-06-15', items: [{ productId: productHash, quantity: 1, unitPrice: 100 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    product = await makeProduct(t, { ncm: '61091000' });
    customer = await makeCustomer(t);
    await setupFiscalData(t, { filiais: [0], products: [product.id], customers: [{ id: customer.id, uf: 'SP', contributor: true }] });
  });

  it('a product and a customer changed through their routes: the next preview computes with them', async () => {
    const first = await preview();
    expect(first.items[0]).to.include({ ncm: '61091000', description: product.name });
    expect(first.items[0].icms).to.include({ rate: 18 });

    const patched = await api()
      .patch(`/api/catalog/products/${product.hash}`)
      .set(t.headers())
      .send({ version: (await productRow(product.id)).version, ncm: '62034200', name: 'Calça de algodão' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect((await preview()).items[0]).to.include({ ncm: '62034200', description: 'Calça de algodão' });

    // The customer moves to MG: interstate at 12 %.
    const moved = await api()
      .patch(`/api/catalog/customers/${customer.hash}`)
      .set(t.headers())
      .send({
        version: (await customerRow(customer.id)).version,
        stateRegistration: '062.307.904/0081',
        address: {
          street: 'Rua da Bahia',
          number: '100',
          district: 'Centro',
          municipalityCode: '3106200',
          municipalityName: 'Belo Horizonte',
          uf: 'MG',
          postalCode: '30160011',
        },
      });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const interstate = await preview();
    expect(interstate.recipient.address.uf).to.equal('MG');
    expect(interstate.items[0].icms).to.include({ rate: 12 });
  });

  it('a filial setting changed through its route is seen by the next preview', async () => {
    const settings = (await api().get(`/api/settings/filial/${t.filialHashes[0]}`).set(t.headers())).body;
    const res = await api()
      .patch(`/api/settings/filial/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({ version: settings.version, tradeName: 'Loja Renomeada' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((await preview()).issuer.tradeName).to.equal('Loja Renomeada');
  });

  it('a change committed by another process (the row and its version, nothing in this process) is seen by the next preview', async () => {
    await preview();
    await dataSource.manager.query("UPDATE product SET ncm = '61046200', version = version + 1 WHERE id = ?", [product.id]);
    await dataSource.manager.query("UPDATE customer SET name = 'Outro Nome Ltda', version = version + 1 WHERE id = ?", [customer.id]);
    const body = await preview();
    expect(body.items[0].ncm).to.equal('61046200');
    expect(body.recipient.name).to.equal('Outro Nome Ltda');
  });

  it('the cache is used: a row changed behind its version’s back (no write path does that) is not read again until the version moves', async () => {
    const cached = (await preview()).items[0].ncm;
    await dataSource.manager.query("UPDATE product SET ncm = '61071100' WHERE id = ?", [product.id]);
    expect((await preview()).items[0].ncm, 'served from the cache').to.equal(cached);
    await dataSource.manager.query('UPDATE product SET version = version + 1 WHERE id = ?', [product.id]);
    expect((await preview()).items[0].ncm).to.equal('61071100');
  });

  it('no row of another tenant: a product cached for one company is not found by another', async () => {
    await preview();
    const res = await api()
      .post('/api/fiscal/preview')
      .set(other.headers())
      .send({ date: '2026-06-15', items: [{ productId: product.hash, quantity: 1, unitPrice: 100 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.errors).to.deep.include({ path: 'items[0].productId', message: 'product not found' });
  });
});

describe('Tax engine cache of products: NF-e and NFC-e see a change', function () {
  this.timeout(60_000);
  let c: Counter;

  before(async () => {
    c = await counterTenant();
    await c.save();
  });

  const rename = async (p: { id: number; hash: string }, name: string) => {
    const res = await api()
      .patch(`/api/catalog/products/${p.hash}`)
      .set(c.t.headers())
      .send({ version: (await productRow(p.id)).version, name });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  it('an NF-e issued after a product change carries it', async () => {
    const first = await fulfilledOrder(c.t);
    const before = await api().post('/api/invoices/preview').set(c.t.headers()).send({ fulfillmentId: first.fulfillmentId });
    expect(before.status, JSON.stringify(before.body)).to.equal(200);
    await rename(c.t.products[0], 'Cerveja Renomeada NF-e');
    const { fulfillmentId } = await fulfilledOrder(c.t);
    const res = await api().post('/api/invoices/issue').set(c.t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const xml = await api().get(`/api/invoices/${res.body.id}/xml`).set(c.t.headers());
    expect(xml.text).to.contain('<xProd>Cerveja Renomeada NF-e</xProd>');
  });

  it('an NFC-e sold after a product change carries it', async () => {
    const first = await c.sell();
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    await rename(c.t.products[0], 'Cerveja Renomeada NFC-e');
    const res = await c.sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const xml = await api().get(`/api/nfce/${res.body.fiscalDocument.id}/xml`).set(c.t.headers());
    expect(xml.text).to.contain('<xProd>Cerveja Renomeada NFC-e</xProd>');
  });
});
