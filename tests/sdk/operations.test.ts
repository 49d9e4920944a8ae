import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, Client, createClient, NotFoundError, TypedApiError } from '../../sdk/src';
import { createApp } from '../../src/app';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { randomCnpj } from '../support/tenant';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * The entry-document flow through the SDK against the real server, by its typed namespace and by the
 * generated operations: create, list (and iterate), confirm preview, confirm, the payable's audit trail;
 * a typed error.
 */
describe('SDK: entry documents end to end (namespace and generated operations)', () => {
  let t: TestTenant;
  let server: Server;
  let api: Client;
  before(async () => {
    t = await createTestTenant();
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    api = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: t.token,
      companyId: t.companyHash,
      filialId: t.filialHashes[0],
    });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const body = (n: number) => ({
    number: String(9000 + n),
    series: '1',
    issueDate: '2026-03-02',
    entryDate: '2026-03-03',
    supplier: { document: randomCnpj(), name: 'Distribuidora Teste Ltda', uf: 'SP' },
    items: [{ description: 'Item de teste', unit: 'UN', quantity: 1, unitPrice: 100, ignored: true }],
    installments: [{ dueDate: '2030-01-10', amount: 100 }],
  });

  it('create, list, iterate, confirm preview, confirm; then the payable and its trail', async () => {
    const created = await api.entryDocuments.create(body(1));
    expect(created.status).to.equal('DRAFT');
    const second = await api.operations.postEntryDocument({ body: body(2) });
    const page = await api.entryDocuments.list({ pageSize: 1 });
    expect(page.data).to.have.length(1);
    expect(page.pagination.hasMore).to.equal(true);
    const all: string[] = [];
    for await (const doc of api.entryDocuments.listAll({ pageSize: 1 })) all.push(doc.id);
    expect(all.sort()).to.deep.equal([created.id, second.id].sort());
    const viaOps: string[] = [];
    for await (const doc of api.operations.getEntryDocumentListFilialIdAll({ query: { pageSize: 1 } })) viaOps.push(doc.id);
    expect(viaOps.sort()).to.deep.equal(all);

    const preview = await api.entryDocuments.confirmPreview(created.id);
    expect(preview).to.be.an('object');
    const confirmed = await api.entryDocuments.confirm(created.id);
    expect(confirmed.status).to.equal('CONFIRMED');
    const stored = await dataSource.manager.findOneByOrFail(EntryDocument, {
      companyId: t.companyId,
      id: decodeId('entry-document', created.id),
    });
    expect(stored.status).to.equal('CONFIRMED');

    const payables = await api.operations.getEntryDocumentContasPagarDocumentoEntryDocumentId({ entryDocumentId: created.id });
    const trail = await api.operations.getEntryDocumentContasPagarAuditId({ id: payables.data[0].id });
    expect(trail.data.map((a) => a.action)).to.deep.equal(['CREATED']);
  });

  it('an unknown document: NotFoundError whose code narrows', async () => {
    const err = await api.entryDocuments.confirm('Zz9Zz9Zz').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(NotFoundError).and.instanceOf(ApiError);
    const typed = err as TypedApiError;
    expect(typed.code === 'ENTRY_DOCUMENT_NOT_FOUND' || typed.code === 'INVALID_ID').to.equal(true);
  });
});
