import { EntityManager, EntityTarget, In } from 'typeorm';
import { sqlNow } from '../../core/db/sql-time';
import type { OpenItemSettlement } from './entities/settlement.entity';

/* The SQL of settlements, for the table a side names (payable_payment, receivable_receipt). */

export async function insertSettlement<R extends OpenItemSettlement>(
  em: EntityManager,
  target: EntityTarget<R>,
  row: Partial<R>,
): Promise<number> {
  const result = await em.insert(target, row as never);
  return Number(result.identifiers[0].id);
}

export const findSettlement = <R extends OpenItemSettlement>(
  em: EntityManager,
  target: EntityTarget<R>,
  companyId: number,
  id: number,
): Promise<R | null> => em.findOneBy(target, { id, companyId } as never);

/** The settlements of some items (the column `itemColumn` names the item), in the order they were made. */
export const settlementsOf = <R extends OpenItemSettlement>(
  em: EntityManager,
  target: EntityTarget<R>,
  itemColumn: keyof R & string,
  companyId: number,
  itemIds: number[],
): Promise<R[]> =>
  itemIds.length
    ? em.find(target, { where: { companyId, [itemColumn]: In(itemIds) } as never, order: { id: 'ASC' } as never })
    : Promise.resolve([]);

/** Marks an ACTIVE settlement REVERSED (conditional on status and version). */
export async function reverseSettlementIf<R extends OpenItemSettlement>(
  em: EntityManager,
  target: EntityTarget<R>,
  companyId: number,
  id: number,
  version: number,
  values: { reversedAt: Date; reversedBy: string; reversalReason: string },
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(target)
    .set({ ...values, status: 'REVERSED', updatedAt: () => sqlNow(), version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :active AND version = :version', { id, companyId, active: 'ACTIVE', version })
    .execute();
  return (result.affected ?? 0) > 0;
}
