import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { Product } from '../catalog';
import { findOrCreateSupplier, Supplier } from '../catalog';
import { Filial } from '../tenancy';
import { businessToday } from '../../core/business-date';
import { productChecks } from './document-state';
import { checkOrderLinks } from './purchase-link';
import { ComputedDocument, computeDocument } from './entry-document.calculator';
import { toEventData } from './entry-document.events';
import { EntryDocument, ExpectedTotals } from './entities/entry-document.entity';
import {
  AUDIT_ENTITY,
  findByAccessKey,
  findDocument,
  insertDocument,
  loadProducts,
  replaceInstallments,
  replaceItems,
} from './entry-document.repository';
import { Check, DraftInput, TOTAL_NAMES } from './entry-document.types';
import { loadFiscalContext } from './fiscal/fiscal-context';

/*
 * Creating a draft, usable inside a caller's transaction: the API's POST /entry-document and the
 * NF-e import (which passes origin NFE_XML/NFE_SEFAZ, the access key and the XML's ICMSTot) both
 * come through createEntryDocumentDraft.
 */

export type { DraftInput } from './entry-document.types';

export interface PreparedDraft {
  input: DraftInput & { entryDate: string; model: string; series: string };
  computed: ComputedDocument;
  products: Map<number, Product>;
  checks: Check[];
}

const stripZeros = (digits: string) => digits.replace(/^0+(?=\d)/, '');

const blankToNull = (v: string | null | undefined) => (v === '' ? null : v);

/** Defaults and canonical forms: the same invoice typed as "000123" or "123" is one number; "" is no value. */
function normalize(input: DraftInput): PreparedDraft['input'] {
  return {
    ...input,
    notes: blankToNull(input.notes),
    operationNature: blankToNull(input.operationNature),
    items: input.items.map((it) => ({ ...it, supplierProductCode: blankToNull(it.supplierProductCode) })),
    model: input.model ?? '55',
    series: stripZeros(input.series ?? '1'),
    number: stripZeros(String(input.number)),
    entryDate: input.entryDate ?? businessToday(),
  };
}

/** Products named by the items must be the company's own (another tenant's id → 404, naming the lines). */
async function loadItemProducts(em: EntityManager, companyId: number, input: DraftInput): Promise<Map<number, Product>> {
  const ids = input.items.map((it) => it.productId).filter((p): p is number => typeof p === 'number');
  const products = new Map((await loadProducts(em, companyId, ids)).map((p) => [p.id, p]));
  const missing = input.items.flatMap((it, i) =>
    typeof it.productId === 'number' && !products.has(it.productId)
      ? [{ path: `items[${i}].productId`, message: 'product not found' }]
      : [],
  );
  if (missing.length) throw new AppError('not_found', 'PRODUCT_NOT_FOUND', 'Product not found', { errors: missing });
  return products;
}

/** Validates and computes a draft without writing anything (create, PATCH and preview-manual). */
export async function prepareDraft(em: EntityManager, companyId: number, raw: DraftInput): Promise<PreparedDraft> {
  const input = normalize(raw);
  const products = await loadItemProducts(em, companyId, input);
  const fiscal = await loadFiscalContext(
    em,
    companyId,
    input.filialId,
    input.items.map((i) => i.cfop),
  );
  const computed = computeDocument({
    ...input,
    fiscal,
    supplierDocument: input.supplier ? normalizeDocument(input.supplier.document) : null,
  });
  return { input, computed, products, checks: [...computed.checks, ...productChecks(computed.items, products)] };
}

export interface SupplierSnapshot {
  supplierId: number;
  supplierDocument: string;
  supplierName: string;
  supplierStateRegistration: string | null;
  supplierUf: string | null;
}

/**
 * The supplier master row for the document: by id, or found by CNPJ/CPF and created when new.
 * The document keeps the name as the invoice gives it; the master row is not overwritten.
 */
export async function resolveSupplier(
  em: EntityManager,
  ctx: ActorContext,
  input: Pick<DraftInput, 'supplier' | 'supplierId'>,
  create = true,
): Promise<SupplierSnapshot> {
  if (input.supplierId !== undefined) {
    const s = await em.findOneBy(Supplier, { id: input.supplierId, companyId: ctx.companyId });
    if (!s) throw new NotFoundError('Supplier');
    return {
      supplierId: s.id,
      supplierDocument: s.document,
      supplierName: s.name,
      supplierStateRegistration: s.stateRegistration,
      supplierUf: s.uf,
    };
  }
  const given = input.supplier;
  const document = given ? normalizeDocument(given.document) : null;
  if (!given || !document)
    throw new ValidationError('Invalid request', [{ path: 'supplier.document', message: 'supplier.document must be a valid CPF or CNPJ' }]);
  const snapshot = (id: number): SupplierSnapshot => ({
    supplierId: id,
    supplierDocument: document,
    supplierName: given.name,
    supplierStateRegistration: given.stateRegistration ?? null,
    supplierUf: given.uf ?? null,
  });
  const found = await findOrCreateSupplier(
    em,
    ctx,
    { document, name: given.name, stateRegistration: given.stateRegistration, uf: given.uf },
    create,
  );
  return snapshot(found?.id ?? 0);
}

/** Header columns that follow from the computation (totals, counts). */
export function computedHeader(computed: ComputedDocument): Partial<EntryDocument> {
  const t = computed.totals;
  return {
    totalProducts: t.products,
    totalFreight: t.freight,
    totalInsurance: t.insurance,
    totalDiscount: t.discount,
    totalOtherExpenses: t.otherExpenses,
    totalIpi: t.ipi,
    totalIcmsSt: t.icmsSt,
    total: t.total,
    itemCount: computed.items.length,
    pendingItemCount: computed.items.filter((i) => i.reviewStatus === 'PENDING').length,
  };
}

function expectedTotalsColumn(input: DraftInput): ExpectedTotals | null {
  if (!input.expectedTotals) return null;
  const out: ExpectedTotals = {};
  for (const name of TOTAL_NAMES) {
    const v = input.expectedTotals[name];
    if (v !== undefined && v !== null) out[name] = v.toFixed(2);
  }
  return out;
}

async function alreadyImported(em: EntityManager, companyId: number, accessKey: string): Promise<never> {
  const existing = await findByAccessKey(em, companyId, accessKey);
  throw new ConflictError('NFE_ALREADY_IMPORTED', `The NF-e ${accessKey} was already imported`, {
    entryDocumentId: existing ? encodeId('entry-document', existing.id) : null,
  });
}

/**
 * Creates a DRAFT entry document inside the caller's transaction: supplier found or created by
 * document, products checked in the tenant, every value computed here. A second document with the
 * same access key → 409 NFE_ALREADY_IMPORTED naming the existing document. `complete` may set what
 * depends on the computed lines before they are written (the import's purchase-order links).
 */
export async function createEntryDocumentDraft(
  em: EntityManager,
  ctx: ActorContext,
  raw: DraftInput,
  complete?: (prepared: PreparedDraft) => Promise<void>,
): Promise<EntryDocument> {
  const filial = await em.findOneBy(Filial, { id: raw.filialId, companyId: ctx.companyId });
  if (!filial) throw new NotFoundError('Filial');
  if (raw.accessKey && (await findByAccessKey(em, ctx.companyId, raw.accessKey))) await alreadyImported(em, ctx.companyId, raw.accessKey);
  const prepared = await prepareDraft(em, ctx.companyId, raw);
  // The NF-e import links purchase-order lines here: the links depend on how the lines are booked.
  if (complete) await complete(prepared);
  const { input, computed } = prepared;
  const supplier = await resolveSupplier(em, ctx, input);
  await checkOrderLinks(em, ctx, { filialId: input.filialId, supplierDocument: supplier.supplierDocument }, computed.items);

  let id: number;
  try {
    id = await insertDocument(em, {
      companyId: ctx.companyId,
      filialId: input.filialId,
      status: 'DRAFT',
      origin: input.origin,
      model: input.model,
      series: input.series,
      number: input.number,
      accessKey: input.accessKey ?? null,
      liveAccessKey: input.accessKey ?? null,
      issueDate: input.issueDate,
      entryDate: input.entryDate,
      ...supplier,
      operationNature: input.operationNature ?? null,
      notes: input.notes ?? null,
      expectedTotals: expectedTotalsColumn(input),
      reformTaxes: input.reformTaxes ?? null,
      purpose: input.purpose ?? '1',
      referencedKeys: input.referencedKeys?.length ? input.referencedKeys : null,
      ...computedHeader(computed),
      version: 1,
    });
  } catch (err) {
    // Two imports of one key at once: the unique index lets one through; the other names it.
    if (input.accessKey && isUniqueViolation(err)) return alreadyImported(em, ctx.companyId, input.accessKey);
    throw err;
  }
  await replaceItems(em, ctx.companyId, id, computed.items, false);
  await replaceInstallments(em, ctx.companyId, id, computed.installments, false);
  const doc = (await findDocument(em, ctx.companyId, id))!;
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'CREATED', changes: { status: [null, 'DRAFT'] } });
  await publishEvent(em, ctx, {
    type: 'entry-document.created',
    filialId: doc.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: id,
    data: toEventData(doc),
  });
  return doc;
}
