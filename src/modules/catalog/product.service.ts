import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { normalizeText } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { Dec, toJsonNumber } from '../../core/decimal';
import { ConflictError, ValidationError } from '../../core/errors';
import { isValidGtin } from '../../core/gtin';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { nextSequenceValue } from '../../core/sequence/sequence.service';
import { indexProductNames, productSearchCondition, searchProductPage } from './product-search-index';
import { catalogResource, ListQuery } from './catalog-resource';
import { toProductDto } from './catalog.mapper';
import { Product } from './entities/product.entity';
import { checkProductFiscal } from './fiscal-fields';

export const PRODUCT_CODE_SEQUENCE = 'product-code';
/** The product's price fields: an update that changes one names it in `product.updated`. */
const PRICE_FIELDS = ['price'] as const;

/**
 * Product search shared by the catalog and the product map: exact code, code prefix, GTIN, or name
 * tokens (every token must start a word of the name, accent-insensitive), read from the name index.
 */
export function applyProductSearch(qb: SelectQueryBuilder<ObjectLiteral>, alias: string, term: string, companyId: number): void {
  const { sql, params } = productSearchCondition(alias, companyId, term);
  qb.where(sql, params);
}

const resource = catalogResource<Product>({
  target: Product,
  name: 'Product',
  auditEntity: 'product',
  orderBy: 'code',
  unaudited: ['searchName'],
  events: {
    type: 'product',
    data: (p) => {
      const { id, ...rest } = toProductDto(p);
      return { productId: id, ...rest };
    },
    // Price changes named with their old and new values (integrators reprice on them).
    updated: (changes) => {
      const prices = PRICE_FIELDS.filter((f) => f in changes);
      return prices.length
        ? {
            priceChanges: Object.fromEntries(
              prices.map((f) => [
                f,
                { from: toJsonNumber(changes[f][0] as string, 'price'), to: toJsonNumber(changes[f][1] as string, 'price') },
              ]),
            ),
          }
        : {};
    },
  },
  search: (qb, term, companyId) => applyProductSearch(qb, 'r', term, companyId),
});

export interface ProductInput {
  code?: string;
  name?: string;
  unit?: string;
  gtin?: string | null;
  ncm?: string | null;
  cest?: string | null;
  price?: Dec;
  active?: boolean;
  stockControlled?: boolean;
  origin?: number;
  taxableUnit?: string | null;
  taxableFactor?: Dec;
  taxGroupId?: number | null;
}

/** "SEM GTIN" (the NF-e's word for no barcode) is stored as no GTIN. */
const withoutSemGtin = (input: ProductInput): ProductInput => (input.gtin === 'SEM GTIN' ? { ...input, gtin: null } : input);

function checkGtin(gtin: string | null | undefined): void {
  if (gtin && !isValidGtin(gtin))
    throw new ValidationError('Invalid GTIN', [{ path: 'gtin', message: 'check digit does not match' }], 'INVALID_GTIN');
}

/**
 * The next free product code: the counter moves on past codes somebody took by hand, and a code is
 * never handed out twice (each value comes from the per-company sequence).
 */
export async function nextProductCode(companyId: number, em: EntityManager): Promise<string> {
  for (;;) {
    const candidate = String(await nextSequenceValue(em, companyId, PRODUCT_CODE_SEQUENCE));
    const taken = await em.existsBy(Product, { companyId, code: candidate });
    if (!taken) return candidate;
  }
}

const codeTaken = (code: string) =>
  new ConflictError('PRODUCT_CODE_TAKEN', `Product code ${code} is already in use`, { productCode: code });

export const productService = {
  // A search reads the name index (ordered by code from the index rows); a plain list pages the table.
  list: (ctx: ActorContext, query: ListQuery) =>
    query.search ? searchProductPage(readerOf(ctx), ctx.companyId, query.search, query) : resource.list(ctx, query),
  get: (ctx: ActorContext, id: number) => resource.get(ctx, id),

  async create(ctx: ActorContext, given: ProductInput, em?: EntityManager): Promise<Product> {
    const input = withoutSemGtin(given);
    checkGtin(input.gtin);
    await checkProductFiscal(em ?? readerOf(ctx), ctx.companyId, input);
    const code = input.code ?? (await nextProductCode(ctx.companyId, em ?? readerOf(ctx)));
    const values = {
      code,
      name: input.name!,
      searchName: normalizeText(input.name!),
      unit: input.unit!,
      gtin: input.gtin ?? null,
      ncm: input.ncm ?? null,
      cest: input.cest ?? null,
      price: input.price ?? new Dec(0),
      active: input.active ?? true,
      stockControlled: input.stockControlled ?? true,
      origin: input.origin ?? 0,
      taxableUnit: input.taxableUnit ?? null,
      taxableFactor: input.taxableFactor ?? new Dec(1),
      taxGroupId: input.taxGroupId ?? null,
    };
    try {
      // Inside the caller's transaction when it passes its em (auto-create from the product map).
      const work = async (tx: EntityManager) => {
        const product = await resource.createIn(tx, ctx, values);
        await indexProductNames(tx, ctx.companyId, [product]);
        return product;
      };
      return await (em ? work(em) : inTransaction(ctx, work));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken(code);
      throw err;
    }
  },

  async update(ctx: ActorContext, id: number, version: number, given: ProductInput): Promise<Product> {
    const input = withoutSemGtin(given);
    checkGtin(input.gtin);
    const patch: Partial<Product> = { ...input };
    if (input.name !== undefined) patch.searchName = normalizeText(input.name);
    try {
      return await inTransaction(ctx, async (tx) => {
        await checkProductFiscal(tx, ctx.companyId, input);
        const product = await resource.updateIn(tx, ctx, id, version, patch);
        if (input.name !== undefined || input.code !== undefined) await indexProductNames(tx, ctx.companyId, [product]);
        return product;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken(input.code ?? '');
      throw err;
    }
  },
};
