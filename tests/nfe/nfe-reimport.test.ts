import { expect } from 'chai';
import { encodeId } from '../../src/core/hashids';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { countOf, NFE, nfeTenant, NfeTenant, rowsOf, uploadConsulted } from './nfe-support';

/*
 * Re-import (SPEC §4 with §2's cancellation): once the entry document of an NF-e is cancelled, the
 * NF-e can be imported again into a new draft and its inbound record keeps both in its events; while
 * a live draft or a confirmed document exists, a second import is 409 NFE_ALREADY_IMPORTED.
 */
describe('NF-e re-import after the entry document is cancelled', () => {
  let t: NfeTenant;
  before(async () => {
    t = await nfeTenant();
  });

  const importXml = async (xml: string) => uploadConsulted(t, await api().post(`${NFE}/importar-xml`).set(t.headers()).send({ xml }));
  const importStaged = (accessKey: string) => api().post(`${NFE}/importar`).set(t.headers()).send({ accessKey });
  const cancelDoc = (id: string) =>
    api().post(`/api/entry-document/cancel/${id}`).set(t.headers()).send({ reason: 'Nota lançada com erro' });
  const inboundOf = async (key: string) => (await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [key]))[0];

  it('a confirmed then cancelled import: a new draft from the same XML; the record lists both documents in its events', async () => {
    const p = await makeProduct(t);
    const built = await t.nfe({ number: 9101, items: [{ code: 'RI-1', description: 'ARROZ 5KG', quantity: '4', unitPrice: '20' }] });
    const first = await importXml(built.xml);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const firstId = first.body.entryDocument.id;
    const [line] = (await api().get(`/api/entry-document/detail/${firstId}`).set(t.headers())).body.items;
    expect(
      (
        await api()
          .patch(`/api/entry-document/lines/${firstId}`)
          .set(t.headers())
          .send({ version: 1, lines: [{ id: line.id, productId: p.hash }] })
      ).status,
    ).to.equal(200);
    expect((await api().post(`/api/entry-document/confirm/${firstId}`).set(t.headers())).status).to.equal(200);

    // Live (confirmed): still 409 naming it.
    const dup = await importXml(built.xml);
    expectProblem(dup, 409, 'NFE_ALREADY_IMPORTED');
    expect(dup.body.entryDocumentId).to.equal(firstId);

    expect((await cancelDoc(firstId)).status).to.equal(200);
    let inbound = await inboundOf(built.accessKey);
    expect([inbound.import_status, inbound.entry_document_id]).to.deep.equal(['PENDING', null]);
    const pending = await api().get(`${NFE}/inbound/pendentes/${t.filialHashes[0]}?pageSize=100`).set(t.headers());
    expect(pending.body.data.map((r: { accessKey: string }) => r.accessKey)).to.include(built.accessKey);

    // The preview no longer reports it as imported.
    const preview = await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: built.xml });
    expect(preview.status).to.equal(200);
    expect(preview.body.alreadyImported).to.equal(null);

    const again = await importStaged(built.accessKey);
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    const secondId = again.body.entryDocument.id;
    expect(secondId).to.not.equal(firstId);
    expect(again.body.entryDocument).to.include({ status: 'DRAFT', accessKey: built.accessKey });
    inbound = await inboundOf(built.accessKey);
    expect([inbound.import_status, encodeId('entry-document', Number(inbound.entry_document_id))]).to.deep.equal(['IMPORTED', secondId]);

    // Both documents exist with the key; only the new one is live.
    const docs = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
    expect(docs.map((d) => [d.status, d.live_access_key])).to.deep.equal([
      ['CANCELLED', null],
      ['DRAFT', built.accessKey],
    ]);
    const listed = await api().get(`/api/entry-document/list/${t.filialHashes[0]}`).query({ accessKey: built.accessKey }).set(t.headers());
    expect(listed.body.data.map((d: { id: string; status: string }) => [d.id, d.status])).to.have.deep.members([
      [firstId, 'CANCELLED'],
      [secondId, 'DRAFT'],
    ]);

    // The record's history names both.
    const detail = await api()
      .get(`${NFE}/inbound/detail/${encodeId('nfe-inbound', Number(inbound.id))}/${t.filialHashes[0]}`)
      .set(t.headers());
    expect(detail.status).to.equal(200);
    const trail = detail.body.events.map((e: { type: string; data: { entryDocumentId?: string; cause?: string } | null }) => [
      e.type,
      e.data?.entryDocumentId,
      e.data?.cause,
    ]);
    expect(trail).to.deep.equal([
      ['STAGED', undefined, undefined],
      ['IMPORTED', firstId, undefined],
      // The upload's key consulted at the authority before the first confirmation.
      ['AUTHORITY_CHECKED', undefined, undefined],
      ['IMPORT_RELEASED', firstId, 'CANCELLED'],
      ['IMPORTED', secondId, undefined],
    ]);
    expect(await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.import-released' AND aggregate_id = ?", [inbound.id])).to.equal(
      1,
    );

    // A live draft again: a third import is 409 naming the new draft.
    const third = await importXml(built.xml);
    expectProblem(third, 409, 'NFE_ALREADY_IMPORTED');
    expect(third.body.entryDocumentId).to.equal(secondId);
    expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(2);
  });

  it('a cancelled DRAFT gives its key back too; two concurrent re-imports make one document', async () => {
    const built = await t.nfe({ number: 9102 });
    const first = await importXml(built.xml);
    expect(first.status).to.equal(201);
    const draftDup = await importXml(built.xml);
    expectProblem(draftDup, 409, 'NFE_ALREADY_IMPORTED');
    expect((await cancelDoc(first.body.entryDocument.id)).status).to.equal(200);
    const [a, b] = await Promise.all([importXml(built.xml), importXml(built.xml)]);
    expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).to.deep.equal([201, 409]);
    const winner = a.status === 201 ? a : b;
    const loser = a.status === 201 ? b : a;
    expectProblem(loser, 409, 'NFE_ALREADY_IMPORTED');
    expect(loser.body.entryDocumentId).to.equal(winner.body.entryDocument.id);
    expect(await countOf('entry_document', t.companyId, 'access_key = ? AND live_access_key IS NOT NULL', [built.accessKey])).to.equal(1);
  });
});
