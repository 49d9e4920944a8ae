import { EntityManager } from 'typeorm';
import { Dec } from '../../core/decimal';
import { StockTransferItem } from './entities/stock-transfer-item.entity';
import { StockTransfer, TransferStatus } from './entities/stock-transfer.entity';

/** SQL of transfers; every query filtered by company. */

export const findTransfer = (em: EntityManager, companyId: number, id: number) => em.findOneBy(StockTransfer, { id, companyId });

export const itemsOf = (em: EntityManager, companyId: number, transferId: number) =>
  em.find(StockTransferItem, { where: { companyId, transferId }, order: { lineNumber: 'ASC' } });

/** Units of each product held by the filial's transfers whose NF-e is still being issued (not yet out of the ledger). */
export async function heldUnits(em: EntityManager, companyId: number, filialId: number, productIds: number[]): Promise<Map<number, Dec>> {
  const rows: { productId: number; quantity: string }[] = await em
    .createQueryBuilder(StockTransferItem, 'i')
    .innerJoin(StockTransfer, 't', 't.id = i.transfer_id AND t.company_id = i.company_id')
    .select('i.product_id', 'productId')
    .addSelect('SUM(i.quantity)', 'quantity')
    .where('i.company_id = :companyId AND t.from_filial_id = :filialId AND t.status = :status AND i.product_id IN (:...productIds)', {
      companyId,
      filialId,
      status: 'ISSUING',
      productIds,
    })
    .groupBy('i.product_id')
    .getRawMany();
  return new Map(rows.map((r) => [Number(r.productId), new Dec(String(r.quantity))]));
}

export async function insertTransfer(
  em: EntityManager,
  transfer: Partial<StockTransfer>,
  items: Partial<StockTransferItem>[],
): Promise<number> {
  const res = await em.insert(StockTransfer, transfer as never);
  const id = Number(res.identifiers[0].id);
  await em.insert(StockTransferItem, items.map((i) => ({ ...i, transferId: id })) as never);
  return id;
}

/** Conditional status change; false when the transfer was not in `from` any more. */
export async function moveStatus(
  em: EntityManager,
  companyId: number,
  id: number,
  from: TransferStatus,
  values: Partial<StockTransfer>,
): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(StockTransfer)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :from', { id, companyId, from })
    .execute();
  return (res.affected ?? 0) > 0;
}
