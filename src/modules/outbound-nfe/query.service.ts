import { In } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { BusinessRuleError } from '../../core/errors';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { addCalendarDays, startOfBusinessDay } from '../../core/business-date';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import type { InvoiceListFilters } from './invoices.schemas';
import { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import { invoiceDanfe } from './danfe.service';
import { findInvoice, gunzipText } from './invoice-store';

/* Reads of outbound NF-e: list per filial (two-phase), detail with events, the nfeProc XML and the DANFE. */

export async function listInvoices(
  ctx: TenantContext,
  filialId: number,
  query: PageRequest & InvoiceListFilters,
): Promise<Page<OutboundNfe>> {
  const em = readerOf(ctx);
  const qb = em.createQueryBuilder(OutboundNfe, 'n').where('n.company_id = :c AND n.filial_id = :f', { c: ctx.companyId, f: filialId });
  if (query.status) qb.andWhere('n.status = :s', { s: query.status });
  // Issue days are São Paulo calendar days (core/business-date).
  if (query.issuedFrom) qb.andWhere('n.issued_at >= :from', { from: startOfBusinessDay(query.issuedFrom) });
  if (query.issuedTo) qb.andWhere('n.issued_at < :before', { before: startOfBusinessDay(addCalendarDays(query.issuedTo, 1)) });
  if (query.series !== undefined) qb.andWhere('n.series = :series', { series: query.series });
  if (query.number !== undefined) qb.andWhere('n.number = :number', { number: query.number });
  if (query.accessKey) qb.andWhere('n.access_key = :key', { key: query.accessKey });
  if (query.customerId !== undefined) qb.andWhere('n.customer_id = :customer', { customer: query.customerId });
  if (query.salesOrderId !== undefined) qb.andWhere('n.sales_order_id = :order', { order: query.salesOrderId });
  return paginate(
    qb,
    [{ column: 'n.id', direction: 'DESC' }],
    query,
    (ids) => em.find(OutboundNfe, { where: { companyId: ctx.companyId, id: In(ids) } }),
    (n) => n.id,
  );
}

/** A document of the caller's company (else 404) in a filial the token grants (else 403). */
export async function accessibleInvoice(ctx: TenantContext, id: number): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  return doc;
}

export async function invoiceDetail(ctx: TenantContext, id: number): Promise<{ doc: OutboundNfe; events: OutboundNfeEvent[] }> {
  const doc = await accessibleInvoice(ctx, id);
  const events = await readerOf(ctx).find(OutboundNfeEvent, {
    where: { companyId: ctx.companyId, outboundNfeId: id },
    order: { id: 'ASC' },
  });
  return { doc, events };
}

/** The nfeProc (authorized, denied or cancelled); before the authority's answer, 422 INVOICE_XML_NOT_AVAILABLE (the signed NFe is not a legal document yet). */
export async function invoiceXml(ctx: TenantContext, id: number): Promise<{ doc: OutboundNfe; xml: string }> {
  const doc = await accessibleInvoice(ctx, id);
  if (!doc.procXmlGz) throw new BusinessRuleError('INVOICE_XML_NOT_AVAILABLE', `The NF-e is ${doc.status}: there is no authorized nfeProc`);
  return { doc, xml: gunzipText(doc.procXmlGz) };
}

export async function invoicePdf(ctx: TenantContext, id: number): Promise<{ doc: OutboundNfe; pdf: Buffer }> {
  const doc = await accessibleInvoice(ctx, id);
  if (!doc.procXmlGz || (doc.status !== 'AUTHORIZED' && doc.status !== 'CANCELLED'))
    throw new BusinessRuleError('INVOICE_XML_NOT_AVAILABLE', `The NF-e is ${doc.status}: a DANFE exists only for an authorized NF-e`);
  return { doc, pdf: await invoiceDanfe(doc) };
}
