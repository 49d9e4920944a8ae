import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { businessToday } from '../../src/core/business-date';
import { createTestTenant, TestTenant } from '../support/tenant';

/** The SDK's fiscal periods against the real server: list, close, the 409 of a second close, reopen, the package's bytes. */
describe('SDK: fiscal periods and the accountant’s package', () => {
  let t: TestTenant;
  let server: Server;
  let client: Client;
  const month = businessToday().slice(0, 7);

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

  it('closes and reopens a month; a closed month refuses a second close (ApiError 409); the package is a ZIP with its manifest', async () => {
    const list = await client.fiscalPeriods.list(t.filialHashes[0], { from: '2026-01', to: month });
    expect(list.data[0]).to.include({ period: month, status: 'OPEN' });
    const closed = await client.fiscalPeriods.close(t.filialHashes[0], month);
    expect(closed.period).to.include({ status: 'CLOSED', closeCount: 1 });
    expect(closed.pending).to.deep.equal([]);
    const err = await client.fiscalPeriods.close(t.filialHashes[0], month).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect(err).to.include({ status: 409, code: 'FISCAL_PERIOD_CLOSED' });
    expect((await client.fiscalPeriods.get(t.filialHashes[0], month)).period.status).to.equal('CLOSED');
    const zip = await client.fiscalPeriods.package(t.filialHashes[0], month);
    expect(Buffer.from(zip.subarray(0, 4)).toString('hex')).to.equal('504b0304');
    expect(Buffer.from(zip).includes(Buffer.from('manifest.json'))).to.equal(true);
    const reopened = await client.fiscalPeriods.reopen(t.filialHashes[0], month, 'Ajuste de lancamento apos o fechamento');
    expect(reopened.period).to.include({ status: 'OPEN', reopenReason: 'Ajuste de lancamento apos o fechamento' });
  });
});
