import { LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { NotFoundError } from '../../core/errors';
import { TP_CANCELAMENTO, TP_CCE } from '../authority';
import { voidingId } from '../fiscal-xml';
import { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import { InvoiceSeries } from './entities/invoice-series.entity';
import { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import { gunzipText } from './invoice-store';
import { counterNotes } from './invoices.ports';
import { accessibleInvoice } from './query.service';

/*
 * The fiscal files besides the nfeProc that the issuer keeps and hands over (to the accountant, the
 * recipient, an inspection): the procEventoNFe of each event (the signed evento and the authority's
 * retEvento as it answered) and the procInutNFe of each voided range (inutNFe + retInutNFe), served
 * exactly as stored when the authority registered them.
 */

export interface FiscalFile {
  xml: string;
  fileName: string;
}

async function eventFile(ctx: TenantContext, id: number, type: string, sequence: number): Promise<FiscalFile> {
  const doc = await accessibleInvoice(ctx, id);
  const event = await readerOf(ctx).findOne(OutboundNfeEvent, {
    where: { companyId: ctx.companyId, outboundNfeId: doc.id, type: type as OutboundNfeEvent['type'], sequence },
    order: { id: 'DESC' },
  });
  if (!event) throw new NotFoundError('Invoice event', 'INVOICE_EVENT_NOT_FOUND');
  return { xml: gunzipText(event.xmlGz), fileName: `${doc.accessKey}-${type}-${String(sequence).padStart(2, '0')}-procEventoNFe.xml` };
}

/** GET /invoices/:id/cancellation/xml: the procEventoNFe of the cancellation (110111). */
export const cancellationFile = (ctx: TenantContext, id: number) => eventFile(ctx, id, TP_CANCELAMENTO, 1);

/** GET /invoices/:id/corrections/:sequence/xml: the procEventoNFe of one carta de correção (110110); every one is kept. */
export const correctionFile = (ctx: TenantContext, id: number, sequence: number) => eventFile(ctx, id, TP_CCE, sequence);

/**
 * GET /invoices/series/:seriesId/numbers/:number/xml: the procInutNFe that voided a number of the
 * série (a range through /invoices/void-numbers, or an NFC-e's online attempt the queue voided).
 */
export async function voidedNumberFile(ctx: TenantContext, seriesId: number, number: number): Promise<FiscalFile> {
  const em = readerOf(ctx);
  const series = await em.findOneBy(InvoiceSeries, { id: seriesId, companyId: ctx.companyId });
  if (!series) throw new NotFoundError('Invoice series', 'SERIES_NOT_FOUND');
  await assertFilialAccess(ctx, series.filialId);
  const row = await em.findOne(InvoiceNumberVoid, {
    where: {
      companyId: ctx.companyId,
      seriesId: series.id,
      status: 'VOIDED',
      firstNumber: LessThanOrEqual(number),
      lastNumber: MoreThanOrEqual(number),
    },
  });
  const xml = row?.xmlGz
    ? gunzipText(row.xmlGz)
    : series.model === 65
      ? await counterNotes.get().voidedNumberXml(em, ctx.companyId, series.id, number)
      : null;
  if (!xml) throw new NotFoundError('Voided number', 'NUMBER_NOT_VOIDED');
  const id = voidingId(xml) ?? `${series.model}-${series.series}-${number}`;
  return { xml, fileName: `${id}-procInutNFe.xml` };
}
