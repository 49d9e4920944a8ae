import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/app';
import { ApiError, Client, createClient, PurchaseOrder } from '../../sdk/src';
import { makeProduct } from '../support/catalog';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { createDraft, draftBody, item, confirm } from '../entry-document/support';

/** The SDK's purchase part against the real server: typed calls, headers, idempotency keys. */
describe('SDK: purchase orders against the real server', () => {
  let t: TestTenant;
  let server: Server;
  let client: Client;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  const sent: { method: string; url: string; headers: Record<string, string> }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    sent.push({ method: String(init?.method), url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    return fetch(input, init);
  };

  before(async () => {
    t = await createTestTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: t.token,
      companyId: t.companyHash,
      filialId: t.filialHashes[0],
      fetch: recordingFetch,
    });
    product = await makeProduct(t, { name: 'Cabo Flexivel 2,5mm' });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('create → update → approve → openItems → receipts → close, typed, with Idempotency-Keys on the posting calls', async () => {
    const document = randomCnpj();
    sent.length = 0;
    const created: PurchaseOrder = await client.purchase.create({
      supplier: { document, name: 'Fios Brasil' },
      items: [{ productId: product.hash, quantity: 10, unitPrice: '3.5' }],
    });
    expect(created).to.include({ status: 'DRAFT', version: 1 });
    expect(sent[0].headers['Idempotency-Key']).to.match(/^[0-9a-f-]{36}$/);
    expect(await client.purchase.get(created.id)).to.deep.equal(created);

    const updated = await client.purchase.update(created.id, { version: created.version, notes: 'entrega parcial aceita' });
    expect(updated.notes).to.equal('entrega parcial aceita');
    sent.length = 0;
    const approved = await client.purchase.approve(created.id);
    expect(approved.status).to.equal('APPROVED');
    expect(sent[0].headers['Idempotency-Key']).to.match(/^[0-9a-f-]{36}$/);

    const open = await client.purchase.openItems({ supplierDocument: document });
    expect(open.data.map((i) => [i.purchaseOrderId, i.openQuantity])).to.deep.equal([[created.id, 10]]);
    const found = await client.purchase.find({ status: 'APPROVED', supplierDocument: document });
    expect(found.data.map((o) => o.id)).to.deep.equal([created.id]);
    const all = [];
    for await (const o of client.purchase.findAll({ supplierDocument: document, pageSize: 1 })) all.push(o.id);
    expect(all).to.deep.equal([created.id]);

    const doc = await createDraft(
      t,
      draftBody({
        supplier: { document, name: 'Fios Brasil' },
        items: [
          item({ productId: product.hash, quantity: 4, unitPrice: '3.5', purchaseOrderItemId: created.items[0].purchaseOrderItemId }),
        ],
      }),
    );
    expect((await confirm(t, doc.id)).status).to.equal(200);
    const receipts = await client.purchase.receipts(created.id);
    expect(receipts.status).to.equal('PARTIALLY_RECEIVED');
    expect(receipts.data.map((r) => [r.entryDocumentId, r.quantity, r.status])).to.deep.equal([[doc.id, 4, 'CONFIRMED']]);
    expect(receipts.pagination).to.include({ total: 1, hasMore: false });
    const closed = await client.purchase.close(created.id, 'o resto não virá');
    expect(closed.items[0]).to.include({ receivedQuantity: 4, cancelledQuantity: 6, openQuantity: 0 });
  });

  it('cancel and remove; failures throw ApiError with the problem document', async () => {
    const a = await client.purchase.create({
      supplier: { document: randomCnpj(), name: 'X' },
      items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }],
    });
    expect((await client.purchase.cancel(a.id)).status).to.equal('CANCELLED');
    const b = await client.purchase.create({
      supplier: { document: randomCnpj(), name: 'Y' },
      items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }],
    });
    expect(await client.purchase.remove(b.id)).to.equal(undefined);
    const err = (await client.purchase.get(b.id).catch((e: unknown) => e)) as ApiError;
    expect(err).to.be.instanceOf(ApiError);
    expect([err.status, err.code]).to.deep.equal([404, 'PURCHASE_ORDER_NOT_FOUND']);
    const conflict = (await client.purchase.close(a.id).catch((e: unknown) => e)) as ApiError;
    expect([conflict.status, conflict.problem.currentStatus]).to.deep.equal([409, 'CANCELLED']);
  });
});
