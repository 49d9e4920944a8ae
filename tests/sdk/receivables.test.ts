import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { businessToday } from '../../src/core/business-date';
import { createTestTenant, TestTenant } from '../support/tenant';
import { billedOrder, salesSetup } from '../receivables/support';

/** The SDK's receivables part against the real server. */
describe('SDK: receivables', () => {
  let t: TestTenant;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await createTestTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createClient({ baseUrl, token: t.token, companyId: t.companyHash, filialId: t.filialHashes[0] });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('lists, receives, reverses, states, exports and audits; typed results and ApiError', async () => {
    const { customer, product } = await salesSetup(t);
    const { order } = await billedOrder(t, customer.hash, product.hash, 1, { installmentDays: [30, 60] });
    const page = await client.receivables.list({ salesOrderId: order.id });
    expect(page.data.map((r) => r.amount)).to.deep.equal([50, 50]);
    expect(page.summary.openAmount).to.equal(100);
    const first = await client.receivables.receive(page.data[0].id, {
      amount: 20,
      receiptDate: businessToday(),
      method: 'PIX',
      interest: '0.40',
    });
    expect(first.receivable).to.deep.include({ receivedAmount: 20, status: 'PARTIALLY_RECEIVED' });
    expect(first.receipt.total).to.equal(20.4);
    const reversed = await client.receivables.reverseReceipt(first.receipt.id, 'Pix estornado');
    expect(reversed.receivable.status).to.equal('OPEN');
    expect((await client.receivables.detail(page.data[0].id)).receipts.map((r) => r.status)).to.deep.equal(['REVERSED']);
    const statement = await client.receivables.statement({ customerId: customer.hash });
    expect(statement.summary.count).to.equal(2);
    const csv = await client.receivables.exportCsv({ salesOrderId: order.id });
    expect(csv.trim().split('\r\n')).to.have.length(3);
    expect((await client.receivables.audit(page.data[0].id)).entries.map((e) => e.action)).to.deep.equal([
      'CREATED',
      'CREATED',
      'RECEIPT_REGISTERED',
      'REVERSED',
      'RECEIPT_REVERSED',
    ]);
    const over = await client.receivables
      .receive(page.data[0].id, { amount: 51, receiptDate: businessToday(), method: 'PIX' })
      .catch((e: unknown) => e);
    expect(over).to.be.instanceOf(ApiError);
    expect((over as ApiError).code).to.equal('RECEIPT_EXCEEDS_BALANCE');
  });
});
