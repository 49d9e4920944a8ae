import zlib from 'node:zlib';
import { Counter } from 'prom-client';
import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { invoicesConfig } from '../../core/config/invoices';
import { DeferredWriteFailed } from '../../core/db/db-errors';
import { deferInsertRows } from '../../core/db/sql';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { allocateId } from '../../core/sequence/ids';
import { ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { registry } from '../../core/metrics';
import { publishEvent } from '../../core/outbox/outbox.service';
import { AuthorityClient, Contingency, Signer, signerOf } from '../authority';
import { issuerTarget, loadCredentials, loadFilial, tpAmbOf } from '../sefaz';
import type { Filial } from '../tenancy';
import { sourceIdOf } from './document-sources';
import { OutboundNfe, OutboundNfeStatus } from './entities/outbound-nfe.entity';

/* What every use case of outbound NF-e shares: reading a document, its status change with audit and event, its lease, the filial's signer and client. */

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

/** The authorizer the document was signed for: its own authority, or SVC-AN / SVC-RS in contingency (tpEmis 6/7). */
export const authorizerOfDocument = (doc: Pick<OutboundNfe, 'emissionType'>): Contingency | null =>
  doc.emissionType === 6 ? 'SVC-AN' : doc.emissionType === 7 ? 'SVC-RS' : null;

/** Takes (or keeps) the lease on a document; false when another holder's lease is still running. */
export async function takeLease(companyId: number, id: number, owner: string): Promise<boolean> {
  const now = new Date();
  const r = await inTransaction(NO_UNIT, (em) =>
    em
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + invoicesConfig.leaseMs) })
      .where('id = :id AND company_id = :companyId AND (lease_owner IS NULL OR lease_owner = :owner OR lease_until < :now)', {
        id,
        companyId,
        owner,
        now,
      })
      .execute(),
  );
  return !!r.affected;
}

export async function releaseLease(companyId: number, id: number, owner: string): Promise<void> {
  await inTransaction(NO_UNIT, (em) =>
    em
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ leaseOwner: null, leaseUntil: null })
      .where('id = :id AND company_id = :companyId AND lease_owner = :owner', { id, companyId, owner })
      .execute(),
  );
}

/** AUTHORIZED documents whose email is due and not leased, oldest first (index ix_outbound_nfe_delivery): the delivery pass's work. */
export function dueEmails({ limit = 20, now = new Date(), companyId }: { limit?: number; now?: Date; companyId?: number }) {
  const qb = readerOf(NO_UNIT)
    .createQueryBuilder(OutboundNfe, 'd')
    .select(['d.id', 'd.companyId'])
    .where("d.status = 'AUTHORIZED' AND d.email_status = 'PENDING'")
    .andWhere('(d.lease_until IS NULL OR d.lease_until < :now)', { now })
    .orderBy('d.id', 'ASC')
    .limit(limit);
  if (companyId !== undefined) qb.andWhere('d.company_id = :companyId', { companyId });
  return qb.getMany();
}

/** The contingency document that replaced this first attempt, if any. */
export function contingencyDocumentOf(doc: OutboundNfe): Promise<OutboundNfe | null> {
  return readerOf(NO_UNIT).findOneBy(OutboundNfe, { companyId: doc.companyId, contingencyOf: doc.id });
}

/**
 * Written with an authorization (same transaction): the email to the recipient is due. The delivery
 * pass (delivery.service.ts) sends it after the commit, so a crash between the verdict and the email
 * still sends it; without an address nothing is due.
 */
export const deliveryDue = (doc: Pick<OutboundNfe, 'summary'>): Partial<OutboundNfe> =>
  doc.summary.recipientEmail ? { emailStatus: 'PENDING', emailTo: doc.summary.recipientEmail.slice(0, 150) } : {};

const unsettled = new Counter({
  name: 'backoffice_nfe_attempts_without_verdict_total',
  help: 'Exchanges with the tax authority about an outbound NF-e that ended without a verdict, by outcome',
  labelNames: ['outcome'],
  registers: [registry],
});

export type AttemptOutcome = 'no-answer' | 'down' | 'first-attempt-pending';

/** Records the last exchange without a verdict on the document (outside its state machine: no version change), logs and counts it. */
export async function noteAttempt(ctx: ActorContext, doc: OutboundNfe, outcome: AttemptOutcome, error: string): Promise<OutboundNfe> {
  const at = new Date();
  const text = error.slice(0, 255);
  await inTransaction(ctx, (em) =>
    em
      .createQueryBuilder()
      .update(OutboundNfe)
      .set({ lastAttemptAt: at, lastAttemptError: text })
      .where('id = :id AND company_id = :c', { id: doc.id, c: doc.companyId })
      .execute(),
  );
  unsettled.inc({ outcome });
  logger.warn('NF-e without a verdict from the authority', {
    invoiceId: encodeId('invoice', doc.id),
    series: doc.series,
    number: doc.number,
    accessKey: doc.accessKey,
    status: doc.status,
    outcome,
    error: text,
  });
  return Object.assign(doc, { lastAttemptAt: at, lastAttemptError: text });
}

/*
 * The document row is written by one parameterized INSERT (plain SQL driven by the entity's metadata,
 * both engines): TypeORM's save/insert cost ~3 ms of CPU per document, most of an issue's local work
 * (bench/invoice-issue.bench.ts).
 */
/** What the issue path knows of a new document; the rest starts at its defaults. */
export type NewOutboundNfe = Pick<
  OutboundNfe,
  | 'companyId'
  | 'filialId'
  | 'seriesId'
  | 'model'
  | 'series'
  | 'number'
  | 'accessKey'
  | 'source'
  | 'sourceId'
  | 'fulfillmentId'
  | 'salesOrderId'
  | 'customerId'
  | 'claim'
  | 'status'
  | 'emissionType'
  | 'contingencyReason'
  | 'issuedAtText'
  | 'issuedAt'
  | 'randomCode'
  | 'total'
  | 'summary'
  | 'signedXmlGz'
  | 'actor'
  | 'requestKey'
  | 'leaseOwner'
  | 'leaseUntil'
> &
  Partial<Pick<OutboundNfe, 'contingencyOf'>>;

/**
 * Inserts a new document (in the caller's transaction) and answers it as stored, id included, without
 * reading it back. Its id is taken before the INSERT (core/sequence/ids.ts), so the INSERT is deferred and
 * travels with the transaction's next statement (its audit row, event, COMMIT) instead of a round trip of
 * its own; a unique violation (the claim) still fails the transaction, at that statement.
 */
export async function insertOutboundNfe(em: EntityManager, row: NewOutboundNfe): Promise<OutboundNfe> {
  const now = new Date();
  const full: Partial<OutboundNfe> & { companyId: number } = {
    contingencyOf: null,
    ...row,
    procXmlGz: null,
    cStat: null,
    xMotivo: null,
    protocol: null,
    authorizedAt: null,
    sendAttempts: 0,
    lastSentAt: null,
    lastAttemptAt: null,
    lastAttemptError: null,
    priorAccessKey: null,
    priorXmlGz: null,
    cancelledAt: null,
    cancelProtocol: null,
    correctionSequence: 0,
    emailStatus: 'NONE',
    emailTo: null,
    emailAttempts: 0,
    emailSentAt: null,
    emailError: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  full.id = await allocateId(em, OutboundNfe);
  await deferInsertRows(em, OutboundNfe, [full]);
  return Object.assign(new OutboundNfe(), full);
}

/** The database error of the document's own INSERT in `err`: deferred, it fails in a later statement's batch (DeferredWriteFailed). */
export const insertErrorOf = (err: unknown): unknown =>
  err instanceof DeferredWriteFailed && err.label === 'insert into outbound_nfe' ? err.cause : err;

/** A new document (SIGNED) with its ISSUED audit row and its `nfe.outbound.issued` event, in the caller's transaction. */
export async function insertIssued(
  em: EntityManager,
  ctx: ActorContext,
  row: NewOutboundNfe,
  extra: Record<string, unknown> = {},
): Promise<OutboundNfe> {
  const saved = await insertOutboundNfe(em, row);
  await recordAudit(em, ctx, {
    entity: 'invoice',
    entityId: saved.id,
    action: 'ISSUED',
    changes: diff(
      {},
      { status: 'SIGNED', series: saved.series, number: saved.number, accessKey: saved.accessKey, total: saved.total.toFixed(2), ...extra },
    ),
  });
  await publishEvent(em, ctx, {
    type: 'nfe.outbound.issued',
    filialId: saved.filialId,
    aggregateType: 'invoice',
    aggregateId: saved.id,
    data: docEvent(saved, extra),
  });
  return saved;
}
