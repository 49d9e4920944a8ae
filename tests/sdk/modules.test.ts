import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { makePaymentMethod } from '../support/catalog';
import { countOf, nfeTenant, NfeTenant, rowsOf } from '../nfe/nfe-support';

/** The SDK parts typed from the generated OpenAPI types, against the real server: catalog, quick sale, returns, NF-e, tax authority. */
describe('SDK: catalog, quick sale, returns, NF-e and the tax authority', () => {
  let t: NfeTenant;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await nfeTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: t.token,
      companyId: t.companyHash,
      filialId: t.filialHashes[0],
    });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('catalog: creates, reads, edits and finds a product and a customer; stock of the filial', async () => {
    const product = await client.catalog.products.create({ code: 'CAF-500', name: 'Café torrado 500 g', unit: 'UN', price: '18.90' });
    expect(product).to.include({ code: 'CAF-500', name: 'Café torrado 500 g' });
    const edited = await client.catalog.products.update(product.id, { name: 'Café torrado e moído 500 g', version: product.version });
    expect(edited.name).to.equal('Café torrado e moído 500 g');
    expect((await client.catalog.products.get(product.id)).name).to.equal('Café torrado e moído 500 g');
    expect((await client.catalog.products.list({ search: 'moído' })).data.map((p) => p.id)).to.deep.equal([product.id]);
    const customer = await client.catalog.customers.create({ name: 'Maria da Silva' });
    expect((await client.catalog.customers.list({ search: 'maria' })).data.map((c) => c.id)).to.include(customer.id);
    expect(await countOf('product', t.companyId)).to.equal(1);
    const stock = await client.catalog.stock();
    expect(stock.data).to.be.an('array');
  });

  it('quick sale: configuration read, saved and validated; returns: an empty list', async () => {
    await makePaymentMethod(t, 'CASH', 'CASH');
    const saved = await client.quickSale.configure({ enabled: false, paymentMethods: ['CASH'] });
    expect(saved).to.include({ enabled: false });
    expect(await client.quickSale.configuration()).to.deep.equal(saved);
    expect(await client.quickSale.validate()).to.be.an('object');
    expect((await client.returns.list()).data).to.deep.equal([]);
  });

  it('NF-e: stage, import, list, detail, XML, DANFE; the tax authority without a certificate → ApiError 422', async () => {
    const built = await t.nfe();
    const staged = await client.nfe.stage(built.xml);
    expect(staged.created).to.equal(true);
    expect(staged.inbound).to.include({ accessKey: built.accessKey, importStatus: 'PENDING' });
    expect((await client.nfe.pending()).data.map((r) => r.id)).to.deep.equal([staged.inbound.id]);
    const detail = await client.nfe.detail(staged.inbound.id);
    expect(detail.report?.valid).to.equal(true);
    expect(await client.nfe.xml(staged.inbound.id)).to.equal(built.xml);
    const pdf = await client.nfe.danfe(staged.inbound.id);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).to.equal('%PDF-');
    const imported = await client.nfe.import({ inboundId: staged.inbound.id });
    expect(imported.inbound.importStatus).to.equal('IMPORTED');
    expect(await rowsOf('entry_document', t.companyId)).to.have.length(1);
    expect((await client.nfe.inbound({ importStatus: 'IMPORTED' })).data.map((r) => r.id)).to.deep.equal([staged.inbound.id]);

    const err = await client.taxAuthority.sync().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect(err).to.include({ status: 422, code: 'CERTIFICATE_REQUIRED' });
    expect((await client.taxAuthority.state()).certificate).to.equal(null);
  });
});
