import zlib from 'node:zlib';
import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { AuthorityClient, Contingency, Signer, signerOf } from '../authority';
import { issuerTarget, loadCredentials, loadFilial, tpAmbOf } from '../sefaz';
import type { Filial } from '../tenancy';
import { sourceIdOf } from './document-sources';
import { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';

/* What every use case of outbound NF-e shares: reading a document, its status change with audit and event, the filial's signer and client. */

/** Stored XML: fastest gzip level (the bytes are written once and read rarely); a document is a few KB, so an 8 KB window compresses it as well and allocates a sixth of the default state per call. */
export const gz = (s: string) => zlib.gzipSync(Buffer.from(s, 'utf8'), { level: 1, windowBits: 13, memLevel: 6, chunkSize: 8192 });
export const gunzipText = (b: Buffer) => zlib.gunzipSync(b).toString('utf8');

export async function findInvoice(companyId: number, id: number, em: EntityManager): Promise<OutboundNfe> {
  const doc = await em.findOneBy(OutboundNfe, { id, companyId });
  if (!doc) throw new NotFoundError('Invoice', 'INVOICE_NOT_FOUND');
  return doc;
}

export const docEvent = (doc: OutboundNfe, extra: Record<string, unknown> = {}) => ({
  invoiceId: encodeId('invoice', doc.id),
  filialId: encodeId('filial', doc.filialId),
  salesOrderId: doc.salesOrderId === null ? null : encodeId('sales-order', doc.salesOrderId),
  fulfillmentId: doc.fulfillmentId === null ? null : encodeId('fulfillment', doc.fulfillmentId),
  source: doc.source,
  sourceId: sourceIdOf(doc),
  accessKey: doc.accessKey,
  series: doc.series,
  number: doc.number,
  status: doc.status,
  total: Number(doc.total.toFixed(2)),
  ...extra,
});

/** A conditional status change (status and version as read) with its audit row and event, in one transaction. */
export async function transition(
  ctx: ActorContext,
  doc: OutboundNfe,
  to: OutboundNfeStatus,
  fields: Partial<OutboundNfe>,
  event: string | null,
  em?: EntityManager,
  eventData: Record<string, unknown> = {},
): Promise<OutboundNfe> {
  const work = async (tx: EntityManager) => {
    const r = await tx
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ ...fields, status: to, version: () => 'version + 1' } as never)
      .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', {
        id: doc.id,
        companyId: doc.companyId,
        status: doc.status,
        version: doc.version,
      })
      .execute();
    if (!r.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The NF-e changed concurrently; retry');
    const after = await tx.findOneByOrFail(OutboundNfe, { id: doc.id, companyId: doc.companyId });
    const visible = (d: OutboundNfe) => ({
      status: d.status,
      cStat: d.cStat,
      protocol: d.protocol,
      accessKey: d.accessKey,
      emissionType: d.emissionType,
      correctionSequence: d.correctionSequence,
    });
    await recordAudit(tx, ctx, {
      entity: 'invoice',
      entityId: doc.id,
      action: to === doc.status ? 'UPDATED' : to,
      changes: diff(visible(doc), visible(after)),
    });
    if (event)
      await publishEvent(tx, ctx, {
        type: event,
        filialId: doc.filialId,
        aggregateType: 'invoice',
        aggregateId: doc.id,
        data: docEvent(after, { cStat: after.cStat, xMotivo: after.xMotivo, protocol: after.protocol, ...eventData }),
      });
    return after;
  };
  return em ? work(em) : inTransaction(ctx, work);
}

export interface FilialSigning {
  filial: Filial;
  signer: Signer;
  tpAmb: '1' | '2';
  credentials: Awaited<ReturnType<typeof loadCredentials>>;
}

/** The filial, its certificate (422 when missing, expired or of another CNPJ) and its signer. */
export async function filialSigning(companyId: number, filialId: number): Promise<FilialSigning> {
  const filial = await loadFilial(companyId, filialId, readerOf(NO_UNIT));
  const credentials = await loadCredentials(filial);
  return { filial, credentials, signer: signerOf(credentials.keyPem, credentials.certPem), tpAmb: tpAmbOf(filial) };
}

export async function clientOf(s: FilialSigning, contingency: Contingency | null): Promise<AuthorityClient> {
  return new AuthorityClient({ issuer: await issuerTarget(s.filial, contingency), credentials: s.credentials, tpAmb: s.tpAmb });
}
