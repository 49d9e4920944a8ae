import { EntityManager } from 'typeorm';
import { Changes, diff, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction } from '../../core/db/transaction';
import type { Dec } from '../../core/decimal';
import { AppError, BusinessRuleError, FieldError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { linkSupplierItem, matchSupplierItems, recordMapUse } from '../product-map';
import { computedHeader, prepareDraft } from './create-draft';
import { storedDraftInput } from './document-state';
import type { ComputedItem } from './entry-document.calculator';
import { currentDocument, findAccessibleDocument } from './entry-document.access';
import { EntryDocumentDetail, loadEntryDocumentDetail } from './detail';
import { toEventData } from './entry-document.events';
import { AUDIT_ENTITY, findDocument, loadInstallments, loadItems, updateIfCurrent, updateItems } from './entry-document.repository';
import type { ItemInput } from './entry-document.types';
import type { EntryDocumentItem, ItemReviewStatus } from './entities/entry-document-item.entity';
import type { EntryDocument } from './entities/entry-document.entity';
import type { OperationClass } from './fiscal/fiscal.types';
import { checkOrderLinks } from './purchase-link';
import { assertEditable, headerView, itemChanges, raiseConflict } from './update-draft';

/*
 * Line review of a DRAFT (SPEC §2): lines edited by id without resending the document — product,
 * conversion factor, review state, optionally saving the mapping, the purchase-order line it
 * receives against, its entry CFOP and operation class — and "apply the product map again"
 * to every PENDING line. Only the booked side of a line changes; the supplier's declared values
 * (code, description, unit, quantity, unit price, NCM, CFOP) are never touched. Lines are rewritten
 * in place, so their ids stay valid across reviews; the document is recomputed by the one calculator
 * and written under its version like any other edit.
 */

/** One line's edit. Absent fields stay as they are; new line fields join here. */
export interface LineEdit {
  /** The line (entry-document-item id). */
  id: number;
  /** null → no product (PENDING unless IGNORED is asked). */
  productId?: number | null;
  conversionFactor?: Dec;
  /** MATCHED needs a product; PENDING clears it; IGNORED keeps the line off stock (product kept). */
  reviewStatus?: ItemReviewStatus;
  /** Also save (supplier, code) → (product, factor) in the product map. */
  saveMapping?: boolean;
  /** The purchase-order line the line receives against; null unlinks. */
  purchaseOrderItemId?: number | null;
  /** The inbound CFOP the line is booked with; null goes back to the company's rules and the defaults. */
  entryCfop?: string | null;
  /** The line's operation class; null goes back to the one the entry CFOP and finNFe give. */
  operationClass?: OperationClass | null;
}

export interface AppliedMapping {
  itemId: number;
  lineNumber: number;
  productId: number;
  conversionFactor: Dec;
}

/** Applies one edit to the line's input; the review state follows the calculator's rule (ignored, else product). */
function editedInput(current: ItemInput, edit: LineEdit, path: string): ItemInput {
  const next: ItemInput = { ...current };
  if (edit.productId !== undefined) next.productId = edit.productId;
  if (edit.conversionFactor !== undefined) next.conversionFactor = edit.conversionFactor;
  if (edit.purchaseOrderItemId !== undefined) next.purchaseOrderItemId = edit.purchaseOrderItemId;
  if (edit.entryCfop !== undefined) next.entryCfop = edit.entryCfop;
  if (edit.operationClass !== undefined) next.operationClass = edit.operationClass;
  switch (edit.reviewStatus) {
    case 'IGNORED':
      next.ignored = true;
      break;
    case 'PENDING':
      if (edit.productId)
        throw new ValidationError('Invalid request', [
          { path: `${path}.reviewStatus`, message: 'PENDING means no product: do not give a productId with it' },
        ]);
      next.productId = null;
      next.ignored = false;
      break;
    case 'MATCHED':
      next.ignored = false;
      if (!next.productId)
        throw new BusinessRuleError('LINE_PRODUCT_REQUIRED', `${path}: MATCHED needs a product`, {
          errors: [{ path: `${path}.productId`, message: 'a MATCHED line needs a product' }],
        });
      break;
    default:
      // Choosing a product (or none) is a review decision: it takes the line out of IGNORED.
      if (edit.productId !== undefined) next.ignored = false;
  }
  return next;
}

interface Rewrite {
  doc: EntryDocument;
  items: EntryDocumentItem[];
  /** New input per line index, for the lines that change. */
  inputs: Map<number, ItemInput>;
  /** Line index → how the request names it (`lines[j]`), for error paths. */
  pathOf?: Map<number, string>;
}

/** The calculator and the checks name a line `items[<index>]`; a line review names it as its edit, `lines[<j>]`. */
async function withLinePaths<T>(pathOf: Map<number, string> | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const errors = err instanceof AppError ? (err.extensions.errors as FieldError[] | undefined) : undefined;
    if (!pathOf || !errors || !(err instanceof AppError)) throw err;
    const rename = (text: string) => text.replace(/items\[(\d+)\]/g, (whole, i: string) => pathOf.get(Number(i)) ?? whole);
    throw new AppError(err.kind, err.code, err.message, {
      ...err.extensions,
      errors: errors.map((e) => ({ ...e, path: rename(e.path), message: rename(e.message) })),
    });
  }
}

/**
 * Recomputes the document with the changed lines and writes what changed: the header under the
 * version read (status DRAFT), then the changed lines in place; audit row with field diffs and event.
 * `pathOf` (a line review): error paths name the edits, and changed links are checked (404/422).
 */
async function writeLines(
  em: EntityManager,
  ctx: TenantContext,
  { doc, items, inputs, pathOf }: Rewrite,
): Promise<{ doc: EntryDocument; computed: ComputedItem[] }> {
  const installments = await loadInstallments(em, ctx.companyId, doc.id);
  const current = storedDraftInput(doc, items, installments);
  const { computed } = await withLinePaths(pathOf, async () => {
    const prepared = await prepareDraft(em, ctx.companyId, { ...current, items: current.items.map((it, i) => inputs.get(i) ?? it) });
    // Reviewed lines whose link or product changed have the link checked; apply-product-map leaves a
    // product that differs from the linked order line's to the match (a blocking finding), not a refusal.
    if (pathOf) await checkOrderLinks(em, ctx, doc, prepared.computed.items, items, (i) => pathOf.get(i) ?? `items[${i}]`);
    return prepared;
  });
  const lineChanges = itemChanges(items, computed.items);
  const changes: Changes = { ...diff(headerView(doc), headerView({ ...doc, ...computedHeader(computed) })), ...lineChanges };
  if (!Object.keys(changes).length) return { doc, computed: computed.items };
  if (!(await updateIfCurrent(em, ctx.companyId, doc.id, { status: 'DRAFT', version: doc.version }, computedHeader(computed))))
    await raiseConflict(em, ctx, doc);
  // Diff keys are `items[<lineNumber>].<field>`; the computed lines are in the stored lines' order.
  const touched = new Set(Object.keys(lineChanges).map((k) => Number(/^items\[(\d+)\]/.exec(k)![1])));
  const rows = items.flatMap((it, i) => (touched.has(it.lineNumber) ? [{ id: it.id, values: computed.items[i] }] : []));
  await updateItems(em, ctx.companyId, doc.id, rows);
  const updated = (await findDocument(em, ctx.companyId, doc.id))!;
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: doc.id, action: 'UPDATED', changes });
  await publishEvent(em, ctx, {
    type: 'entry-document.updated',
    filialId: doc.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: doc.id,
    data: toEventData(updated),
  });
  return { doc: updated, computed: computed.items };
}

/** The draft and its lines inside the transaction, version checked. */
async function editableDraft(
  em: EntityManager,
  ctx: TenantContext,
  id: number,
  version: number,
): Promise<{ doc: EntryDocument; items: EntryDocumentItem[] }> {
  const doc = await currentDocument(em, ctx, id);
  assertEditable(doc, version);
  return { doc, items: await loadItems(em, ctx.companyId, doc.id) };
}

/**
 * PATCH /entry-document/lines/:id — edits lines by id; mappings saved in the same transaction.
 * Answers with the draft's detail (read after the commit).
 */
export async function reviewLines(ctx: TenantContext, id: number, version: number, edits: LineEdit[]): Promise<EntryDocumentDetail> {
  const doc = await reviewDraftLines(ctx, id, version, edits);
  return loadEntryDocumentDetail(ctx, doc.id);
}

async function reviewDraftLines(ctx: TenantContext, id: number, version: number, edits: LineEdit[]): Promise<EntryDocument> {
  await findAccessibleDocument(ctx, id);
  return inTransaction(ctx, async (em) => {
    const { doc, items } = await editableDraft(em, ctx, id, version);
    const indexById = new Map(items.map((it, i) => [it.id, i]));
    const seen = new Set<number>();
    const duplicates = edits.flatMap((e, i) =>
      seen.has(e.id) ? [{ path: `lines[${i}].id`, message: 'the line is given more than once' }] : (seen.add(e.id), []),
    );
    if (duplicates.length) throw new ValidationError('Invalid request', duplicates);
    // A line of another document or company is not found here (its id says nothing about elsewhere).
    if (edits.some((e) => !indexById.has(e.id))) throw new NotFoundError('Entry document item');

    const current = storedDraftInput(doc, items, []).items;
    const inputs = new Map<number, ItemInput>();
    edits.forEach((e, i) => {
      const index = indexById.get(e.id)!;
      inputs.set(index, editedInput(current[index], e, `lines[${i}]`));
    });
    const mappings = edits.flatMap((e, i) => (e.saveMapping ? [{ edit: e, index: indexById.get(e.id)!, path: `lines[${i}]` }] : []));
    for (const m of mappings) {
      const input = inputs.get(m.index)!;
      if (!input.productId)
        throw new BusinessRuleError('LINE_MAPPING_NEEDS_PRODUCT', `${m.path}: saveMapping needs a product on the line`, {
          errors: [{ path: `${m.path}.saveMapping`, message: 'the line has no product' }],
        });
      if (!items[m.index].supplierProductCode) {
        throw new BusinessRuleError('LINE_HAS_NO_SUPPLIER_CODE', `${m.path}: the line has no supplier code to map`, {
          errors: [{ path: `${m.path}.saveMapping`, message: 'the line has no supplier product code' }],
        });
      }
    }

    const pathOf = new Map(edits.map((e, i) => [indexById.get(e.id)!, `lines[${i}]`]));
    const { doc: updated, computed } = await writeLines(em, ctx, { doc, items, inputs, pathOf });
    for (const m of mappings) {
      const line = items[m.index];
      const booked = computed[m.index];
      await linkSupplierItem(
        em,
        ctx,
        {
          supplierDocument: doc.supplierDocument,
          supplierProductCode: line.supplierProductCode!,
          productId: booked.productId!,
          conversionFactor: booked.conversionFactor,
          supplierUnit: line.declaredUnit ?? line.unit,
          supplierDescription: line.declaredDescription ?? line.description,
          countUse: true,
        },
        {
          eventExtra: { source: 'entry-document-review', entryDocumentId: encodeId('entry-document', doc.id), lineNumber: line.lineNumber },
        },
      );
    }
    return updated;
  });
}

/**
 * POST /entry-document/apply-product-map/:id — every PENDING line with a supplier code is resolved
 * through the product map again (after links or auto-creates made elsewhere). Only map entries set
 * a product: a similar name stays a suggestion of POST /product-map/match. Answers with the draft's
 * detail (read after the commit) and what was applied.
 */
export async function applyProductMap(
  ctx: TenantContext,
  id: number,
  version: number,
): Promise<{ detail: EntryDocumentDetail; applied: AppliedMapping[] }> {
  const { doc, applied } = await applyMapToDraft(ctx, id, version);
  return { detail: await loadEntryDocumentDetail(ctx, doc.id), applied };
}

async function applyMapToDraft(
  ctx: TenantContext,
  id: number,
  version: number,
): Promise<{ doc: EntryDocument; applied: AppliedMapping[] }> {
  await findAccessibleDocument(ctx, id);
  return inTransaction(ctx, async (em) => {
    const { doc, items } = await editableDraft(em, ctx, id, version);
    const pending = items.filter((it) => it.reviewStatus === 'PENDING' && it.supplierProductCode);
    if (!pending.length) return { doc, applied: [] };
    const matches = await matchSupplierItems(
      ctx,
      doc.supplierDocument,
      pending.map((it) => ({
        code: it.supplierProductCode!,
        description: it.declaredDescription ?? it.description,
        unit: it.declaredUnit ?? it.unit,
        gtin: null,
      })),
      em,
    );
    const current = storedDraftInput(doc, items, []).items;
    const inputs = new Map<number, ItemInput>();
    const applied: AppliedMapping[] = [];
    const indexById = new Map(items.map((it, i) => [it.id, i]));
    pending.forEach((it, i) => {
      const m = matches[i];
      if (m.status !== 'MATCHED' || m.source !== 'MAP' || !m.productId) return;
      const index = indexById.get(it.id)!;
      const conversionFactor = m.conversionFactor ?? current[index].conversionFactor!;
      inputs.set(index, { ...current[index], productId: m.productId, conversionFactor, ignored: false });
      applied.push({ itemId: it.id, lineNumber: it.lineNumber, productId: m.productId, conversionFactor });
    });
    if (!applied.length) return { doc, applied };
    const { doc: updated } = await writeLines(em, ctx, { doc, items, inputs });
    await recordMapUse(em, ctx, doc.supplierDocument, [
      ...new Set(pending.filter((it) => applied.some((a) => a.itemId === it.id)).map((it) => it.supplierProductCode!)),
    ]);
    return { doc: updated, applied };
  });
}
