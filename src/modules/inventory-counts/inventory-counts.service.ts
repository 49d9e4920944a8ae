import { In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { hasScope } from '../../core/auth/tenancy';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, dec, round, sum, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StaleVersionError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Product } from '../catalog';
import { assertPeriodOpen } from '../fiscal-periods';
import { lockForPosting, postToLedger } from '../stock';
import type { LedgerLine } from '../stock';
import { InventoryCountLine } from './entities/inventory-count-line.entity';
import { InventoryCount, InventoryMotive } from './entities/inventory-count.entity';
import { assertAllowed, assertTransition } from './inventory-counts.state';
import { balancesOf, findCount, linesOf, lockCount, stockedProducts } from './inventory-counts.repository';

/*
 * Stock counts (issue 47): a sheet of a filial's products, counted blind (a counter's token, scope
 * inventory:count, never sees the expected quantity), closed by a supervisor (inventory:write) into a
 * valued snapshot at the average cost, with one stock adjustment per difference through the ledger.
 */

export const AUDIT_ENTITY = 'inventory-count';
export const MOVEMENT_REASON = 'INVENTORY_COUNT';
export const REFERENCE_TYPE = 'inventory-count';
/** Who sees expected quantities and differences. */
export const SUPERVISOR_SCOPE = 'inventory:write';

export interface CountDetail {
  count: InventoryCount;
  lines: (InventoryCountLine & { product: Pick<Product, 'code' | 'name' | 'unit'> })[];
  blind: boolean;
}

const eventData = (c: InventoryCount) => ({
  countId: encodeId('inventory-count', c.id),
  filialId: encodeId('filial', c.filialId),
  status: c.status,
  countDate: c.countDate,
  motive: c.motive,
  totalValue: toJsonNumber(c.totalValue, 'amount'),
});

async function detailOf(ctx: TenantContext, id: number, em = readerOf(ctx)): Promise<CountDetail> {
  const count = await findCount(em, ctx.companyId, id);
  if (!count || (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(count.filialId))) throw new NotFoundError('Inventory count');
  const lines = await linesOf(em, ctx.companyId, id);
  const products = lines.length
    ? await em.find(Product, {
        where: { companyId: ctx.companyId, id: In(lines.map((l) => l.productId)) },
        select: { id: true, code: true, name: true, unit: true },
      })
    : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  return {
    count,
    lines: lines.map((l) => Object.assign(l, { product: byId.get(l.productId) ?? { code: '', name: '', unit: 'UN' } })),
    blind: !hasScope(ctx.scopes, SUPERVISOR_SCOPE),
  };
}

export const countDetail = (ctx: TenantContext, id: number) => detailOf(ctx, id);

export interface CreateCountInput {
  countDate?: string;
  motive?: InventoryMotive;
  productIds?: number[];
  notes?: string | null;
}

/** POST /inventory/counts: the sheet of the filial (x-filial-id): the given products, or every product with stock there. */
export async function createCount(ctx: TenantContext, input: CreateCountInput): Promise<CountDetail> {
  const filialId = ctx.filialId!;
  const id = await inTransaction(ctx, async (em) => {
    let productIds = input.productIds ?? (await stockedProducts(em, ctx.companyId, filialId));
    if (input.productIds) {
      const found = await em.find(Product, { where: { companyId: ctx.companyId, id: In(productIds) }, select: { id: true } });
      if (found.length !== new Set(productIds).size) throw new NotFoundError('Product');
    } else {
      const controlled = productIds.length
        ? await em.find(Product, { where: { companyId: ctx.companyId, id: In(productIds), stockControlled: true }, select: { id: true } })
        : [];
      const keep = new Set(controlled.map((p) => p.id));
      productIds = productIds.filter((p) => keep.has(p));
    }
    if (!productIds.length)
      throw new BusinessRuleError('INVENTORY_COUNT_EMPTY', 'The sheet has no product: give productIds, or count a filial with stock');
    const count = await em.save(
      em.create(InventoryCount, {
        companyId: ctx.companyId,
        filialId,
        status: 'OPEN',
        countDate: input.countDate ?? businessToday(),
        motive: input.motive ?? '01',
        notes: input.notes ?? null,
        lineCount: productIds.length,
        totalValue: new Dec(0),
        createdBy: ctx.actor,
        closedBy: null,
        closedAt: null,
      }),
    );
    await em.insert(
      InventoryCountLine,
      productIds.map((productId, i) => ({ companyId: ctx.companyId, countId: count.id, lineNumber: i + 1, productId })),
    );
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: count.id,
      action: 'CREATED',
      changes: { status: [null, 'OPEN'], lineCount: [null, productIds.length] },
    });
    await publishEvent(em, ctx, {
      type: 'inventory-count.created',
      filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: count.id,
      data: eventData(count),
    });
    return count.id;
  });
  return detailOf(ctx, id);
}

export interface CountEntry {
  productId: number;
  countedQuantity: Dec;
  reason?: string | null;
}

/** PUT /inventory/counts/:id/lines: counted quantities (a recount replaces the figure); the balance at that moment is kept, unseen. */
export async function enterCounts(ctx: TenantContext, id: number, entries: CountEntry[]): Promise<CountDetail> {
  await inTransaction(ctx, async (em) => {
    const count = await lockCount(em, ctx.companyId, id);
    if (!count || (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(count.filialId))) throw new NotFoundError('Inventory count');
    assertAllowed(count, 'count');
    const lines = await linesOf(em, ctx.companyId, id);
    const byProduct = new Map(lines.map((l) => [l.productId, l]));
    const missing = entries.filter((e) => !byProduct.has(e.productId));
    if (missing.length) {
      throw new BusinessRuleError('PRODUCT_NOT_IN_COUNT', 'These products are not on the count sheet', {
        productIds: missing.map((m) => encodeId('product', m.productId)),
      });
    }
    const balances = await balancesOf(
      em,
      ctx.companyId,
      count.filialId,
      entries.map((e) => e.productId),
    );
    const now = new Date();
    for (const e of entries) {
      const line = byProduct.get(e.productId)!;
      await em.update(
        InventoryCountLine,
        { id: line.id, companyId: ctx.companyId },
        {
          countedQuantity: e.countedQuantity,
          expectedQuantity: dec(balances.get(e.productId)?.quantity ?? 0),
          countedBy: ctx.actor,
          countedAt: now,
          reason: e.reason ?? line.reason ?? null,
        },
      );
    }
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: id,
      action: 'COUNTED',
      changes: {
        lines: [null, entries.map((e) => ({ productId: encodeId('product', e.productId), countedQuantity: e.countedQuantity.toString() }))],
      },
    });
  });
  return detailOf(ctx, id);
}

/**
 * POST /inventory/counts/:id/close: every line must be counted. Under the count's lock and the balances'
 * locks, each difference (counted − the balance when it was counted) is posted as an adjustment at the
 * average cost; the snapshot is the balance after it, valued at the average cost. Two closes at once:
 * one wins, the other is refused by the conditional status change (409).
 */
export async function closeCount(ctx: TenantContext, id: number, version?: number): Promise<CountDetail> {
  await inTransaction(ctx, async (em) => {
    const count = await lockCount(em, ctx.companyId, id);
    if (!count || (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(count.filialId))) throw new NotFoundError('Inventory count');
    assertTransition(count, 'close', 'CLOSED');
    if (version !== undefined && version !== count.version) throw new StaleVersionError('Stock count', count.version);
    // The adjustments are dated today and the snapshot at the count's date: neither month may be closed.
    await assertPeriodOpen(em, ctx.companyId, count.filialId, [new Date(), count.countDate]);
    const lines = await linesOf(em, ctx.companyId, id);
    const uncounted = lines.filter((l) => l.countedQuantity === null);
    if (uncounted.length) {
      throw new BusinessRuleError('INVENTORY_COUNT_INCOMPLETE', `${uncounted.length} line(s) not counted yet`, {
        productIds: uncounted.map((l) => encodeId('product', l.productId)),
      });
    }
    const claimed = await em.update(
      InventoryCount,
      { id, companyId: ctx.companyId, status: 'OPEN', version: count.version },
      { status: 'CLOSED', closedBy: ctx.actor, closedAt: new Date(), version: count.version + 1 },
    );
    if (!claimed.affected) throw new StaleVersionError('Stock count', count.version + 1);
    const productIds = lines.map((l) => l.productId);
    await lockForPosting(em, ctx.companyId, count.filialId, productIds);
    const balances = await balancesOf(em, ctx.companyId, count.filialId, productIds);
    const ledger: LedgerLine[] = [];
    for (const l of lines) {
      const difference = round(l.countedQuantity!.minus(l.expectedQuantity ?? 0), 'quantity');
      l.difference = difference;
      if (difference.isZero()) continue;
      const avg = dec(balances.get(l.productId)?.averageCost ?? 0);
      ledger.push({
        productId: l.productId,
        direction: difference.gt(0) ? 'IN' : 'OUT',
        quantity: difference.abs(),
        unitCost: avg,
        referenceLineId: l.id,
      });
    }
    const effects = ledger.length
      ? await postToLedger(em, {
          companyId: ctx.companyId,
          filialId: count.filialId,
          reason: MOVEMENT_REASON,
          referenceType: REFERENCE_TYPE,
          referenceId: id,
          actor: ctx.actor,
          lines: ledger,
        })
      : [];
    const after = new Map(effects.map((e) => [e.referenceLineId!, e]));
    const values: Dec[] = [];
    for (const l of lines) {
      const e = after.get(l.id);
      const quantity = e ? e.balanceAfter : dec(balances.get(l.productId)?.quantity ?? 0);
      const unitCost = e ? e.averageCostAfter : dec(balances.get(l.productId)?.averageCost ?? 0);
      const value = round(Dec.max(quantity, 0).times(unitCost), 'amount');
      values.push(value);
      const reason = l.difference!.isZero()
        ? l.reason
        : (l.reason ??
          `Contagem ${count.countDate}: contado ${l.countedQuantity!.toString()}, esperado ${dec(l.expectedQuantity ?? 0).toString()}`);
      await em.update(
        InventoryCountLine,
        { id: l.id, companyId: ctx.companyId },
        { difference: l.difference, snapshotQuantity: quantity, unitCost, snapshotValue: value, reason },
      );
    }
    const totalValue = round(sum(values), 'amount');
    await em.update(InventoryCount, { id, companyId: ctx.companyId }, { totalValue });
    const closed = { ...count, status: 'CLOSED' as const, totalValue };
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: id,
      action: 'CLOSED',
      changes: { status: ['OPEN', 'CLOSED'], totalValue: [null, totalValue.toFixed(2)], adjustments: [null, ledger.length] },
    });
    await publishEvent(em, ctx, {
      type: 'inventory-count.closed',
      filialId: count.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: { ...eventData(closed), adjustments: ledger.length },
    });
  });
  return detailOf(ctx, id);
}

/** POST /inventory/counts/:id/cancel: an open sheet dropped; nothing was posted. */
export async function cancelCount(ctx: TenantContext, id: number): Promise<CountDetail> {
  await inTransaction(ctx, async (em) => {
    const count = await lockCount(em, ctx.companyId, id);
    if (!count || (ctx.grantedFiliais !== '*' && !ctx.grantedFiliais.includes(count.filialId))) throw new NotFoundError('Inventory count');
    assertTransition(count, 'cancel', 'CANCELLED');
    const done = await em.update(
      InventoryCount,
      { id, companyId: ctx.companyId, status: 'OPEN', version: count.version },
      { status: 'CANCELLED', version: count.version + 1 },
    );
    if (!done.affected) throw new StaleVersionError('Stock count', count.version + 1);
    await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'CANCELLED', changes: { status: ['OPEN', 'CANCELLED'] } });
    await publishEvent(em, ctx, {
      type: 'inventory-count.cancelled',
      filialId: count.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: eventData({ ...count, status: 'CANCELLED' }),
    });
  });
  return detailOf(ctx, id);
}

export interface InventorySnapshot {
  countId: number;
  countDate: string;
  motive: InventoryMotive;
  totalValue: Dec;
  items: { productId: number; code: string; unit: string; quantity: Dec; unitCost: Dec; value: Dec }[];
}

/** A closed count of the filial as the inventory of Bloco H (H005/H010): positive balances only (H010 lists what is held). */
export async function inventorySnapshot(ctx: TenantContext, filialId: number, countId: number): Promise<InventorySnapshot> {
  const em = readerOf(ctx);
  const d = await detailOf(ctx, countId, em);
  if (d.count.filialId !== filialId) throw new NotFoundError('Inventory count');
  if (d.count.status !== 'CLOSED')
    throw new BusinessRuleError('INVENTORY_COUNT_NOT_CLOSED', `Stock count is ${d.count.status}: only a closed count is an inventory`);
  const items = d.lines
    .filter((l) => dec(l.snapshotQuantity ?? 0).gt(0))
    .map((l) => ({
      productId: l.productId,
      code: l.product.code,
      unit: l.product.unit,
      quantity: dec(l.snapshotQuantity!),
      unitCost: dec(l.unitCost ?? 0),
      value: dec(l.snapshotValue ?? 0),
    }));
  return {
    countId,
    countDate: d.count.countDate,
    motive: d.count.motive,
    totalValue: round(sum(items.map((i) => i.value)), 'amount'),
    items,
  };
}
