import { EntityManager, In } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { Dec } from '../../core/decimal';
import { CiapAppropriation } from './entities/ciap-appropriation.entity';
import { CiapAsset } from './entities/ciap-asset.entity';
import { CiapPart } from './entities/ciap-part.entity';

/* The CIAP's SQL: assets, their monthly parts and the months' appropriations. */

export const AUDIT_ASSET = 'ciap-asset';
export const AUDIT_APPROPRIATION = 'ciap-appropriation';

const FOR_UPDATE = isMysql ? ' FOR UPDATE' : '';

export async function insertAsset(
  em: EntityManager,
  row: Omit<CiapAsset, 'id' | 'version' | 'createdAt' | 'updatedAt'>,
): Promise<CiapAsset> {
  const result = await em.insert(CiapAsset, row);
  return await em.findOneByOrFail(CiapAsset, { companyId: row.companyId, id: result.identifiers[0].id as number });
}

export async function insertParts(em: EntityManager, rows: Omit<CiapPart, 'id'>[]): Promise<void> {
  if (rows.length) await em.insert(CiapPart, rows);
}

export const findAsset = (em: EntityManager, companyId: number, id: number) => em.findOneBy(CiapAsset, { companyId, id });

export const assetsByIds = (em: EntityManager, companyId: number, ids: number[]) =>
  ids.length ? em.find(CiapAsset, { where: { companyId, id: In(ids) } }) : Promise.resolve([]);

/** The document's assets still in the CIAP, locked for their cancellation. */
export async function activeAssetsOfDocument(em: EntityManager, companyId: number, entryDocumentId: number): Promise<CiapAsset[]> {
  const qb = em
    .createQueryBuilder(CiapAsset, 'a')
    .where('a.company_id = :companyId AND a.entry_document_id = :entryDocumentId AND a.status = :status', {
      companyId,
      entryDocumentId,
      status: 'ACTIVE',
    })
    .orderBy('a.id', 'ASC');
  if (isMysql) qb.setLock('pessimistic_write');
  return qb.getMany();
}

/** ACTIVE → CANCELLED, conditional on the status (a concurrent cancel updates nothing). */
export async function cancelAsset(
  em: EntityManager,
  companyId: number,
  id: number,
  cancelledAt: Date,
  reason: string | null,
): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(CiapAsset)
    .set({ status: 'CANCELLED', cancelledAt, cancelReason: reason, version: () => 'version + 1' })
    .where('company_id = :companyId AND id = :id AND status = :status', { companyId, id, status: 'ACTIVE' })
    .execute();
  return (res.affected ?? 0) === 1;
}

/** The asset's parts not appropriated yet are dropped; answers how many. */
export async function dropPendingParts(em: EntityManager, companyId: number, assetId: number): Promise<number> {
  const res = await em
    .createQueryBuilder()
    .update(CiapPart)
    .set({ status: 'DROPPED' })
    .where('company_id = :companyId AND asset_id = :assetId AND status = :status', { companyId, assetId, status: 'PENDING' })
    .execute();
  return res.affected ?? 0;
}

export const partsOf = (em: EntityManager, companyId: number, assetId: number) =>
  em.find(CiapPart, { where: { companyId, assetId }, order: { number: 'ASC' } });

/** The month's appropriation, read under lock (a locking read sees what a concurrent call committed). */
export async function monthAppropriation(
  em: EntityManager,
  companyId: number,
  filialId: number,
  month: string,
): Promise<CiapAppropriation | null> {
  const rows: { id: number }[] = await em.query(
    `SELECT id FROM ciap_appropriation WHERE company_id = ? AND filial_id = ? AND month = ?${FOR_UPDATE}`,
    [companyId, filialId, month],
  );
  return rows.length ? em.findOneBy(CiapAppropriation, { companyId, id: Number(rows[0].id) }) : null;
}

export async function insertAppropriation(
  em: EntityManager,
  row: Omit<CiapAppropriation, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<CiapAppropriation> {
  const result = await em.insert(CiapAppropriation, row);
  return await em.findOneByOrFail(CiapAppropriation, { companyId: row.companyId, id: result.identifiers[0].id as number });
}

export async function updateAppropriation(
  em: EntityManager,
  row: CiapAppropriation,
  patch: Partial<Pick<CiapAppropriation, 'taxedExits' | 'totalExits' | 'exitShare' | 'source' | 'partCount' | 'partsTotal' | 'credited'>>,
): Promise<void> {
  await em.update(CiapAppropriation, { companyId: row.companyId, id: row.id }, patch);
}

/** An appropriated part's credit, when the month's share was revised. */
export async function setPartCredit(em: EntityManager, companyId: number, partId: number, credited: Dec): Promise<void> {
  await em.update(CiapPart, { companyId, id: partId }, { credited });
}

/** The filial's parts of the month still pending, of assets still active, locked. */
export async function pendingPartsOfMonth(em: EntityManager, companyId: number, filialId: number, month: string): Promise<CiapPart[]> {
  const rows: { id: number }[] = await em.query(
    `SELECT p.id FROM ciap_part p JOIN ciap_asset a ON a.company_id = p.company_id AND a.id = p.asset_id
      WHERE p.company_id = ? AND p.filial_id = ? AND p.month = ? AND p.status = 'PENDING' AND a.status = 'ACTIVE' ORDER BY p.asset_id${FOR_UPDATE}`,
    [companyId, filialId, month],
  );
  return rows.length ? em.find(CiapPart, { where: { companyId, id: In(rows.map((r) => Number(r.id))) }, order: { assetId: 'ASC' } }) : [];
}

export async function markAppropriated(
  em: EntityManager,
  companyId: number,
  part: CiapPart,
  credited: Dec,
  appropriationId: number,
): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(CiapPart)
    .set({ status: 'APPROPRIATED', credited, appropriationId })
    .where('company_id = :companyId AND id = :id AND status = :status', { companyId, id: part.id, status: 'PENDING' })
    .execute();
  return (res.affected ?? 0) === 1;
}

export const partsOfAppropriation = (em: EntityManager, companyId: number, appropriationId: number) =>
  em.find(CiapPart, { where: { companyId, appropriationId }, order: { assetId: 'ASC', number: 'ASC' } });

export const appropriationsByIds = (em: EntityManager, companyId: number, ids: number[]) =>
  ids.length ? em.find(CiapAppropriation, { where: { companyId, id: In(ids) }, order: { month: 'ASC' } }) : Promise.resolve([]);

/** Every part of the assets (the list's figures are summed from them: exact decimals on both engines). */
export const partsOfAssets = (em: EntityManager, companyId: number, assetIds: number[]) =>
  assetIds.length ? em.find(CiapPart, { where: { companyId, assetId: In(assetIds) } }) : Promise.resolve([]);

/** The filial's assets as a query the pagination engine pages (newest first). */
export function assetListQuery(em: EntityManager, companyId: number, filialId: number, status?: string) {
  const qb = em.createQueryBuilder(CiapAsset, 'a').where('a.company_id = :companyId AND a.filial_id = :filialId', { companyId, filialId });
  if (status) qb.andWhere('a.status = :status', { status });
  return qb;
}
