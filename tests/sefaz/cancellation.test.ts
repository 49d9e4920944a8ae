import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { DfeState } from '../../src/modules/dfe/entities/dfe-state.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { allowNextQuery, NFE, rowsOf, sefazTenant, SefazTenant } from './support';

describe('Issuer cancellation (110111) arriving by NSU', function () {
  this.timeout(60_000);
  let t: SefazTenant;
  let keys: string[];
  let entryDocumentId: string;
  let sync: any;
  const inbound = async (key: string) => (await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [key]))[0];

  before(async () => {
    t = await sefazTenant();
    keys = t.sim.generate({ recipient: t.cnpj, count: 3 }).map((g) => g.accessKey);
    await api().post(`${NFE}/consultar`).set(t.headers());
    for (const key of keys.slice(0, 2))
      expect((await api().post(`${NFE}/download-xml`).set(t.headers()).send({ accessKey: key })).status).to.equal(200);
    const imported = await api().post(`${NFE}/importar`).set(t.headers()).send({ accessKey: keys[0] });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    entryDocumentId = imported.body.entryDocument.id;

    // The issuer cancels all three: the two manifested ones arrive as procEventoNFe, the other as resEvento.
    for (const key of keys) t.sim.authority.cancelByIssuer(key, 'Pedido cancelado pelo cliente antes do envio');
    await allowNextQuery(t);
    sync = await api().post(`${NFE}/consultar`).set(t.headers());
  });

  it('the sync stores the events and marks the records CANCELLED', async () => {
    expect(sync.status, JSON.stringify(sync.body)).to.equal(200);
    expect(sync.body.stored).to.include({ events: 3, cancellations: 3 });
    for (const key of keys) expect(await inbound(key)).to.include({ authority_status: 'CANCELLED' });
    const events = await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT' AND event_code = '110111'");
    expect(events).to.have.length(3);
    const full = events.map((e) => JSON.parse(e.data)).filter((d) => d.document === 'procEventoNFe');
    expect(full).to.have.length(2);
    expect(full[0]).to.include({ cStat: '135', justification: 'Pedido cancelado pelo cliente antes do envio' });
    expect(await rowsOf('outbox_event', t.companyId, "type = 'nfe.inbound.cancelled'")).to.have.length(3);
    expect(await rowsOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND action = 'CANCELLED_BY_ISSUER'")).to.have.length(3);
  });

  it('a cancelled record cannot be imported and leaves the pending list', async () => {
    expectProblem(await api().post(`${NFE}/importar`).set(t.headers()).send({ accessKey: keys[1] }), 422, 'NFE_CANCELLED');
    expect(await inbound(keys[1])).to.include({ import_status: 'PENDING' });
    const pending = await api().get(`${NFE}/inbound/pendentes/${t.filialHashes[0]}`).set(t.headers());
    expect(pending.body.data.map((r: { accessKey: string }) => r.accessKey)).to.not.include.members(keys);
  });

  it('the entry document already imported is flagged (audit on the document, event for integrators)', async () => {
    const record = await inbound(keys[0]);
    expect(record).to.include({ import_status: 'IMPORTED', authority_status: 'CANCELLED' });
    const flags = await rowsOf('audit_log', t.companyId, "entity = 'entry-document' AND action = 'NFE_CANCELLED_BY_ISSUER'");
    expect(flags).to.have.length(1);
    expect(flags[0].entity_id).to.equal(record.entry_document_id);
    const [event] = await rowsOf('outbox_event', t.companyId, "type = 'entry-document.nfe-cancelled'");
    expect(JSON.parse(event.data)).to.include({ entryDocumentId, accessKey: keys[0] });
    // The draft shows the flag and can no longer be confirmed.
    const detail = await api().get(`/api/entry-document/detail/${entryDocumentId}`).set(t.headers());
    expect(detail.body.nfeCancelledByIssuerAt).to.be.a('string');
    const preview = await api().get(`/api/entry-document/confirm-preview/${entryDocumentId}`).set(t.headers());
    expect(preview.body.blockingProblems.map((p: { code: string }) => p.code)).to.include('NFE_CANCELLED_BY_ISSUER');
    expectProblem(
      await api().post(`/api/entry-document/confirm/${entryDocumentId}`).set(t.headers()),
      422,
      'ENTRY_DOCUMENT_NOT_CONFIRMABLE',
    );
  });

  it('the detail shows the cancellation in the record’s history', async () => {
    const list = await api().get(`${NFE}/inbound/${t.filialHashes[0]}?accessKey=${keys[2]}`).set(t.headers());
    const detail = await api().get(`${NFE}/inbound/detail/${list.body.data[0].id}/${t.filialHashes[0]}`).set(t.headers());
    expect(detail.status).to.equal(200);
    const events = detail.body.events ?? detail.body.inbound?.events;
    expect(events.map((e: { type: string; eventCode: string | null }) => [e.type, e.eventCode])).to.deep.include([
      'AUTHORITY_EVENT',
      '110111',
    ]);
  });

  it('the same event distributed again is not recorded twice', async () => {
    const nsus = (await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT'")).map((e) => JSON.parse(e.data).nsu);
    await allowNextQuery(t);
    // The event's NSU fetched again (as a gap): the record and its history stay as they are.
    await dataSource.manager.update(DfeState, { companyId: t.companyId }, { pendingGaps: [[nsus[0], nsus[0]]] });
    const res = await api().post(`${NFE}/consultar`).set(t.headers());
    expect(res.body.gaps.filled).to.equal(1);
    expect(res.body.stored.events).to.equal(0);
    expect(await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT'")).to.have.length(3);
  });
});
