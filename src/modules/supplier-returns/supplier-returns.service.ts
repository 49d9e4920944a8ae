import { assertFilialAccess } from '../tenancy';
import { readerOf } from '../../core/db/transaction';
import type { TenantContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { findAccessibleDocument, supplierReturnSource } from '../entry-document';
import { previewSupplierReturnDeduction, supplierReturnSettlement } from '../payables';
import { previewPosting } from '../stock';
import type { SupplierReturn, SupplierReturnStatus } from './entities/supplier-return.entity';
import type { SupplierReturnItem } from './entities/supplier-return-item.entity';
import { issueSupplierReturn } from './document';
import { notReturnable, planReturn, returnedByLine, ReturnRequest } from './postings';
import { countLive, findReturn, itemsOf, listQuery, loadReturns } from './supplier-returns.repository';

/*
 * The reads of supplier returns: what a confirmed entry document can still send back, the preview of
 * a return (what the NF-e carries and what its authorization will post), lists and details. The
 * writes run inside the NF-e's transactions (postings.ts).
 */

/** The lines of a confirmed entry document with what was received, returned (or reserved) and is left. */
export async function returnableLines(ctx: TenantContext, entryDocumentId: number) {
  await findAccessibleDocument(ctx, entryDocumentId);
  const em = readerOf(ctx);
  const source = await supplierReturnSource(em, ctx, entryDocumentId);
  const returned = source.doc.status === 'CONFIRMED' ? await returnedByLine(em, ctx.companyId, entryDocumentId) : new Map<number, Dec>();
  return {
    doc: source.doc,
    lines: source.lines.map((line) => {
      const why = source.doc.status === 'CONFIRMED' ? notReturnable(line) : `the document is ${source.doc.status}`;
      const back = returned.get(line.item.id) ?? new Dec(0);
      return { line, returned: back, returnable: why ? new Dec(0) : Dec.max(line.item.quantity.minus(back), 0), notReturnableReason: why };
    }),
  };
}

/** What the return would be: the NF-e's lines and totals, the stock it will take out, the credits reversed, the payables abated. */
export async function previewReturn(ctx: TenantContext, entryDocumentId: number, request: ReturnRequest) {
  await findAccessibleDocument(ctx, entryDocumentId);
  const em = readerOf(ctx);
  const plan = await planReturn(em, ctx, entryDocumentId, request, false);
  const [stock, settlement] = [
    await previewPosting(em, plan.posting),
    await previewSupplierReturnDeduction(em, ctx.companyId, entryDocumentId, plan.totals.total),
  ];
  return { plan, stock, settlement };
}

/** Registers the return and issues its NF-e (document.ts); answers the return as it stands after the authority's answer. */
export async function issueReturn(ctx: TenantContext, entryDocumentId: number, request: ReturnRequest, requestKey: string | null) {
  const id = await issueSupplierReturn(ctx, entryDocumentId, request, requestKey);
  return returnDetail(ctx, id);
}

export async function findAccessibleReturn(ctx: TenantContext, id: number) {
  const ret = await findReturn(readerOf(ctx), ctx.companyId, id);
  if (!ret) throw new NotFoundError('Supplier return');
  await assertFilialAccess(ctx, ret.filialId);
  return ret;
}

export async function returnDetail(ctx: TenantContext, id: number) {
  const ret = await findAccessibleReturn(ctx, id);
  const em = readerOf(ctx);
  return { ret, items: await itemsOf(em, ctx.companyId, id), settlement: await supplierReturnSettlement(em, ctx.companyId, id) };
}

export async function listReturns(
  ctx: TenantContext,
  filialId: number,
  q: PageRequest & { status?: SupplierReturnStatus; entryDocumentId?: number },
): Promise<Page<{ ret: SupplierReturn; items: SupplierReturnItem[] }>> {
  const em = readerOf(ctx);
  return paginate(
    listQuery(em, ctx.companyId, filialId, q),
    [{ column: 'r.id', direction: 'DESC' }],
    q,
    (ids) => loadReturns(em, ctx.companyId, ids),
    (r) => r.ret.id,
  );
}

/** The entry-document port (entry-document.ports.ts): returns that still stand against the document block its cancellation. */
export const supplierReturnsOfDocumentProvider = { liveReturns: countLive };
