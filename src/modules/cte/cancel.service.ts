import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { sum, toFixed } from '../../core/decimal';
import { BusinessRuleError, NotFoundError, StaleVersionError } from '../../core/errors';
import { assertTransition, canDo, conflictCode, forbidden } from './cte.state';
import type { EntryDocument } from '../entry-document';
import { canDo as canTakeFreight, findEntryDocument, FreightLineOutcome, LineShare, postFreight, previewFreight } from '../entry-document';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertPeriodOpen } from '../fiscal-periods';
import type { Payable } from '../payables';
import { cancelCtePayables, ctePayables } from '../payables';
import type { Problem } from './apportion.service';
import { allocationsOf, findCte, markAllocationReversed, updateCteIf } from './cte.repository';
import { CTE_AUDIT, cteEventData, findAccessibleCte } from './cte.service';
import type { CteAllocation } from './entities/cte-allocation.entity';
import type { Cte } from './entities/cte.entity';

/*
 * Cancelling a CT-e reverses what it posted: each linked document's share comes off again — out of a
 * DRAFT's landed cost, or as a value-only ledger adjustment of a CONFIRMED one on the goods still in
 * stock (no more than its freight put there; the part sold since stays with the sales, reported) —
 * and its payables are cancelled. Blocked when a payable has been paid. A document cancelled since
 * took its freight out with its goods (or never posted it): nothing to reverse there.
 */

interface ReversalDocument {
  entryDocumentId: number;
  doc: EntryDocument | null;
  allocations: CteAllocation[];
  shares: LineShare[];
}

interface CancelPlan {
  documents: ReversalDocument[];
  payables: Payable[];
  blocking: Problem[];
}

async function buildCancelPlan(em: EntityManager, cte: Cte): Promise<CancelPlan> {
  if (!canDo(cte, 'cancel'))
    return { documents: [], payables: [], blocking: [{ code: conflictCode(cte.status), message: 'The CT-e is already cancelled' }] };
  if (cte.status === 'RECEIVED') return { documents: [], payables: [], blocking: [] };
  const byDocument = new Map<number, CteAllocation[]>();
  for (const a of await allocationsOf(em, cte.companyId, cte.id))
    byDocument.set(a.entryDocumentId, [...(byDocument.get(a.entryDocumentId) ?? []), a]);
  const documents: ReversalDocument[] = [];
  for (const [entryDocumentId, allocations] of byDocument) {
    const doc = await findEntryDocument(em, cte.companyId, entryDocumentId);
    const live = doc && canTakeFreight(doc, 'apportion-freight');
    documents.push({
      entryDocumentId,
      doc,
      allocations,
      // On a confirmed document no more comes off than the freight put in its stock: all of it when it
      // entered with the goods (the draft was confirmed), else what the adjustment absorbed.
      shares: live
        ? allocations.map((a) => ({
            lineNumber: a.lineNumber,
            amount: a.amount.negated(),
            limit: doc.status === 'CONFIRMED' ? (a.mode === 'LANDED_COST' ? a.amount : a.absorbed) : undefined,
          }))
        : [],
    });
  }
  const payables = await ctePayables(em, cte.companyId, cte.id);
  const blocking: Problem[] = payables
    .filter((p) => p.status !== 'OPEN' && p.status !== 'CANCELLED')
    .map((p) => ({
      code: 'PAYABLE_PAID',
      message: `Installment ${p.installmentNumber} has ${p.paidAmount.toFixed(2)} paid; reverse the payment first`,
      details: {
        payableId: encodeId('payable', p.id),
        installmentNumber: p.installmentNumber,
        paidAmount: Number(p.paidAmount.toFixed(2)),
      },
    }));
  return { documents, payables, blocking };
}

export interface CancelPreview {
  cte: Cte;
  plan: CancelPlan;
  outcomes: Map<number, FreightLineOutcome[]>;
}

export async function cancelPreview(ctx: TenantContext, id: number): Promise<CancelPreview> {
  const em = readerOf(ctx);
  const cte = await findAccessibleCte(ctx, id, em);
  const plan = await buildCancelPlan(em, cte);
  const outcomes = new Map<number, FreightLineOutcome[]>();
  for (const d of plan.documents)
    if (d.doc && d.shares.length) outcomes.set(d.entryDocumentId, await previewFreight(em, d.doc, d.shares, ctx.actor));
  return { cte, plan, outcomes };
}

export async function cancelCte(ctx: TenantContext, id: number, reason: string | null, version?: number): Promise<CancelPreview> {
  await findAccessibleCte(ctx, id);
  return inTransaction(ctx, async (em) => {
    const cte = await findCte(em, ctx.companyId, id, true);
    if (!cte) throw new NotFoundError('CT-e', 'CTE_NOT_FOUND');
    assertTransition(cte, 'cancel', 'CANCELLED');
    // The CT-e's month (its D100) and today's (the freight moves the goods' cost now): both open.
    await assertPeriodOpen(em, ctx.companyId, cte.filialId, [cte.issueDate, new Date()]);
    if (version !== undefined && version !== cte.version) throw new StaleVersionError('CT-e', cte.version);
    if (
      !(await updateCteIf(
        em,
        ctx.companyId,
        cte.id,
        { status: cte.status, version: cte.version },
        { status: 'CANCELLED', cancelledAt: new Date(), cancelReason: reason },
      ))
    ) {
      const now = await findCte(em, ctx.companyId, cte.id);
      if (now && now.status !== cte.status) throw forbidden(now, 'cancel');
      throw new StaleVersionError('CT-e', now?.version ?? cte.version);
    }
    const plan = await buildCancelPlan(em, cte);
    if (plan.blocking.length) {
      throw new BusinessRuleError('CTE_NOT_CANCELLABLE', `The CT-e cannot be cancelled: ${plan.blocking.map((b) => b.code).join(', ')}`, {
        problems: plan.blocking,
      });
    }
    const cteHash = encodeId('cte', cte.id);
    const outcomes = new Map<number, FreightLineOutcome[]>();
    const reversedAt = new Date();
    for (const d of plan.documents) {
      if (!d.doc || !d.shares.length) continue;
      const outcome = await postFreight(em, ctx, d.doc, d.shares, { id: cteHash, accessKey: cte.accessKey, action: 'REVERSED' });
      outcomes.set(d.entryDocumentId, outcome);
      const byLine = new Map(outcome.map((o) => [o.lineNumber, o]));
      for (const a of d.allocations) {
        const o = byLine.get(a.lineNumber)!;
        await markAllocationReversed(em, ctx.companyId, a.id, {
          reversedAmount: o.absorbed.negated(),
          reversedUnabsorbed: o.unabsorbed.negated(),
          reversedAt,
        });
      }
    }
    const open = plan.payables.filter((p) => p.status === 'OPEN').length;
    if ((await cancelCtePayables(em, ctx.companyId, cte.id)) !== open) {
      throw new BusinessRuleError('CTE_NOT_CANCELLABLE', 'A payable of the CT-e was paid meanwhile', {
        problems: [{ code: 'PAYABLE_PAID', message: 'A payable was paid meanwhile' }],
      });
    }
    const cancelled = (await findCte(em, ctx.companyId, cte.id))!;
    const taken = sum([...outcomes.values()].flat().map((o) => o.absorbed.negated()));
    await recordAudit(em, ctx, {
      entity: CTE_AUDIT,
      entityId: cte.id,
      action: 'CANCELLED',
      changes: { status: [cte.status, 'CANCELLED'], ...(reason ? { cancelReason: [null, reason] } : {}) },
    });
    await publishEvent(em, ctx, {
      type: 'cte.cancelled',
      filialId: cte.filialId,
      aggregateType: CTE_AUDIT,
      aggregateId: cte.id,
      data: {
        ...cteEventData(cancelled),
        previousStatus: cte.status,
        reason,
        reversed: Number(toFixed(taken, 'amount')),
        documents: plan.documents.map((d) => ({
          entryDocumentId: encodeId('entry-document', d.entryDocumentId),
          status: d.doc?.status ?? null,
          reversed: d.shares.length > 0,
        })),
        payablesCancelled: open,
      },
    });
    return { cte: cancelled, plan: { ...plan, payables: await ctePayables(em, ctx.companyId, cte.id) }, outcomes };
  });
}
