import { businessToday } from '../../core/business-date';
import { Brackets, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { documentSearchPrefix, normalizeText } from '../../core/br-documents';
import { isMysql } from '../../core/db/engine';
import { NfeInboundEvent } from './entities/nfe-inbound-event.entity';
import { AuthorityStatus, ImportStatus, InboundKind, InboundSource, Manifestation, NfeInbound } from './entities/nfe-inbound.entity';

/** SQL of the inbound NF-e records; every query is filtered by company (and filial where it applies). */

export interface InboundFilters {
  /** CNPJ/CPF prefix (digits or an alphanumeric CNPJ's characters) or part of the issuer's name. */
  issuer?: string;
  issuedFrom?: string;
  issuedTo?: string;
  status?: AuthorityStatus;
  manifestation?: Manifestation;
  importStatus?: ImportStatus;
  kind?: InboundKind;
  source?: InboundSource;
  accessKey?: string;
}

export function findInbound(em: EntityManager, companyId: number, id: number): Promise<NfeInbound | null> {
  return em.findOneBy(NfeInbound, { id, companyId });
}

/** The record of a key in a filial, locked on MySQL when a write follows (SQLite transactions are serialized). */
export function findInboundByKey(
  em: EntityManager,
  companyId: number,
  filialId: number,
  accessKey: string,
  lock = false,
): Promise<NfeInbound | null> {
  const qb = em
    .createQueryBuilder(NfeInbound, 'n')
    .where('n.company_id = :companyId AND n.filial_id = :filialId AND n.access_key = :accessKey', { companyId, filialId, accessKey });
  if (lock && isMysql) qb.setLock('pessimistic_write');
  return qb.getOne();
}

/** The stored (gzip) XML of a record, null when it has none. */
export async function loadXmlGzip(em: EntityManager, companyId: number, id: number): Promise<Buffer | null> {
  const row = await em
    .createQueryBuilder(NfeInbound, 'n')
    .select(['n.id', 'n.xmlGzip'])
    .where('n.id = :id AND n.company_id = :companyId', { id, companyId })
    .getOne();
  return row?.xmlGzip ? Buffer.from(row.xmlGzip) : null;
}

/** Inserts a record; without `issueDate` (callers that only have the instant) it is the instant's date in Brasília. */
export async function insertInbound(em: EntityManager, row: Partial<NfeInbound>): Promise<number> {
  const issueDate = row.issueDate ?? (row.issuedAt ? businessToday(row.issuedAt) : undefined);
  const res = await em.insert(NfeInbound, { ...row, issueDate } as never);
  return Number(res.identifiers[0].id);
}

/**
 * Conditional update on (id, company, version) — and on the import status when a transition is
 * meant; false when someone else changed the row first.
 */
export async function updateInbound(
  em: EntityManager,
  companyId: number,
  id: number,
  version: number,
  values: Partial<NfeInbound>,
  fromImportStatus?: ImportStatus,
): Promise<boolean> {
  const qb = em
    .createQueryBuilder()
    .update(NfeInbound)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', { id, companyId, version });
  if (fromImportStatus) qb.andWhere('import_status = :fromImportStatus', { fromImportStatus });
  const res = await qb.execute();
  return (res.affected ?? 0) > 0;
}

export async function insertInboundEvent(em: EntityManager, row: Omit<NfeInboundEvent, 'id' | 'createdAt'>): Promise<void> {
  await em.insert(NfeInboundEvent, row as never);
}

export function eventsOf(em: EntityManager, companyId: number, inboundId: number): Promise<NfeInboundEvent[]> {
  return em.find(NfeInboundEvent, { where: { companyId, inboundId }, order: { id: 'ASC' } });
}

/** The filtered rows of a filial (phase 1 of the two-phase list). */
export function inboundListQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: InboundFilters,
): SelectQueryBuilder<NfeInbound> {
  const qb = em.createQueryBuilder(NfeInbound, 'n').where('n.company_id = :companyId AND n.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('n.authority_status = :status', { status: f.status });
  if (f.manifestation) qb.andWhere('n.manifestation = :manifestation', { manifestation: f.manifestation });
  if (f.importStatus) qb.andWhere('n.import_status = :importStatus', { importStatus: f.importStatus });
  if (f.kind) qb.andWhere('n.kind = :kind', { kind: f.kind });
  if (f.source) qb.andWhere('n.source = :source', { source: f.source });
  if (f.accessKey) qb.andWhere('n.access_key = :accessKey', { accessKey: f.accessKey });
  // Calendar dates as the issuer wrote them (DATE columns compare as 'YYYY-MM-DD' on both engines).
  if (f.issuedFrom) qb.andWhere('n.issue_date >= :issuedFrom', { issuedFrom: f.issuedFrom });
  if (f.issuedTo) qb.andWhere('n.issue_date <= :issuedTo', { issuedTo: f.issuedTo });
  if (f.issuer) {
    // A document prefix (digits, or an alphanumeric CNPJ's first characters) or part of the name.
    const doc = documentSearchPrefix(f.issuer);
    qb.andWhere(
      new Brackets((w) => {
        w.where('n.issuer_search LIKE :name', { name: `%${normalizeText(f.issuer!)}%` });
        if (doc) w.orWhere('n.issuer_document LIKE :doc', { doc: `${doc}%` });
      }),
    );
  }
  return qb;
}

/** Pending work of a filial: not imported, not ignored, not cancelled by the issuer. */
export function pendingQuery(em: EntityManager, companyId: number, filialId: number): SelectQueryBuilder<NfeInbound> {
  return em
    .createQueryBuilder(NfeInbound, 'n')
    .where('n.company_id = :companyId AND n.filial_id = :filialId', { companyId, filialId })
    .andWhere("n.import_status = 'PENDING'")
    .andWhere("n.authority_status <> 'CANCELLED'");
}

/** The filial's records of these access keys. */
export function inboundOfKeys(em: EntityManager, companyId: number, filialId: number, keys: string[]): Promise<NfeInbound[]> {
  return keys.length ? em.findBy(NfeInbound, { companyId, filialId, accessKey: In([...new Set(keys)]) }) : Promise.resolve([]);
}

export function loadInboundByIds(em: EntityManager, ids: number[]): Promise<NfeInbound[]> {
  return em.findBy(NfeInbound, { id: In(ids) });
}
