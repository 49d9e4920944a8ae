import { In } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { addCalendarDays, startOfBusinessDay } from '../../core/business-date';
import { normalizeDocument } from '../../core/br-documents';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { gunzipText, logoOfCompany } from '../outbound-nfe';
import { danfePdf } from './danfe';
import { NfceDocument, NfceStatus } from './entities/nfce-document.entity';
import { findNfce } from './issue.service';

/** One NFC-e of the tenant (404 otherwise) in a filial the token grants (403 otherwise). */
export async function getNfce(ctx: TenantContext, id: number): Promise<NfceDocument> {
  const doc = await findNfce(ctx.companyId, id, readerOf(ctx));
  await assertFilialAccess(ctx, doc.filialId);
  return doc;
}

/** The 80 mm DANFE PDF, with the company's logo over the issuer when it uploaded one (PUT /invoices/logo, the NF-e's too). */
export async function nfceDanfe(ctx: TenantContext, id: number): Promise<{ doc: NfceDocument; pdf: Buffer }> {
  const doc = await getNfce(ctx, id);
  const logo = await logoOfCompany(readerOf(ctx), ctx.companyId);
  return { doc, pdf: await danfePdf(doc, logo) };
}

/** The nfeProc once authorized, else the signed NFe as stored (what a contingency DANFE was printed from). */
export async function nfceXml(ctx: TenantContext, id: number): Promise<{ doc: NfceDocument; xml: string }> {
  const doc = await getNfce(ctx, id);
  return { doc, xml: gunzipText(doc.procXmlGz ?? doc.signedXmlGz) };
}

export interface NfceListQuery {
  status?: NfceStatus;
  issuedFrom?: string;
  issuedTo?: string;
  series?: number;
  number?: number;
  accessKey?: string;
  consumerDocument?: string;
  salesOrderId?: number;
  search?: string;
}

/** What a list row maps (the mapper's columns): no XML blob leaves the table for a page. */
const LIST_COLUMNS = Object.fromEntries(
  (
    [
      'id',
      'filialId',
      'salesOrderId',
      'series',
      'number',
      'accessKey',
      'onlineKey',
      'onlineNumber',
      'originalOutcome',
      'originalProtocol',
      'status',
      'emissionType',
      'contingencyAt',
      'contingencyReason',
      'issuedAt',
      'total',
      'consumerDocument',
      'qrCode',
      'consultUrl',
      'protocol',
      'authorizedAt',
      'cStat',
      'xMotivo',
      'version',
    ] as (keyof NfceDocument)[]
  ).map((k) => [k, true]),
);

/**
 * The filial's NFC-e, newest issue first (issued_at, id), by status, issue day range (São Paulo
 * calendar), série, number, key, consumer document or sale; `search` reads its digits as a key (44),
 * a valid CPF/CNPJ (11/14) or else a number.
 */
export async function listNfce(ctx: TenantContext, filialId: number, q: NfceListQuery & PageRequest): Promise<Page<NfceDocument>> {
  const em = readerOf(ctx);
  const qb = em.createQueryBuilder(NfceDocument, 'n').where('n.company_id = :c AND n.filial_id = :f', { c: ctx.companyId, f: filialId });
  if (q.status) qb.andWhere('n.status = :status', { status: q.status });
  if (q.issuedFrom) qb.andWhere('n.issued_at >= :from', { from: startOfBusinessDay(q.issuedFrom) });
  if (q.issuedTo) qb.andWhere('n.issued_at < :before', { before: startOfBusinessDay(addCalendarDays(q.issuedTo, 1)) });
  if (q.series !== undefined) qb.andWhere('n.series = :series', { series: q.series });
  if (q.number !== undefined) qb.andWhere('n.number = :number', { number: q.number });
  if (q.accessKey) qb.andWhere('n.access_key = :key', { key: q.accessKey });
  if (q.consumerDocument) qb.andWhere('n.consumer_document = :doc', { doc: q.consumerDocument });
  if (q.salesOrderId !== undefined) qb.andWhere('n.sales_order_id = :order', { order: q.salesOrderId });
  const term = q.search?.replace(/\D/g, '') ?? '';
  if (q.search?.trim()) {
    if (term.length === 44) qb.andWhere('n.access_key = :skey', { skey: term });
    else if ((term.length === 11 || term.length === 14) && normalizeDocument(term))
      qb.andWhere('n.consumer_document = :sdoc', { sdoc: term });
    else if (term.length > 0 && term.length <= 9) qb.andWhere('n.number = :snum', { snum: Number(term) });
    else qb.andWhere('1 = 0');
  }
  return paginate(
    qb,
    [
      { column: 'n.issued_at', direction: 'DESC' },
      { column: 'n.id', direction: 'DESC' },
    ],
    q,
    (ids) => em.find(NfceDocument, { select: LIST_COLUMNS, where: { companyId: ctx.companyId, id: In(ids) } }),
    (n) => n.id,
  );
}
