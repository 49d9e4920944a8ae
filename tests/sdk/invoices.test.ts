import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from '../invoices/support';

/** The SDK's invoices namespace against the real server and the local authority. */
describe('SDK: invoices', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await invoiceTenant({ email: null });
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

  it('preview, issue, get, list, xml, danfe, correct, cancel, series, numbers, voidNumbers', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const preview = await client.invoices.preview({ fulfillmentId });
    expect(preview.items).to.have.length(2);
    const issued = await client.invoices.issue({ fulfillmentId });
    expect(issued).to.include({ status: 'AUTHORIZED', total: preview.totals.vNF });
    expect((await client.invoices.get(issued.id)).accessKey).to.equal(issued.accessKey);
    expect((await client.invoices.list()).data.map((d) => d.id)).to.include(issued.id);
    expect(await client.invoices.xml(issued.id)).to.match(/^<nfeProc /);
    expect(
      Buffer.from(await client.invoices.danfe(issued.id))
        .subarray(0, 5)
        .toString(),
    ).to.equal('%PDF-');
    expect(
      (await client.invoices.correct(issued.id, { correction: 'Entrega pela portaria lateral do deposito' })).correctionSequence,
    ).to.equal(1);
    expect((await client.invoices.cancel(issued.id, { justification: 'Pedido cancelado pelo cliente' })).status).to.equal('CANCELLED');
    const [series] = (await client.invoices.series()).data;
    const voided = await client.invoices.voidNumbers({
      filialId: t.filialHashes[0],
      series: series.series,
      first: series.nextNumber,
      last: series.nextNumber,
      justification: 'Numero reservado e nao utilizado',
    });
    expect(voided.status).to.equal('VOIDED');
    const report = await client.invoices.numbers(series.id);
    expect(report.unaccounted).to.deep.equal([]);
    expect(report.numbers.map((n) => n.fate)).to.include.members(['CANCELLED', 'VOIDED']);
  });
});
