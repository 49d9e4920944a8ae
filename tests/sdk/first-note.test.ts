import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { signToken } from '../../src/core/auth/jwt';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { decodeId } from '../../src/core/hashids';
import { useLocalAuthority } from '../../src/dev/sefaz-simulator/local-authority';
import { toPfx } from '../../src/dev/sefaz-simulator/pki';
import { addStock, makeCustomer, makePaymentMethod, makeProduct, makeSeller } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { randomCnpj, TestTenant } from '../support/tenant';
import { testCertificate, testRootCa } from '../support/test-certificate';
import { authority } from '../sefaz/support';
import { nfceSettings } from '../nfce/support';

/** Issue 44 through the SDK: an operator creates the company, its owner readies the filial and issues an NF-e and an NFC-e. */
describe('SDK: a company of one’s own to its first NF-e and NFC-e (issue 44)', function () {
  this.timeout(120_000);
  let server: Server;
  let baseUrl: string;

  before(async () => {
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    useLocalAuthority(null);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('operator → company; owner → readiness, certificate, simulator, NF-e and NFC-e AUTHORIZED', async () => {
    const cnpj = cnpjWithCheckDigits(`${String(10_000_000 + Math.floor(Math.random() * 89_999_999))}0001`);
    const operator = createClient({
      baseUrl,
      token: signToken({ sub: 'ops', companyId: '*', filiais: ['*'], scope: 'operator' }, '1h'),
      companyId: '*',
    });
    const created = await operator.operations.postOperatorCompanies({
      body: {
        name: 'Padaria Pão de Mel Ltda',
        cnpj,
        filiais: [
          {
            name: 'Matriz',
            cnpj,
            uf: 'SP',
            nfeEnvironment: 'HOMOLOGATION',
            taxRegime: 'LUCRO_PRESUMIDO',
            stateRegistration: '110042490114',
            address: {
              street: 'Rua Vergueiro',
              number: '200',
              district: 'Liberdade',
              municipalityCode: '3550308',
              municipalityName: 'São Paulo',
              postalCode: '01504000',
            },
          },
        ],
      },
    });
    expect(created.filiais).to.have.length(1);
    const filialId = created.filiais[0].filialId;
    const token = signToken({ sub: 'dono', companyId: created.companyId, filiais: ['*'], scope: '*' }, '1h');
    const owner = createClient({ baseUrl, token, companyId: created.companyId, filialId });

    const first = await owner.operations.getSettingsFilialFilialIdReadiness();
    expect(first.missing).to.deep.equal(['CERTIFICATE', 'CSC', 'TAX_RULES']);

    const self = testCertificate(cnpj, 'PADARIA', { selfSigned: true });
    const refused = await owner.operations
      .putEntryDocumentNfeCertificadoFilialId({
        body: { pfx: toPfx({ keyPem: self.privateKeyPem, certPem: self.certificatePem }, 'x').toString('base64'), password: 'x' },
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    // Homologação takes it with a warning; what counts here is that the trusted one then replaces it.
    expect(refused).to.equal(null);
    const cert = testCertificate(cnpj, 'PADARIA PAO DE MEL LTDA');
    const uploaded = await owner.operations.putEntryDocumentNfeCertificadoFilialId({
      body: {
        pfx: toPfx({ keyPem: cert.privateKeyPem, certPem: cert.certificatePem }, 'senha', [testRootCa().certPem]).toString('base64'),
        password: 'senha',
      },
    });
    expect(uploaded).to.include({ trust: 'TRUSTED', trustWarning: null });

    useLocalAuthority(null);
    const notRunning = await owner.operations.postSettingsFilialFilialIdSimulator({ body: {} }).catch((e: unknown) => e);
    expect(notRunning).to.be.instanceOf(ApiError);
    expect((notRunning as ApiError).code).to.equal('SIMULATOR_NOT_RUNNING');
    const { sim, endpoints } = await authority();
    useLocalAuthority(sim, endpoints);
    const attached = await owner.operations.postSettingsFilialFilialIdSimulator({ body: {} });
    expect(attached).to.include({ certificateIssued: false, url: endpoints.url });

    // Tax rules, products and the counter (tests/support: the same data the emission tests use).
    const companyId = decodeId('company', created.companyId);
    const t = {
      companyId,
      companyHash: created.companyId,
      filialIds: [decodeId('filial', filialId)],
      filialHashes: [filialId],
      token,
      headers: () => ({ Authorization: `Bearer ${token}`, 'x-company-id': created.companyId, 'x-filial-id': filialId }),
      headersWith: () => ({}),
      ctx: { companyId, actor: 'dono' },
    } as TestTenant;
    const customer = await makeCustomer(t, { document: randomCnpj(), email: 'compras@cliente.com.br' } as never);
    const product = await makeProduct(t, { ncm: '19052090', gtin: null } as never);
    await addStock(t, 0, product.id, 100, '2');
    await setupFiscalData(t, { filiais: [], products: [product.id], customers: [{ id: customer.id, document: customer.document! }] });
    await owner.operations.putNfceConfigurationFilialId({ body: nfceSettings() as never });
    const ready = await owner.operations.getSettingsFilialFilialIdReadiness();
    expect(ready.ready).to.deep.equal({ nfe: true, nfce: true });
    // The authority settings: a URL set by hand (unused on the simulator, and the check says so), the policy, an operator's contingency.
    const settings = await owner.operations.putSettingsFilialFilialIdAuthority({
      body: {
        urlOverrides: [
          {
            environment: 'HOMOLOGATION',
            target: 'AUTHORIZER',
            service: 'STATUS_SERVICO',
            url: 'https://homologacao.nfe.fazenda.sp.gov.br/ws/nfestatusservico4.asmx',
          },
        ],
        contingency: { nfe: 'MANUAL', nfce: 'AUTOMATIC_OFFLINE' },
      },
    });
    expect(settings.contingency).to.deep.equal({ nfe: 'MANUAL', nfce: 'AUTOMATIC_OFFLINE', open: null });
    expect((await owner.operations.getSettingsFilialFilialIdReadiness()).checks.find((c) => c.code === 'CONTINGENCY')?.status).to.equal(
      'WARNING',
    );
    const entered = await owner.operations.postSettingsFilialFilialIdContingency({ body: { reason: 'SEFAZ-SP em manutenção programada' } });
    expect(entered.mode).to.equal('SVC-AN');
    await owner.operations.deleteSettingsFilialFilialIdContingency();
    await owner.operations.putSettingsFilialFilialIdAuthority({
      body: { contingency: { nfe: 'AUTOMATIC_SVC', nfce: 'AUTOMATIC_OFFLINE' } },
    });

    const order = await owner.operations.postSalesOrder({
      body: { customerId: customer.hash, items: [{ productId: product.hash, quantity: 4, unitPrice: '7.50' }] } as never,
    });
    const items = (order as unknown as { items: { salesOrderItemId: string; quantity: number }[] }).items;
    const fulfilled = await owner.operations.postSalesOrderIdFulfill({
      id: (order as unknown as { id: string }).id,
      body: { items: items.map((i) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })) },
    } as never);
    const nfe = await owner.operations.postInvoicesIssue({
      body: { fulfillmentId: (fulfilled as unknown as { fulfillment: { id: string } }).fulfillment.id },
    });
    expect(nfe).to.include({ status: 'AUTHORIZED', model: 55, number: 1 });

    const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
    const seller = await makeSeller(t, { name: 'Caixa 1' });
    await makePaymentMethod(t, 'CASH', 'CASH');
    await owner.operations.putQuickSaleConfigurationFilialId({
      body: {
        enabled: true,
        defaultCustomerId: walkIn.hash,
        defaultSellerId: seller.hash,
        paymentMethods: ['CASH'],
        defaultPaymentMethod: 'CASH',
      },
    });
    const sale = await owner.operations.postSalesOrder({
      body: {
        flowMode: 'QUICK_SALE',
        items: [{ productId: product.hash, quantity: 1, unitPrice: '7.50' }],
        payments: [{ method: 'CASH', amount: '7.50' }],
      } as never,
    });
    expect((sale as unknown as { fiscalDocument: { status: string; model: number } }).fiscalDocument).to.include({
      status: 'AUTHORIZED',
      model: 65,
    });
  });
});
