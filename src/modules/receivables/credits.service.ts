import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec, sum, toFixed, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { PaymentKind } from '../catalog';
import { In } from 'typeorm';
import { CustomerCredit, CustomerCreditKind } from './entities/customer-credit.entity';
import { ReceivableReturnCredit } from './entities/receivable-return-credit.entity';
import { RECEIVABLE_AUDIT, receivableData } from './receivables.events';
import { creditsOfReturn, insertCredits, openCustomerReceivablesOfOrders } from './receivables.repository';
import { openAmountOf } from './receivables.rules';
import { settledChanges, writeSettled } from './receipts.service';

/*
 * A customer return credits the customer (SPEC §8, §13), in the return's transaction: the refund of
 * each sale first reduces that sale's open receivables — the customer's, from the last installment
 * back, never an acquirer's (a card refund is the acquirer's chargeback, outside this service) — and
 * what is left becomes a customer credit (refund method of kind STORE_CREDIT) or a refund owed to the
 * customer by the return's refund method. A receivable credited in full with nothing received is
 * CANCELLED; one whose rest was received becomes RECEIVED.
 */

export interface ReturnCredit {
  returnId: number;
  filialId: number;
  customerId: number;
  refundMethod: { code: string; kind: PaymentKind };
  /** The refund of each sale the return touches. */
  orders: { salesOrderId: number; amount: Dec }[];
}

export interface ReturnCreditOutcome {
  /** What each receivable was reduced by. */
  credited: { receivableId: number; salesOrderId: number; amount: Dec }[];
  /** What was left: store credit or refund rows, one per sale with a rest. */
  credits: CustomerCredit[];
}

export async function creditReturn(em: EntityManager, ctx: ActorContext, input: ReturnCredit): Promise<ReturnCreditOutcome> {
  const orderIds = input.orders.filter((o) => o.amount.gt(0)).map((o) => o.salesOrderId);
  if (!orderIds.length) return { credited: [], credits: [] };
  const open = await openCustomerReceivablesOfOrders(em, ctx.companyId, orderIds);
  const credited: ReturnCreditOutcome['credited'] = [];
  const rests: { salesOrderId: number; amount: Dec }[] = [];
  for (const order of input.orders) {
    let left = order.amount;
    const ofOrder = open
      .filter((r) => r.salesOrderId === order.salesOrderId)
      .sort((a, b) => b.installmentNumber - a.installmentNumber || b.id - a.id);
    for (const r of ofOrder) {
      if (left.lte(0)) break;
      const take = Dec.min(left, openAmountOf(r));
      if (take.lte(0)) continue;
      left = left.minus(take);
      const updated = await writeSettled(
        em,
        ctx.companyId,
        r,
        { receivedAmount: r.receivedAmount, creditedAmount: r.creditedAmount.plus(take) },
        'credit',
      );
      credited.push({ receivableId: r.id, salesOrderId: r.salesOrderId, amount: take });
      await recordAudit(em, ctx, {
        entity: RECEIVABLE_AUDIT,
        entityId: r.id,
        action: 'CREDITED',
        changes: { ...settledChanges(r, updated), returnId: [null, encodeId('return', input.returnId)] },
      });
      await publishEvent(em, ctx, {
        type: 'receivable.credited',
        filialId: r.filialId,
        aggregateType: RECEIVABLE_AUDIT,
        aggregateId: r.id,
        data: {
          ...receivableData(updated),
          credit: { returnId: encodeId('return', input.returnId), amount: toJsonNumber(take, 'amount') },
        },
      });
    }
    if (left.gt(0)) rests.push({ salesOrderId: order.salesOrderId, amount: left });
  }
  // Where the refund went, for the return's answer (refundsOfReturns).
  if (credited.length)
    await em.insert(
      ReceivableReturnCredit,
      credited.map((c) => ({
        companyId: ctx.companyId,
        returnId: input.returnId,
        receivableId: c.receivableId,
        salesOrderId: c.salesOrderId,
        amount: c.amount,
      })),
    );
  const kind: CustomerCreditKind = input.refundMethod.kind === 'STORE_CREDIT' ? 'CREDIT' : 'REFUND';
  await insertCredits(
    em,
    rests.map((r) => ({
      companyId: ctx.companyId,
      filialId: input.filialId,
      customerId: input.customerId,
      returnId: input.returnId,
      salesOrderId: r.salesOrderId,
      kind,
      methodCode: input.refundMethod.code,
      amount: r.amount,
      actor: ctx.actor,
    })),
  );
  const credits = rests.length ? await creditsOfReturn(em, ctx.companyId, input.returnId) : [];
  for (const c of credits) {
    await recordAudit(em, ctx, {
      entity: 'customer-credit',
      entityId: c.id,
      action: 'CREATED',
      changes: {
        kind: [null, c.kind],
        amount: [null, toFixed(c.amount, 'amount')],
        method: [null, c.methodCode],
        returnId: [null, encodeId('return', input.returnId)],
      },
    });
  }
  if (credited.length || credits.length) {
    await recordAudit(em, ctx, {
      entity: 'return',
      entityId: input.returnId,
      action: 'CUSTOMER_CREDITED',
      changes: {
        receivablesCredited: [null, toFixed(sum(credited.map((c) => c.amount)), 'amount')],
        customerCredit: [null, toFixed(sum(credits.map((c) => c.amount)), 'amount')],
      },
    });
  }
  return { credited, credits };
}

/** Where a return's refund went: the receivables it reduced (by how much) and the store credit or refund it left. */
export interface ReturnRefund {
  receivables: { receivableId: number; salesOrderId: number; amount: Dec }[];
  customerCredits: CustomerCredit[];
}

/** The refunds of returns (their answers), by return id; a return with neither has empty lists. */
export async function refundsOfReturns(em: EntityManager, companyId: number, returnIds: number[]): Promise<Map<number, ReturnRefund>> {
  const out = new Map<number, ReturnRefund>(returnIds.map((id) => [id, { receivables: [], customerCredits: [] }]));
  if (!returnIds.length) return out;
  const [reduced, credits] = await Promise.all([
    em.find(ReceivableReturnCredit, { where: { companyId, returnId: In(returnIds) }, order: { id: 'ASC' } }),
    em.find(CustomerCredit, { where: { companyId, returnId: In(returnIds) }, order: { id: 'ASC' } }),
  ]);
  for (const r of reduced)
    out.get(r.returnId)?.receivables.push({ receivableId: r.receivableId, salesOrderId: r.salesOrderId, amount: r.amount });
  for (const c of credits) out.get(c.returnId)?.customerCredits.push(c);
  return out;
}
