import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { fulfilledOrder } from '../invoices/support';
import { counterTenant } from '../nfce/support';
import type { InvoiceTenant } from '../invoices/support';

/** Issue 43 (10): the fiscal files through the SDK — procEventoNFe of events, procInutNFe of voided numbers, NF-e and NFC-e. */
describe('SDK: fiscal files (procEventoNFe, procInutNFe)', function () {
  this.timeout(90_000);
  let t: InvoiceTenant;
  let server: Server;
  let client: Client;
  let sell: () => Promise<any>;

  before(async () => {
    const c = await counterTenant();
    t = c.t;
    await c.save();
    sell = () => c.sell();
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

  it('invoices.cancellationXml, correctionXml, voidedNumberXml; nfce.cancellationXml, originalXml (404 as NotFound with its code); the generated operations alike', async () => {
    const issued = await client.invoices.issue({ fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    await client.invoices.correct(issued.id, { correction: 'Entrega pela portaria lateral do deposito' });
    expect(await client.invoices.correctionXml(issued.id, 1))
      .to.match(/^<procEventoNFe /)
      .and.contain('<tpEvento>110110</tpEvento>');
    await client.invoices.cancel(issued.id, { justification: 'Pedido cancelado pelo cliente' });
    const cancellation = await client.invoices.cancellationXml(issued.id);
    expect(cancellation)
      .to.match(/^<procEventoNFe /)
      .and.contain('<tpEvento>110111</tpEvento>');
    expect(await client.operations.getInvoicesIdCancellationXml({ id: issued.id })).to.equal(cancellation);

    const series = (await client.invoices.series()).data.find((s) => s.model === 55)!;
    await client.invoices.voidNumbers({
      filialId: t.filialHashes[0],
      series: series.series,
      first: series.nextNumber,
      last: series.nextNumber,
      justification: 'Numero reservado e nao utilizado',
    });
    expect(await client.invoices.voidedNumberXml(series.id, series.nextNumber))
      .to.match(/^<procInutNFe /)
      .and.contain(`<nNFIni>${series.nextNumber}</nNFIni>`);
    const err = await client.invoices.voidedNumberXml(series.id, series.nextNumber + 1).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(404);
    expect((err as ApiError).code).to.equal('NUMBER_NOT_VOIDED');

    const note = (await sell()).body.fiscalDocument;
    expect(note.status).to.equal('AUTHORIZED');
    const missing = await client.nfce.cancellationXml(note.id).catch((e: unknown) => e);
    expect((missing as ApiError).code).to.equal('NFCE_EVENT_NOT_FOUND');
    expect(((await client.nfce.originalXml(note.id).catch((e: unknown) => e)) as ApiError).code).to.equal('NFCE_EVENT_NOT_FOUND');
    await client.operations.postNfceIdCancel({ id: note.id, body: { justification: 'Venda cancelada a pedido do cliente' } });
    const nfceCancel = await client.nfce.cancellationXml(note.id);
    expect(nfceCancel)
      .to.match(/^<procEventoNFe /)
      .and.contain(`<chNFe>${note.accessKey}</chNFe>`);
    expect(await client.operations.getNfceIdCancellationXml({ id: note.id })).to.equal(nfceCancel);
  });
});
