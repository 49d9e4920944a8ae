import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec, toFixed, toJsonNumber } from '../../core/decimal';
import { ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { PayableDeduction } from './entities/payable-deduction.entity';
import type { TenantRow } from '../../core/db/sql';
import type { Payable, PayableStatus } from './entities/payable.entity';
import type { SupplierCredit } from './entities/supplier-credit.entity';
import { assertTransition } from './payables.state';
import { PAYABLE_AUDIT } from './payments.service';
import {
  activeDeductionsOf,
  cancelSupplierCreditsOf,
  deductionsOf,
  insertDeductions,
  insertSupplierCredit,
  lockPayables,
  lockUnsettledPayablesOfDocument,
  payablesOfDocument,
  markDeductionsReversed,
  supplierCreditsOf,
  updatePayableAmountIf,
} from './payables.repository';

/*
 * A supplier return (devolução de compra) lowers what we owe the supplier for that purchase, in the
 * transaction that records the authority's authorization of our NF-e de devolução: the entry
 * document's unsettled payables are abated from the last installment back (what is owed soonest is
 * kept), each abatement a PayableDeduction row and the payable's `amount` lowered by it; what the
 * payables cannot take (they were paid) becomes a SupplierCredit the supplier owes us. Cancelling the
 * return puts every abatement back and cancels the credit. The payables are locked (ascending id), so
 * a payment racing the return queues behind it and sees the lowered balance.
 */

const ZERO = new Dec(0);

export interface SupplierReturnDeduction {
  supplierReturnId: number;
  entryDocumentId: number;
  filialId: number;
  supplierId: number;
  supplierDocument: string;
  /** The value of the goods sent back (the NF-e de devolução's total). */
  amount: Dec;
}

export interface DeductionOutcome {
  deductions: { payableId: number; installmentNumber: number; amount: Dec; statusBefore: PayableStatus; statusAfter: PayableStatus }[];
  supplierCredit: Dec;
}

/** The status a payable is in once `amount` is owed and `paid` paid: zero owed and nothing paid is CANCELLED. */
function statusAfterDeduction(amount: Dec, paid: Dec): PayableStatus {
  if (paid.lte(0)) return amount.lte(0) ? 'CANCELLED' : 'OPEN';
  return paid.gte(amount) ? 'PAID' : 'PARTIALLY_PAID';
}

const money = (d: Dec) => toJsonNumber(d, 'amount');

async function writeAmount(
  em: EntityManager,
  ctx: ActorContext,
  p: Payable,
  amount: Dec,
  status: PayableStatus,
  action: 'deduct' | 'restore',
  supplierReturnId: number,
) {
  assertTransition(p, action, status);
  if (!(await updatePayableAmountIf(em, ctx.companyId, p.id, { status: p.status, version: p.version }, { amount, status }))) {
    // Unreachable while the rows are locked; kept so a change of locking cannot go unnoticed.
    throw new ConflictError('CONCURRENT_UPDATE', 'The payable changed meanwhile; retry', { retryable: true });
  }
  const changes = {
    amount: [toFixed(p.amount, 'amount'), toFixed(amount, 'amount')] as [string, string],
    ...(p.status !== status ? { status: [p.status, status] as [string, string] } : {}),
    supplierReturnId: [null, encodeId('supplier-return', supplierReturnId)] as [null, string],
  };
  await recordAudit(em, ctx, {
    entity: PAYABLE_AUDIT,
    entityId: p.id,
    action: action === 'deduct' ? 'DEDUCTED' : 'DEDUCTION_RESTORED',
    changes,
  });
  await publishEvent(em, ctx, {
    type: action === 'deduct' ? 'payable.deducted' : 'payable.deduction-restored',
    filialId: p.filialId,
    aggregateType: PAYABLE_AUDIT,
    aggregateId: p.id,
    data: {
      id: encodeId('payable', p.id),
      filialId: encodeId('filial', p.filialId),
      entryDocumentId: p.entryDocumentId === null ? null : encodeId('entry-document', p.entryDocumentId),
      supplierReturnId: encodeId('supplier-return', supplierReturnId),
      installmentNumber: p.installmentNumber,
      amountBefore: money(p.amount),
      amount: money(amount),
      paidAmount: money(p.paidAmount),
      openAmount: money(amount.minus(p.paidAmount)),
      status,
    },
  });
}

/**
 * What abating `amount` does to the payables (unsettled ones, any order): from the last installment
 * back, each down by what is still open on it; the rest is the supplier credit. Pure: the preview and
 * the authorization both use it.
 */
export function planDeduction(
  payables: Payable[],
  amount: Dec,
): { deductions: (DeductionOutcome['deductions'][number] & { payable: Payable; amountAfter: Dec })[]; supplierCredit: Dec } {
  let left = amount;
  const deductions: ReturnType<typeof planDeduction>['deductions'] = [];
  for (const p of [...payables].sort((a, b) => b.installmentNumber - a.installmentNumber || b.id - a.id)) {
    if (left.lte(0)) break;
    if (p.status !== 'OPEN' && p.status !== 'PARTIALLY_PAID') continue;
    const take = Dec.min(left, p.amount.minus(p.paidAmount));
    if (take.lte(0)) continue;
    left = left.minus(take);
    const amountAfter = p.amount.minus(take);
    deductions.push({
      payable: p,
      payableId: p.id,
      installmentNumber: p.installmentNumber,
      amount: take,
      amountAfter,
      statusBefore: p.status,
      statusAfter: statusAfterDeduction(amountAfter, p.paidAmount),
    });
  }
  return { deductions, supplierCredit: Dec.max(left, ZERO) };
}

/** The abatement a supplier return of `amount` would make on the entry document's payables now (reads only). */
export async function previewSupplierReturnDeduction(em: EntityManager, companyId: number, entryDocumentId: number, amount: Dec) {
  return planDeduction(await payablesOfDocument(em, companyId, entryDocumentId), amount);
}

export async function deductSupplierReturn(
  em: EntityManager,
  ctx: ActorContext,
  input: SupplierReturnDeduction,
): Promise<DeductionOutcome> {
  const plan = planDeduction(await lockUnsettledPayablesOfDocument(em, ctx.companyId, input.entryDocumentId), input.amount);
  const rows: TenantRow<PayableDeduction>[] = [];
  for (const d of plan.deductions) {
    await writeAmount(em, ctx, d.payable, d.amountAfter, d.statusAfter, 'deduct', input.supplierReturnId);
    rows.push({
      companyId: ctx.companyId,
      filialId: d.payable.filialId,
      payableId: d.payableId,
      sourceType: 'SUPPLIER_RETURN',
      sourceId: input.supplierReturnId,
      amount: d.amount,
      statusBefore: d.statusBefore,
      status: 'ACTIVE',
      reversedAt: null,
    });
  }
  await insertDeductions(em, rows);
  const left = plan.supplierCredit;
  if (left.gt(0)) {
    const id = await insertSupplierCredit(em, {
      companyId: ctx.companyId,
      filialId: input.filialId,
      supplierId: input.supplierId,
      supplierDocument: input.supplierDocument,
      entryDocumentId: input.entryDocumentId,
      sourceType: 'SUPPLIER_RETURN',
      sourceId: input.supplierReturnId,
      amount: left,
      status: 'OPEN',
      cancelledAt: null,
    });
    await recordAudit(em, ctx, {
      entity: 'supplier-credit',
      entityId: id,
      action: 'CREATED',
      changes: { amount: [null, toFixed(left, 'amount')], supplierReturnId: [null, encodeId('supplier-return', input.supplierReturnId)] },
    });
  }
  return { deductions: plan.deductions.map(({ payable: _p, amountAfter: _a, ...d }) => d), supplierCredit: left };
}

/** Puts back what a supplier return took off the payables and cancels its supplier credit (the return's NF-e was cancelled). */
export async function restoreSupplierReturn(em: EntityManager, ctx: ActorContext, supplierReturnId: number): Promise<DeductionOutcome> {
  const deductions = await activeDeductionsOf(em, ctx.companyId, 'SUPPLIER_RETURN', supplierReturnId);
  const outcome: DeductionOutcome = { deductions: [], supplierCredit: ZERO };
  const payables = new Map(
    (
      await lockPayables(
        em,
        ctx.companyId,
        deductions.map((d) => d.payableId),
      )
    ).map((p) => [p.id, p]),
  );
  for (const d of deductions) {
    const p = payables.get(d.payableId)!;
    const amount = p.amount.plus(d.amount);
    const status: PayableStatus =
      p.status === 'CANCELLED' ? 'OPEN' : p.paidAmount.lte(0) ? 'OPEN' : p.paidAmount.gte(amount) ? 'PAID' : 'PARTIALLY_PAID';
    await writeAmount(em, ctx, p, amount, status, 'restore', supplierReturnId);
    payables.set(p.id, { ...p, amount, status, version: p.version + 1 });
    outcome.deductions.push({
      payableId: p.id,
      installmentNumber: p.installmentNumber,
      amount: d.amount,
      statusBefore: p.status,
      statusAfter: status,
    });
  }
  await markDeductionsReversed(
    em,
    ctx.companyId,
    deductions.map((d) => d.id),
  );
  const credits = (await supplierCreditsOf(em, ctx.companyId, 'SUPPLIER_RETURN', supplierReturnId)).filter((c) => c.status === 'OPEN');
  if (credits.length) {
    if ((await cancelSupplierCreditsOf(em, ctx.companyId, 'SUPPLIER_RETURN', supplierReturnId)) !== credits.length) {
      throw new ConflictError('CONCURRENT_UPDATE', 'The supplier credit changed meanwhile; retry', { retryable: true });
    }
    for (const c of credits) {
      await recordAudit(em, ctx, {
        entity: 'supplier-credit',
        entityId: c.id,
        action: 'CANCELLED',
        changes: { status: ['OPEN', 'CANCELLED'] },
      });
      outcome.supplierCredit = outcome.supplierCredit.plus(c.amount);
    }
  }
  return outcome;
}

/** A supplier return's abatements and credit, as they stand (its detail). */
export async function supplierReturnSettlement(
  em: EntityManager,
  companyId: number,
  supplierReturnId: number,
): Promise<{ deductions: PayableDeduction[]; credits: SupplierCredit[] }> {
  return {
    deductions: await deductionsOf(em, companyId, 'SUPPLIER_RETURN', supplierReturnId),
    credits: await supplierCreditsOf(em, companyId, 'SUPPLIER_RETURN', supplierReturnId),
  };
}
