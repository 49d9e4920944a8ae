import type { EntityManager } from 'typeorm';
import { insertedId, insertRows } from '../../core/db/sql';
import { OutboundNfe } from './entities/outbound-nfe.entity';

/*
 * SQL of the outbound NF-e. The document row is written by one parameterized INSERT (plain SQL driven by
 * the entity's metadata, both engines): TypeORM's save/insert cost ~3 ms of CPU per document, most of an
 * issue's local work (bench/invoice-issue.bench.ts).
 */

/** What the issue path knows of a new document; the rest starts at its defaults. */
export type NewOutboundNfe = Pick<
  OutboundNfe,
  | 'companyId' | 'filialId' | 'seriesId' | 'model' | 'series' | 'number' | 'accessKey' | 'source' | 'fulfillmentId' | 'salesOrderId' | 'customerId' | 'claim'
  | 'status' | 'emissionType' | 'contingencyReason' | 'issuedAtText' | 'issuedAt' | 'randomCode' | 'total' | 'summary' | 'signedXmlGz' | 'actor' | 'requestKey' | 'leaseOwner' | 'leaseUntil'
>;

/** Inserts a new document (in the caller's transaction) and answers it as stored, id included, without reading it back. */
export async function insertOutboundNfe(em: EntityManager, row: NewOutboundNfe): Promise<OutboundNfe> {
  const now = new Date();
  const full: Partial<OutboundNfe> & { companyId: number } = {
    ...row,
    procXmlGz: null,
    cStat: null,
    xMotivo: null,
    protocol: null,
    authorizedAt: null,
    sendAttempts: 0,
    lastSentAt: null,
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
  const id = insertedId(await insertRows(em, OutboundNfe, [full]));
  return Object.assign(new OutboundNfe(), full, { id });
}
