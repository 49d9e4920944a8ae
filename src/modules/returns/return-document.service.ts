import { EntityManager, In, LessThan } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { businessToday } from '../../core/business-date';
import type { ActorContext, TenantContext } from '../../core/context';
import { Dec, sum, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { sqlNow } from '../../core/db/sql-time';
import { Product } from '../catalog';
import type { ComputedFiscalDocument } from '../fiscal';
import { buildReturnDocument, loadFiscalIssuer, loadFiscalRecipient, totalsOf } from '../fiscal';
import { authorizedInvoices, registerDocumentSource, SourceCancellation, SourceDocumentOutcome } from '../outbound-nfe';
import { authorizedNoteOfSale } from '../nfce';
import type { ParsedNfe } from '../fiscal-xml';
import { parseNfe } from '../fiscal-xml';
import { getFilialFiscalProfile } from '../tenancy';
import { FiscalOrigin, SalesReturnItem } from './entities/sales-return-item.entity';
import { ReturnCreditTax, SalesReturnTaxCredit } from './entities/sales-return-tax-credit.entity';
import { SalesReturn } from './entities/sales-return.entity';

/*
 * The customer return's fiscal side (SPEC §8, §12.4): the returned units are traced to the lines of
 * the sale's authorized NF-e/NFC-e (their "fiscal origins", fixed when the return is registered), our
 * entry NF-e de devolução is built from those originals (values and taxes in proportion) and issued
 * through invoices as the source CUSTOMER_RETURN. The original sale's taxes come back as credits when
 * the devolução is authorized (or the customer's own devolução is imported), by the filial's regime:
 * ICMS outside the Simples Nacional, PIS/COFINS in the non-cumulative regime only (Lei 10.833/2003
 * art. 3 VIII; Lei 10.637/2002 art. 3 VIII), IPI for an industrial filial. Cancelling our devolução
 * reverses the credits; the return itself (stock, receivables) stands and may get a new document.
 */

export interface OriginalDocument {
  accessKey: string;
  parsed: ParsedNfe;
  /** det index → sales-order line (our NF-e keeps it); null: matched by product code and price. */
  itemSources: (number | null)[] | null;
}

/** The authorized NF-e and NFC-e of the given sales, parsed. */
export async function originalsOfSales(companyId: number, salesOrderIds: number[], em: EntityManager): Promise<OriginalDocument[]> {
  const out: OriginalDocument[] = [];
  for (const salesOrderId of [...new Set(salesOrderIds)]) {
    for (const inv of await authorizedInvoices(companyId, { salesOrderId }, em))
      out.push({ accessKey: inv.accessKey, parsed: await parseNfe(inv.xml), itemSources: inv.itemSources });
    const note = await authorizedNoteOfSale(companyId, salesOrderId, em);
    if (note) out.push({ accessKey: note.accessKey, parsed: await parseNfe(note.xml), itemSources: null });
  }
  return out;
}

export interface SoldLine {
  id: number;
  salesOrderId: number;
  productId: number;
  unitPrice: Dec;
}

/** The original lines that invoiced a sales-order line, in document order. */
async function candidatesOf(line: SoldLine, originals: OriginalDocument[], codes: Map<number, string>) {
  const out: { accessKey: string; lineNumber: number; quantity: Dec }[] = [];
  for (const o of originals) {
    o.parsed.items.forEach((item, idx) => {
      const bySource = o.itemSources
        ? o.itemSources[idx] === line.id
        : item.code === codes.get(line.productId) && item.unitPrice.eq(line.unitPrice);
      if (bySource) out.push({ accessKey: o.accessKey, lineNumber: item.lineNumber, quantity: item.quantity });
    });
  }
  return out;
}

/** Quantities of each original line already returned by other returns (key|nItem → quantity). */
function returnedByOrigin(items: SalesReturnItem[]): Map<string, Dec> {
  const m = new Map<string, Dec>();
  for (const i of items)
    for (const o of i.fiscalOrigins ?? [])
      m.set(`${o.accessKey}|${o.lineNumber}`, (m.get(`${o.accessKey}|${o.lineNumber}`) ?? new Dec(0)).plus(o.quantity));
  return m;
}

/**
 * Traces `quantity` units of each line to the original documents' lines with units not yet returned
 * (first documents first); units beyond them were sold without a document of ours and carry none.
 */
export async function allocateOrigins(
  em: EntityManager,
  companyId: number,
  lines: { line: SoldLine; quantity: Dec }[],
  originals: OriginalDocument[],
): Promise<Map<number, FiscalOrigin[]>> {
  const out = new Map<number, FiscalOrigin[]>();
  if (!originals.length) return out;
  const products = await em.find(Product, {
    where: { companyId, id: In(lines.map((l) => l.line.productId)) },
    select: { id: true, code: true },
  });
  const codes = new Map(products.map((p) => [p.id, p.code]));
  const earlier = await em.find(SalesReturnItem, { where: { companyId, salesOrderItemId: In(lines.map((l) => l.line.id)) } });
  const used = returnedByOrigin(earlier);
  for (const { line, quantity } of lines) {
    let left = quantity;
    const origins: FiscalOrigin[] = [];
    for (const c of await candidatesOf(line, originals, codes)) {
      if (left.lte(0)) break;
      const key = `${c.accessKey}|${c.lineNumber}`;
      const free = c.quantity.minus(used.get(key) ?? 0);
      if (free.lte(0)) continue;
      const take = Dec.min(free, left);
      origins.push({ accessKey: c.accessKey, lineNumber: c.lineNumber, quantity: take.toString() });
      used.set(key, (used.get(key) ?? new Dec(0)).plus(take));
      left = left.minus(take);
    }
    if (origins.length) out.set(line.id, origins);
  }
  return out;
}

/** Concatenates the devoluções built per original into one document (lines renumbered, totals summed, every key referenced). */
function merge(parts: ComputedFiscalDocument[]): ComputedFiscalDocument {
  if (parts.length === 1) return parts[0];
  const items = parts.flatMap((p) => p.items).map((i, n) => ({ ...i, lineNumber: n + 1 }));
  return { ...parts[0], items, totals: totalsOf(items, parts[0].issueDate), references: parts.flatMap((p) => p.references ?? []) };
}

async function loadReturn(companyId: number, returnId: number, em: EntityManager) {
  const ret = await em.findOneBy(SalesReturn, { id: returnId, companyId });
  if (!ret) throw new NotFoundError('Return');
  const items = await em.find(SalesReturnItem, { where: { companyId, returnId }, order: { id: 'ASC' } });
  return { ret, items };
}

/** Our entry devolução of a return, from the originals its units trace to. */
export async function returnDocumentOf(
  ctx: ActorContext,
  returnId: number,
  em: EntityManager,
  date: string,
): Promise<{ ret: SalesReturn; document: ComputedFiscalDocument }> {
  const { ret, items } = await loadReturn(ctx.companyId, returnId, em);
  if (ret.origin === 'IMPORTED')
    throw new BusinessRuleError(
      'RETURN_DOCUMENT_BY_CUSTOMER',
      'The customer issued this devolução himself (imported): no document of ours is issued for it',
    );
  const traced = items.filter((i) => i.fiscalOrigins?.length);
  if (!traced.length)
    throw new BusinessRuleError(
      'RETURN_WITHOUT_FISCAL_DOCUMENT',
      'The returned goods were sold without an NF-e or NFC-e of ours: there is nothing to reference',
    );
  const keys = [...new Set(traced.flatMap((i) => i.fiscalOrigins!.map((o) => o.accessKey)))];
  const originals = (
    await originalsOfSales(
      ctx.companyId,
      traced.map((i) => i.salesOrderId),
      em,
    )
  ).filter((o) => keys.includes(o.accessKey));
  const missing = keys.filter((k) => !originals.some((o) => o.accessKey === k));
  if (missing.length)
    throw new BusinessRuleError(
      'ORIGINAL_NOT_AUTHORIZED',
      `The original document ${missing.join(', ')} is no longer authorized (cancelled?)`,
      { accessKeys: missing },
    );
  // Earlier returns (lower id) of the same lines: the cumulative shares stay the same on every rebuild.
  const earlier = await em.find(SalesReturnItem, {
    where: { companyId: ctx.companyId, salesOrderItemId: In(traced.map((i) => i.salesOrderItemId)), returnId: LessThan(ret.id) },
  });
  const before = returnedByOrigin(earlier);
  const [issuer, recipient] = await Promise.all([loadFiscalIssuer(ctx, ret.filialId, em), loadFiscalRecipient(ctx, ret.customerId, em)]);
  const parts = originals.map((original) => {
    const lines = traced.flatMap((i) =>
      i
        .fiscalOrigins!.filter((o) => o.accessKey === original.accessKey)
        .map((o) => ({
          lineNumber: o.lineNumber,
          quantity: o.quantity,
          alreadyReturned: before.get(`${o.accessKey}|${o.lineNumber}`) ?? 0,
          productId: i.productId,
          salesOrderItemId: i.salesOrderItemId,
        })),
    );
    return buildReturnDocument({ original: original.parsed, side: 'SALE', issuer, recipient, lines, date });
  });
  return { ret, document: merge(parts) };
}

const ROUND = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** The taxes a devolução gives back, before the regime decides which are credits. */
export interface ReturnedTaxes {
  icmsBase: Dec;
  icms: Dec;
  ipi: Dec;
  pisBase: Dec;
  pis: Dec;
  cofinsBase: Dec;
  cofins: Dec;
}

export const taxesOfDocument = (d: ComputedFiscalDocument): ReturnedTaxes => ({
  icmsBase: d.totals.vBC,
  icms: d.totals.vICMS,
  ipi: d.totals.vIPI.plus(d.totals.vIPIDevol),
  pisBase: sum(d.items.map((i) => i.pis.base)),
  pis: d.totals.vPIS,
  cofinsBase: sum(d.items.map((i) => i.cofins.base)),
  cofins: d.totals.vCOFINS,
});

/** The credits of returned taxes by the filial's regime (amounts > 0 only). */
export async function creditsOf(
  em: EntityManager,
  companyId: number,
  filialId: number,
  t: ReturnedTaxes,
): Promise<{ regime: string; rows: { tax: ReturnCreditTax; base: Dec; amount: Dec }[] }> {
  const profile = await getFilialFiscalProfile(em, companyId, filialId);
  if (!profile) throw new NotFoundError('Filial');
  const { taxRegime: regime, industrial } = profile.filial;
  const rows: { tax: ReturnCreditTax; base: Dec; amount: Dec }[] = [];
  if (regime !== 'SIMPLES_NACIONAL') rows.push({ tax: 'ICMS', base: t.icmsBase, amount: t.icms });
  if (regime === 'LUCRO_REAL')
    rows.push({ tax: 'PIS', base: t.pisBase, amount: t.pis }, { tax: 'COFINS', base: t.cofinsBase, amount: t.cofins });
  if (regime !== 'SIMPLES_NACIONAL' && industrial) rows.push({ tax: 'IPI', base: new Dec(0), amount: t.ipi });
  return { regime, rows: rows.filter((r) => r.amount.gt(0)).map((r) => ({ ...r, base: ROUND(r.base), amount: ROUND(r.amount) })) };
}

/** Records the credits of a return's devolução document (ours authorized, or the customer's imported). */
export async function recordReturnCredits(
  em: EntityManager,
  ctx: ActorContext,
  ret: { id: number; filialId: number },
  accessKey: string,
  taxes: ReturnedTaxes,
): Promise<{ tax: ReturnCreditTax; amount: Dec }[]> {
  const { regime, rows } = await creditsOf(em, ctx.companyId, ret.filialId, taxes);
  const entryDate = businessToday();
  if (rows.length) {
    await em.insert(
      SalesReturnTaxCredit,
      rows.map((r) => ({
        companyId: ctx.companyId,
        filialId: ret.filialId,
        returnId: ret.id,
        accessKey,
        tax: r.tax,
        base: r.base,
        amount: r.amount,
        taxRegime: regime,
        entryDate,
        status: 'RECORDED' as const,
        reversedAt: null,
      })),
    );
  }
  return rows;
}

const creditsJson = (rows: { tax: ReturnCreditTax; amount: Dec }[]) =>
  rows.map((r) => ({ tax: r.tax, amount: toJsonNumber(r.amount, 'amount') }));

async function onAuthorized(em: EntityManager, ctx: ActorContext, o: SourceDocumentOutcome): Promise<void> {
  const { ret, document } = await returnDocumentOf(ctx, o.sourceId, em, businessToday());
  const rows = await recordReturnCredits(em, ctx, ret, o.accessKey, taxesOfDocument(document));
  await recordAudit(em, ctx, {
    entity: 'return',
    entityId: ret.id,
    action: 'DOCUMENT_AUTHORIZED',
    changes: { document: [null, o.accessKey], credits: [null, rows.map((r) => `${r.tax} ${r.amount.toFixed(2)}`).join(', ')] },
  });
  await publishEvent(em, ctx, {
    type: 'return.document-authorized',
    filialId: ret.filialId,
    aggregateType: 'return',
    aggregateId: ret.id,
    data: {
      returnId: encodeId('return', ret.id),
      invoiceId: encodeId('invoice', o.invoiceId),
      accessKey: o.accessKey,
      series: o.series,
      number: o.number,
      total: toJsonNumber(o.total, 'amount'),
      credits: creditsJson(rows),
    },
  });
}

async function onCancelled(em: EntityManager, ctx: ActorContext, c: SourceCancellation): Promise<void> {
  const ret = await em.findOneBy(SalesReturn, { id: c.sourceId, companyId: ctx.companyId });
  if (!ret) throw new NotFoundError('Return');
  const reversed = await em
    .createQueryBuilder()
    .update(SalesReturnTaxCredit)
    .set({ status: 'REVERSED', reversedAt: () => sqlNow() } as never)
    .where('company_id = :companyId AND return_id = :returnId AND access_key = :accessKey AND status = :status', {
      companyId: ctx.companyId,
      returnId: ret.id,
      accessKey: c.accessKey,
      status: 'RECORDED',
    })
    .execute();
  if (c.cancelProtocol === null) return; // the dry run before the event is sent: nothing refuses it
  await recordAudit(em, ctx, {
    entity: 'return',
    entityId: ret.id,
    action: 'DOCUMENT_CANCELLED',
    changes: { document: [c.accessKey, null], creditsReversed: [null, String(reversed.affected ?? 0)] },
  });
  await publishEvent(em, ctx, {
    type: 'return.document-cancelled',
    filialId: ret.filialId,
    aggregateType: 'return',
    aggregateId: ret.id,
    data: {
      returnId: encodeId('return', ret.id),
      invoiceId: encodeId('invoice', c.invoiceId),
      accessKey: c.accessKey,
      justification: c.justification,
      creditsReversed: reversed.affected ?? 0,
    },
  });
}

registerDocumentSource({
  kind: 'CUSTOMER_RETURN',
  async load(ctx: TenantContext, returnId: number, em: EntityManager, date: string) {
    const { ret, document } = await returnDocumentOf(ctx, returnId, em, date);
    const firstOrder = (await em.findOne(SalesReturnItem, { where: { companyId: ctx.companyId, returnId }, order: { id: 'ASC' } }))!
      .salesOrderId;
    return {
      filialId: ret.filialId,
      customerId: ret.customerId,
      salesOrderId: firstOrder,
      document,
      notes: `Devolucao ${ret.code}: ${ret.reason}`,
    };
  },
  onAuthorized,
  onCancelled,
});

/** The return's recorded credits (RECORDED and REVERSED). */
export function creditsOfReturns(em: EntityManager, companyId: number, returnIds: number[]): Promise<SalesReturnTaxCredit[]> {
  if (!returnIds.length) return Promise.resolve([]);
  return em.find(SalesReturnTaxCredit, { where: { companyId, returnId: In(returnIds) }, order: { id: 'ASC' } });
}
