import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { createEntryDocumentDraft } from '../../src/modules/entry-document/create-draft';
import { NFE, nfeTenant } from '../nfe/nfe-support';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { cancel, confirm, createDraft, draftBody, item } from './support';

const randomKey = () => Array.from({ length: 44 }, () => Math.floor(Math.random() * 10)).join('');

describe('Entry document reads: list, detail, audit, audit history', () => {
  let t: TestTenant;
  let other: TestTenant;
  const ids: Record<string, string> = {};
  let accessKey: string;
  let acme: { hash: string; document: string };

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    const p = await makeProduct(t);
    // Fixed CNPJs, so a numeric search like '103' cannot hit a supplier's CNPJ prefix by chance.
    acme = await makeSupplier(t, { name: 'ACME Distribuidora', document: cnpjWithCheckDigits('111222330001') });
    const beta = await makeSupplier(t, { name: 'Beta Alimentos', document: cnpjWithCheckDigits('444555660001') });
    // Four documents in filial 1, one in filial 2, one in another company.
    ids.a = (
      await createDraft(
        t,
        draftBody({
          number: '101',
          supplier: undefined,
          supplierId: acme.hash,
          issueDate: '2026-01-10',
          entryDate: '2026-01-12',
          items: [item({ productId: p.hash })],
        }),
      )
    ).id;
    ids.b = (
      await createDraft(
        t,
        draftBody({ number: '102', supplier: undefined, supplierId: beta.hash, issueDate: '2026-01-20', entryDate: '2026-01-21' }),
      )
    ).id;
    ids.c = (
      await createDraft(
        t,
        draftBody({
          number: '103',
          supplier: undefined,
          supplierId: acme.hash,
          issueDate: '2026-02-01',
          entryDate: '2026-02-03',
          items: [item({ productId: p.hash })],
        }),
      )
    ).id;
    accessKey = randomKey();
    const nfe = await inTransaction(NO_UNIT, (em) =>
      createEntryDocumentDraft(em, t.ctx, {
        filialId: t.filialIds[0],
        origin: 'NFE_XML',
        model: '55',
        series: '1',
        number: '555',
        accessKey,
        issueDate: '2026-02-10',
        entryDate: '2026-02-12',
        supplier: { document: beta.document, name: 'Beta Alimentos S/A' },
        items: [{ description: 'Arroz', unit: 'FD', quantity: new Dec(2), unitPrice: new Dec('80') }],
      }),
    );
    ids.nfe = encodeId('entry-document', nfe.id);
    ids.f2 = (await createDraft(t, draftBody({ number: '201', entryDate: '2026-01-15' }), 1)).id;
    ids.foreign = (await createDraft(other, draftBody({ number: '101' }))).id;
    await confirm(t, ids.a);
    await cancel(t, ids.b);
  });

  const list = (query: Record<string, unknown> = {}, headers = t.headers()) =>
    api().get(`/api/entry-document/list/${t.filialHashes[0]}`).query(query).set(headers);
  const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);

  describe('GET /entry-document/list/:filialId', () => {
    it("lists the filial's documents, newest entry date first (then id), with totals and review counts", async () => {
      const res = await list();
      expect(res.status).to.equal(200);
      expect(idsOf(res)).to.deep.equal([ids.nfe, ids.c, ids.b, ids.a]);
      expect(res.body.pagination).to.deep.include({ page: 1, pageSize: 20, total: 4, totalPages: 1, hasMore: false });
      const nfe = res.body.data[0];
      expect(nfe).to.deep.include({ origin: 'NFE_XML', accessKey, number: '555', itemCount: 1, pendingItemCount: 1, status: 'DRAFT' });
      expect(nfe.totals.total).to.equal(160);
      expect(nfe).to.not.have.property('items');
    });

    it('sort=entryDate goes oldest first', async () => {
      expect(idsOf(await list({ sort: 'entryDate' }))).to.deep.equal([ids.a, ids.b, ids.c, ids.nfe]);
      expect(idsOf(await list({ sort: '-issueDate' }))).to.deep.equal([ids.nfe, ids.c, ids.b, ids.a]);
    });

    it('filters: status, origin, supplier (name or CNPJ), number, access key, date ranges, search', async () => {
      expect(idsOf(await list({ status: 'CONFIRMED' }))).to.deep.equal([ids.a]);
      expect(idsOf(await list({ status: 'CANCELLED' }))).to.deep.equal([ids.b]);
      expect(idsOf(await list({ origin: 'NFE_XML' }))).to.deep.equal([ids.nfe]);
      expect(idsOf(await list({ supplier: 'acme' }))).to.deep.equal([ids.c, ids.a]);
      expect(idsOf(await list({ supplier: acme.document.slice(0, 8) }))).to.deep.equal([ids.c, ids.a]);
      expect(idsOf(await list({ number: '0102' }))).to.deep.equal([ids.b]);
      expect(idsOf(await list({ accessKey }))).to.deep.equal([ids.nfe]);
      expect(idsOf(await list({ issueDateFrom: '2026-01-15', issueDateTo: '2026-02-05' }))).to.deep.equal([ids.c, ids.b]);
      expect(idsOf(await list({ entryDateFrom: '2026-02-01' }))).to.deep.equal([ids.nfe, ids.c]);
      expect(idsOf(await list({ search: 'beta' }))).to.deep.equal([ids.nfe, ids.b]);
      expect(idsOf(await list({ search: '103' }))).to.deep.equal([ids.c]);
      expect(idsOf(await list({ search: accessKey }))).to.deep.equal([ids.nfe]);
      expect(idsOf(await list({ status: 'DRAFT', supplier: 'beta' }))).to.deep.equal([ids.nfe]);
    });

    it('pages and cursors through the list without repeats', async () => {
      const first = await list({ pageSize: 3 });
      expect(idsOf(first)).to.deep.equal([ids.nfe, ids.c, ids.b]);
      expect(first.body.pagination).to.deep.include({ total: 4, totalPages: 2, hasMore: true });
      const second = await list({ pageSize: 3, page: 2 });
      expect(idsOf(second)).to.deep.equal([ids.a]);
      const byCursor = await list({ pageSize: 3, cursor: first.body.pagination.nextCursor });
      expect(idsOf(byCursor)).to.deep.equal([ids.a]);
      expect(byCursor.body.pagination.hasMore).to.equal(false);
      const noTotal = await list({ pageSize: 2, includeTotal: false });
      expect(noTotal.body.pagination.total).to.equal(null);
    });

    it('the other filial lists its own documents only', async () => {
      const res = await api().get(`/api/entry-document/list/${t.filialHashes[1]}`).set(t.headers());
      expect(idsOf(res)).to.deep.equal([ids.f2]);
    });

    it('a filial not granted or of another company → 403; bad query → 400 with paths', async () => {
      expectProblem(await list({}, t.headersWith({ filiais: [t.filialHashes[1]] }, 1)), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(`/api/entry-document/list/${other.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await list({}, t.headersWith({ scope: 'payables:read' })), 403, 'INSUFFICIENT_SCOPE');
      const bad = await list({ status: 'OPEN', pageSize: 1000, issueDateFrom: '2026-13-01', accessKey: '123' });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.have.members([
        'query.status',
        'query.pageSize',
        'query.issueDateFrom',
        'query.accessKey',
      ]);
      expectProblem(await list({ cursor: 'not-a-cursor' }), 400, 'INVALID_CURSOR');
    });
  });

  describe('GET /entry-document/detail/:id', () => {
    it('returns items, installments, payables and the review of a draft', async () => {
      const confirmed = await api().get(`/api/entry-document/detail/${ids.a}`).set(t.headers());
      expect(confirmed.status).to.equal(200);
      expect(confirmed.body).to.include({ id: ids.a, status: 'CONFIRMED', number: '101' });
      expect(confirmed.body.items).to.have.length(1);
      expect(
        confirmed.body.payables.map((p: { installmentNumber: number; status: string }) => [p.installmentNumber, p.status]),
      ).to.deep.equal([[1, 'OPEN']]);
      expect(confirmed.body.review).to.equal(null);
      const draft = await api().get(`/api/entry-document/detail/${ids.nfe}`).set(t.headers());
      expect(draft.body.review.blockingProblems.map((c: { code: string }) => c.code)).to.deep.equal(['ITEM_WITHOUT_PRODUCT']);
      expect(draft.body.supplier.name).to.equal('Beta Alimentos S/A');
    });

    it("another tenant's id → 404, a filial not granted → 403, malformed → 400, another type's id → 404", async () => {
      expectProblem(await api().get(`/api/entry-document/detail/${ids.foreign}`).set(t.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await api()
          .get(`/api/entry-document/detail/${ids.f2}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get('/api/entry-document/detail/%24%24').set(t.headers()), 400, 'INVALID_ID');
      expectProblem(
        await api()
          .get(`/api/entry-document/detail/${encodeId('product', 1)}`)
          .set(t.headers()),
        404,
        'ENTRY_DOCUMENT_NOT_FOUND',
      );
    });
  });

  describe('GET /entry-document/audit/:id and /audit-history/:id', () => {
    it('who created, edited (with field diffs), confirmed and cancelled, and when', async () => {
      const p = await makeProduct(t);
      const d = await api()
        .post('/api/entry-document')
        .set(t.headersWith({ sub: 'ana' }))
        .send(draftBody({ notes: 'primeira', items: [item({ productId: p.hash, quantity: 2 })] }));
      const id = d.body.id;
      const edited = await api()
        .patch(`/api/entry-document/${id}`)
        .set(t.headersWith({ sub: 'bruno' }))
        .send({ version: 1, notes: 'segunda' });
      expect(edited.status).to.equal(200);
      await api()
        .post(`/api/entry-document/confirm/${id}`)
        .set(t.headersWith({ sub: 'carla' }));
      await api()
        .post(`/api/entry-document/cancel/${id}`)
        .set(t.headersWith({ sub: 'davi' }))
        .send({ reason: 'erro de digitação' });

      const summary = await api().get(`/api/entry-document/audit/${id}`).set(t.headers());
      expect(summary.status).to.equal(200);
      expect(summary.body).to.deep.include({ entryDocumentId: id, status: 'CANCELLED', deleted: null });
      expect(summary.body.created.by).to.equal('ana');
      expect(summary.body.lastUpdated).to.deep.include({ by: 'bruno', count: 1 });
      expect(summary.body.confirmed.by).to.equal('carla');
      expect(summary.body.cancelled.by).to.equal('davi');
      for (const k of ['created', 'lastUpdated', 'confirmed', 'cancelled'])
        expect(Date.parse(summary.body[k].at)).to.be.a('number').and.not.NaN;

      const history = await api().get(`/api/entry-document/audit-history/${id}`).set(t.headers());
      expect(history.status).to.equal(200);
      expect(history.body.data.map((a: { action: string; actor: string }) => [a.action, a.actor])).to.deep.equal([
        ['CREATED', 'ana'],
        ['UPDATED', 'bruno'],
        ['CONFIRMED', 'carla'],
        ['CANCELLED', 'davi'],
      ]);
      expect(history.body.data[1].changes).to.deep.equal({ notes: ['primeira', 'segunda'] });
      expect(history.body.data[3].changes).to.deep.equal({ status: ['CONFIRMED', 'CANCELLED'], cancelReason: [null, 'erro de digitação'] });
      expect(history.body.data[0].requestId).to.be.a('string');

      const paged = await api().get(`/api/entry-document/audit-history/${id}`).query({ pageSize: 3 }).set(t.headers());
      expect(paged.body.data).to.have.length(3);
      expect(paged.body.pagination).to.deep.include({ total: 4, hasMore: true });
      const rest = await api()
        .get(`/api/entry-document/audit-history/${id}`)
        .query({ pageSize: 3, cursor: paged.body.pagination.nextCursor })
        .set(t.headers());
      expect(rest.body.data.map((a: { action: string }) => a.action)).to.deep.equal(['CANCELLED']);
    });

    it("another tenant's id → 404; a filial not granted → 403; bad page → 400", async () => {
      expectProblem(await api().get(`/api/entry-document/audit/${ids.foreign}`).set(t.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(await api().get(`/api/entry-document/audit-history/${ids.foreign}`).set(t.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await api()
          .get(`/api/entry-document/audit/${ids.f2}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .get(`/api/entry-document/audit-history/${ids.f2}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api().get(`/api/entry-document/audit-history/${ids.a}`).query({ page: 0 }).set(t.headers()),
        400,
        'VALIDATION_ERROR',
      );
    });
  });
});

describe('GET /entry-document/detail/:id of an imported NF-e', () => {
  it('returns the linked inbound NF-e record', async () => {
    const t = await nfeTenant();
    const built = await t.nfe({ number: 4242 });
    const imported = await api().post(`${NFE}/importar-xml`).set(t.headers()).send({ xml: built.xml });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const res = await api().get(`/api/entry-document/detail/${imported.body.entryDocument.id}`).set(t.headers());
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ origin: 'NFE_XML', accessKey: built.accessKey });
    expect(res.body.nfe).to.deep.include({
      accessKey: built.accessKey,
      importStatus: 'IMPORTED',
      entryDocumentId: imported.body.entryDocument.id,
    });
    const manual = await createDraft(t, draftBody());
    expect((await api().get(`/api/entry-document/detail/${manual.id}`).set(t.headers())).body.nfe).to.equal(null);
  });
});
