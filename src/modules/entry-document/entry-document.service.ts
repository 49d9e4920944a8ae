import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { ConflictError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { createEntryDocumentDraft, prepareDraft, resolveSupplier } from './create-draft';
import { assertTrailAccess, currentDocument, findAccessibleDocument } from './entry-document.access';
import { toEventData } from './entry-document.events';
import { EntryDocument } from './entities/entry-document.entity';
import {
  AUDIT_ENTITY,
  auditQuery,
  auditSummaryRows,
  deleteDraft,
  ListFilters,
  listQuery,
  loadDocumentsByIds,
} from './entry-document.repository';
import { DraftInput } from './entry-document.types';
import { checkOrderLinks, purchaseMatch } from './purchase-link';
import { EntryDocumentDetail, loadEntryDocumentDetail } from './detail';
import { inboundNfe } from './entry-document.ports';
import { assertAllowed } from './entry-document.state';

/** Entry-document use cases other than editing, confirming and cancelling (their own files). */

export type ManualDraftInput = Omit<DraftInput, 'filialId' | 'origin' | 'accessKey' | 'expectedTotals'>;

function governingFilial(ctx: TenantContext): number {
  if (!ctx.filialId)
    throw new ValidationError('x-filial-id header is required', [{ path: 'x-filial-id', message: 'required' }], 'MISSING_TENANT_HEADER');
  return ctx.filialId;
}

/** POST /entry-document: a MANUAL draft in the filial of x-filial-id; answers with its detail. */
export async function createManualDraft(ctx: TenantContext, body: ManualDraftInput): Promise<EntryDocumentDetail> {
  const filialId = governingFilial(ctx);
  const doc = await inTransaction(ctx, (em) => createEntryDocumentDraft(em, ctx, { ...body, filialId, origin: 'MANUAL' }));
  return loadEntryDocumentDetail(ctx, doc.id);
}

/** GET /entry-document/:id. */
export const getEntryDocumentDetail = (ctx: TenantContext, id: number): Promise<EntryDocumentDetail> => loadEntryDocumentDetail(ctx, id);

/** preview-manual: the create computed, nothing written (an unknown supplier is not created). */
export async function previewManualDraft(ctx: TenantContext, body: ManualDraftInput) {
  const filialId = governingFilial(ctx);
  const em = readerOf(ctx);
  const prepared = await prepareDraft(em, ctx.companyId, { ...body, filialId, origin: 'MANUAL' });
  const supplier = await resolveSupplier(em, ctx, prepared.input, false);
  const owner = { filialId, supplierDocument: supplier.supplierDocument };
  await checkOrderLinks(em, ctx, owner, prepared.computed.items);
  const match = await purchaseMatch(em, ctx, owner, prepared.computed.items, prepared.products);
  return { prepared, supplier, filialId, purchaseMatch: match?.view ?? null };
}

export interface EntryDocumentListQuery extends PageRequest, ListFilters {
  sort?: 'entryDate' | '-entryDate' | 'issueDate' | '-issueDate';
}

export async function listEntryDocuments(
  ctx: TenantContext,
  filialId: number,
  query: EntryDocumentListQuery,
): Promise<Page<EntryDocument>> {
  const em = readerOf(ctx);
  const sort = query.sort ?? '-entryDate';
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const column = sort.endsWith('issueDate') ? 'd.issue_date' : 'd.entry_date';
  return paginate(
    listQuery(em, ctx.companyId, filialId, query),
    [
      { column, direction },
      { column: 'd.id', direction },
    ],
    query,
    (ids) => loadDocumentsByIds(em, ids),
    (d) => d.id,
  );
}

export async function deleteEntryDocument(ctx: TenantContext, id: number): Promise<void> {
  await findAccessibleDocument(ctx, id);
  await inTransaction(ctx, async (em) => {
    const doc = await currentDocument(em, ctx, id);
    assertAllowed(doc, 'delete');
    if (!(await deleteDraft(em, ctx.companyId, id)))
      throw new ConflictError('ENTRY_DOCUMENT_CHANGED', 'The document changed status while being deleted');
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: id,
      action: 'DELETED',
      // The trail outlives the row: keep what identifies the document (and its filial, for access checks).
      changes: {
        status: ['DRAFT', null],
        filialId: [encodeId('filial', doc.filialId), null],
        number: [doc.number, null],
        series: [doc.series, null],
        supplierDocument: [doc.supplierDocument, null],
        total: [doc.total.toFixed(2), null],
      },
    });
    await publishEvent(em, ctx, {
      type: 'entry-document.deleted',
      filialId: doc.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: toEventData(doc),
    });
    // A draft imported from an NF-e gives its inbound record back: pending again, importable again.
    await inboundNfe.get().releaseImported(em, ctx, id, 'DELETED');
  });
}

const stamp = (row?: { actor: string; createdAt: Date }) => (row ? { by: row.actor, at: new Date(row.createdAt).toISOString() } : null);

/** Who created, last edited, confirmed, cancelled (and deleted) the document, and when. */
export async function auditSummary(ctx: TenantContext, id: number) {
  const doc = await assertTrailAccess(ctx, id);
  const rows = await auditSummaryRows(readerOf(ctx), ctx.companyId, id);
  const of = (action: string) => rows.find((r) => r.action === action);
  const updated = of('UPDATED');
  return {
    entryDocumentId: encodeId('entry-document', id),
    status: doc?.status ?? 'DELETED',
    created: stamp(of('CREATED')?.first),
    lastUpdated: updated ? { ...stamp(updated.last)!, count: updated.count } : null,
    confirmed: stamp(of('CONFIRMED')?.last),
    cancelled: stamp(of('CANCELLED')?.last),
    deleted: stamp(of('DELETED')?.last),
  };
}

/** The full trail, oldest first, with field diffs. */
export async function auditHistory(ctx: TenantContext, id: number, page: PageRequest) {
  await assertTrailAccess(ctx, id);
  const em = readerOf(ctx);
  return paginate(
    auditQuery(em, ctx.companyId, id),
    [{ column: 'a.id', direction: 'ASC' }],
    page,
    (ids) => auditQuery(em, ctx.companyId, id).andWhere('a.id IN (:...ids)', { ids }).getMany(),
    (a) => a.id,
  );
}

/**
 * The issuer cancelled the invoice a document was booked from (dfe's ingest, inside its
 * transaction): flag the document for review. A DRAFT can no longer be confirmed; a confirmed one
 * shows the flag and is for the user to cancel.
 */
export async function flagIssuerCancellation(em: EntityManager, companyId: number, entryDocumentId: number): Promise<void> {
  await em.update(EntryDocument, { id: entryDocumentId, companyId }, { nfeCancelledAt: new Date() });
}
