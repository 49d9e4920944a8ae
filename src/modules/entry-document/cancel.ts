import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertPeriodOpen } from '../fiscal-periods';
import type { Payable } from '../payables';
import { cancelDocumentPayables, documentPayables, toPayableDto } from '../payables';
import {
  LedgerEffect,
  LedgerPosting,
  postThirdPartyStock,
  postToLedger,
  previewPosting,
  previewThirdPartyPosting,
  ThirdPartyEffect,
  thirdPartyMovementsOf,
  ThirdPartyPosting,
} from '../stock';
import { checkDto, toStockMovementDto } from './entry-document.mapper';
import { toEventData } from './entry-document.events';
import { ENTRY_REASON, thirdPartyMovementDtos, transitionConflict } from './confirm';
import { currentDocument, findAccessibleDocument } from './entry-document.access';
import { fixedAssetCredits, inboundNfe, supplierReturnsOfDocument } from './entry-document.ports';
import { loadEntryDocumentDetail } from './detail';
import { EntryDocument } from './entities/entry-document.entity';
import { AUDIT_ENTITY, findDocument, loadItems, postedMovements, STOCK_REFERENCE, updateIfCurrent } from './entry-document.repository';
import { Check } from './entry-document.types';
import { costAdjustmentsByLine } from './cte-freight';
import { revertReceipts } from '../purchase';
import { taxCreditDto } from './fiscal/fiscal.mapper';
import { reverseTaxCredits, taxCreditsOf } from './fiscal/tax-credit.repository';
import type { EntryDocumentTaxCredit } from './entities/entry-document-tax-credit.entity';
import { assertTransition, canDo, conflictCode } from './entry-document.state';

/*
 * Cancellation. A DRAFT cancels without postings. A CONFIRMED document reverses exactly what its
 * confirmation posted — read back from the ledger, each line leaving at its entry cost so the
 * average is backed out — and cancels its payables. Blocked when a payable has been paid or when the
 * reversal would take stock below zero in a filial that forbids it.
 */

export const CANCEL_REASON = 'ENTRY_DOCUMENT_CANCEL';

interface CancelPlan {
  posting: LedgerPosting;
  effects: LedgerEffect[];
  /** The third-party goods the confirmation took in, going back out. */
  thirdParty: ThirdPartyPosting;
  thirdPartyEffects: ThirdPartyEffect[];
  /** The credits the confirmation recorded, to reverse. */
  credits: EntryDocumentTaxCredit[];
  payables: Payable[];
  lineOfItem: Map<number, number>;
  blocking: Check[];
}

async function buildCancelPlan(em: EntityManager, doc: EntryDocument, actor: string): Promise<CancelPlan> {
  const posting: LedgerPosting = {
    companyId: doc.companyId,
    filialId: doc.filialId,
    reason: CANCEL_REASON,
    referenceType: STOCK_REFERENCE,
    referenceId: doc.id,
    actor,
    lines: [],
  };
  const thirdParty: ThirdPartyPosting = { ...posting, lines: [] };
  const nothing = {
    posting,
    effects: [],
    thirdParty,
    thirdPartyEffects: [],
    credits: [],
    payables: [],
    lineOfItem: new Map<number, number>(),
  };
  if (!canDo(doc, 'cancel')) {
    return {
      ...nothing,
      blocking: [{ code: conflictCode(doc.status), message: 'The document is already cancelled', blocksConfirmation: true }],
    };
  }
  if (doc.status === 'DRAFT') return { ...nothing, blocking: [] };

  posting.lines = await ownStockReversal(em, doc);
  const payables = await documentPayables(em, doc.companyId, doc.id);
  const returns = await supplierReturnsOfDocument.get().liveReturns(em, doc.companyId, doc.id);
  const blocking = [...returnsBlocking(returns), ...paidPayablesBlocking(payables)];
  const { effects, shortages } = await previewPosting(em, posting);
  blocking.push(...shortages.map(stockShortage));
  thirdParty.lines = await thirdPartyReversal(em, doc);
  const thirdPartyPreview = await previewThirdPartyPosting(em, thirdParty);
  blocking.push(...thirdPartyPreview.shortages.map(thirdPartyShortage));
  const credits = (await taxCreditsOf(em, doc.companyId, doc.id)).filter((c) => c.status === 'RECORDED');
  const items = await loadItems(em, doc.companyId, doc.id);
  return {
    posting,
    effects,
    thirdParty,
    thirdPartyEffects: thirdPartyPreview.effects,
    credits,
    payables,
    lineOfItem: new Map(items.map((i) => [i.id, i.lineNumber])),
    blocking,
  };
}

/**
 * The own-stock lines the confirmation posted, going back out last in, first out (each reversal undoes the
 * movement it mirrors in the state it left), at their entry cost plus the CT-e freight posted onto the line
 * after confirmation (or less what was taken back since): it leaves with the goods.
 */
async function ownStockReversal(em: EntityManager, doc: EntryDocument): Promise<LedgerPosting['lines']> {
  const posted = await postedMovements(em, doc.companyId, doc.id, ENTRY_REASON);
  const adjusted = await costAdjustmentsByLine(em, doc);
  return posted
    .filter((m) => m.filialId === doc.filialId)
    .reverse()
    .map((m) => ({
      productId: m.productId,
      direction: 'OUT' as const,
      quantity: m.quantity.abs(),
      unitCost:
        m.referenceLineId !== null && adjusted.has(m.referenceLineId)
          ? m.unitCost.plus(adjusted.get(m.referenceLineId)!.div(m.quantity.abs()))
          : m.unitCost,
      reversal: true,
      reversesMovementId: m.id,
      referenceLineId: m.referenceLineId ?? undefined,
    }));
}

/**
 * Third-party goods leave as they came in, last first; they cannot leave if they are no longer held. Goods
 * a purchase took out of third-party stock (consignment, x113) go back into it.
 */
async function thirdPartyReversal(em: EntityManager, doc: EntryDocument): Promise<ThirdPartyPosting['lines']> {
  return (await thirdPartyMovementsOf(em, doc.companyId, STOCK_REFERENCE, doc.id, ENTRY_REASON))
    .filter((m) => m.filialId === doc.filialId)
    .reverse()
    .map((m) => ({
      productId: m.productId,
      ownerDocument: m.ownerDocument,
      ownerSupplierId: null,
      direction: m.direction === 'OUT' ? ('IN' as const) : ('OUT' as const),
      quantity: m.quantity.abs(),
      value: m.value.abs(),
      referenceLineId: m.referenceLineId ?? undefined,
    }));
}

/** Returns to the supplier standing against the document block: their NF-e are cancelled first. */
const returnsBlocking = (returns: number): Check[] =>
  returns
    ? [
        {
          code: 'SUPPLIER_RETURN_EXISTS',
          message: `${returns} return(s) to the supplier stand against the document; cancel their NF-e first`,
          blocksConfirmation: true,
          details: { supplierReturns: returns },
        },
      ]
    : [];

/** Each installment with something paid blocks: the payment is reversed first. */
const paidPayablesBlocking = (payables: Payable[]): Check[] =>
  payables
    .filter((p) => p.status !== 'OPEN' && p.status !== 'CANCELLED')
    .map((p) => ({
      code: 'PAYABLE_PAID',
      message: `Installment ${p.installmentNumber} has ${p.paidAmount.toFixed(2)} paid; reverse the payment first`,
      blocksConfirmation: true,
      details: {
        payableId: encodeId('payable', p.id),
        installmentNumber: p.installmentNumber,
        paidAmount: Number(p.paidAmount.toFixed(2)),
      },
    }));

type StockShortage = Awaited<ReturnType<typeof previewPosting>>['shortages'][number];
type ThirdPartyShortage = Awaited<ReturnType<typeof previewThirdPartyPosting>>['shortages'][number];

const stockShortage = (s: StockShortage): Check => ({
  code: 'INSUFFICIENT_STOCK',
  message: `Reversing needs ${s.requested.toFixed(4)} of a product with ${s.available.toFixed(4)} in stock, and the filial forbids negative stock`,
  blocksConfirmation: true,
  details: {
    productId: encodeId('product', s.productId),
    available: Number(s.available.toFixed(4)),
    requested: Number(s.requested.toFixed(4)),
  },
});

const thirdPartyShortage = (s: ThirdPartyShortage): Check => ({
  code: 'INSUFFICIENT_THIRD_PARTY_STOCK',
  message: `Reversing needs ${s.requested.toFixed(4)} of the third-party goods of ${s.ownerDocument} with ${s.available.toFixed(4)} held`,
  blocksConfirmation: true,
  details: {
    productId: encodeId('product', s.productId),
    ownerDocument: s.ownerDocument,
    available: Number(s.available.toFixed(4)),
    requested: Number(s.requested.toFixed(4)),
  },
});

const movementDtos = (plan: CancelPlan, effects: LedgerEffect[]) =>
  effects.map((e) => toStockMovementDto(e, e.referenceLineId === undefined ? undefined : plan.lineOfItem.get(e.referenceLineId)));

export async function cancelPreview(ctx: TenantContext, id: number) {
  const em = readerOf(ctx);
  const doc = await findAccessibleDocument(ctx, id, em);
  const plan = await buildCancelPlan(em, doc, ctx.actor);
  return {
    entryDocumentId: encodeId('entry-document', doc.id),
    status: doc.status,
    version: doc.version,
    stockMovements: movementDtos(plan, plan.effects),
    thirdPartyStockMovements: thirdPartyMovementDtos(plan.thirdPartyEffects, plan.lineOfItem),
    payables: plan.payables.map((p) => toPayableDto(p)),
    taxCreditsReversed: plan.credits.map(taxCreditDto),
    warnings: [],
    blockingProblems: plan.blocking.map(checkDto),
  };
}

/** Cancels the document; answers with its detail (read after the commit) and the stock it moved back. */
export async function cancelEntryDocument(ctx: TenantContext, id: number, reason: string | null) {
  await findAccessibleDocument(ctx, id);
  const { doc, ...moved } = await inTransaction(ctx, async (em) => {
    const doc = await currentDocument(em, ctx, id);
    assertTransition(doc, 'cancel', 'CANCELLED');
    const cancelledAt = new Date();
    // A confirmed document's cancellation reverses its entry (its month) and moves stock today: both periods open. A draft books nothing.
    if (doc.status === 'CONFIRMED') await assertPeriodOpen(em, ctx.companyId, doc.filialId, [doc.entryDate, cancelledAt]);
    if (
      !(await updateIfCurrent(
        em,
        ctx.companyId,
        doc.id,
        { status: doc.status, version: doc.version },
        { status: 'CANCELLED', cancelledAt, cancelReason: reason, liveAccessKey: null },
      ))
    ) {
      await transitionConflict(em, ctx, doc, 'cancel');
    }
    let effects: LedgerEffect[] = [];
    let thirdPartyEffects: ThirdPartyEffect[] = [];
    let plan: CancelPlan | null = null;
    let assetsCancelled = 0;
    if (doc.status === 'CONFIRMED') {
      // Purchase-order receipts first: the order lines are locked before the stock balances, as confirm does.
      await revertReceipts(em, ctx, doc.id);
      plan = await buildCancelPlan(em, doc, ctx.actor);
      if (plan.blocking.length) {
        throw new BusinessRuleError(
          'ENTRY_DOCUMENT_NOT_CANCELLABLE',
          `The document cannot be cancelled: ${plan.blocking.map((b) => b.code).join(', ')}`,
          {
            problems: plan.blocking.map(checkDto),
          },
        );
      }
      // The ledger locks the balances and checks again: stock sold meanwhile still blocks (422).
      effects = await postToLedger(em, plan.posting);
      thirdPartyEffects = await postThirdPartyStock(em, plan.thirdParty);
      await reverseTaxCredits(em, ctx.companyId, doc.id);
      // Its fixed assets leave the CIAP: the parts not yet appropriated are dropped.
      assetsCancelled = await fixedAssetCredits.get().cancelAssets(em, ctx, doc.id, reason);
      const open = plan.payables.filter((p) => p.status === 'OPEN').length;
      if ((await cancelDocumentPayables(em, ctx.companyId, doc.id)) !== open) {
        throw new BusinessRuleError('ENTRY_DOCUMENT_NOT_CANCELLABLE', 'A payable of the document was paid meanwhile', {
          problems: [{ code: 'PAYABLE_PAID', message: 'A payable was paid meanwhile', blocksConfirmation: true }],
        });
      }
    }
    // The NF-e it came from is pending again (a new import may follow; the record keeps both in its events).
    if (doc.accessKey) await inboundNfe.get().releaseImported(em, ctx, doc.id, 'CANCELLED');
    const cancelled = (await findDocument(em, ctx.companyId, doc.id))!;
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: doc.id,
      action: 'CANCELLED',
      changes: { status: [doc.status, 'CANCELLED'], ...(reason ? { cancelReason: [null, reason] } : {}) },
    });
    await publishEvent(em, ctx, {
      type: 'entry-document.cancelled',
      filialId: doc.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: doc.id,
      data: {
        ...toEventData(cancelled),
        previousStatus: doc.status,
        reason,
        movements: effects.length,
        thirdPartyMovements: thirdPartyEffects.length,
        taxCreditsReversed: plan?.credits.length ?? 0,
        fixedAssetsCancelled: assetsCancelled,
      },
    });
    return {
      doc: cancelled,
      stockMovements: plan ? movementDtos(plan, effects) : [],
      thirdPartyStockMovements: plan ? thirdPartyMovementDtos(thirdPartyEffects, plan.lineOfItem) : [],
    };
  });
  return { detail: await loadEntryDocumentDetail(ctx, doc.id), ...moved };
}
