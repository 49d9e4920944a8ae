import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { sqlNow } from '../../core/db/sql-time';
import { insertChunked, TenantRow } from '../../core/db/sql';
import { SupplierReturnItem } from './entities/supplier-return-item.entity';
import { SupplierReturn, SupplierReturnStatus } from './entities/supplier-return.entity';
import { LIVE_STATUSES } from './supplier-returns.state';

/** SQL of supplier returns. Every query is scoped by company. */

export const AUDIT_ENTITY = 'supplier-return';
export const STOCK_REFERENCE = 'supplier-return';
export const CODE_SEQUENCE = 'supplier-return-code';

export async function insertReturn(em: EntityManager, row: TenantRow<SupplierReturn>): Promise<number> {
  const result = await em.insert(SupplierReturn, row as never);
  return Number(result.identifiers[0].id);
}

export const insertItems = (em: EntityManager, rows: TenantRow<SupplierReturnItem>[]) => insertChunked(em, SupplierReturnItem, rows);

export const findReturn = (em: EntityManager, companyId: number, id: number) => em.findOneBy(SupplierReturn, { companyId, id });

export const findByRequestKey = (em: EntityManager, companyId: number, requestKey: string) =>
  em.findOneBy(SupplierReturn, { companyId, requestKey });

export const itemsOf = (em: EntityManager, companyId: number, supplierReturnId: number) =>
  em.find(SupplierReturnItem, { where: { companyId, supplierReturnId }, order: { lineNumber: 'ASC' } });

/**
 * The lines of the document's returns that still hold their quantities (ISSUED, REJECTED,
 * AUTHORIZED): what is already returned, or reserved by a live NF-e. Quantities are summed by the
 * caller (decimals are text on SQLite).
 */
export function reservedLines(em: EntityManager, companyId: number, entryDocumentId: number): Promise<SupplierReturnItem[]> {
  return em
    .createQueryBuilder(SupplierReturnItem, 'i')
    .innerJoin(SupplierReturn, 'r', 'r.id = i.supplier_return_id AND r.company_id = i.company_id')
    .where('r.company_id = :companyId AND r.entry_document_id = :entryDocumentId AND r.status IN (:...live)', {
      companyId,
      entryDocumentId,
      live: LIVE_STATUSES,
    })
    .getMany();
}

export async function countLive(em: EntityManager, companyId: number, entryDocumentId: number): Promise<number> {
  return em.countBy(SupplierReturn, { companyId, entryDocumentId, status: In(LIVE_STATUSES) });
}

/** Conditional status change: only from the status and version read; true when it happened. */
export async function updateIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: SupplierReturnStatus; version: number },
  values: Partial<
    Pick<SupplierReturn, 'status' | 'invoiceId' | 'total' | 'authorizedAt' | 'cancelledAt' | 'payablesDeducted' | 'supplierCredit'>
  >,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(SupplierReturn)
    .set({ ...values, updatedAt: () => sqlNow(), version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', { id, companyId, ...expected })
    .execute();
  return (result.affected ?? 0) > 0;
}

/** What the authorization settled against the supplier (payables abated, supplier credit). */
export async function setSettlement(
  em: EntityManager,
  companyId: number,
  id: number,
  values: Pick<SupplierReturn, 'payablesDeducted' | 'supplierCredit'>,
): Promise<void> {
  await em
    .createQueryBuilder()
    .update(SupplierReturn)
    .set(values as never)
    .where('id = :id AND company_id = :companyId', { id, companyId })
    .execute();
}

/** The NF-e issued for the return, once the emission stored it. */
export async function setInvoice(em: EntityManager, companyId: number, id: number, invoiceId: number): Promise<void> {
  await em
    .createQueryBuilder()
    .update(SupplierReturn)
    .set({ invoiceId } as never)
    .where('id = :id AND company_id = :companyId AND invoice_id IS NULL', { id, companyId })
    .execute();
}

export function listQuery(
  em: EntityManager,
  companyId: number,
  filialId: number,
  f: { status?: SupplierReturnStatus; entryDocumentId?: number },
): SelectQueryBuilder<SupplierReturn> {
  const qb = em
    .createQueryBuilder(SupplierReturn, 'r')
    .where('r.company_id = :companyId AND r.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('r.status = :status', { status: f.status });
  if (f.entryDocumentId !== undefined) qb.andWhere('r.entry_document_id = :entryDocumentId', { entryDocumentId: f.entryDocumentId });
  return qb;
}

/** Phase 2 of lists: the returns by id with their lines (two queries). */
export async function loadReturns(
  em: EntityManager,
  companyId: number,
  ids: number[],
): Promise<{ ret: SupplierReturn; items: SupplierReturnItem[] }[]> {
  if (!ids.length) return [];
  const [returns, items] = [
    await em.findBy(SupplierReturn, { companyId, id: In(ids) }),
    await em.find(SupplierReturnItem, { where: { companyId, supplierReturnId: In(ids) }, order: { lineNumber: 'ASC' } }),
  ];
  return returns.map((ret) => ({ ret, items: items.filter((i) => i.supplierReturnId === ret.id) }));
}
