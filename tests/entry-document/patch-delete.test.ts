import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { createEntryDocumentDraft } from '../../src/modules/entry-document/create-draft';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentInstallment } from '../../src/modules/entry-document/entities/entry-document-installment.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { auditOf, cancel, confirm, createDraft, docId, draftBody, eventsOf, footprint, item } from './support';

describe('PATCH /entry-document/:id and DELETE /entry-document/:id', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  const patch = (id: string, body: object, headers = t.headers()) => api().patch(`/api/entry-document/${id}`).set(headers).send(body);
  const remove = (id: string, headers = t.headers()) => api().delete(`/api/entry-document/${id}`).set(headers);

  describe('PATCH', () => {
    it('edits header fields of a DRAFT: version bumps, audit keeps the field diffs, event written', async () => {
      const d = await createDraft(t, draftBody({ notes: null, entryDate: '2026-03-03' }));
      const res = await patch(d.id, {
        version: 1,
        notes: 'Conferida',
        entryDate: '2026-03-05',
        number: '0000777',
        operationNature: 'Compra',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ version: 2, notes: 'Conferida', entryDate: '2026-03-05', number: '777', operationNature: 'Compra' });
      const stored = await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) });
      expect([stored.version, stored.number, stored.entryDate]).to.deep.equal([2, '777', '2026-03-05']);
      const audit = await auditOf(t, d.id);
      expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
      expect(audit[1].changes).to.deep.equal({
        number: [d.number, '777'],
        entryDate: ['2026-03-03', '2026-03-05'],
        operationNature: [null, 'Compra'],
        notes: [null, 'Conferida'],
      });
      expect((await eventsOf(t, d.id)).map((e) => e.type)).to.deep.equal(['entry-document.created', 'entry-document.updated']);
    });

    it('replaces the items and installments: totals recomputed, per-line diffs audited', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ quantity: 1, unitPrice: 10 }), item({ quantity: 2, unitPrice: 5 })],
          installments: [{ dueDate: '2026-04-01', amount: 20 }],
        }),
      );
      const res = await patch(d.id, {
        version: 1,
        items: [item({ productId: p.hash, quantity: 3, unitPrice: 10 })],
        installments: [
          { dueDate: '2026-04-01', amount: 15 },
          { dueDate: '2026-05-01', amount: 15 },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.totals.total).to.equal(30);
      expect(res.body).to.include({ itemCount: 1, pendingItemCount: 0, version: 2 });
      expect(res.body.installments.map((i: { amount: number }) => i.amount)).to.deep.equal([15, 15]);
      expect(await dataSource.manager.countBy(EntryDocumentItem, { entryDocumentId: docId(d.id) })).to.equal(1);
      expect(await dataSource.manager.countBy(EntryDocumentInstallment, { entryDocumentId: docId(d.id) })).to.equal(2);
      const changes = (await auditOf(t, d.id))[1].changes!;
      expect(changes['items[1].productId']).to.deep.equal([null, p.hash]);
      expect(changes['items[1].quantity']).to.deep.equal(['1.0000', '3.0000']);
      expect(changes['items[1].reviewStatus']).to.deep.equal(['PENDING', 'MATCHED']);
      expect(changes['items[2]'][1]).to.equal(null);
      expect(changes.total).to.deep.equal(['20.00', '30.00']);
      expect(changes.installments).to.deep.equal([
        [{ number: 1, dueDate: '2026-04-01', amount: '20.00' }],
        [
          { number: 1, dueDate: '2026-04-01', amount: '15.00' },
          { number: 2, dueDate: '2026-05-01', amount: '15.00' },
        ],
      ]);
      const cleared = await patch(d.id, { version: 2, installments: null });
      expect(cleared.body.installments).to.deep.equal([]);
    });

    it('header charges reallocate over the existing items, replacing their own values', async () => {
      const d = await createDraft(
        t,
        draftBody({ items: [item({ quantity: 1, unitPrice: 30, freight: 9 }), item({ quantity: 1, unitPrice: 10 })] }),
      );
      const res = await patch(d.id, { version: 1, charges: { freight: 4 } });
      expect(res.status).to.equal(200);
      expect(res.body.items.map((i: { freight: number }) => i.freight)).to.deep.equal([3, 1]);
      expect(res.body.totals).to.deep.include({ freight: 4, total: 44 });
    });

    it('changes the supplier (found or created by document)', async () => {
      const s = await makeSupplier(t, { name: 'Outro Fornecedor' });
      const d = await createDraft(t, draftBody());
      const res = await patch(d.id, { version: 1, supplierId: s.hash });
      expect(res.body.supplier).to.deep.include({ id: s.hash, name: 'Outro Fornecedor' });
      expect((await auditOf(t, d.id))[1].changes).to.deep.include({ supplierId: [d.supplier.id, s.hash] });
    });

    it('a stale version → 409 STALE_VERSION; two concurrent edits of one version → one 200, one 409', async () => {
      const d = await createDraft(t, draftBody());
      await patch(d.id, { version: 1, notes: 'a' });
      const before = await footprint(t);
      const stale = await patch(d.id, { version: 1, notes: 'b' });
      expectProblem(stale, 409, 'STALE_VERSION');
      expect(stale.body.currentVersion).to.equal(2);
      expect(await footprint(t)).to.deep.equal(before);
      const results = await Promise.all([
        patch(d.id, { version: 2, notes: 'x' }),
        patch(d.id, { version: 2, items: [item({ quantity: 9 })] }),
      ]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const stored = await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) });
      expect(stored.version).to.equal(3);
    });

    it('only a DRAFT is editable: CONFIRMED or CANCELLED → 409, nothing written', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }));
      await confirm(t, d.id);
      const before = await footprint(t);
      const res = await patch(d.id, { version: 2, notes: 'tarde demais' });
      expectProblem(res, 409, 'ENTRY_DOCUMENT_CONFIRMED');
      expect(res.body.currentStatus).to.equal('CONFIRMED');
      expect(await footprint(t)).to.deep.equal(before);
    });

    it("an imported NF-e keeps its fiscal identity (422); its items' products can be set", async () => {
      const p = await makeProduct(t);
      const nfe = await inTransaction(NO_UNIT, (em) =>
        createEntryDocumentDraft(em, t.ctx, {
          filialId: t.filialIds[0],
          origin: 'NFE_SEFAZ',
          number: '9',
          accessKey: Array.from({ length: 44 }, (_v, i) => String((i * 7) % 10)).join(''),
          issueDate: '2026-03-01',
          supplier: { document: '11222333000181', name: 'Fornecedor NF-e' },
          items: [{ description: 'Feijão', unit: 'SC', quantity: new Dec(1), unitPrice: new Dec(100) }],
        }),
      );
      const id = encodeId('entry-document', nfe.id);
      const res = await patch(id, { version: 1, number: '10', issueDate: '2026-03-02' });
      expectProblem(res, 422, 'ENTRY_DOCUMENT_FIELD_READ_ONLY');
      expect(res.body.fields).to.deep.equal(['number', 'issueDate']);
      const ok = await patch(id, {
        version: 1,
        items: [item({ productId: p.hash, description: 'Feijão', unit: 'SC', quantity: 1, unitPrice: 100, conversionFactor: 30 })],
      });
      expect(ok.status).to.equal(200);
      expect(ok.body.items[0]).to.deep.include({ reviewStatus: 'MATCHED', stockQuantity: 30 });
    });

    it("bad input → 400 with paths; another tenant's id → 404; filial not granted → 403; nothing written", async () => {
      const d = await createDraft(t, draftBody(), 1);
      const before = await footprint(t);
      const bad = await patch(d.id, { notes: 'sem versão', items: [{ description: 'x' }] });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members([
        'version',
        'items[0].unit',
        'items[0].quantity',
        'items[0].unitPrice',
      ]);
      expectProblem(await patch(d.id, { version: 1 }), 400, 'VALIDATION_ERROR');
      expectProblem(await patch(d.id, { version: 1, notes: 'x' }, other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(
        await patch(d.id, { version: 1, notes: 'x' }, t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      const foreign = await makeProduct(other);
      expectProblem(await patch(d.id, { version: 1, items: [item({ productId: foreign.hash })] }), 404, 'PRODUCT_NOT_FOUND');
      expect(await footprint(t)).to.deep.equal(before);
    });
  });

  describe('DELETE', () => {
    it('removes a DRAFT with its lines; the audit trail stays readable', async () => {
      const d = await createDraft(t, draftBody({ items: [item(), item()], installments: [{ dueDate: '2026-04-01', amount: 20 }] }));
      const res = await remove(d.id);
      expect(res.status).to.equal(204);
      const id = docId(d.id);
      expect(await dataSource.manager.countBy(EntryDocument, { id })).to.equal(0);
      expect(await dataSource.manager.countBy(EntryDocumentItem, { entryDocumentId: id })).to.equal(0);
      expect(await dataSource.manager.countBy(EntryDocumentInstallment, { entryDocumentId: id })).to.equal(0);
      expect((await auditOf(t, d.id)).map((a) => a.action)).to.deep.equal(['CREATED', 'DELETED']);
      expect((await eventsOf(t, d.id)).map((e) => e.type)).to.deep.equal(['entry-document.created', 'entry-document.deleted']);
      expectProblem(await api().get(`/api/entry-document/detail/${d.id}`).set(t.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      const summary = await api().get(`/api/entry-document/audit/${d.id}`).set(t.headers());
      expect(summary.status).to.equal(200);
      expect(summary.body.status).to.equal('DELETED');
      expect(summary.body.deleted.by).to.equal('test-user');
      const history = await api().get(`/api/entry-document/audit-history/${d.id}`).set(t.headers());
      expect(history.body.data.map((a: { action: string }) => a.action)).to.deep.equal(['CREATED', 'DELETED']);
      // The deleted trail still honours the filial grant and the tenant.
      expectProblem(
        await api()
          .get(`/api/entry-document/audit/${d.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get(`/api/entry-document/audit/${d.id}`).set(other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(await remove(d.id), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
    });

    it('a CONFIRMED document → 409 ENTRY_DOCUMENT_CONFIRMED; a CANCELLED one → 409; nothing removed', async () => {
      const p = await makeProduct(t);
      const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }));
      await confirm(t, d.id);
      const before = await footprint(t);
      const res = await remove(d.id);
      expectProblem(res, 409, 'ENTRY_DOCUMENT_CONFIRMED');
      await cancel(t, d.id);
      expectProblem(await remove(d.id), 409, 'ENTRY_DOCUMENT_CANCELLED');
      expect((await footprint(t)).documents).to.equal(before.documents);
    });

    it("another tenant's id → 404; filial not granted → 403; malformed → 400; read-only token → 403", async () => {
      const d = await createDraft(t, draftBody(), 1);
      expectProblem(await remove(d.id, other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
      expectProblem(await remove(d.id, t.headersWith({ filiais: [t.filialHashes[0]] })), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await remove(d.id, t.headersWith({ scope: 'entry-document:read' })), 403, 'INSUFFICIENT_SCOPE');
      expectProblem(await remove('!!'), 400, 'INVALID_ID');
      expect(await dataSource.manager.countBy(EntryDocument, { id: docId(d.id) })).to.equal(1);
    });
  });
});
