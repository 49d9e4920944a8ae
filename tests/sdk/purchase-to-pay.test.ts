import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { businessToday } from '../../src/core/business-date';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct } from '../support/catalog';
import { NFE, nfeTenant, NfeTenant, uploadConsulted } from '../nfe/nfe-support';

/** The SDK's entryDocuments (line review), payables (payments) and settings parts against the real server. */
describe('SDK: line review, payments of payables, settings', () => {
  let t: NfeTenant;
  let server: Server;
  let client: Client;
  const sent: { method: string; url: string; headers: Record<string, string> }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    sent.push({ method: String(init?.method), url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    return fetch(input, init);
  };

  before(async () => {
    t = await nfeTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createClient({ baseUrl, token: t.token, companyId: t.companyHash, filialId: t.filialHashes[0], fetch: recordingFetch });
    await makePaymentMethod(t, 'PIX', 'PIX');
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reviews the lines of an imported draft, pays its payable in two parts, reverses one; typed results and ApiError', async () => {
    const built = await t.nfe({
      number: 9501,
      items: [{ code: 'SDK-1', description: 'CAFE 500G', unit: 'CX', quantity: '2', unitPrice: '60' }],
      installments: [{ dueDate: '2099-05-05' }],
    });
    const imported = await uploadConsulted(t, await api().post(`${NFE}/importar-xml`).set(t.headers()).send({ xml: built.xml }));
    expect(imported.status).to.equal(201);
    const draft = await client.entryDocuments.detail(imported.body.entryDocument.id);
    expect(draft.items[0]).to.deep.include({ reviewStatus: 'PENDING' });
    expect(draft.items[0].declared).to.deep.include({ code: 'SDK-1', unit: 'CX', quantity: 2 });

    const nothing = await client.entryDocuments.applyProductMap(draft.id, draft.version);
    expect(nothing.applied).to.deep.equal([]);
    const coffee = await makeProduct(t);
    const reviewed = await client.entryDocuments.reviewLines(draft.id, draft.version, [
      { id: draft.items[0].id, productId: coffee.hash, conversionFactor: 12 },
    ]);
    expect(reviewed.items[0]).to.deep.include({ id: draft.items[0].id, reviewStatus: 'MATCHED', stockQuantity: 24 });
    const stale = await client.entryDocuments
      .reviewLines(draft.id, draft.version, [{ id: draft.items[0].id, reviewStatus: 'IGNORED' }])
      .catch((e: unknown) => e);
    expect(stale).to.be.instanceOf(ApiError);
    expect((stale as ApiError).status).to.equal(409);
    expect((stale as ApiError).code).to.equal('STALE_VERSION');
    expect((await api().post(`/api/entry-document/confirm/${draft.id}`).set(t.headers())).status).to.equal(200);

    const [payable] = await client.payables.ofDocument(draft.id);
    expect(payable).to.deep.include({ amount: 120, status: 'OPEN' });
    sent.length = 0;
    const first = await client.payables.pay(payable.id, { amount: 48, paymentDate: businessToday(), method: 'PIX', interest: '1.20' });
    expect(sent[0].headers['Idempotency-Key']).to.match(/^[0-9a-f-]{36}$/);
    expect(first.payment).to.deep.include({ amount: 48, interest: 1.2, total: 49.2, status: 'ACTIVE' });
    expect(first.payable).to.deep.include({ status: 'PARTIALLY_PAID', paidAmount: 48, openAmount: 72 });
    const second = await client.payables.pay(payable.id, { amount: 72, paymentDate: businessToday(), method: 'PIX' });
    expect(second.payable.status).to.equal('PAID');
    expect((await client.entryDocuments.cancelPreview(draft.id)).blockingProblems.map((b) => b.code)).to.deep.equal(['PAYABLE_PAID']);
    const reversed = await client.payables.reversePayment(second.payment.id, 'Pagamento duplicado no banco');
    expect(reversed.payable).to.deep.include({ status: 'PARTIALLY_PAID', paidAmount: 48 });
    const detail = await client.payables.detail(payable.id);
    expect(detail.payments.map((p) => p.status)).to.deep.equal(['ACTIVE', 'REVERSED']);
    const page = await client.payables.list({ status: 'PARTIALLY_PAID' });
    expect(page.data.map((p) => p.id)).to.deep.equal([payable.id]);
    expect(page.summary.aging.dueIn31PlusDays).to.deep.equal({ count: 1, openAmount: 72 });
    const over = await client.payables
      .pay(payable.id, { amount: 100, paymentDate: businessToday(), method: 'PIX' })
      .catch((e: unknown) => e);
    expect((over as ApiError).code).to.equal('PAYMENT_EXCEEDS_BALANCE');
  });

  it('reads and changes filial and company settings', async () => {
    const filial = await client.settings.filial();
    expect(filial).to.deep.include({ filialId: t.filialHashes[0], nfeEnvironment: 'PRODUCTION', version: 1 });
    const changed = await client.settings.updateFilial({
      version: filial.version,
      autoCiencia: false,
      dfeSyncEnabled: true,
      dfeSyncIntervalMinutes: 180,
    });
    expect(changed).to.deep.include({ autoCiencia: false, dfeSyncEnabled: true, dfeSyncIntervalMinutes: 180, version: 2 });
    expect((await client.settings.filial(t.filialHashes[1])).version).to.equal(1);
    const company = await client.settings.company();
    const updated = await client.settings.updateCompany({ version: company.version, purchasePriceTolerancePct: '3.5' });
    expect(updated).to.deep.include({ purchasePriceTolerancePct: 3.5, version: company.version + 1 });
    const bad = await client.settings.updateFilial({ version: 2, dfeSyncIntervalMinutes: 15 }).catch((e: unknown) => e);
    expect((bad as ApiError).status).to.equal(400);
  });
});
