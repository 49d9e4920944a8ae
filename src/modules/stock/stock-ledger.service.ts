import { EntityManager } from 'typeorm';
import { Filial, requestFilial } from '../tenancy';
import { BusinessRuleError } from '../../core/errors';
import { Dec, dec, round, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { MovementDirection } from './entities/stock-movement.entity';
import {
  deferInsertMovements,
  lockBalances,
  lockBalancesSelected,
  movementStates,
  MovementState,
  readBalances,
  deferBalanceWrites,
} from './stock.repository';

export interface LedgerLine {
  productId: number;
  direction: MovementDirection;
  /** Positive quantity in stock units. */
  quantity: Dec;
  /** IN: landed unit cost (required). OUT: defaults to the current average cost. */
  unitCost?: Dec;
  /**
   * An OUT that undoes an earlier IN (document cancellation): it leaves at that IN's cost and backs
   * it out of the average instead of leaving the average untouched.
   */
  reversal?: boolean;
  /**
   * The movement a reversal undoes. When the balance is still exactly as that movement left it
   * (nothing else moved since), the reversal restores the exact average cost from before it instead
   * of backing the cost out arithmetically (which drifts in the last decimal place).
   */
  reversesMovementId?: number;
  referenceLineId?: number;
}

export interface LedgerPosting {
  companyId: number;
  filialId: number;
  reason: string;
  referenceType: string;
  referenceId: number;
  actor?: string;
  lines: LedgerLine[];
  /** Defaults to the filial's setting. */
  allowNegative?: boolean;
}

export interface LedgerEffect {
  productId: number;
  direction: MovementDirection;
  quantity: Dec;
  unitCost: Dec;
  balanceBefore: Dec;
  balanceAfter: Dec;
  averageCostBefore: Dec;
  averageCostAfter: Dec;
  referenceLineId?: number;
}

export interface InsufficientStockLine {
  productId: number;
  available: Dec;
  requested: Dec;
}

interface BalanceState {
  quantity: Dec;
  averageCost: Dec;
}

/**
 * The one computation of what a posting does to balances and average costs. Preview and post both
 * call it, so a preview answers exactly what the post will do. Lines apply in order; several lines
 * of one product compound.
 */
export function computeEffects(
  balances: Map<number, BalanceState>,
  lines: LedgerLine[],
  allowNegative: boolean,
  reversed: Map<number, MovementState> = new Map(),
): { effects: LedgerEffect[]; shortages: InsufficientStockLine[] } {
  const state = new Map<number, BalanceState>();
  const get = (productId: number): BalanceState => {
    let s = state.get(productId);
    if (!s) {
      const b = balances.get(productId);
      s = { quantity: dec(b?.quantity ?? 0), averageCost: dec(b?.averageCost ?? 0) };
      state.set(productId, s);
    }
    return s;
  };
  const effects: LedgerEffect[] = [];
  const shortages: InsufficientStockLine[] = [];
  for (const line of lines) {
    const s = get(line.productId);
    const qty = round(line.quantity, 'quantity');
    const before = { ...s };
    let unitCost: Dec;
    let after: BalanceState;
    if (line.direction === 'IN') {
      unitCost = round(dec(line.unitCost ?? s.averageCost), 'cost');
      const newQty = s.quantity.plus(qty);
      const avg = s.quantity.lte(0) || newQty.lte(0) ? unitCost : s.quantity.times(s.averageCost).plus(qty.times(unitCost)).div(newQty);
      after = { quantity: newQty, averageCost: round(avg, 'cost') };
    } else {
      unitCost = round(dec(line.unitCost ?? s.averageCost), 'cost');
      const newQty = s.quantity.minus(qty);
      if (newQty.lt(0) && !allowNegative) shortages.push({ productId: line.productId, available: s.quantity, requested: qty });
      let avg = s.averageCost;
      if (line.reversal) {
        const undone = line.reversesMovementId === undefined ? undefined : reversed.get(line.reversesMovementId);
        const untouched =
          undone?.averageCostBefore != null && s.quantity.eq(undone.balanceAfter) && s.averageCost.eq(undone.averageCostAfter);
        if (untouched) avg = undone.averageCostBefore!;
        else avg = newQty.gt(0) ? Dec.max(0, s.quantity.times(s.averageCost).minus(qty.times(unitCost)).div(newQty)) : s.averageCost;
      }
      after = { quantity: newQty, averageCost: round(avg, 'cost') };
    }
    state.set(line.productId, after);
    effects.push({
      productId: line.productId,
      direction: line.direction,
      quantity: qty,
      unitCost,
      balanceBefore: before.quantity,
      balanceAfter: after.quantity,
      averageCostBefore: before.averageCost,
      averageCostAfter: after.averageCost,
      referenceLineId: line.referenceLineId,
    });
  }
  return { effects, shortages };
}

function insufficientStock(shortages: InsufficientStockLine[]): BusinessRuleError {
  return new BusinessRuleError('INSUFFICIENT_STOCK', 'Insufficient stock for ' + shortages.length + ' product(s)', {
    shortages: shortages.map((s) => ({
      productId: encodeId('product', s.productId),
      available: toJsonNumber(s.available, 'quantity'),
      requested: toJsonNumber(s.requested, 'quantity'),
    })),
  });
}

async function resolveAllowNegative(em: EntityManager, posting: LedgerPosting): Promise<boolean> {
  if (posting.allowNegative !== undefined) return posting.allowNegative;
  const filial =
    requestFilial(posting.companyId, posting.filialId) ??
    (await em.findOneBy(Filial, { id: posting.filialId, companyId: posting.companyId }));
  return filial?.allowNegativeStock ?? false;
}

const reversedMovements = (em: EntityManager, posting: LedgerPosting): Promise<Map<number, MovementState>> =>
  movementStates(
    em,
    posting.companyId,
    posting.lines.flatMap((l) => (l.reversal && l.reversesMovementId !== undefined ? [l.reversesMovementId] : [])),
  );

/** What a posting would do, without writing or locking (confirm/cancel previews). */
export async function previewPosting(
  em: EntityManager,
  posting: LedgerPosting,
): Promise<{ effects: LedgerEffect[]; shortages: InsufficientStockLine[] }> {
  const balances = await readBalances(
    em,
    posting.companyId,
    posting.filialId,
    posting.lines.map((l) => l.productId),
  );
  return computeEffects(balances, posting.lines, await resolveAllowNegative(em, posting), await reversedMovements(em, posting));
}

/**
 * Locks, ahead of a posting in the same transaction, the balances it will touch: issued side by side
 * with another statement it shares that round trip, and postToLedger then finds them locked. With
 * `existingOnly` nothing is created (the products may not have been checked yet).
 */
export async function lockForPosting(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
  options: { existingOnly?: boolean } = {},
): Promise<void> {
  if (productIds.length) await lockBalances(em, companyId, filialId, productIds, { createMissing: !options.existingOnly });
}

/**
 * Locks ahead the existing balances of the products and filial the caller's subqueries select, in the
 * caller's round trip (a fulfilment sends it with the lock of its order): lockForPosting and
 * postToLedger then find them locked. Balances not found are created by lockForPosting as usual.
 */
export const lockAheadForPosting = (
  em: EntityManager,
  companyId: number,
  filial: { sql: string; params: unknown[] },
  products: { sql: string; params: unknown[] },
): Promise<void> => lockBalancesSelected(em, companyId, filial, products);

interface StockChange {
  productId: number;
  balanceBefore: Dec;
  balance: Dec;
  averageCost: Dec;
}

/**
 * `stock.changed`, one per product a posting touched, queued in the posting's transaction: the rows
 * join the transaction's other events in the one multi-row INSERT before commit, so a quick sale's
 * hot path gains no statement.
 */
async function publishStockChanges(
  em: EntityManager,
  posting: { companyId: number; filialId: number; reason: string; referenceType: string; actor?: string },
  changes: StockChange[],
): Promise<void> {
  const ctx = { companyId: posting.companyId, actor: posting.actor ?? 'system' };
  for (const c of changes) {
    await publishEvent(em, ctx, {
      type: 'stock.changed',
      filialId: posting.filialId,
      aggregateType: 'product',
      aggregateId: c.productId,
      data: {
        filialId: encodeId('filial', posting.filialId),
        productId: encodeId('product', c.productId),
        balance: toJsonNumber(c.balance, 'quantity'),
        change: toJsonNumber(c.balance.minus(c.balanceBefore), 'quantity'),
        averageCost: toJsonNumber(c.averageCost, 'cost'),
        reason: posting.reason,
        referenceType: posting.referenceType,
      },
    });
  }
}

/**
 * Posts movements and updates balances atomically, inside the caller's transaction: balances are
 * locked, effects computed, then one UPDATE for all balances and one INSERT for all movements.
 * Going below zero where the filial forbids it → 422 INSUFFICIENT_STOCK (nothing written).
 */
export async function postToLedger(em: EntityManager, posting: LedgerPosting): Promise<LedgerEffect[]> {
  if (!posting.lines.length) return [];
  const allowNegative = await resolveAllowNegative(em, posting);
  const balances = await lockBalances(
    em,
    posting.companyId,
    posting.filialId,
    posting.lines.map((l) => l.productId),
  );
  const { effects, shortages } = computeEffects(balances, posting.lines, allowNegative, await reversedMovements(em, posting));
  if (shortages.length) throw insufficientStock(shortages);

  const finalByProduct = new Map<number, LedgerEffect>();
  for (const e of effects) finalByProduct.set(e.productId, e);
  await deferBalanceWrites(
    em,
    posting.companyId,
    posting.filialId,
    [...finalByProduct.values()].map((e) => ({
      id: balances.get(e.productId)!.id,
      quantity: e.balanceAfter,
      averageCost: e.averageCostAfter,
    })),
  );
  // The locked rows stay known to the transaction (lockBalances): keep them as now written.
  for (const e of finalByProduct.values())
    Object.assign(balances.get(e.productId)!, { quantity: e.balanceAfter, averageCost: e.averageCostAfter });
  await deferInsertMovements(
    em,
    effects.map((e) => ({
      companyId: posting.companyId,
      filialId: posting.filialId,
      productId: e.productId,
      direction: e.direction,
      reason: posting.reason,
      quantity: e.direction === 'IN' ? e.quantity : e.quantity.negated(),
      unitCost: e.unitCost,
      balanceAfter: e.balanceAfter,
      averageCostAfter: e.averageCostAfter,
      referenceType: posting.referenceType,
      referenceId: posting.referenceId,
      referenceLineId: e.referenceLineId ?? null,
      actor: posting.actor ?? null,
    })),
  );
  const firstBefore = new Map<number, Dec>();
  for (const e of effects) if (!firstBefore.has(e.productId)) firstBefore.set(e.productId, e.balanceBefore);
  await publishStockChanges(
    em,
    posting,
    [...finalByProduct.values()].map((e) => ({
      productId: e.productId,
      balanceBefore: firstBefore.get(e.productId)!,
      balance: e.balanceAfter,
      averageCost: e.averageCostAfter,
    })),
  );
  return effects;
}

// ---- value-only postings ----

/**
 * A value added to (positive) or taken from (negative) goods received earlier, without moving
 * quantity — e.g. freight apportioned after the receipt. Only the part of the receipt still in
 * stock can carry it: with `receivedQuantity` of the product received and less than that on hand,
 * the on-hand share absorbs its part and the rest (the goods already sold) is reported, not posted.
 */
export interface ValueLine {
  productId: number;
  amount: Dec;
  /** The quantity of the receipt the value belongs to (stock units). */
  receivedQuantity: Dec;
  /** Most that may be absorbed, in absolute value (taking back no more than was put in). */
  limit?: Dec;
  referenceLineId?: number;
}

export interface ValuePosting {
  companyId: number;
  filialId: number;
  reason: string;
  referenceType: string;
  referenceId: number;
  actor?: string;
  lines: ValueLine[];
}

export interface ValueEffect {
  productId: number;
  amount: Dec;
  /** The part of `amount` the stock on hand took (changes the average cost). */
  absorbed: Dec;
  /** The part that belongs to goods no longer in stock (already sold or consumed). */
  unabsorbed: Dec;
  receivedQuantity: Dec;
  /** The part of the line's received quantity still in stock. */
  quantityInStock: Dec;
  balance: Dec;
  averageCostBefore: Dec;
  averageCostAfter: Dec;
  referenceLineId?: number;
}

/**
 * The one computation of a value posting (preview and post). Per product, the quantity still in
 * stock of what its lines received is the balance, at most their received total; each line takes
 * its amount × that fraction (to the cent), the average cost moves by the absorbed total over the
 * balance (never below zero).
 */
export function computeValueEffects(balances: Map<number, BalanceState>, lines: ValueLine[]): ValueEffect[] {
  const received = new Map<number, Dec>();
  for (const l of lines) received.set(l.productId, (received.get(l.productId) ?? new Dec(0)).plus(round(l.receivedQuantity, 'quantity')));
  const absorbedByProduct = new Map<number, Dec>();
  const partial = lines.map((line) => {
    const b = balances.get(line.productId);
    const quantity = dec(b?.quantity ?? 0);
    const total = received.get(line.productId)!;
    const onHand = total.gt(0) ? Dec.min(Dec.max(quantity, 0), total) : new Dec(0);
    const fraction = total.gt(0) ? onHand.div(total) : new Dec(0);
    const lineReceived = round(line.receivedQuantity, 'quantity');
    let absorbed = round(line.amount.times(fraction), 'amount');
    if (line.limit && absorbed.abs().gt(line.limit.abs())) absorbed = line.limit.abs().times(absorbed.isNegative() ? -1 : 1);
    absorbedByProduct.set(line.productId, (absorbedByProduct.get(line.productId) ?? new Dec(0)).plus(absorbed));
    return { line, quantity, absorbed, quantityInStock: round(lineReceived.times(fraction), 'quantity'), lineReceived };
  });
  const after = new Map<number, Dec>();
  for (const [productId, absorbed] of absorbedByProduct) {
    const b = balances.get(productId);
    const quantity = dec(b?.quantity ?? 0);
    const avg = dec(b?.averageCost ?? 0);
    after.set(productId, quantity.gt(0) ? round(Dec.max(0, quantity.times(avg).plus(absorbed).div(quantity)), 'cost') : avg);
  }
  return partial.map(({ line, quantity, absorbed, quantityInStock, lineReceived }) => ({
    productId: line.productId,
    amount: line.amount,
    absorbed,
    unabsorbed: line.amount.minus(absorbed),
    receivedQuantity: lineReceived,
    quantityInStock,
    balance: quantity,
    averageCostBefore: dec(balances.get(line.productId)?.averageCost ?? 0),
    averageCostAfter: after.get(line.productId)!,
    referenceLineId: line.referenceLineId,
  }));
}

/** What a value posting would do, without writing or locking. */
export async function previewValuePosting(em: EntityManager, posting: ValuePosting): Promise<ValueEffect[]> {
  const balances = await readBalances(
    em,
    posting.companyId,
    posting.filialId,
    posting.lines.map((l) => l.productId),
  );
  return computeValueEffects(balances, posting.lines);
}

/**
 * Posts a value-only adjustment inside the caller's transaction: the balances are locked, the
 * average costs updated in one UPDATE and one movement per line that absorbed something inserted
 * (quantity 0, `valueAdjustment` the absolute amount, IN when added, OUT when taken back).
 */
export async function postValueAdjustment(em: EntityManager, posting: ValuePosting): Promise<ValueEffect[]> {
  if (!posting.lines.length) return [];
  const balances = await lockBalances(
    em,
    posting.companyId,
    posting.filialId,
    posting.lines.map((l) => l.productId),
  );
  const effects = computeValueEffects(balances, posting.lines);
  const finalByProduct = new Map<number, ValueEffect>();
  for (const e of effects) finalByProduct.set(e.productId, e);
  const changed = [...finalByProduct.values()].filter((e) => !e.averageCostAfter.eq(e.averageCostBefore));
  await deferBalanceWrites(
    em,
    posting.companyId,
    posting.filialId,
    changed.map((e) => ({ id: balances.get(e.productId)!.id, quantity: e.balance, averageCost: e.averageCostAfter })),
  );
  for (const e of changed) balances.get(e.productId)!.averageCost = e.averageCostAfter;
  await deferInsertMovements(
    em,
    effects
      .filter((e) => !e.absorbed.isZero())
      .map((e) => ({
        companyId: posting.companyId,
        filialId: posting.filialId,
        productId: e.productId,
        direction: e.absorbed.isNegative() ? ('OUT' as const) : ('IN' as const),
        reason: posting.reason,
        quantity: new Dec(0),
        unitCost: new Dec(0),
        balanceAfter: e.balance,
        averageCostAfter: e.averageCostAfter,
        valueAdjustment: e.absorbed.abs(),
        referenceType: posting.referenceType,
        referenceId: posting.referenceId,
        referenceLineId: e.referenceLineId ?? null,
        actor: posting.actor ?? null,
      })),
  );
  // A value posting moves no quantity; its event tells the new average cost.
  await publishStockChanges(
    em,
    posting,
    changed.map((e) => ({ productId: e.productId, balanceBefore: e.balance, balance: e.balance, averageCost: e.averageCostAfter })),
  );
  return effects;
}
