import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { makeCustomer, makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { createTestTenant, TestTenant } from '../support/tenant';

/** The SDK's fiscal namespace against the real server. */
describe('SDK: fiscal', () => {
  let t: TestTenant;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await createTestTenant();
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

  it('tax groups, operation rules, UF rates, the Lei 12.741 table and a preview', async () => {
    const group = await client.fiscal.createTaxGroup({ code: 'REVENDA2', name: 'Revenda' });
    expect((await client.fiscal.updateTaxGroup(group.id, { version: group.version, name: 'Revenda geral' })).name).to.equal(
      'Revenda geral',
    );
    expect((await client.fiscal.taxGroup(group.id)).code).to.equal('REVENDA2');
    const rule = await client.fiscal.createOperation({
      taxGroupId: group.id,
      operation: 'SALE',
      destination: 'INTERNAL',
      contributor: false,
      validFrom: '2026-01-01',
      cfop: '5102',
      icmsCst: '00',
      csosn: '102',
    });
    expect((await client.fiscal.operation(rule.id)).cfop).to.equal('5102');
    expect((await client.fiscal.updateOperation(rule.id, { version: rule.version, operationNature: 'Venda' })).operationNature).to.equal(
      'Venda',
    );
    expect((await client.fiscal.operations()).data.map((r) => r.id)).to.include(rule.id);
    expect((await client.fiscal.taxGroups()).data.map((g) => g.id)).to.include(group.id);
    expect((await client.fiscal.ufRates({ uf: 'RJ' })).data[0]).to.include({ uf: 'RJ', fcpRate: 2 });
    expect(
      (
        await client.fiscal.createUfRate({
          uf: 'RJ',
          validFrom: '2026-01-01',
          internalRate: 22,
          source: 'Lei RJ',
          sourceDate: '2026-01-01',
        })
      ).shipped,
    ).to.equal(false);
    expect(
      (
        await client.fiscal.loadApproximateTaxes({
          uf: 'SP',
          tableVersion: '1',
          source: 'IBPT',
          validFrom: '2026-01-01',
          validTo: '2026-12-31',
          rows: [{ ncm: '61091000', federalNationalRate: 13.45, federalImportedRate: 20, stateRate: 18, municipalRate: 0 }],
        })
      ).rows,
    ).to.equal(1);
    const product = await makeProduct(t);
    const customer = await makeCustomer(t);
    await setupFiscalData(t, { products: [product.id], customers: [customer.id] });
    const doc = await client.fiscal.preview({
      customerId: customer.hash,
      date: '2026-06-01',
      items: [{ productId: product.hash, quantity: 1, unitPrice: 100 }],
    });
    expect(doc.totals).to.include({ vNF: 100, vICMS: 18, vTotTrib: 31.45 });
    const err = await client.fiscal
      .preview({
        date: '2026-06-01',
        customerId: customer.hash,
        items: [{ productId: (await makeProduct(t)).hash, quantity: 1, unitPrice: 1 }],
      })
      .catch((e) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect(err.status).to.equal(422);
  });
});
