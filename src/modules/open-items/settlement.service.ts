import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { Dec, toFixed, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError, StateConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { settlementAmounts, SettlementInput } from '../../core/settlement';
import { activePaymentMethod } from '../catalog';
import type { OpenItemSettlement } from './entities/settlement.entity';
import { OpenItem, OpenItemSide, settledStatus } from './open-item.side';
import { findSettlement, insertSettlement, reverseSettlementIf } from './open-items.repository';

/*
 * The open-items kernel (docs/decisions/open-items.md): what a payment of a payable and a receipt of a
 * receivable do alike. Inside the caller's transaction it locks the item (its row queues every
 * settlement, reversal and credit of it), refuses more than what is open, writes the settlement and the
 * item's settled amount and status (OPEN → partial → settled, conditional on the status and version read,
 * bumping the version), and records the audit rows and the event. The side (OpenItemSide) says which
 * table, which statuses and actions, which names.
 */

const money = (d: Dec) => toJsonNumber(d, 'amount');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const code = (noun: string, what: string) => `${noun.toUpperCase()}_${what}`;

type AnySide<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement> = OpenItemSide<S, A, I, R>;

/** A settlement as a side's use case asks for it; `date` is the payment/receipt date. */
export interface SettleInput extends SettlementInput {
  date: string;
  /** The tenant's payment-method code. */
  method: string;
  note?: string | null;
}

/** The item under its lock (MySQL; SQLite serializes transactions anyway), or 404. */
export async function lockedItem<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement>(
  em: EntityManager,
  companyId: number,
  side: AnySide<S, A, I, R>,
  id: number,
): Promise<I> {
  const item = await side.findItem(em, companyId, id, true);
  if (!item) throw new NotFoundError(capital(side.names.item));
  return item;
}

/** What the item still owes by its balance (the state table refuses a settled or cancelled one first). */
export const openOf = <S extends string, I extends OpenItem<S>>(
  side: { balance: (item: I) => { amount: Dec; settled: Dec; credited: Dec } },
  item: I,
): Dec => {
  const b = side.balance(item);
  return b.amount.minus(b.settled).minus(b.credited);
};

/** Writes what is settled and credited (and the status it means) conditionally on the status and version read under the lock. */
export async function writeOpenItem<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement>(
  em: EntityManager,
  companyId: number,
  side: AnySide<S, A, I, R>,
  before: I,
  values: { settled: Dec; credited: Dec },
  action: A,
): Promise<I> {
  const status = settledStatus(side.statuses, side.balance(before).amount, values.settled, values.credited);
  side.machine.assertTransition(before, action, status);
  if (!(await side.updateIf(em, companyId, before, { ...values, status }))) {
    // Unreachable while the row is locked; kept so a change of locking cannot go unnoticed.
    throw new ConflictError('CONCURRENT_UPDATE', `The ${side.names.item} changed meanwhile; retry`, { retryable: true });
  }
  return (await side.findItem(em, companyId, before.id, false))!;
}

/**
 * A settlement inside the caller's transaction (the caller checked the filial): 400/422 from the
 * amounts and the date, the method must be active, 409 when the item's status takes none, 422
 * `<SETTLEMENT>_EXCEEDS_BALANCE` above what is open. `sideColumns` gives the side's own columns
 * (a receipt's bank fee and credit date), validated after the amounts.
 */
export async function settleIn<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement>(
  em: EntityManager,
  ctx: TenantContext,
  side: AnySide<S, A, I, R>,
  itemId: number,
  input: SettleInput,
  sideColumns?: () => Partial<R>,
): Promise<{ item: I; settlement: R }> {
  const noun = side.names.settlement;
  const { interest, fine, discount, total } = settlementAmounts(input, {
    field: side.columns.date,
    value: input.date,
    futureCode: code(noun, 'DATE_IN_FUTURE'),
  });
  const extra = sideColumns?.() ?? {};
  const method = await activePaymentMethod(em, ctx.companyId, input.method);
  const item = await lockedItem(em, ctx.companyId, side, itemId);
  side.machine.assertAllowed(item, side.actions.settle);
  const open = openOf(side, item);
  if (input.amount.gt(open)) {
    throw new BusinessRuleError(
      code(noun, 'EXCEEDS_BALANCE'),
      `The ${noun} of ${toFixed(input.amount, 'amount')} exceeds the open balance of ${toFixed(open, 'amount')}`,
      {
        openAmount: money(open),
        amount: money(input.amount),
      },
    );
  }
  const row = {
    companyId: ctx.companyId,
    filialId: item.filialId,
    [side.columns.item]: item.id,
    status: 'ACTIVE',
    [side.columns.date]: input.date,
    paymentMethodId: method.id,
    paymentMethodCode: method.code,
    amount: input.amount,
    interest,
    fine,
    discount,
    total,
    ...extra,
    note: input.note?.trim() || null,
    createdBy: ctx.actor,
    reversedAt: null,
    reversedBy: null,
    reversalReason: null,
    version: 1,
  } as Partial<R>;
  const id = await insertSettlement(em, side.settlementEntity, row);
  const b = side.balance(item);
  const updated = await writeOpenItem(
    em,
    ctx.companyId,
    side,
    item,
    { settled: b.settled.plus(input.amount), credited: b.credited },
    side.actions.settle,
  );
  const settlement = (await findSettlement(em, side.settlementEntity, ctx.companyId, id))!;
  await recordAudit(em, ctx, {
    entity: side.audit.settlement,
    entityId: id,
    action: 'CREATED',
    changes: diff({}, { [side.columns.item]: encodeId(side.ids.item, item.id), ...side.settlementData(settlement), note: settlement.note }),
  });
  await recordAudit(em, ctx, {
    entity: side.audit.item,
    entityId: item.id,
    action: side.audit.settled,
    changes: { ...side.itemChanges(item, updated), [side.audit.settledRef]: [null, encodeId(side.ids.settlement, id)] },
  });
  await publishEvent(em, ctx, {
    type: side.events.settled(updated),
    filialId: item.filialId,
    aggregateType: side.audit.item,
    aggregateId: item.id,
    data: { ...side.itemData(updated), [side.events.key]: side.settlementData(settlement) },
  });
  return { item: updated, settlement };
}

/** A settlement of the company (else 404 `<SETTLEMENT>_NOT_FOUND`), read with `em` (a reader before the transaction, to check the filial). */
export async function findSettlementOf<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement>(
  em: EntityManager,
  companyId: number,
  side: AnySide<S, A, I, R>,
  id: number,
): Promise<R> {
  const found = await findSettlement(em, side.settlementEntity, companyId, id);
  if (!found) throw new NotFoundError(capital(side.names.settlement), code(side.names.settlement, 'NOT_FOUND'));
  return found;
}

/**
 * A reversal with a reason inside the caller's transaction (the caller checked the filial): locks the
 * item, refuses a settlement already reversed (409 `<SETTLEMENT>_ALREADY_REVERSED`) or an item whose
 * status takes none, marks the settlement REVERSED, gives its amount back to what is open, audit and event.
 */
export async function reverseIn<S extends string, A extends string, I extends OpenItem<S>, R extends OpenItemSettlement>(
  em: EntityManager,
  ctx: TenantContext,
  side: AnySide<S, A, I, R>,
  settlementId: number,
  reason: string,
): Promise<{ item: I; settlement: R }> {
  const noun = side.names.settlement;
  const found = await findSettlementOf(em, ctx.companyId, side, settlementId);
  const item = await lockedItem(em, ctx.companyId, side, found[side.columns.item] as unknown as number);
  // Read again under the item's lock: a concurrent reversal of it has committed by now.
  const settlement = (await findSettlement(em, side.settlementEntity, ctx.companyId, settlementId))!;
  if (settlement.status !== 'ACTIVE')
    throw new StateConflictError(capital(noun), settlement.status, 'reverse', code(noun, 'ALREADY_REVERSED'));
  side.machine.assertAllowed(item, side.actions.reverse);
  if (
    !(await reverseSettlementIf(em, side.settlementEntity, ctx.companyId, settlement.id, settlement.version, {
      reversedAt: new Date(),
      reversedBy: ctx.actor,
      reversalReason: reason,
    }))
  ) {
    throw new ConflictError('CONCURRENT_UPDATE', `The ${noun} changed meanwhile; retry`, { retryable: true });
  }
  const b = side.balance(item);
  const updated = await writeOpenItem(
    em,
    ctx.companyId,
    side,
    item,
    { settled: b.settled.minus(settlement.amount), credited: b.credited },
    side.actions.reverse,
  );
  const reversed = (await findSettlement(em, side.settlementEntity, ctx.companyId, settlement.id))!;
  await recordAudit(em, ctx, {
    entity: side.audit.settlement,
    entityId: settlement.id,
    action: 'REVERSED',
    changes: { status: ['ACTIVE', 'REVERSED'], reversalReason: [null, reason] },
  });
  await recordAudit(em, ctx, {
    entity: side.audit.item,
    entityId: item.id,
    action: side.audit.reversed,
    changes: { ...side.itemChanges(item, updated), [side.audit.reversedRef]: [null, encodeId(side.ids.settlement, settlement.id)] },
  });
  await publishEvent(em, ctx, {
    type: side.events.reversed,
    filialId: item.filialId,
    aggregateType: side.audit.item,
    aggregateId: item.id,
    data: { ...side.itemData(updated), [side.events.key]: { ...side.settlementData(reversed), reversalReason: reason } },
  });
  return { item: updated, settlement: reversed };
}
