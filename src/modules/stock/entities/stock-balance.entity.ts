import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IdColumn, PriceColumn, QuantityColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** Quantity and weighted average cost of one product in one filial; always the sum of its movements. */
@Entity('stock_balance')
@Index('uq_stock_balance', ['companyId', 'filialId', 'productId'], { unique: true })
export class StockBalance {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @QuantityColumn()
  quantity!: Dec;

  @PriceColumn({ name: 'average_cost' })
  averageCost!: Dec;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
