import { readerOf } from '../../core/db/transaction';
import type { TenantContext } from '../../core/context';
import { documentPayables } from '../payables';
import { loadDocumentState } from './document-state';
import { splitChecks } from './entry-document.calculator';
import { findAccessibleDocument } from './entry-document.access';
import { inboundNfe } from './entry-document.ports';
import { purchaseMatch } from './purchase-link';
import { taxCreditsOf } from './fiscal/tax-credit.repository';

/**
 * The document with its lines, installments, payables, the NF-e it came from, and (for a draft) its
 * review findings: GET /entry-document/:id, and what every use case that changes a document answers
 * with (read after its transaction committed), so each controller makes one service call.
 */
export async function loadEntryDocumentDetail(ctx: TenantContext, id: number) {
  const em = readerOf(ctx);
  const doc = await findAccessibleDocument(ctx, id, em);
  const state = await loadDocumentState(em, doc);
  const payables = await documentPayables(em, ctx.companyId, doc.id);
  const nfe = doc.accessKey ? await inboundNfe.get().inboundOf(em, ctx.companyId, doc.filialId, doc.accessKey) : null;
  // A draft shows its three-way match; its findings are part of the review.
  const match = doc.status === 'DRAFT' ? await purchaseMatch(em, ctx, doc, state.computed.items, state.products) : null;
  const { blocking, warnings } = splitChecks([...state.checks, ...(match?.findings ?? [])]);
  const taxCredits = await taxCreditsOf(em, ctx.companyId, doc.id);
  // A draft shows its lines as they would be booked now (the filial's regime and the company's rules may
  // have changed since it was written); a confirmed or cancelled one, as it was booked.
  const items = doc.status === 'DRAFT' ? state.computed.items.map((it, i) => ({ ...it, id: state.items[i].id })) : state.items;
  return {
    state,
    items,
    payables,
    nfe,
    review: doc.status === 'DRAFT' ? { blocking, warnings } : null,
    taxCredits,
    purchaseMatch: match?.view ?? null,
  };
}

export type EntryDocumentDetail = Awaited<ReturnType<typeof loadEntryDocumentDetail>>;
