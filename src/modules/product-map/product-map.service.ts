import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, dec, DecimalInput, SCALE, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, StaleVersionError, ValidationError } from '../../core/errors';
import { normalizeGtin } from '../../core/gtin';
import { encodeId } from '../../core/hashids';
import { Page, PageRequest, paginate, SortKey } from '../../core/pagination';
import { publishEvent } from '../../core/outbox/outbox.service';
import { applyVersionedPatch } from '../../core/versioned-update';
import { nextProductCode, Product, productService, productSummaries, ProductSummaryRow, supplierByDocument } from '../catalog';
import { ProductMapEntry } from './entities/product-map-entry.entity';
import { gtinForms } from './gtin-forms';
import { purchaseHistory, PurchaseRow } from './product-map.ports';
import { productMapRepository as repo } from './product-map.repository';

const RESOURCE = { name: 'Product map entry', auditEntity: 'product-map-entry' };
const MAX_FACTOR = new Dec('999999999.999999');

export interface LinkInput {
  supplierDocument: string;
  supplierProductCode: string;
  productId: number;
  /** Stock units per supplier unit; default 1. */
  conversionFactor?: DecimalInput;
  supplierUnit: string;
  supplierDescription?: string | null;
  /** The supplier item's GTIN; "SEM GTIN", empty or invalid values are stored as null. */
  gtin?: string | null;
  /** Also count this as a use of the entry (an import that relies on it). */
  countUse?: boolean;
}

export interface LinkOptions {
  /** Refuse (409 PRODUCT_MAP_ENTRY_EXISTS) instead of re-pointing an existing entry. */
  insertOnly?: boolean;
  /** Extra members of the product-map.linked event. */
  eventExtra?: Record<string, unknown>;
}

export interface LinkResult {
  entry: ProductMapEntry;
  created: boolean;
}

function supplierDocumentOf(value: string, path = 'supplierDocument'): string {
  const normalized = normalizeDocument(value ?? '');
  if (!normalized) throw new ValidationError('Invalid request', [{ path, message: `${path} must be a valid CPF or CNPJ` }]);
  return normalized;
}

function conversionFactorOf(value: DecimalInput | undefined): Dec {
  const factor = value === undefined ? new Dec(1) : dec(value);
  if (factor.lte(0) || factor.decimalPlaces() > SCALE.factor || factor.gt(MAX_FACTOR)) {
    throw new ValidationError('Invalid request', [
      { path: 'conversionFactor', message: 'conversionFactor must be greater than 0 with at most 6 decimal places' },
    ]);
  }
  return factor;
}

function requiredText(value: string | undefined | null, path: string, max: number): string {
  const v = (value ?? '').trim();
  if (!v || v.length > max) throw new ValidationError('Invalid request', [{ path, message: `${path} must have 1 to ${max} characters` }]);
  return v;
}

const entryExists = (e: ProductMapEntry) =>
  new ConflictError('PRODUCT_MAP_ENTRY_EXISTS', `Supplier code ${e.supplierProductCode} is already mapped`, {
    entryId: encodeId('product-map', e.id),
    productId: encodeId('product', e.productId),
  });

const snapshot = (e: ProductMapEntry) => ({
  productId: e.productId,
  conversionFactor: e.conversionFactor,
  supplierUnit: e.supplierUnit,
  supplierDescription: e.supplierDescription,
  gtin: e.gtin,
});

const eventData = (e: ProductMapEntry, extra: Record<string, unknown> = {}) => ({
  id: encodeId('product-map', e.id),
  supplierDocument: e.supplierDocument,
  supplierProductCode: e.supplierProductCode,
  productId: encodeId('product', e.productId),
  conversionFactor: toJsonNumber(e.conversionFactor, 'factor'),
  ...extra,
});

/** POST /entry-document/product-map/link: linkSupplierItem in its own transaction (joined to the idempotency key's). */
export const linkItem = (ctx: ActorContext, input: LinkInput): Promise<LinkResult> =>
  inTransaction(ctx, (em) => linkSupplierItem(em, ctx, input));

/**
 * Upserts the entry of (company, supplier, code) → product, inside the caller's transaction (the NF-e
 * import saves mappings with it). The product must belong to the caller's company (404 otherwise) and
 * be active. Audited (CREATED / UPDATED with the changed fields) and published as product-map.linked.
 */
export async function linkSupplierItem(
  em: EntityManager,
  ctx: ActorContext,
  input: LinkInput,
  options: LinkOptions = {},
): Promise<LinkResult> {
  const supplierDocument = supplierDocumentOf(input.supplierDocument);
  const code = requiredText(input.supplierProductCode, 'supplierProductCode', 60);
  const supplierUnit = requiredText(input.supplierUnit, 'supplierUnit', 6).toUpperCase();
  const conversionFactor = conversionFactorOf(input.conversionFactor);
  const product = await em.findOneBy(Product, { id: input.productId, companyId: ctx.companyId });
  if (!product) throw new NotFoundError('Product');
  if (!product.active)
    throw new BusinessRuleError('PRODUCT_INACTIVE', `Product ${product.code} is inactive and cannot be mapped`, {
      productId: encodeId('product', product.id),
    });
  const wanted = {
    productId: product.id,
    conversionFactor,
    supplierUnit,
    supplierDescription: input.supplierDescription === undefined ? undefined : input.supplierDescription?.trim().slice(0, 120) || null,
    gtin: input.gtin === undefined ? undefined : normalizeGtin(input.gtin),
  };

  let existing = await repo.findEntryByKey(em, ctx.companyId, supplierDocument, code, true);
  if (existing && options.insertOnly) throw entryExists(existing);
  let created = false;
  if (!existing) {
    try {
      const res = await em.insert(ProductMapEntry, {
        companyId: ctx.companyId,
        supplierDocument,
        supplierProductCode: code,
        ...wanted,
        supplierDescription: wanted.supplierDescription ?? null,
        gtin: wanted.gtin ?? null,
        useCount: 0,
        lastUsedAt: null,
      });
      const id = Number(res.identifiers[0].id);
      await recordAudit(em, ctx, { entity: RESOURCE.auditEntity, entityId: id, action: 'CREATED' });
      created = true;
      existing = await repo.findEntry(em, ctx.companyId, id);
    } catch (err) {
      // Somebody linked the same code at the same moment: theirs is committed now, so update it.
      if (!isUniqueViolation(err)) throw err;
      existing = await repo.findEntryByKey(em, ctx.companyId, supplierDocument, code, true);
      if (!existing) throw err;
      if (options.insertOnly) throw entryExists(existing);
    }
  }
  let entry = existing!;
  let changed = created;
  if (!created) {
    const fields = (Object.keys(wanted) as (keyof typeof wanted)[]).filter((k) => wanted[k] !== undefined);
    const changes = diff(snapshot(entry), wanted as Record<string, unknown>, fields);
    if (Object.keys(changes).length) {
      const res = await em
        .createQueryBuilder()
        .update(ProductMapEntry)
        .set({ ...Object.fromEntries(fields.map((f) => [f, wanted[f]])), version: () => 'version + 1' })
        .where('id = :id AND company_id = :companyId AND version = :version', {
          id: entry.id,
          companyId: ctx.companyId,
          version: entry.version,
        })
        .execute();
      if (!res.affected) throw new StaleVersionError(RESOURCE.name, entry.version + 1);
      await recordAudit(em, ctx, { entity: RESOURCE.auditEntity, entityId: entry.id, action: 'UPDATED', changes });
      changed = true;
    }
  }
  if (input.countUse) await repo.recordUse(em, ctx.companyId, supplierDocument, [code]);
  if (changed || input.countUse) entry = (await repo.findEntry(em, ctx.companyId, entry.id))!;
  if (changed) {
    await publishEvent(em, ctx, {
      type: 'product-map.linked',
      aggregateType: 'product-map',
      aggregateId: entry.id,
      data: eventData(entry, { created, ...options.eventExtra }),
    });
  }
  return { entry, created };
}

/**
 * Records that imports used the entries of these supplier codes (`useCount` + 1, `lastUsedAt` now);
 * codes without an entry are ignored. Usage statistics, not edits: no version bump, no audit.
 */
export async function recordMapUse(
  em: EntityManager,
  ctx: ActorContext,
  supplierDocument: string,
  supplierProductCodes: string[],
): Promise<number> {
  const codes = supplierProductCodes.map((c) => c.trim()).filter(Boolean);
  if (!codes.length) return 0;
  return repo.recordUse(em, ctx.companyId, supplierDocumentOf(supplierDocument), codes);
}

export interface AutoCreateInput {
  supplierDocument: string;
  supplierProductCode: string;
  description: string;
  /** The supplier's unit (uCom). */
  unit: string;
  /** Our stock unit for the new product; default the supplier's unit. */
  productUnit?: string;
  conversionFactor?: DecimalInput;
  ncm?: string | null;
  cest?: string | null;
  gtin?: string | null;
  /** Own product code; used when free, else the next code is taken. */
  code?: string;
  price?: Dec;
}

export interface AutoCreateResult extends LinkResult {
  product: Product;
  codeSource: 'GIVEN' | 'NEXT_CODE';
}

/**
 * Creates a product from a supplier item and links the item to it, in one transaction (joins the
 * caller's when there is one). Refused when the code is already mapped (409
 * PRODUCT_MAP_ENTRY_EXISTS: link it instead) or when a product already has the GTIN (409
 * PRODUCT_GTIN_TAKEN: a second product with one barcode would make GTIN matching ambiguous).
 */
export async function autoCreateProduct(ctx: ActorContext, input: AutoCreateInput): Promise<AutoCreateResult> {
  const supplierDocument = supplierDocumentOf(input.supplierDocument);
  const code = requiredText(input.supplierProductCode, 'supplierProductCode', 60);
  const name = requiredText(input.description, 'description', 200);
  const unit = requiredText(input.productUnit ?? input.unit, input.productUnit ? 'productUnit' : 'unit', 6).toUpperCase();
  conversionFactorOf(input.conversionFactor);
  return inTransaction(ctx, async (em) => {
    const mapped = await repo.findEntryByKey(em, ctx.companyId, supplierDocument, code, true);
    if (mapped) throw entryExists(mapped);
    const gtin = normalizeGtin(input.gtin);
    if (gtin) {
      const [holder] = await productSummaries.activeByGtins(em, ctx.companyId, gtinForms(gtin));
      if (holder)
        throw new ConflictError('PRODUCT_GTIN_TAKEN', `Product ${holder.code} already has GTIN ${gtin}; link the item to it instead`, {
          productId: encodeId('product', holder.id),
        });
    }
    const given = input.code?.trim();
    const useGiven = !!given && !(await em.existsBy(Product, { companyId: ctx.companyId, code: given }));
    const product = await productService.create(
      ctx,
      {
        code: useGiven ? given : await nextProductCode(ctx.companyId, em),
        name,
        unit,
        gtin,
        ncm: input.ncm ?? null,
        cest: input.cest ?? null,
        price: input.price,
      },
      em,
    );
    const link = await linkSupplierItem(
      em,
      ctx,
      {
        supplierDocument,
        supplierProductCode: code,
        productId: product.id,
        conversionFactor: input.conversionFactor,
        supplierUnit: input.unit,
        supplierDescription: input.description,
        gtin: input.gtin,
      },
      // A concurrent auto-create of the same code loses here and rolls its product back.
      { insertOnly: true, eventExtra: { autoCreated: true } },
    );
    return { ...link, product, codeSource: useGiven ? 'GIVEN' : 'NEXT_CODE' };
  });
}

/** PATCH :id/conversion-factor: future imports only (items of existing documents keep their own factor). */
export async function updateConversionFactor(
  ctx: ActorContext,
  id: number,
  conversionFactor: DecimalInput,
  version: number,
): Promise<ProductMapEntry> {
  const factor = conversionFactorOf(conversionFactor);
  return inTransaction(ctx, async (em) => {
    const current = await repo.findEntry(em, ctx.companyId, id, true);
    if (!current) throw new NotFoundError(RESOURCE.name);
    const { entity, changes } = await applyVersionedPatch(em, ctx, ProductMapEntry, RESOURCE, id, version, { conversionFactor: factor });
    if (Object.keys(changes).length) {
      await publishEvent(em, ctx, {
        type: 'product-map.conversion-factor-changed',
        aggregateType: 'product-map',
        aggregateId: id,
        data: eventData(entity, { previousConversionFactor: toJsonNumber(current.conversionFactor, 'factor') }),
      });
    }
    return entity;
  });
}

/** DELETE :id: removes the entry (audited with its last values). */
export async function deleteEntry(ctx: ActorContext, id: number): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const current = await repo.findEntry(em, ctx.companyId, id, true);
    if (!current) throw new NotFoundError(RESOURCE.name);
    const res = await em
      .createQueryBuilder()
      .delete()
      .from(ProductMapEntry)
      .where('id = :id AND company_id = :companyId', { id, companyId: ctx.companyId })
      .execute();
    if (!res.affected) throw new NotFoundError(RESOURCE.name);
    const before = { supplierDocument: current.supplierDocument, supplierProductCode: current.supplierProductCode, ...snapshot(current) };
    await recordAudit(em, ctx, {
      entity: RESOURCE.auditEntity,
      entityId: id,
      action: 'DELETED',
      changes: diff(before, {}, Object.keys(before)),
    });
    await publishEvent(em, ctx, { type: 'product-map.deleted', aggregateType: 'product-map', aggregateId: id, data: eventData(current) });
  });
}

/** GET next-code: reserves the next free product code (never handed out twice). */
export const nextCode = async (ctx: ActorContext): Promise<string> => nextProductCode(ctx.companyId, readerOf(ctx));

export interface HistoryRow {
  entry: ProductMapEntry;
  product: ProductSummaryRow | null;
  purchases: PurchaseRow[];
}

export interface HistoryQuery extends PageRequest {
  purchases: number;
  sort?: 'supplierProductCode' | '-useCount';
}

const HISTORY_SORT: Record<NonNullable<HistoryQuery['sort']>, SortKey[]> = {
  supplierProductCode: [
    { column: 'e.supplier_product_code', direction: 'ASC' },
    { column: 'e.id', direction: 'ASC' },
  ],
  '-useCount': [
    { column: 'e.use_count', direction: 'DESC' },
    { column: 'e.id', direction: 'DESC' },
  ],
};

/**
 * A supplier's entries with use counts and the last confirmed purchases (at the filial) that used
 * them. Two-phase list: entry ids first, then entries, products and purchases in three queries.
 */
export async function supplierHistory(ctx: ActorContext, supplierDocument: string, filialId: number, query: HistoryQuery) {
  const document = supplierDocumentOf(supplierDocument);
  const em = readerOf(ctx);
  const supplier = await supplierByDocument(em, ctx.companyId, document);
  const page: Page<HistoryRow> = await paginate(
    repo.supplierEntries(em, ctx.companyId, document),
    HISTORY_SORT[query.sort ?? 'supplierProductCode'],
    query,
    async (ids) => {
      const entries = await repo.entriesByIds(em, ctx.companyId, ids);
      const products = new Map(
        (
          await productSummaries.byIds(
            em,
            ctx.companyId,
            entries.map((e) => e.productId),
          )
        ).map((p) => [p.id, p]),
      );
      const purchases = await purchaseHistory.get().lastPurchases(
        em,
        ctx.companyId,
        filialId,
        document,
        entries.map((e) => e.supplierProductCode),
        query.purchases,
      );
      const byCode = new Map<string, PurchaseRow[]>();
      for (const p of purchases) byCode.set(p.supplierProductCode, [...(byCode.get(p.supplierProductCode) ?? []), p]);
      return entries.map((entry) => ({
        entry,
        product: products.get(entry.productId) ?? null,
        purchases: byCode.get(entry.supplierProductCode) ?? [],
      }));
    },
    (row) => row.entry.id,
  );
  return { supplierDocument: document, supplier, page };
}

export const searchProducts = (ctx: ActorContext, query: PageRequest & { q: string; active?: boolean }) =>
  productService.list(ctx, { ...query, search: query.q });
