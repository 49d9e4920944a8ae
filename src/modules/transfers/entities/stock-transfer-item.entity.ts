import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** One product of a transfer: the units and the sending filial's average cost they leave at. */
@Entity('stock_transfer_item')
@Index('ix_stock_transfer_item_transfer', ['companyId', 'transferId'])
export class StockTransferItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'transfer_id' })
  transferId!: number;

  @IdColumn({ name: 'line_number' })
  lineNumber!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @QuantityColumn()
  quantity!: Dec;

  /** The sending filial's average cost when the transfer was made: the NF-e's vUnCom. */
  @PriceColumn({ name: 'unit_cost' })
  unitCost!: Dec;

  @AmountColumn()
  total!: Dec;
}
