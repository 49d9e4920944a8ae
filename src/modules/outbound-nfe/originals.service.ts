import { EntityManager, In } from 'typeorm';
import type { ExternalSourceKind } from './document-sources';
import { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';
import { gunzipText } from './invoice-store';

/* Our NF-e as originals of a devolução (their nfeProc XML), and the documents a source issued. */

export interface AuthorizedOriginal {
  invoiceId: number;
  filialId: number;
  accessKey: string;
  salesOrderId: number | null;
  fulfillmentId: number | null;
  /** The sales-order line of each det (index nItem − 1); null on documents issued before it was kept. */
  itemSources: (number | null)[] | null;
  /** nfeProc (NFe + protNFe). */
  xml: string;
}

/** AUTHORIZED NF-e of the company, by sale and/or access key (another tenant's are never found). */
export async function authorizedInvoices(
  companyId: number,
  where: { salesOrderId?: number; accessKey?: string },
  em: EntityManager,
): Promise<AuthorizedOriginal[]> {
  if (where.salesOrderId === undefined && where.accessKey === undefined) return [];
  const rows = await em.find(OutboundNfe, {
    where: {
      companyId,
      status: 'AUTHORIZED',
      source: In(['FULFILLMENT', 'ORDER']),
      ...(where.salesOrderId !== undefined ? { salesOrderId: where.salesOrderId } : {}),
      ...(where.accessKey !== undefined ? { accessKey: where.accessKey } : {}),
    },
    order: { id: 'ASC' },
  });
  return rows
    .filter((r) => r.procXmlGz)
    .map((r) => ({
      invoiceId: r.id,
      filialId: r.filialId,
      accessKey: r.accessKey,
      salesOrderId: r.salesOrderId,
      fulfillmentId: r.fulfillmentId,
      itemSources: r.summary.itemSources ?? null,
      xml: gunzipText(r.procXmlGz!),
    }));
}

/** A sale's NF-e that may still be authorized: stored (SIGNED), sent without a verdict (SENT) or REJECTED (it may be corrected and sent again). */
export interface PendingOriginal {
  invoiceId: number;
  accessKey: string;
  series: number;
  number: number;
  status: OutboundNfeStatus;
}

/** NF-e billing the given sales that are not settled yet (SIGNED, SENT, REJECTED): a devolução of their units waits for them. */
export async function pendingInvoices(companyId: number, salesOrderIds: number[], em: EntityManager): Promise<PendingOriginal[]> {
  if (!salesOrderIds.length) return [];
  const rows = await em.find(OutboundNfe, {
    where: { companyId, status: In(['SIGNED', 'SENT', 'REJECTED']), source: In(['FULFILLMENT', 'ORDER']), salesOrderId: In(salesOrderIds) },
    select: { id: true, accessKey: true, series: true, number: true, status: true },
    order: { id: 'ASC' },
  });
  return rows.map((r) => ({ invoiceId: r.id, accessKey: r.accessKey, series: r.series, number: r.number, status: r.status }));
}

export interface SourceInvoice {
  invoiceId: number;
  status: OutboundNfeStatus;
  accessKey: string;
  series: number;
  number: number;
  live: boolean;
}

/** The documents issued for one source, newest first (`live`: holds the source's claim). */
export async function invoicesOfSource(
  companyId: number,
  kind: ExternalSourceKind,
  sourceIds: number[],
  em: EntityManager,
): Promise<Map<number, SourceInvoice[]>> {
  const out = new Map<number, SourceInvoice[]>();
  if (!sourceIds.length) return out;
  const rows = await em.find(OutboundNfe, {
    where: { companyId, source: kind, sourceId: In(sourceIds) },
    select: { id: true, sourceId: true, status: true, accessKey: true, series: true, number: true, claim: true },
    order: { id: 'DESC' },
  });
  for (const r of rows) {
    const list = out.get(r.sourceId!) ?? [];
    list.push({ invoiceId: r.id, status: r.status, accessKey: r.accessKey, series: r.series, number: r.number, live: r.claim !== null });
    out.set(r.sourceId!, list);
  }
  return out;
}
