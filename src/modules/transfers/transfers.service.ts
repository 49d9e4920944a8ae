import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { businessToday } from '../../core/business-date';
import type { ActorContext, TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, sum, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Product } from '../catalog';
import { computeFiscalDocument } from '../fiscal';
import { assertPeriodOpen } from '../fiscal-periods';
import {
  invoicesOfSource,
  issueInvoice,
  registerDocumentSource,
  SourceCancellation,
  SourceDocumentOutcome,
  SourceInvoice,
} from '../outbound-nfe';
import { lockForPosting, postToLedger, previewPosting, StockMovement } from '../stock';
import { Filial } from '../tenancy';
import { StockTransferItem } from './entities/stock-transfer-item.entity';
import { StockTransfer } from './entities/stock-transfer.entity';
import { findTransfer, heldUnits, insertTransfer, itemsOf, moveStatus } from './transfers.repository';
import { canDo, moveOf } from './transfers.state';

/*
 * Transfers between the company's filiais (issue 34 item 1, SPEC §2). The sending filial (x-filial-id)
 * makes the transfer: its units are checked against its stock — less what its transfers still being
 * issued hold — under the balances' locks, priced at its average cost, and its NF-e is issued through
 * invoices as the source TRANSFER (the tax engine gives CFOP 5152/6152, 5409/6409 for ST goods by the
 * tax group's TRANSFER rules; the recipient is the receiving filial). The invoices' hooks run in the
 * transaction that records the authority's answer: authorized → the stock leaves the sending filial at
 * its average cost; cancelled → it comes back at the cost it left at; rejected/denied/voided → the
 * units are no longer held. The receiving filial books the entry by importing the nfeProc (inbound
 * class TRANSFER: own stock at the transfer value, no payable).
 */

export const TRANSFER_REFERENCE = 'stock-transfer';
const AUDIT_ENTITY = 'stock-transfer';

export interface TransferInput {
  toFilialId: number;
  items: { productId: number; quantity: Dec }[];
  notes?: string | null;
}

export interface TransferDetail {
  transfer: StockTransfer;
  items: StockTransferItem[];
  invoices: SourceInvoice[];
}

const eventData = (t: StockTransfer) => ({
  transferId: encodeId('transfer', t.id),
  fromFilialId: encodeId('filial', t.fromFilialId),
  toFilialId: encodeId('filial', t.toFilialId),
  status: t.status,
  total: toJsonNumber(t.total, 'amount'),
});

/** Creates the transfer (units held at the sending filial) in one transaction. */
async function holdUnits(ctx: TenantContext, input: TransferInput): Promise<number> {
  const fromFilialId = ctx.filialId!;
  return inTransaction(ctx, async (em) => {
    // Made today (its units held, its NF-e issued now): refused while the sending filial's period is closed.
    await assertPeriodOpen(em, ctx.companyId, fromFilialId, new Date());
    const to = await em.findOneBy(Filial, { id: input.toFilialId, companyId: ctx.companyId });
    if (!to) throw new NotFoundError('Filial');
    if (to.id === fromFilialId) throw new BusinessRuleError('TRANSFER_SAME_FILIAL', 'A transfer goes to another filial of the company');
    const productIds = input.items.map((i) => i.productId);
    const products = await em.find(Product, { where: { companyId: ctx.companyId, id: In(productIds) }, select: { id: true } });
    if (products.length !== new Set(productIds).size) throw new NotFoundError('Product');
    // Under the balances' locks (MySQL; SQLite transactions are serialized): what the ledger has, less what other transfers hold.
    await lockForPosting(em, ctx.companyId, fromFilialId, productIds, { existingOnly: true });
    const held = await heldUnits(em, ctx.companyId, fromFilialId, productIds);
    const { effects, shortages } = await previewPosting(em, {
      companyId: ctx.companyId,
      filialId: fromFilialId,
      reason: 'TRANSFER_OUT',
      referenceType: TRANSFER_REFERENCE,
      referenceId: 0,
      allowNegative: false,
      lines: input.items.map((i) => ({
        productId: i.productId,
        direction: 'OUT' as const,
        quantity: i.quantity.plus(held.get(i.productId) ?? 0),
      })),
    });
    if (shortages.length) {
      throw new BusinessRuleError(
        'INSUFFICIENT_STOCK',
        'The sending filial does not have these units (its stock less what transfers being issued hold)',
        {
          shortages: shortages.map((s) => ({
            productId: encodeId('product', s.productId),
            available: toJsonNumber(s.available.minus(held.get(s.productId) ?? 0), 'quantity'),
            requested: toJsonNumber(s.requested.minus(held.get(s.productId) ?? 0), 'quantity'),
          })),
        },
      );
    }
    const items = input.items.map((i, idx) => {
      const unitCost = effects[idx].averageCostBefore;
      return {
        companyId: ctx.companyId,
        lineNumber: idx + 1,
        productId: i.productId,
        quantity: i.quantity,
        unitCost,
        total: i.quantity.times(unitCost).toDecimalPlaces(2),
      };
    });
    const total = sum(items.map((i) => i.total));
    const id = await insertTransfer(
      em,
      {
        companyId: ctx.companyId,
        fromFilialId,
        toFilialId: to.id,
        status: 'ISSUING',
        total,
        notes: input.notes ?? null,
        createdBy: ctx.actor,
      },
      items,
    );
    const created = (await findTransfer(em, ctx.companyId, id))!;
    await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'CREATED', changes: { status: [null, 'ISSUING'] } });
    await publishEvent(em, ctx, {
      type: 'transfer.created',
      filialId: fromFilialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: eventData(created),
    });
    return id;
  });
}

/** POST /transfers: the transfer and its NF-e (issued now; the answer decides what the stock does). */
export async function createTransfer(ctx: TenantContext, input: TransferInput, requestKey: string | null): Promise<TransferDetail> {
  const id = await holdUnits(ctx, input);
  try {
    await issueInvoice(ctx, { source: { kind: 'TRANSFER', id } }, requestKey);
  } catch (err) {
    // Refused before any document existed (fiscal data, certificate): the units are no longer held.
    const issued = (await invoicesOfSource(ctx.companyId, 'TRANSFER', [id], readerOf(ctx))).get(id) ?? [];
    if (!issued.length) await inTransaction(ctx, (em) => release(em, ctx, id, 'not issued'));
    throw err;
  }
  return transferDetail(ctx, id);
}

export async function transferDetail(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<TransferDetail> {
  const transfer = await findTransfer(em, ctx.companyId, id);
  if (!transfer) throw new NotFoundError('Transfer', 'TRANSFER_NOT_FOUND');
  const granted =
    ctx.grantedFiliais === '*' || [transfer.fromFilialId, transfer.toFilialId].some((f) => (ctx.grantedFiliais as number[]).includes(f));
  if (!granted) throw new NotFoundError('Transfer', 'TRANSFER_NOT_FOUND');
  const [items, invoices] = await Promise.all([itemsOf(em, ctx.companyId, id), invoicesOfSource(ctx.companyId, 'TRANSFER', [id], em)]);
  return { transfer, items, invoices: invoices.get(id) ?? [] };
}

async function release(em: EntityManager, ctx: ActorContext, id: number, why: string): Promise<void> {
  const { from, to } = moveOf('release');
  if (!(await moveStatus(em, ctx.companyId, id, from, { status: to }))) return;
  const t = (await findTransfer(em, ctx.companyId, id))!;
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'RELEASED', changes: { status: [from, to] } });
  await publishEvent(em, ctx, {
    type: 'transfer.released',
    filialId: t.fromFilialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: id,
    data: { ...eventData(t), reason: why },
  });
}

/** Authorized: the units leave the sending filial at its average cost, in the recording transaction. */
async function onAuthorized(em: EntityManager, ctx: ActorContext, o: SourceDocumentOutcome): Promise<void> {
  const { from, to } = moveOf('authorize');
  if (!(await moveStatus(em, ctx.companyId, o.sourceId, from, { status: to, authorizedAt: o.authorizedAt ?? new Date() }))) return;
  const t = (await findTransfer(em, ctx.companyId, o.sourceId))!;
  const items = await itemsOf(em, ctx.companyId, t.id);
  // The units were held for this document since the transfer was made: the authorized NF-e is the fact, the ledger follows it.
  await postToLedger(em, {
    companyId: ctx.companyId,
    filialId: t.fromFilialId,
    reason: 'TRANSFER_OUT',
    referenceType: TRANSFER_REFERENCE,
    referenceId: t.id,
    actor: ctx.actor,
    allowNegative: true,
    lines: items.map((i) => ({ productId: i.productId, direction: 'OUT' as const, quantity: i.quantity, referenceLineId: i.id })),
  });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: t.id,
    action: 'AUTHORIZED',
    changes: { status: [from, to], accessKey: [null, o.accessKey] },
  });
  await publishEvent(em, ctx, {
    type: 'transfer.authorized',
    filialId: t.fromFilialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: t.id,
    data: { ...eventData(t), invoiceId: encodeId('invoice', o.invoiceId), accessKey: o.accessKey },
  });
}

/** Cancelled (110111 registered): the units come back to the sending filial at the cost they left at. */
async function onCancelled(em: EntityManager, ctx: ActorContext, c: SourceCancellation): Promise<void> {
  if (c.cancelProtocol === null) return;
  const { from, to } = moveOf('cancel');
  if (!(await moveStatus(em, ctx.companyId, c.sourceId, from, { status: to, cancelledAt: new Date() }))) return;
  const t = (await findTransfer(em, ctx.companyId, c.sourceId))!;
  const out = await em.find(StockMovement, {
    where: { companyId: ctx.companyId, referenceType: TRANSFER_REFERENCE, referenceId: t.id, direction: 'OUT' },
    order: { id: 'ASC' },
  });
  await postToLedger(em, {
    companyId: ctx.companyId,
    filialId: t.fromFilialId,
    reason: 'TRANSFER_CANCELLED',
    referenceType: TRANSFER_REFERENCE,
    referenceId: t.id,
    actor: ctx.actor,
    lines: out.map((m) => ({ productId: m.productId, direction: 'IN' as const, quantity: m.quantity.abs(), unitCost: m.unitCost })),
  });
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: t.id, action: 'CANCELLED', changes: { status: [from, to] } });
  await publishEvent(em, ctx, {
    type: 'transfer.cancelled',
    filialId: t.fromFilialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: t.id,
    data: { ...eventData(t), invoiceId: encodeId('invoice', c.invoiceId), justification: c.justification },
  });
}

registerDocumentSource({
  kind: 'TRANSFER',
  async load(ctx: TenantContext, id: number, em: EntityManager, date: string) {
    const t = await findTransfer(em, ctx.companyId, id);
    if (!t) throw new NotFoundError('Transfer', 'TRANSFER_NOT_FOUND');
    // The document-source contract answers 422 here (the invoice route's problem), not the table's 409.
    if (!canDo(t, 'issue'))
      throw new BusinessRuleError('TRANSFER_NOT_ISSUABLE', `The transfer is ${t.status}: make a new transfer`, { status: t.status });
    const items = await itemsOf(em, ctx.companyId, id);
    const document = await computeFiscalDocument(
      ctx,
      {
        filialId: t.fromFilialId,
        customerId: null,
        recipientFilialId: t.toFilialId,
        operation: 'TRANSFER',
        model: 55,
        date: date || businessToday(),
        finalConsumer: false,
        items: items.map((i) => ({ productId: i.productId, quantity: i.quantity, unitPrice: i.unitCost })),
      },
      em,
    );
    return {
      filialId: t.fromFilialId,
      customerId: null,
      salesOrderId: null,
      document,
      notes: t.notes ? `Transferencia entre filiais: ${t.notes}` : 'Transferencia entre filiais',
    };
  },
  onAuthorized,
  onCancelled,
  onReleased: (em, ctx, o) => release(em, ctx, o.sourceId, o.status),
});
