import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, NotFoundError, StaleVersionError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertPeriodOpen } from '../fiscal-periods';
import { createDocumentPayables } from '../payables';
import {
  LedgerEffect,
  LedgerLine,
  LedgerPosting,
  postThirdPartyStock,
  postToLedger,
  previewPosting,
  previewThirdPartyPosting,
  ThirdPartyEffect,
  ThirdPartyPosting,
} from '../stock';
import { DocumentState, loadDocumentState } from './document-state';
import { PlannedInstallment, splitChecks } from './entry-document.calculator';
import { currentDocument, findAccessibleDocument } from './entry-document.access';
import { loadEntryDocumentDetail } from './detail';
import { checkDto, installmentDto, toStockMovementDto } from './entry-document.mapper';
import { toEventData } from './entry-document.events';
import { EntryDocument } from './entities/entry-document.entity';
import { AUDIT_ENTITY, findDocument, STOCK_REFERENCE, updateIfCurrent } from './entry-document.repository';
import { Check } from './entry-document.types';
import { fixedAssetCredits, FixedAssetLine, inboundNfe } from './entry-document.ports';
import { purchaseMatch, receiptDocument } from './purchase-link';
import { applyReceipts } from '../purchase';
import { Booking, bookLines } from './fiscal/booking';
import { recordBooking } from './fiscal/booking.repository';
import { lineBookingDto, plannedCreditDto, thirdPartyMovementDto } from './fiscal/fiscal.mapper';
import { insertTaxCredits } from './fiscal/tax-credit.repository';
import { dec, toJsonNumber } from '../../core/decimal';
import { assertTransition, canDo, EntryDocumentAction, forbidden } from './entry-document.state';

/*
 * Confirmation. buildConfirmPlan is the one description of what confirming does (ledger lines,
 * payables, problems); confirm-preview runs it through previewPosting, confirm through postToLedger,
 * so the preview answers exactly what confirm posts.
 */

export const ENTRY_REASON = 'ENTRY_DOCUMENT';

export interface ConfirmPlan {
  posting: LedgerPosting;
  /** Goods of others the document brings (remessas): the third-party stock ledger. */
  thirdParty: ThirdPartyPosting;
  /** Each line as its operation class books it, and the document's credits. */
  booking: Booking;
  /** Item id → line number, to label movements. */
  lineOfItem: Map<number, number>;
  payables: PlannedInstallment[];
  blocking: Check[];
  warnings: Check[];
}

/** `purchase`: the three-way match's findings (SPEC §9), folded into the checks. */
export function buildConfirmPlan(state: DocumentState, actor: string, purchase: Check[] = []): ConfirmPlan {
  const { doc, items, computed, products } = state;
  // The operation class decides each line's stock (own, third-party, none); IGNORED lines and products
  // without stock control move none.
  const booking = bookLines({
    items: computed.items,
    itemIds: items.map((i) => i.id),
    products,
    purpose: doc.purpose,
    supplierDocument: doc.supplierDocument,
    supplierId: doc.supplierId,
  });
  const lines: LedgerLine[] = booking.ownStock;
  const { blocking, warnings } = splitChecks([...state.checks, ...purchase]);
  if (!canDo(doc, 'confirm')) {
    blocking.unshift({
      code: 'ENTRY_DOCUMENT_NOT_DRAFT',
      message: `The document is ${doc.status}; only a DRAFT can be confirmed`,
      blocksConfirmation: true,
    });
  }
  if (doc.nfeCancelledAt) {
    blocking.unshift({
      code: 'NFE_CANCELLED_BY_ISSUER',
      message: 'The issuer cancelled the NF-e this document was imported from',
      blocksConfirmation: true,
    });
  }
  const reference = {
    companyId: doc.companyId,
    filialId: doc.filialId,
    reason: ENTRY_REASON,
    referenceType: STOCK_REFERENCE,
    referenceId: doc.id,
    actor,
  };
  return {
    posting: { ...reference, lines },
    thirdParty: { ...reference, lines: booking.thirdParty },
    booking,
    lineOfItem: new Map(items.map((it) => [it.id, it.lineNumber])),
    payables: computed.payables,
    blocking,
    warnings,
  };
}

/** The lines booked as fixed assets (not ignored on review), with the ICMS the supplier's NF-e declares on each. */
function fixedAssetLines(state: DocumentState): FixedAssetLine[] {
  return state.computed.items.flatMap((it, i) =>
    it.operationClass === 'PURCHASE_FIXED_ASSET' && it.reviewStatus !== 'IGNORED'
      ? [
          {
            itemId: state.items[i].id,
            lineNumber: it.lineNumber,
            description: it.description,
            ncm: it.ncm,
            entryCfop: it.entryCfop ?? '',
            icms: dec(it.taxes.icms?.value ?? 0),
            icmsSt: dec(it.taxes.icmsSt?.value ?? 0),
          },
        ]
      : [],
  );
}

/** The signer's verdict and the authority's word on the NF-e the document was imported from (nfe's port). */
const inboundChecks = (em: EntityManager, doc: EntryDocument): Promise<Check[]> =>
  doc.accessKey && doc.origin !== 'MANUAL'
    ? inboundNfe.get().confirmationChecks(em, doc.companyId, doc.filialId, doc.accessKey)
    : Promise.resolve([]);

const movementDtos = (effects: LedgerEffect[], lineOfItem: Map<number, number>) =>
  effects.map((e) => toStockMovementDto(e, e.referenceLineId === undefined ? undefined : lineOfItem.get(e.referenceLineId)));

export const thirdPartyMovementDtos = (effects: ThirdPartyEffect[], lineOfItem: Map<number, number>) =>
  effects.map((e) => thirdPartyMovementDto(e, e.referenceLineId === undefined ? undefined : lineOfItem.get(e.referenceLineId)));

export async function confirmPreview(ctx: TenantContext, id: number) {
  const em = readerOf(ctx);
  const doc = await findAccessibleDocument(ctx, id, em);
  const draft = doc.status === 'DRAFT';
  const state = await loadDocumentState(em, doc);
  const match = draft ? await purchaseMatch(em, ctx, doc, state.computed.items, state.products) : null;
  const plan = buildConfirmPlan(state, ctx.actor, [...(match?.findings ?? []), ...(draft ? await inboundChecks(em, doc) : [])]);
  const { effects } = draft ? await previewPosting(em, plan.posting) : { effects: [] };
  const { effects: thirdPartyEffects } = draft ? await previewThirdPartyPosting(em, plan.thirdParty) : { effects: [] };
  return {
    entryDocumentId: encodeId('entry-document', doc.id),
    status: doc.status,
    version: doc.version,
    // What the lines will be booked as, under the filial's regime (a confirmed document shows its detail instead).
    taxRegime: draft ? state.fiscal.taxRegime : doc.taxRegime,
    lines: draft ? plan.booking.lines.map(lineBookingDto) : [],
    stockMovements: movementDtos(effects, plan.lineOfItem),
    thirdPartyStockMovements: thirdPartyMovementDtos(thirdPartyEffects, plan.lineOfItem),
    payableTotal: draft ? toJsonNumber(state.computed.payableTotal, 'amount') : null,
    payables: draft ? plan.payables.map(installmentDto) : [],
    taxCredits: draft ? plan.booking.credits.map(plannedCreditDto) : [],
    warnings: plan.warnings.map(checkDto),
    blockingProblems: plan.blocking.map(checkDto),
    purchaseMatch: match?.view ?? null,
  };
}

/** A conditional UPDATE missed: name the status it is in now, or the version that moved on. */
export async function transitionConflict(
  em: EntityManager,
  ctx: TenantContext,
  doc: EntryDocument,
  action: EntryDocumentAction,
): Promise<never> {
  const now = await findDocument(em, ctx.companyId, doc.id);
  if (!now) throw new NotFoundError('Entry document');
  if (now.status !== doc.status) throw forbidden(now, action);
  throw new StaleVersionError('Entry document', now.version);
}

/**
 * One transaction: the status flips DRAFT → CONFIRMED first (conditional on status and version, so a
 * concurrent confirm waits on the row and then finds nothing to update → 409), then the stock posts
 * through the ledger (one UPDATE + one INSERT), the payables go in with one INSERT, audit, event.
 * Answers with the confirmed document's detail (read after the commit) and the stock it moved.
 */
export async function confirmEntryDocument(ctx: TenantContext, id: number) {
  await findAccessibleDocument(ctx, id);
  const { doc, ...moved } = await inTransaction(ctx, async (em) => {
    const doc = await currentDocument(em, ctx, id);
    assertTransition(doc, 'confirm', 'CONFIRMED');
    const confirmedAt = new Date();
    // The period check (the entry date's month and today's, when the stock moves) travels with the UPDATE: no round trip of its own.
    const [updated, periodOpen] = await Promise.allSettled([
      updateIfCurrent(em, ctx.companyId, doc.id, { status: 'DRAFT', version: doc.version }, { status: 'CONFIRMED', confirmedAt }),
      assertPeriodOpen(em, ctx.companyId, doc.filialId, [doc.entryDate, confirmedAt]),
    ]);
    if (updated.status === 'rejected') throw updated.reason;
    if (periodOpen.status === 'rejected') throw periodOpen.reason;
    if (!updated.value) await transitionConflict(em, ctx, doc, 'confirm');
    const state = await loadDocumentState(em, doc);
    // Receipts against purchase orders, under the order lines' locks; a blocking finding rolls them back below.
    const plan = buildConfirmPlan(state, ctx.actor, [
      ...(await applyReceipts(em, ctx, receiptDocument(state))).findings,
      ...(await inboundChecks(em, doc)),
    ]);
    if (plan.blocking.length) {
      throw new BusinessRuleError(
        'ENTRY_DOCUMENT_NOT_CONFIRMABLE',
        `The document cannot be confirmed: ${plan.blocking.map((b) => b.code).join(', ')}`,
        {
          problems: plan.blocking.map(checkDto),
        },
      );
    }
    const effects = await postToLedger(em, plan.posting);
    const thirdPartyEffects = await postThirdPartyStock(em, plan.thirdParty);
    await createDocumentPayables(
      em,
      plan.payables.map((p) => ({
        companyId: doc.companyId,
        filialId: doc.filialId,
        entryDocumentId: doc.id,
        supplierId: doc.supplierId,
        supplierDocument: doc.supplierDocument,
        supplierName: doc.supplierName,
        documentNumber: doc.number,
        installmentNumber: p.number,
        issueDate: doc.issueDate,
        dueDate: p.dueDate,
        amount: p.amount,
        status: 'OPEN' as const,
        version: 1,
      })),
    );
    const { taxRegime } = state.fiscal;
    await insertTaxCredits(
      em,
      plan.booking.credits.map((c) => ({
        companyId: doc.companyId,
        filialId: doc.filialId,
        entryDocumentId: doc.id,
        tax: c.tax,
        base: c.base,
        amount: c.amount,
        taxRegime,
        entryDate: doc.entryDate,
        status: 'RECORDED' as const,
      })),
    );
    await recordBooking(em, ctx.companyId, doc.id, taxRegime, state.items, state.computed.items);
    // Fixed assets take no ICMS credit at entry: the CIAP records them, to credit in 48 monthly parts (LC 87/1996 art. 20 §5).
    const assetLines = fixedAssetLines(state);
    const assets = assetLines.length
      ? await fixedAssetCredits.get().recordAssets(
          em,
          ctx,
          {
            companyId: doc.companyId,
            filialId: doc.filialId,
            entryDocumentId: doc.id,
            documentNumber: doc.number,
            accessKey: doc.accessKey,
            supplierDocument: doc.supplierDocument,
            entryDate: doc.entryDate,
            taxRegime,
          },
          assetLines,
        )
      : 0;
    const confirmed = (await findDocument(em, ctx.companyId, doc.id))!;
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: doc.id,
      action: 'CONFIRMED',
      changes: { status: ['DRAFT', 'CONFIRMED'], taxRegime: [null, taxRegime] },
    });
    await publishEvent(em, ctx, {
      type: 'entry-document.confirmed',
      filialId: doc.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: doc.id,
      data: {
        ...toEventData(confirmed),
        movements: effects.length,
        thirdPartyMovements: thirdPartyEffects.length,
        payables: plan.payables.length,
        taxRegime,
        taxCredits: plan.booking.credits.map(plannedCreditDto),
        fixedAssets: assets,
      },
    });
    return {
      doc: confirmed,
      stockMovements: movementDtos(effects, plan.lineOfItem),
      thirdPartyStockMovements: thirdPartyMovementDtos(thirdPartyEffects, plan.lineOfItem),
    };
  });
  return { detail: await loadEntryDocumentDetail(ctx, doc.id), ...moved };
}
