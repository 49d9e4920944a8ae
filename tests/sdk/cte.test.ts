import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient } from '../../sdk/src';
import { createApp } from '../../src/app';
import { makeProduct } from '../support/catalog';
import { cteTenant, CteTenant, importNfe } from '../cte/cte-support';

/** The SDK's ctes part against the real server: stage, read, apportion, the carrier's payable, cancel. */
describe('SDK: CT-e freight', () => {
  let t: CteTenant;
  let server: Server;
  let client: Client;

  before(async () => {
    t = await cteTenant();
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

  it("stages, apportions onto a draft, lists the carrier's payable and cancels; typed results and ApiError", async () => {
    const p = await makeProduct(t);
    const doc = await importNfe(t, [{ code: 'SDK', quantity: '5', unitPrice: '20', productId: p.hash }]);
    const built = t.cte({ total: '15.00', nfeKeys: [doc.accessKey] });
    const staged = await client.ctes.stage(built.xml);
    expect(staged).to.deep.include({ created: true });
    expect(staged.cte).to.deep.include({ accessKey: built.accessKey, status: 'RECEIVED' });
    const detail = await client.ctes.detail(staged.cte.id);
    expect(detail.nfe[0].entryDocument).to.deep.include({ id: doc.id, status: 'DRAFT' });
    const preview = await client.ctes.apportionPreview(staged.cte.id);
    expect(preview.documents[0].lines[0]).to.deep.include({ amount: 15, unitCostAfter: 23 });
    const applied = await client.ctes.apportion(staged.cte.id, { version: staged.cte.version });
    expect(applied.cte.status).to.equal('APPORTIONED');
    expect((await client.entryDocuments.detail(doc.id)).items[0]).to.deep.include({ apportionedFreight: 15, unitCost: 23 });
    const payables = await client.payables.list({ source: 'CTE' });
    expect(payables.data.map((x) => [x.source, x.cteId, x.entryDocumentId, x.amount])).to.deep.equal([['CTE', staged.cte.id, null, 15]]);
    const list = await client.ctes.list({ status: 'APPORTIONED' });
    expect(list.data.map((c) => c.id)).to.deep.equal([staged.cte.id]);
    const cancelled = await client.ctes.cancel(staged.cte.id, { reason: 'Teste' });
    expect(cancelled.status).to.equal('CANCELLED');
    const refused = await client.ctes.stage(t.cte({ total: '1.00', nfeKeys: [], payer: '0' }).xml).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ApiError);
    expect((refused as ApiError).status).to.equal(422);
    expect((refused as ApiError).code).to.equal('CTE_PAYER_MISMATCH');
  });
});
