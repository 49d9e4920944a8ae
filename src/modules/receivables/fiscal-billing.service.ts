import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Receivable } from './entities/receivable.entity';
import { cancelReceivable, concurrentChange } from './cancellation';
import { RECEIVABLE_AUDIT, receivableData } from './receivables.events';
import { insertReceivable, receivablesOfFulfillment, reshapeReceivableIf } from './receivables.repository';
import { installments as split } from './receivables.rules';

/*
 * The receivables of an NF-e equal the NF-e (SPEC §12.2, §13; issue 43 point 5). The fulfil
 * transaction bills at the order's prices; taxes outside the price (ST, FCP-ST, IPI) and the
 * document's own installments are only known when the NF-e is computed. So the issuing transaction
 * re-makes the fulfilment's customer receivables from the document's amount due (vNFTot, else vNF)
 * split by the installments given at issue or by the order's payment terms, and the NF-e's cobr/dup
 * are those receivables (docs/decisions/receivables-equal-the-invoice.md).
 */

/** What the NF-e bills, as the receivables see it. */
export interface FiscalDocumentBilling {
  /** The fulfilments the document bills (one; or every fulfilment of an order billed as a whole). */
  fulfillmentIds: number[];
  /** The order, for receivables made where the fulfilment billed none. */
  order: { id: number; code: number; filialId: number; customerId: number | null };
  /** What the recipient pays: the document's vNFTot, else vNF. */
  amount: Dec;
  /** The document's issue date (business date): due dates of the terms count from it. */
  issueDate: string;
  /** Installments given at issue (their sum is the amount); null: the order's payment terms. */
  installments: { dueDate: string; amount: Dec }[] | null;
  /** Days of each installment of the order's payment terms ([0] without terms). */
  installmentDays: number[];
}

export interface FiscalInstallment {
  number: number;
  dueDate: string;
  amount: Dec;
  /** The receivables' payment method (null: the order's terms, collected as duplicatas). */
  paymentMethodCode: string | null;
}

const REPLACED = 'Replaced by the installments of its NF-e';
const standing = (r: Receivable) => r.debtorType === 'CUSTOMER' && r.status !== 'CANCELLED';
const touched = (r: Receivable) => r.receivedAmount.gt(0) || r.creditedAmount.gt(0);
const sumOf = (rows: { amount: Dec }[]) => rows.reduce((s, r) => s.plus(r.amount), new Dec(0));

/** The installments the document's receivables will have (pure): the given ones, else the terms over the amount. */
function planOf(b: FiscalDocumentBilling): { number: number; dueDate: string; amount: Dec }[] {
  if (b.amount.lte(0)) return [];
  if (b.installments?.length) return b.installments.map((d, i) => ({ number: i + 1, dueDate: d.dueDate, amount: d.amount }));
  return split(b.amount, b.issueDate, b.installmentDays);
}

const same = (rows: Receivable[], plan: { number: number; dueDate: string; amount: Dec }[]) =>
  rows.length === plan.length &&
  rows.every(
    (r, i) =>
      r.installmentNumber === plan[i].number &&
      r.dueDate === plan[i].dueDate &&
      r.amount.eq(plan[i].amount) &&
      r.installmentCount === plan.length,
  );

/**
 * The duplicatas of the NF-e, and (with `write`, in the issuing transaction) the fulfilment's
 * receivables made equal to them. Receivables of a counter sale (one per payment, settled as paid)
 * are never re-made: they answer as they stand. Receivables something was received or credited on
 * stand as they are when they already add up to the amount; otherwise 422
 * RECEIVABLES_ALREADY_SETTLED (reverse the receipts first), nothing written.
 */
export async function fiscalDocumentInstallments(
  em: EntityManager,
  ctx: ActorContext,
  b: FiscalDocumentBilling,
  write: boolean,
): Promise<FiscalInstallment[]> {
  const ids = [...b.fulfillmentIds].sort((x, y) => x - y);
  const all = (await Promise.all(ids.map((id) => receivablesOfFulfillment(em, ctx.companyId, id, write)))).flat();
  const rows = all.filter(standing);
  const answer = (list: { number: number; dueDate: string; amount: Dec; paymentMethodCode?: string | null }[]) =>
    list.map((r, i) => ({ number: i + 1, dueDate: r.dueDate, amount: r.amount, paymentMethodCode: r.paymentMethodCode ?? null }));
  // A counter sale's payments are what was paid: as before, its customer rows are the duplicatas when they add up.
  if (all.some((r) => r.originType === 'QUICK_SALE'))
    return sumOf(rows).eq(b.amount) ? answer(rows.map((r) => ({ ...r, number: r.installmentNumber }))) : [];
  const plan = planOf(b);
  if (rows.some(touched)) {
    const matches = sumOf(rows).eq(b.amount) && (!b.installments?.length || same(rows, plan));
    if (!matches) {
      throw new BusinessRuleError(
        'RECEIVABLES_ALREADY_SETTLED',
        `The receivables of this sale add up to ${sumOf(rows).toFixed(2)} and something was already received or credited on them; the NF-e's total is ${b.amount.toFixed(2)}: reverse the receipts before issuing`,
        {
          receivableIds: rows.filter(touched).map((r) => encodeId('receivable', r.id)),
          receivablesTotal: Number(sumOf(rows).toFixed(2)),
          total: Number(b.amount.toFixed(2)),
        },
      );
    }
    return answer(rows.map((r) => ({ ...r, number: r.installmentNumber })));
  }
  const anchorId = ids[0];
  const anchor = rows.filter((r) => r.fulfillmentId === anchorId);
  const others = rows.filter((r) => r.fulfillmentId !== anchorId);
  if (write && !(others.length === 0 && same(anchor, plan))) await remake(em, ctx, b, anchorId, anchor, others, all, plan);
  return answer(plan.map((p) => ({ ...p, paymentMethodCode: null })));
}

/** Rewrites the anchor fulfilment's rows into the plan (update in place, insert the rest, cancel the surplus and the other fulfilments' rows). */
async function remake(
  em: EntityManager,
  ctx: ActorContext,
  b: FiscalDocumentBilling,
  anchorId: number,
  anchor: Receivable[],
  others: Receivable[],
  all: Receivable[],
  plan: { number: number; dueDate: string; amount: Dec }[],
): Promise<void> {
  const template = all.find((r) => r.fulfillmentId === anchorId) ?? null;
  for (let i = 0; i < plan.length; i++) {
    const p = plan[i];
    const r = anchor[i];
    const values = {
      installmentNumber: p.number,
      installmentCount: plan.length,
      issueDate: b.issueDate,
      dueDate: p.dueDate,
      grossAmount: p.amount,
      amount: p.amount,
    };
    if (r) {
      if (!(await reshapeReceivableIf(em, ctx.companyId, r.id, { status: r.status, version: r.version }, values))) throw concurrentChange();
      await recordAudit(em, ctx, {
        entity: RECEIVABLE_AUDIT,
        entityId: r.id,
        action: 'REMADE_FOR_FISCAL_DOCUMENT',
        changes: diff(
          { installmentNumber: r.installmentNumber, installmentCount: r.installmentCount, dueDate: r.dueDate, amount: r.amount.toFixed(2) },
          { installmentNumber: p.number, installmentCount: plan.length, dueDate: p.dueDate, amount: p.amount.toFixed(2) },
        ),
      });
      await publishEvent(em, ctx, {
        type: 'receivable.changed',
        filialId: r.filialId,
        aggregateType: RECEIVABLE_AUDIT,
        aggregateId: r.id,
        data: receivableData({ ...r, ...values }),
      });
      continue;
    }
    const row = {
      companyId: ctx.companyId,
      filialId: template?.filialId ?? b.order.filialId,
      debtorType: 'CUSTOMER' as const,
      customerId: template?.customerId ?? b.order.customerId,
      paymentMethodId: null,
      paymentMethodCode: null,
      originType: 'FULFILLMENT' as const,
      salesOrderId: template?.salesOrderId ?? b.order.id,
      salesOrderCode: template?.salesOrderCode ?? b.order.code,
      fulfillmentId: anchorId,
      fiscalDocumentId: null,
      accessKey: null,
      feePercent: new Dec(0),
      feeAmount: new Dec(0),
      receivedAmount: new Dec(0),
      creditedAmount: new Dec(0),
      cancelReason: null,
      status: 'OPEN' as const,
      ...values,
    };
    const id = await insertReceivable(em, row);
    const made = { ...row, id } as Receivable;
    await recordAudit(em, ctx, {
      entity: RECEIVABLE_AUDIT,
      entityId: id,
      action: 'CREATED',
      changes: { amount: [null, p.amount.toFixed(2)], dueDate: [null, p.dueDate], reason: [null, 'installment of its NF-e'] },
    });
    await publishEvent(em, ctx, {
      type: 'receivable.created',
      filialId: made.filialId,
      aggregateType: RECEIVABLE_AUDIT,
      aggregateId: id,
      data: receivableData(made),
    });
  }
  for (const r of [...anchor.slice(plan.length), ...others]) await cancelReceivable(em, ctx, r, REPLACED);
}
