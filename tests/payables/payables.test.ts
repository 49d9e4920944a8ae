import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { api } from '../support/api';
import { makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { cancel, confirm, createDraft, draftBody, item, payablesOf } from '../entry-document/support';

/*
 * Dates are far in the past (2020) or the future (2099), so "overdue" (derived from today's date)
 * is the same whatever day the suite runs.
 */
describe('Accounts payable: GET /entry-document/contas-pagar/...', () => {
  let t: TestTenant;
  let other: TestTenant;
  const docs: Record<string, string> = {};
  const pay: Record<string, string> = {};
  let acme: { hash: string; document: string };

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    acme = await makeSupplier(t, { name: 'ACME Papelaria', document: cnpjWithCheckDigits('222333440001') });
    const beta = await makeSupplier(t, { name: 'Beta Limpeza', document: cnpjWithCheckDigits('555666770001') });
    const doc = async (
      key: string,
      supplierId: string,
      total: number,
      installments: { dueDate: string; amount: number }[],
      dates = { issueDate: '2020-01-01', entryDate: '2020-01-02' },
    ) => {
      const d = await createDraft(
        t,
        draftBody({ ...dates, supplier: undefined, supplierId, items: [item({ ignored: true, unitPrice: total })], installments }),
      );
      expect((await confirm(t, d.id)).status).to.equal(200);
      docs[key] = d.id;
      return d;
    };
    await doc('d1', acme.hash, 150, [
      { dueDate: '2020-01-10', amount: 100 },
      { dueDate: '2099-01-10', amount: 50 },
    ]);
    await doc('d2', beta.hash, 20, [], { issueDate: '2099-01-30', entryDate: '2099-02-01' });
    await doc('d3', acme.hash, 40, [{ dueDate: '2020-05-05', amount: 40 }]);
    await cancel(t, docs.d3);
    await doc('d4', beta.hash, 10, [{ dueDate: '2020-02-02', amount: 10 }]);
    const [d1a] = await payablesOf(t, docs.d1);
    await dataSource.manager.update(Payable, { id: d1a.id }, { paidAmount: new Dec(30), status: 'PARTIALLY_PAID' });
    const [d4] = await payablesOf(t, docs.d4);
    await dataSource.manager.update(Payable, { id: d4.id }, { paidAmount: new Dec(10), status: 'PAID' });
    const hash = async (key: string, i = 0) =>
      (await api().get(`/api/entry-document/contas-pagar/documento/${docs[key]}`).set(t.headers())).body.data[i].id;
    pay.d1a = await hash('d1');
    pay.d1b = await hash('d1', 1);
    pay.d2 = await hash('d2');
    pay.d3 = await hash('d3');
    pay.d4 = await hash('d4');
    // Noise that must never show up: another filial, another company.
    const f2 = await createDraft(t, draftBody({ items: [item({ ignored: true })] }), 1);
    await api().post(`/api/entry-document/confirm/${f2.id}`).set(t.headers(1));
    const foreign = await createDraft(other, draftBody({ items: [item({ ignored: true })] }));
    await confirm(other, foreign.id);
  });

  const list = (query: Record<string, unknown> = {}, headers = t.headers()) =>
    api().get(`/api/entry-document/contas-pagar/${t.filialHashes[0]}`).query(query).set(headers);
  const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);

  describe('GET /entry-document/contas-pagar/:filialId', () => {
    it("lists the filial's payables by due date, with derived overdue and a totals summary", async () => {
      const res = await list();
      expect(res.status).to.equal(200);
      expect(idsOf(res)).to.deep.equal([pay.d1a, pay.d4, pay.d3, pay.d1b, pay.d2]);
      const first = res.body.data[0];
      expect(first).to.deep.include({
        entryDocumentId: docs.d1,
        installmentNumber: 1,
        issueDate: '2020-01-01',
        dueDate: '2020-01-10',
        amount: 100,
        paidAmount: 30,
        openAmount: 70,
        status: 'PARTIALLY_PAID',
        overdue: true,
      });
      expect(first.supplier).to.deep.equal({ id: acme.hash, document: acme.document, name: 'ACME Papelaria' });
      expect(first.filialId).to.equal(t.filialHashes[0]);
      expect(res.body.data.map((p: { overdue: boolean }) => p.overdue)).to.deep.equal([true, false, false, false, false]);
      expect(res.body.summary).to.deep.equal({
        count: 5,
        amount: 180,
        paidAmount: 40,
        openAmount: 140,
        overdueCount: 1,
        overdueAmount: 70,
        byStatus: {
          OPEN: { count: 2, amount: 70, paidAmount: 0 },
          PARTIALLY_PAID: { count: 1, amount: 100, paidAmount: 30 },
          PAID: { count: 1, amount: 10, paidAmount: 10 },
          CANCELLED: { count: 1, amount: 40, paidAmount: 0 },
        },
        aging: {
          dueIn0To7Days: { count: 0, openAmount: 0 },
          dueIn8To30Days: { count: 0, openAmount: 0 },
          dueIn31PlusDays: { count: 2, openAmount: 70 },
          overdue1To30Days: { count: 0, openAmount: 0 },
          overdue31To60Days: { count: 0, openAmount: 0 },
          overdue61PlusDays: { count: 1, openAmount: 70 },
        },
      });
    });

    it('filters: status, due range, supplier (name or CNPJ), overdue, document; the summary follows the filter', async () => {
      expect(idsOf(await list({ status: 'OPEN' }))).to.deep.equal([pay.d1b, pay.d2]);
      expect(idsOf(await list({ dueFrom: '2020-02-01', dueTo: '2099-01-31' }))).to.deep.equal([pay.d4, pay.d3, pay.d1b]);
      expect(idsOf(await list({ supplier: 'beta' }))).to.deep.equal([pay.d4, pay.d2]);
      expect(idsOf(await list({ supplier: acme.document }))).to.deep.equal([pay.d1a, pay.d3, pay.d1b]);
      expect(idsOf(await list({ overdue: true }))).to.deep.equal([pay.d1a]);
      expect(idsOf(await list({ overdue: false }))).to.deep.equal([pay.d4, pay.d3, pay.d1b, pay.d2]);
      expect(idsOf(await list({ entryDocumentId: docs.d1 }))).to.deep.equal([pay.d1a, pay.d1b]);
      const open = await list({ status: 'OPEN', supplier: 'acme' });
      expect(idsOf(open)).to.deep.equal([pay.d1b]);
      expect(open.body.summary).to.deep.include({ count: 1, amount: 50, openAmount: 50, overdueCount: 0, overdueAmount: 0 });
      expect(idsOf(await list({ sort: '-dueDate', pageSize: 2 }))).to.deep.equal([pay.d2, pay.d1b]);
    });

    it('pages with a cursor; the summary covers the whole filter, not the page', async () => {
      const first = await list({ pageSize: 2 });
      expect(idsOf(first)).to.deep.equal([pay.d1a, pay.d4]);
      expect(first.body.pagination).to.deep.include({ total: 5, totalPages: 3, hasMore: true });
      expect(first.body.summary.count).to.equal(5);
      const next = await list({ pageSize: 2, cursor: first.body.pagination.nextCursor });
      expect(idsOf(next)).to.deep.equal([pay.d3, pay.d1b]);
    });

    it('a filial not granted or of another company → 403; missing scope → 403; bad query → 400', async () => {
      expectProblem(await list({}, t.headersWith({ filiais: [t.filialHashes[1]] }, 1)), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(
        await api().get(`/api/entry-document/contas-pagar/${other.filialHashes[0]}`).set(t.headers()),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await list({}, t.headersWith({ scope: 'entry-document:read' })), 403, 'INSUFFICIENT_SCOPE');
      const bad = await list({ status: 'LATE', dueFrom: '10/01/2020', overdue: 'maybe' });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.have.members(['query.status', 'query.dueFrom', 'query.overdue']);
      expectProblem(await list({ entryDocumentId: '!!' }), 400, 'INVALID_ID');
    });
  });

  describe('GET /entry-document/contas-pagar/documento/:entryDocumentId', () => {
    it("a document's payables by installment; none for a draft", async () => {
      const res = await api()
        .get(`/api/entry-document/contas-pagar/documento/${docs.d1}`)
        .set(t.headersWith({ scope: 'payables:read' }));
      expect(res.status).to.equal(200);
      expect(
        res.body.data.map((p: { installmentNumber: number; amount: number; status: string }) => [p.installmentNumber, p.amount, p.status]),
      ).to.deep.equal([
        [1, 100, 'PARTIALLY_PAID'],
        [2, 50, 'OPEN'],
      ]);
      const cancelled = await api().get(`/api/entry-document/contas-pagar/documento/${docs.d3}`).set(t.headers());
      expect(
        cancelled.body.data.map((p: { status: string; overdue: boolean; openAmount: number }) => [p.status, p.overdue, p.openAmount]),
      ).to.deep.equal([['CANCELLED', false, 0]]);
      const draft = await createDraft(t, draftBody());
      expect((await api().get(`/api/entry-document/contas-pagar/documento/${draft.id}`).set(t.headers())).body).to.deep.equal({
        data: [],
        pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0, hasMore: false, nextCursor: null },
      });
    });

    it('is paginated like every list (page, pageSize, cursor)', async () => {
      const first = await api().get(`/api/entry-document/contas-pagar/documento/${docs.d1}`).query({ pageSize: 1 }).set(t.headers());
      expect(first.body.pagination).to.include({ page: 1, pageSize: 1, total: 2, totalPages: 2, hasMore: true });
      expect(first.body.data.map((p: { installmentNumber: number }) => p.installmentNumber)).to.deep.equal([1]);
      const next = await api()
        .get(`/api/entry-document/contas-pagar/documento/${docs.d1}`)
        .query({ pageSize: 1, cursor: first.body.pagination.nextCursor })
        .set(t.headers());
      expect(next.body.data.map((p: { installmentNumber: number }) => p.installmentNumber)).to.deep.equal([2]);
      expect(next.body.pagination.hasMore).to.equal(false);
      expectProblem(
        await api()
          .get(`/api/entry-document/contas-pagar/documento/${docs.d3}`)
          .query({ cursor: first.body.pagination.nextCursor })
          .set(t.headers()),
        400,
        'INVALID_CURSOR',
      );
    });

    it("another tenant's document → 404; a filial not granted → 403; malformed id → 400", async () => {
      const foreign = await createDraft(other, draftBody());
      expectProblem(
        await api().get(`/api/entry-document/contas-pagar/documento/${foreign.id}`).set(t.headers()),
        404,
        'ENTRY_DOCUMENT_NOT_FOUND',
      );
      const f2 = await createDraft(t, draftBody(), 1);
      expectProblem(
        await api()
          .get(`/api/entry-document/contas-pagar/documento/${f2.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get('/api/entry-document/contas-pagar/documento/%21%21').set(t.headers()), 400, 'INVALID_ID');
    });
  });
});
