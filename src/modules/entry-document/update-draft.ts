import { EntityManager } from 'typeorm';
import { Changes, diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext, TenantContext } from '../../core/context';
import { inTransaction } from '../../core/db/transaction';
import { Dec, toFixed } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StaleVersionError, ValidationError } from '../../core/errors';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { computedHeader, prepareDraft, resolveSupplier, SupplierSnapshot } from './create-draft';
import { checkOrderLinks } from './purchase-link';
import { keepDeclaredValues } from './declared-values';
import { storedDraftInput } from './document-state';
import { ComputedItem } from './entry-document.calculator';
import { currentDocument, findAccessibleDocument } from './entry-document.access';
import { EntryDocumentDetail, loadEntryDocumentDetail } from './detail';
import { toEventData } from './entry-document.events';
import { EntryDocumentItem } from './entities/entry-document-item.entity';
import { EntryDocument } from './entities/entry-document.entity';
import {
  AUDIT_ENTITY,
  findDocument,
  loadInstallments,
  loadItems,
  replaceInstallments,
  replaceItems,
  updateIfCurrent,
} from './entry-document.repository';
import { CHARGE_NAMES, DraftInput, HeaderCharges, InstallmentInput, ItemInput, SupplierInput } from './entry-document.types';
import type { NfePurpose } from './fiscal/fiscal.types';
import { assertAllowed } from './entry-document.state';

/*
 * Editing a DRAFT: PATCH (header fields, and items/installments replaced as a whole) and the
 * product assignment the NF-e review and the product map use. Both rebuild the draft's input,
 * recompute it with the one calculator and write it back under the version check.
 */

export interface DraftPatch {
  model?: string;
  series?: string;
  number?: string;
  issueDate?: string;
  entryDate?: string;
  operationNature?: string | null;
  notes?: string | null;
  supplier?: SupplierInput;
  supplierId?: number;
  /** Allocated over the items, replacing their own values of the charges given. */
  charges?: HeaderCharges | null;
  items?: ItemInput[];
  installments?: InstallmentInput[] | null;
  purpose?: NfePurpose;
  referencedKeys?: string[] | null;
}

/** The fiscal identity of an imported NF-e comes from the XML and is not edited by hand. */
const NFE_IDENTITY: (keyof DraftPatch)[] = [
  'model',
  'series',
  'number',
  'issueDate',
  'supplier',
  'supplierId',
  'purpose',
  'referencedKeys',
];
const HEADER_FIELDS = [
  'model',
  'series',
  'number',
  'issueDate',
  'entryDate',
  'operationNature',
  'notes',
  'purpose',
  'referencedKeys',
] as const;

const itemView = (it: ComputedItem | EntryDocumentItem) => ({
  productId: encodeOptionalId('product', it.productId),
  reviewStatus: it.reviewStatus,
  supplierProductCode: it.supplierProductCode,
  description: it.description,
  unit: it.unit,
  quantity: toFixed(it.quantity, 4),
  unitPrice: toFixed(it.unitPrice, 10),
  discount: toFixed(it.discount, 2),
  freight: toFixed(it.freight, 2),
  insurance: toFixed(it.insurance, 2),
  otherExpenses: toFixed(it.otherExpenses, 2),
  ipi: toFixed(it.ipi, 2),
  icmsSt: toFixed(it.icmsSt, 2),
  apportionedFreight: toFixed(it.apportionedFreight, 2),
  conversionFactor: toFixed(it.conversionFactor, 6),
  unitCost: toFixed(it.unitCost, 10),
  entryCfop: it.entryCfop,
  operationClass: it.operationClass,
  purchaseOrderItemId: encodeOptionalId('purchase-order-item', it.purchaseOrderItemId),
});

/** Item changes keyed by line: `items[3].quantity: [old, new]`; added/removed lines as a whole. */
export function itemChanges(before: EntryDocumentItem[], after: ComputedItem[]): Changes {
  const changes: Changes = {};
  const old = new Map(before.map((i) => [i.lineNumber, itemView(i)]));
  const next = new Map(after.map((i) => [i.lineNumber, itemView(i)]));
  for (const line of [...new Set([...old.keys(), ...next.keys()])].sort((a, b) => a - b)) {
    const a = old.get(line);
    const b = next.get(line);
    if (!a || !b) {
      changes[`items[${line}]`] = [a ?? null, b ?? null];
      continue;
    }
    for (const [field, values] of Object.entries(diff(a, b))) changes[`items[${line}].${field}`] = values;
  }
  return changes;
}

const installmentView = (list: { number: number; dueDate: string; amount: Dec }[]) =>
  list.map((p) => ({ number: p.number, dueDate: p.dueDate, amount: toFixed(p.amount, 2) }));

export const headerView = (d: Partial<EntryDocument>) => ({
  ...Object.fromEntries(HEADER_FIELDS.map((f) => [f, d[f]])),
  supplierId: d.supplierId ? encodeId('supplier', d.supplierId) : undefined,
  supplierDocument: d.supplierDocument,
  supplierName: d.supplierName,
  total: d.total ? toFixed(d.total, 2) : undefined,
  itemCount: d.itemCount,
  pendingItemCount: d.pendingItemCount,
});

/**
 * Recomputes a draft from `build(current input)` and writes it: the header with a conditional UPDATE
 * (status DRAFT and the version read), then the replaced lines, then the audit row with field diffs.
 */
async function rewriteDraft(
  em: EntityManager,
  ctx: ActorContext,
  doc: EntryDocument,
  build: (current: DraftInput) => DraftInput,
  touched: { items: boolean; installments: boolean; supplier: boolean },
): Promise<EntryDocument> {
  const [items, installments] = [await loadItems(em, ctx.companyId, doc.id), await loadInstallments(em, ctx.companyId, doc.id)];
  const next = build(storedDraftInput(doc, items, installments));
  const { input, computed } = await prepareDraft(em, ctx.companyId, next);
  const supplier = touched.supplier ? await resolveSupplier(em, ctx, input) : {};
  const owner = {
    filialId: doc.filialId,
    supplierDocument: (supplier as Partial<SupplierSnapshot>).supplierDocument ?? doc.supplierDocument,
  };
  if (touched.items || touched.supplier) await checkOrderLinks(em, ctx, owner, computed.items, touched.supplier ? undefined : items);
  const values: Partial<EntryDocument> = {
    model: input.model,
    series: input.series,
    number: input.number,
    issueDate: input.issueDate,
    entryDate: input.entryDate,
    operationNature: input.operationNature ?? null,
    notes: input.notes ?? null,
    purpose: input.purpose ?? '1',
    referencedKeys: input.referencedKeys?.length ? input.referencedKeys : null,
    ...supplier,
    ...computedHeader(computed),
  };
  const changes: Changes = {
    ...diff(headerView(doc), headerView({ ...doc, ...values })),
    ...(touched.items ? itemChanges(items, computed.items) : {}),
  };
  const installmentsBefore = installmentView(installments);
  const installmentsAfter = installmentView(computed.installments);
  if (touched.installments && JSON.stringify(installmentsBefore) !== JSON.stringify(installmentsAfter))
    changes.installments = [installmentsBefore, installmentsAfter];
  if (!Object.keys(changes).length) return doc;

  if (!(await updateIfCurrent(em, ctx.companyId, doc.id, { status: 'DRAFT', version: doc.version }, values)))
    await raiseConflict(em, ctx, doc);
  if (touched.items) await replaceItems(em, ctx.companyId, doc.id, computed.items);
  if (touched.installments) await replaceInstallments(em, ctx.companyId, doc.id, computed.installments);
  const updated = (await findDocument(em, ctx.companyId, doc.id))!;
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: doc.id, action: 'UPDATED', changes });
  await publishEvent(em, ctx, {
    type: 'entry-document.updated',
    filialId: doc.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: doc.id,
    data: toEventData(updated),
  });
  return updated;
}

/** The conditional UPDATE missed: tell a status change from a concurrent edit. */
export async function raiseConflict(em: EntityManager, ctx: ActorContext, doc: EntryDocument): Promise<never> {
  const now = await findDocument(em, ctx.companyId, doc.id);
  if (!now) throw new NotFoundError('Entry document');
  assertAllowed(now, 'edit');
  throw new StaleVersionError('Entry document', now.version);
}

export function assertEditable(doc: EntryDocument, version?: number): void {
  assertAllowed(doc, 'edit');
  if (version !== undefined && doc.version !== version) throw new StaleVersionError('Entry document', doc.version);
}

/**
 * Items sent in a PATCH keep the CT-e freight apportioned onto the stored lines (the client never
 * sends it): line by line, so the number of lines cannot change while a CT-e's freight is on them.
 */
function keepApportionedFreight(stored: ItemInput[], given: ItemInput[]): ItemInput[] {
  const apportioned = stored.some((it) => it.apportionedFreight && !it.apportionedFreight.isZero());
  if (apportioned && given.length !== stored.length) {
    throw new BusinessRuleError(
      'ENTRY_DOCUMENT_HAS_CTE_FREIGHT',
      `CT-e freight is apportioned onto the ${stored.length} lines of this draft; cancel the CT-e before adding or removing lines`,
      {
        lines: stored.length,
      },
    );
  }
  return given.map((it, i) => ({ ...it, apportionedFreight: stored[i]?.apportionedFreight ?? null }));
}

/** Header charges replace the items' own values of those charges. */
function withoutItemCharges(items: ItemInput[], charges: HeaderCharges): ItemInput[] {
  const given = CHARGE_NAMES.filter((c) => charges[c] !== undefined && charges[c] !== null);
  return items.map((it) => {
    const copy: ItemInput = { ...it, taxes: it.taxes ? { ...it.taxes } : it.taxes };
    for (const c of given) {
      if (c === 'ipi' || c === 'icmsSt') {
        if (copy.taxes?.[c]) copy.taxes[c] = { ...copy.taxes[c]!, value: null };
      } else copy[c] = null;
    }
    return copy;
  });
}

/** PATCH /entry-document/:id: edits the draft, answers with its detail (read after the commit). */
export async function patchEntryDocument(ctx: TenantContext, id: number, version: number, patch: DraftPatch): Promise<EntryDocumentDetail> {
  const doc = await patchDraft(ctx, id, version, patch);
  return loadEntryDocumentDetail(ctx, doc.id);
}

async function patchDraft(ctx: TenantContext, id: number, version: number, patch: DraftPatch): Promise<EntryDocument> {
  await findAccessibleDocument(ctx, id);
  return inTransaction(ctx, async (em) => {
    const doc = await currentDocument(em, ctx, id);
    assertEditable(doc, version);
    if (doc.origin !== 'MANUAL') {
      const readOnly = NFE_IDENTITY.filter((f) => patch[f] !== undefined);
      if (readOnly.length) {
        throw new BusinessRuleError(
          'ENTRY_DOCUMENT_FIELD_READ_ONLY',
          `An imported NF-e keeps its fiscal identity: ${readOnly.join(', ')} cannot be edited`,
          { fields: readOnly },
        );
      }
    }
    const supplierTouched = patch.supplier !== undefined || patch.supplierId !== undefined;
    return rewriteDraft(
      em,
      ctx,
      doc,
      (current) => {
        const next: DraftInput = { ...current };
        for (const f of HEADER_FIELDS) if (patch[f] !== undefined) (next as unknown as Record<string, unknown>)[f] = patch[f];
        if (supplierTouched) {
          next.supplier = patch.supplier;
          next.supplierId = patch.supplierId;
        }
        if (patch.items !== undefined)
          next.items = keepApportionedFreight(
            current.items,
            doc.origin === 'MANUAL' ? patch.items : keepDeclaredValues(current.items, patch.items),
          );
        if (patch.charges) {
          next.charges = patch.charges;
          if (patch.items === undefined) next.items = withoutItemCharges(current.items, patch.charges);
        }
        if (patch.installments !== undefined) next.installments = patch.installments ?? [];
        return next;
      },
      { items: patch.items !== undefined || !!patch.charges, installments: patch.installments !== undefined, supplier: supplierTouched },
    );
  });
}

export interface ItemAssignment {
  lineNumber: number;
  /** null → back to PENDING. */
  productId: number | null;
  conversionFactor?: Dec;
  ignored?: boolean;
}

/**
 * Sets the product (and conversion factor, or IGNORED) of lines of a DRAFT, inside the caller's
 * transaction — the NF-e review and the supplier-product map call this. Lines are addressed by
 * `lineNumber`, which stays stable while item ids change whenever the items are rewritten.
 * `version`, when given, must be current. Products are checked in the tenant (404).
 */
export async function assignItemProducts(
  em: EntityManager,
  ctx: ActorContext,
  entryDocumentId: number,
  assignments: ItemAssignment[],
  version?: number,
): Promise<EntryDocument> {
  const doc = await findDocument(em, ctx.companyId, entryDocumentId);
  if (!doc) throw new NotFoundError('Entry document');
  assertEditable(doc, version);
  return rewriteDraft(
    em,
    ctx,
    doc,
    (current) => {
      const byLine = new Map(assignments.map((a) => [a.lineNumber, a]));
      const unknown = assignments.filter((a) => a.lineNumber < 1 || a.lineNumber > current.items.length);
      if (unknown.length)
        throw new ValidationError(
          'Invalid request',
          unknown.map((a) => ({ path: 'lineNumber', message: `line ${a.lineNumber} does not exist` })),
        );
      return {
        ...current,
        items: current.items.map((it, i) => {
          const a = byLine.get(i + 1);
          if (!a) return it;
          return {
            ...it,
            productId: a.productId,
            ignored: a.ignored ?? false,
            conversionFactor: a.conversionFactor ?? it.conversionFactor,
          };
        }),
      };
    },
    { items: true, installments: false, supplier: false },
  );
}
