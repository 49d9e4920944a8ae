import { Brackets, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { normalizeText } from '../../core/br-documents';
import { isMysql } from '../../core/db/engine';
import { CteAllocation } from './entities/cte-allocation.entity';
import { CteNfe } from './entities/cte-nfe.entity';
import { Cte, CteStatus } from './entities/cte.entity';
import { sqlNow } from '../../core/db/sql-time';

/** SQL of the CT-e module. Every query is scoped by company. */

export function findCte(em: EntityManager, companyId: number, id: number, lock = false): Promise<Cte | null> {
  const qb = em.createQueryBuilder(Cte, 'c').where('c.id = :id AND c.company_id = :companyId', { id, companyId });
  if (lock && isMysql) qb.setLock('pessimistic_write');
  return qb.getOne();
}

export const findCteByKey = (em: EntityManager, companyId: number, accessKey: string) => em.findOneBy(Cte, { companyId, accessKey });

export async function loadCteXmlGzip(em: EntityManager, companyId: number, id: number): Promise<Buffer | null> {
  const row = await em
    .createQueryBuilder(Cte, 'c')
    .addSelect('c.xmlGzip')
    .where('c.id = :id AND c.company_id = :companyId', { id, companyId })
    .getOne();
  return row?.xmlGzip ?? null;
}

export async function insertCte(em: EntityManager, row: Partial<Cte>, nfeKeys: string[]): Promise<number> {
  const result = await em.insert(Cte, row as never);
  const id = Number(result.identifiers[0].id);
  if (nfeKeys.length) {
    await em.insert(
      CteNfe,
      nfeKeys.map((nfeKey, i) => ({ companyId: row.companyId!, cteId: id, position: i + 1, nfeKey })),
    );
  }
  return id;
}

/** The conditional UPDATE of every state change: only from the status and version read; bumps the version. */
export async function updateCteIf(
  em: EntityManager,
  companyId: number,
  id: number,
  expected: { status: CteStatus; version: number },
  values: Partial<Cte>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(Cte)
    .set({ ...values, version: () => 'version + 1', updatedAt: () => sqlNow() } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', { id, companyId, ...expected })
    .execute();
  return (result.affected ?? 0) > 0;
}

export const nfeKeysOf = async (em: EntityManager, companyId: number, cteId: number): Promise<string[]> =>
  (await em.find(CteNfe, { where: { companyId, cteId }, order: { position: 'ASC' } })).map((n) => n.nfeKey);

export const allocationsOf = (em: EntityManager, companyId: number, cteId: number) =>
  em.find(CteAllocation, { where: { companyId, cteId }, order: { id: 'ASC' } });

export async function insertAllocations(em: EntityManager, rows: Partial<CteAllocation>[]): Promise<void> {
  if (rows.length)
    await em
      .createQueryBuilder()
      .insert()
      .into(CteAllocation)
      .values(rows as never)
      .updateEntity(false)
      .execute();
}

export async function markAllocationReversed(
  em: EntityManager,
  companyId: number,
  id: number,
  values: Pick<CteAllocation, 'reversedAmount' | 'reversedUnabsorbed' | 'reversedAt'>,
): Promise<void> {
  await em.update(CteAllocation, { id, companyId }, values);
}

export interface CteFilters {
  status?: CteStatus;
  issuer?: string;
  issuedFrom?: string;
  issuedTo?: string;
  accessKey?: string;
  /** CT-e that carried this NF-e. */
  nfeKey?: string;
}

export function cteListQuery(em: EntityManager, companyId: number, filialId: number, f: CteFilters): SelectQueryBuilder<Cte> {
  const qb = em.createQueryBuilder(Cte, 'c').where('c.company_id = :companyId AND c.filial_id = :filialId', { companyId, filialId });
  if (f.status) qb.andWhere('c.status = :status', { status: f.status });
  if (f.accessKey) qb.andWhere('c.access_key = :accessKey', { accessKey: f.accessKey });
  if (f.issuedFrom) qb.andWhere('c.issue_date >= :issuedFrom', { issuedFrom: f.issuedFrom });
  if (f.issuedTo) qb.andWhere('c.issue_date <= :issuedTo', { issuedTo: f.issuedTo });
  if (f.nfeKey) {
    qb.andWhere(
      'c.id IN ' + qb.subQuery().select('n.cte_id').from(CteNfe, 'n').where('n.company_id = :companyId AND n.nfe_key = :nfeKey').getQuery(),
      { nfeKey: f.nfeKey },
    );
  }
  if (f.issuer) {
    const digits = f.issuer.replace(/\D/g, '');
    const byDocument = digits.length >= 3 && /^[\d.\-/\s]+$/.test(f.issuer);
    qb.andWhere(
      new Brackets((w) => {
        if (byDocument) w.where('c.issuer_document LIKE :doc', { doc: `${digits}%` });
        else w.where('c.issuer_search LIKE :name', { name: `%${normalizeText(f.issuer!)}%` });
      }),
    );
  }
  return qb;
}

export const loadCtesByIds = (em: EntityManager, ids: number[]) => em.findBy(Cte, { id: In(ids) });
