import { Brackets, EntityManager, In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { AuditLog } from '../../core/audit/audit-log.entity';
import { ACCESS_KEY_PATTERN, documentSearchPrefix, normalizeText } from '../../core/br-documents';
import { Product, Supplier, supplierFilter } from '../catalog';
import { StockMovement } from '../stock';
import type { ComputedItem, PlannedInstallment } from './entry-document.calculator';
import { EntryDocumentInstallment } from './entities/entry-document-installment.entity';
import { EntryDocumentItem } from './entities/entry-document-item.entity';
import { EntryDocument, EntryDocumentOrigin, EntryDocumentStatus } from './entities/entry-document.entity';
import { sqlNow } from '../../core/db/sql-time';
import { insertChunked } from '../../core/db/sql';

/** SQL of the entry-document module. Every query is scoped by company. */

export const AUDIT_ENTITY = 'entry-document';
export const STOCK_REFERENCE = 'entry-document';

export function findDocument(em: EntityManager, companyId: number, id: number): Promise<EntryDocument | null> {
  return em.findOneBy(EntryDocument, { id, companyId });
}

/** The live (DRAFT or CONFIRMED) document of an access key; cancelled ones have given their key back. */
export function findByAccessKey(em: EntityManager, companyId: number, accessKey: string): Promise<EntryDocument | null> {
  return em.findOneBy(EntryDocument, { companyId, liveAccessKey: accessKey });
}

export function loadItems(em: EntityManager, companyId: number, entryDocumentId: number): Promise<EntryDocumentItem[]> {
  return em.find(EntryDocumentItem, { where: { companyId, entryDocumentId }, order: { lineNumber: 'ASC' } });
}

export function loadInstallments(em: EntityManager, companyId: number, entryDocumentId: number): Promise<EntryDocumentInstallment[]> {
  return em.find(EntryDocumentInstallment, { where: { companyId, entryDocumentId }, order: { number: 'ASC' } });
}

export async function insertDocument(em: EntityManager, row: Partial<EntryDocument>): Promise<number> {
  const result = await em.insert(EntryDocument, row as never);
  return Number(result.identifiers[0].id);
}

/** Replaces all items of a document: one DELETE and one INSERT per ~850 lines. */
export async function replaceItems(
  em: EntityManager,
  companyId: number,
  entryDocumentId: number,
  items: ComputedItem[],
  hadItems = true,
): Promise<void> {
  if (hadItems) await em.delete(EntryDocumentItem, { companyId, entryDocumentId });
  await insertChunked(
    em,
    EntryDocumentItem,
    items.map((it) => ({ ...it, companyId, entryDocumentId })),
  );
}

/** Rewrites lines in place (line review): their ids, which clients hold, stay the same. */
export async function updateItems(
  em: EntityManager,
  companyId: number,
  entryDocumentId: number,
  rows: { id: number; values: ComputedItem }[],
): Promise<void> {
  for (const { id, values } of rows) {
    const { lineNumber: _line, ...columns } = values;
    await em.update(EntryDocumentItem, { id, companyId, entryDocumentId }, columns as never);
  }
}

export async function replaceInstallments(
  em: EntityManager,
  companyId: number,
  entryDocumentId: number,
  installments: PlannedInstallment[],
  hadInstallments = true,
): Promise<void> {
  if (hadInstallments) await em.delete(EntryDocumentInstallment, { companyId, entryDocumentId });
  await insertChunked(
    em,
    EntryDocumentInstallment,
    installments.map((p) => ({ companyId, entryDocumentId, number: p.number, dueDate: p.dueDate, amount: p.amount })),
  );
}

/**
 * The conditional UPDATE every change goes through: it only touches the row when it is still in
 * `status` at `version`, and bumps the version. 0 rows → someone else changed it first.
 */
export async function updateIfCurrent(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: EntryDocumentStatus; version: number },
  values: Partial<EntryDocument>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(EntryDocument)
    .set({ ...values, version: () => 'version + 1', updatedAt: () => sqlNow() } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', { id, companyId, ...expected })
    .execute();
  return (result.affected ?? 0) > 0;
}

/** Deletes a draft and its lines; 0 → it was not a draft (any more). */
export async function deleteDraft(em: EntityManager, companyId: number, id: number): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .delete()
    .from(EntryDocument)
    .where('id = :id AND company_id = :companyId AND status = :status', { id, companyId, status: 'DRAFT' })
    .execute();
  if (!result.affected) return false;
  await em.delete(EntryDocumentItem, { companyId, entryDocumentId: id });
  await em.delete(EntryDocumentInstallment, { companyId, entryDocumentId: id });
  return true;
}

export function loadProducts(em: EntityManager, companyId: number, ids: number[]): Promise<Product[]> {
  const unique = [...new Set(ids)];
  return unique.length ? em.findBy(Product, { companyId, id: In(unique) }) : Promise.resolve([]);
}

/** What confirmation posted for a document (the IN movements), in posting order. */
export function postedMovements(em: EntityManager, companyId: number, entryDocumentId: number, reason: string): Promise<StockMovement[]> {
  return em.find(StockMovement, {
    where: { companyId, referenceType: STOCK_REFERENCE, referenceId: entryDocumentId, reason },
    order: { id: 'ASC' },
  });
}

export interface ListFilters {
  status?: EntryDocumentStatus;
  origin?: EntryDocumentOrigin;
  supplier?: string;
  number?: string;
  accessKey?: string;
  issueDateFrom?: string;
  issueDateTo?: string;
  entryDateFrom?: string;
  entryDateTo?: string;
  search?: string;
}

/** The filtered list query (phase 1 of the two-phase list picks ids from it). */
export function listQuery(em: EntityManager, companyId: number, filialId: number, f: ListFilters): SelectQueryBuilder<EntryDocument> {
  const qb = em
    .createQueryBuilder(EntryDocument, 'd')
    .where('d.company_id = :companyId AND d.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('d.status = :status', { status: f.status });
  if (f.origin) qb.andWhere('d.origin = :origin', { origin: f.origin });
  if (f.number) qb.andWhere('d.number = :number', { number: f.number.replace(/^0+(?=\d)/, '') });
  if (f.accessKey) qb.andWhere('d.access_key = :accessKey', { accessKey: f.accessKey });
  if (f.issueDateFrom) qb.andWhere('d.issue_date >= :issueFrom', { issueFrom: f.issueDateFrom });
  if (f.issueDateTo) qb.andWhere('d.issue_date <= :issueTo', { issueTo: f.issueDateTo });
  if (f.entryDateFrom) qb.andWhere('d.entry_date >= :entryFrom', { entryFrom: f.entryDateFrom });
  if (f.entryDateTo) qb.andWhere('d.entry_date <= :entryTo', { entryTo: f.entryDateTo });
  if (f.supplier) supplierFilter(qb as never, 'd.supplier_id', companyId, f.supplier);
  if (f.search) {
    // An access key, a document number, or a supplier name/CNPJ fragment.
    const term = f.search.trim();
    const doc = documentSearchPrefix(term);
    const key = term.replace(/\s/g, '').toUpperCase();
    qb.andWhere(
      new Brackets((w) => {
        const sub = w as unknown as SelectQueryBuilder<ObjectLiteral>;
        const suppliers = qb
          .subQuery()
          .select('s.id')
          .from(Supplier, 's')
          .where('s.company_id = :companyId')
          .andWhere(doc ? '(s.search_name LIKE :qName OR s.document LIKE :qDoc)' : 's.search_name LIKE :qName')
          .getQuery();
        sub.where(`d.supplier_id IN ${suppliers}`, { qName: `%${normalizeText(term)}%`, qDoc: `${doc}%` });
        if (/^\d{1,9}$/.test(term)) sub.orWhere('d.number = :qNumber', { qNumber: term.replace(/^0+(?=\d)/, '') });
        if (ACCESS_KEY_PATTERN.test(key)) sub.orWhere('d.access_key = :qKey', { qKey: key });
      }),
    );
  }
  return qb;
}

export function loadDocumentsByIds(em: EntityManager, ids: number[]): Promise<EntryDocument[]> {
  return em.findBy(EntryDocument, { id: In(ids) });
}

/** Audit rows of a document, filtered by company (they outlive a deleted draft). */
export function auditQuery(em: EntityManager, companyId: number, entityId: number): SelectQueryBuilder<AuditLog> {
  return em
    .createQueryBuilder(AuditLog, 'a')
    .where('a.company_id = :companyId AND a.entity = :entity AND a.entity_id = :entityId', { companyId, entity: AUDIT_ENTITY, entityId });
}

/** First and last audit row per action, and how many there are. */
export async function auditSummaryRows(
  em: EntityManager,
  companyId: number,
  entityId: number,
): Promise<{ action: string; count: number; first: AuditLog; last: AuditLog }[]> {
  const groups: { action: string; n: string | number; firstId: number; lastId: number }[] = await auditQuery(em, companyId, entityId)
    .select('a.action', 'action')
    .addSelect('COUNT(*)', 'n')
    .addSelect('MIN(a.id)', 'firstId')
    .addSelect('MAX(a.id)', 'lastId')
    .groupBy('a.action')
    .getRawMany();
  if (!groups.length) return [];
  const rows = await em.findBy(AuditLog, { id: In(groups.flatMap((g) => [Number(g.firstId), Number(g.lastId)])) });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return groups.map((g) => ({
    action: g.action,
    count: Number(g.n),
    first: byId.get(Number(g.firstId))!,
    last: byId.get(Number(g.lastId))!,
  }));
}

export function lastAuditOf(em: EntityManager, companyId: number, entityId: number, action: string): Promise<AuditLog | null> {
  return auditQuery(em, companyId, entityId).andWhere('a.action = :action', { action }).orderBy('a.id', 'DESC').limit(1).getOne();
}

/** Per product, the line of the last confirmed entry at the filial up to `date` that paid ICMS-ST (retained-st.ts maps it). */
export async function lastStLines(
  em: EntityManager,
  companyId: number,
  filialId: number,
  productIds: number[],
  date: string,
): Promise<Record<string, unknown>[]> {
  // icms_st > 0: the line paid ST (vICMSST + vFCPST); or the supplier declared the ST retained earlier (CST 60 /
  // CSOSN 500: taxes.icms.retained, found in the JSON text as JSON.stringify writes it). The latest entry date, then document, wins.
  return em.query(
    `SELECT x.* FROM (
       SELECT i.product_id AS product_id, d.id AS doc_id, d.number AS number, d.series AS series, d.entry_date AS entry_date,
              d.supplier_document AS supplier_document, i.stock_quantity AS stock_quantity, i.taxes AS taxes,
              ROW_NUMBER() OVER (PARTITION BY i.product_id ORDER BY d.entry_date DESC, d.id DESC, i.id DESC) AS rn
         FROM entry_document d
         JOIN entry_document_item i ON i.company_id = d.company_id AND i.entry_document_id = d.id
        WHERE d.company_id = ? AND d.filial_id = ? AND d.status = 'CONFIRMED' AND d.entry_date <= ?
          AND i.product_id IN (${productIds.map(() => '?').join(',')}) AND i.stock_quantity > 0
          AND (i.icms_st > 0 OR i.taxes LIKE '%"retained":{%')
     ) x WHERE x.rn = 1`,
    [companyId, filialId, date, ...productIds],
  );
}
