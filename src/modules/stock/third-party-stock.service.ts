import { readerOf } from '../../core/db/transaction';
import { EntityManager } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { BusinessRuleError } from '../../core/errors';
import { Dec, dec, round } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { Page, PageRequest, paginate } from '../../core/pagination';
import type { MovementDirection } from './entities/stock-movement.entity';
import type { ThirdPartyStockBalance } from './entities/third-party-stock-balance.entity';
import {
  balanceKey,
  insertThirdPartyMovements,
  lockThirdPartyBalances,
  readThirdPartyBalances,
  ThirdPartyBalanceFilters,
  thirdPartyBalanceQuery,
  thirdPartyBalancesByIds,
  thirdPartyMovementsByReference,
  writeThirdPartyBalances,
} from './third-party-stock.repository';

/*
 * Third-party stock: goods of others a filial holds (received for industrialization, repair,
 * demonstration, in consignment or deposit). Kept apart from own stock — its own balances per product
 * and owner and its own append-only ledger — so it never enters own quantities, average costs or
 * sales; quantities and the owner's declared value only. It never goes below zero.
 */

export interface ThirdPartyLine {
  productId: number;
  /** The owner's CNPJ/CPF. */
  ownerDocument: string;
  ownerSupplierId: number | null;
  direction: MovementDirection;
  quantity: Dec;
  /** The owner's declared value of the quantity moved. */
  value: Dec;
  referenceLineId?: number;
}

export interface ThirdPartyPosting {
  companyId: number;
  filialId: number;
  reason: string;
  referenceType: string;
  referenceId: number;
  actor?: string;
  lines: ThirdPartyLine[];
}

export interface ThirdPartyEffect {
  productId: number;
  ownerDocument: string;
  direction: MovementDirection;
  quantity: Dec;
  value: Dec;
  balanceBefore: Dec;
  balanceAfter: Dec;
  referenceLineId?: number;
}

export interface ThirdPartyShortage {
  productId: number;
  ownerDocument: string;
  available: Dec;
  requested: Dec;
}

interface HeldState {
  quantity: Dec;
  value: Dec;
}

/** The one computation of a posting's effects, for the preview and the post. Lines compound in order. */
export function computeThirdPartyEffects(
  balances: Map<string, Pick<ThirdPartyStockBalance, 'quantity' | 'value'>>,
  lines: ThirdPartyLine[],
) {
  const state = new Map<string, HeldState>();
  const effects: ThirdPartyEffect[] = [];
  const shortages: ThirdPartyShortage[] = [];
  for (const line of lines) {
    const key = balanceKey(line.productId, line.ownerDocument);
    const b = state.get(key) ?? { quantity: dec(balances.get(key)?.quantity), value: dec(balances.get(key)?.value) };
    const quantity = round(line.quantity, 'quantity');
    const value = round(line.value, 'amount');
    const sign = line.direction === 'IN' ? 1 : -1;
    const after = { quantity: b.quantity.plus(quantity.times(sign)), value: b.value.plus(value.times(sign)) };
    if (after.quantity.lt(0))
      shortages.push({ productId: line.productId, ownerDocument: line.ownerDocument, available: b.quantity, requested: quantity });
    state.set(key, after);
    effects.push({
      productId: line.productId,
      ownerDocument: line.ownerDocument,
      direction: line.direction,
      quantity,
      value,
      balanceBefore: b.quantity,
      balanceAfter: after.quantity,
      referenceLineId: line.referenceLineId,
    });
  }
  return { effects, shortages, state };
}

function shortageError(shortages: ThirdPartyShortage[]): BusinessRuleError {
  return new BusinessRuleError(
    'INSUFFICIENT_THIRD_PARTY_STOCK',
    `Third-party stock would go below zero for ${shortages.length} product(s)`,
    {
      shortages: shortages.map((s) => ({
        productId: encodeId('product', s.productId),
        ownerDocument: s.ownerDocument,
        available: s.available.toFixed(4),
        requested: s.requested.toFixed(4),
      })),
    },
  );
}

/** What a posting would do (no lock, no write). */
export async function previewThirdPartyPosting(em: EntityManager, posting: ThirdPartyPosting) {
  const balances = await readThirdPartyBalances(
    em,
    posting.companyId,
    posting.filialId,
    posting.lines.map((l) => l.productId),
  );
  const { effects, shortages } = computeThirdPartyEffects(balances, posting.lines);
  return { effects, shortages };
}

/** Posts in the caller's transaction: balances locked, effects computed, balances and movements written. */
export async function postThirdPartyStock(em: EntityManager, posting: ThirdPartyPosting): Promise<ThirdPartyEffect[]> {
  if (!posting.lines.length) return [];
  const balances = await lockThirdPartyBalances(em, posting.companyId, posting.filialId, posting.lines);
  const { effects, shortages, state } = computeThirdPartyEffects(balances, posting.lines);
  if (shortages.length) throw shortageError(shortages);
  await writeThirdPartyBalances(
    em,
    posting.companyId,
    [...state].map(([key, held]) => ({ id: balances.get(key)!.id, ...held })),
  );
  await insertThirdPartyMovements(
    em,
    effects.map((e) => ({
      companyId: posting.companyId,
      filialId: posting.filialId,
      productId: e.productId,
      ownerDocument: e.ownerDocument,
      direction: e.direction,
      reason: posting.reason,
      quantity: e.direction === 'IN' ? e.quantity : e.quantity.negated(),
      value: e.direction === 'IN' ? e.value : e.value.negated(),
      balanceAfter: e.balanceAfter,
      referenceType: posting.referenceType,
      referenceId: posting.referenceId,
      referenceLineId: e.referenceLineId ?? null,
      actor: posting.actor ?? null,
    })),
  );
  return effects;
}

/** What a document posted, in posting order (to reverse it exactly). */
export const thirdPartyMovementsOf = thirdPartyMovementsByReference;

export type ThirdPartyStockQuery = PageRequest & ThirdPartyBalanceFilters;

/** The third-party goods a filial holds (two-phase list). */
export function listThirdPartyStock(
  ctx: TenantContext,
  filialId: number,
  query: ThirdPartyStockQuery,
): Promise<Page<ThirdPartyStockBalance>> {
  const em = readerOf(ctx);
  return paginate(
    thirdPartyBalanceQuery(em, ctx.companyId, filialId, query),
    [
      { column: 'b.product_id', direction: 'ASC' },
      { column: 'b.id', direction: 'ASC' },
    ],
    query,
    (ids) => thirdPartyBalancesByIds(em, ids),
    (b) => b.id,
  );
}
