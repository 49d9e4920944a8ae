import type { EntityManager } from 'typeorm';
import { DeferredWriteFailed } from '../../core/db/db-errors';
import { deferInsertRows, insertedId, insertRows, setClause } from '../../core/db/sql';
import { allocateId } from '../../core/sequence/ids';
import { ConflictError } from '../../core/errors';
import { CompanySmtp } from './entities/company-smtp.entity';
import { OutboundNfe } from './entities/outbound-nfe.entity';

/*
 * SQL of the outbound NF-e and the company's SMTP settings. The document row is written by one parameterized INSERT (plain SQL driven by
 * the entity's metadata, both engines): TypeORM's save/insert cost ~3 ms of CPU per document, most of an
 * issue's local work (bench/invoice-issue.bench.ts).
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

/** The company's own SMTP settings, if it set them. */
export function findCompanySmtp(em: EntityManager, companyId: number): Promise<CompanySmtp | null> {
  return em.findOneBy(CompanySmtp, { companyId });
}

/** Writes the company's SMTP settings (the row is created on first use); answers them as stored. */
export async function saveCompanySmtp(
  em: EntityManager,
  current: CompanySmtp | null,
  row: Omit<CompanySmtp, 'id' | 'version' | 'createdAt' | 'updatedAt'>,
): Promise<CompanySmtp> {
  if (!current) {
    const id = insertedId(await insertRows(em, CompanySmtp, [{ ...row, version: 1, createdAt: new Date(), updatedAt: new Date() }]));
    return em.findOneByOrFail(CompanySmtp, { id, companyId: row.companyId });
  }
  const r = await em
    .createQueryBuilder()
    .update(CompanySmtp)
    .set({
      host: row.host,
      port: row.port,
      secure: row.secure,
      user: row.user,
      passwordSealed: row.passwordSealed,
      from: row.from,
      version: () => 'version + 1',
    } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', {
      id: current.id,
      companyId: row.companyId,
      version: current.version,
    })
    .execute();
  if (!r.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The SMTP settings changed concurrently; retry');
  return em.findOneByOrFail(CompanySmtp, { id: current.id, companyId: row.companyId });
}

/**
 * The delivery fields (email status, attempts, error): outside the document's state machine, so its
 * version stays — a send running in the background never turns a cancellation into a concurrent update.
 */
export async function markDelivery(
  em: EntityManager,
  companyId: number,
  id: number,
  fields: Partial<Pick<OutboundNfe, 'emailStatus' | 'emailTo' | 'emailAttempts' | 'emailSentAt' | 'emailError'>>,
): Promise<void> {
  const set = setClause(em, OutboundNfe, { ...fields, updatedAt: new Date() });
  await em.query(`UPDATE ${em.connection.driver.escape('outbound_nfe')} SET ${set.sql} WHERE id = ? AND company_id = ?`, [
    ...(set.params ?? []),
    id,
    companyId,
  ]);
}
