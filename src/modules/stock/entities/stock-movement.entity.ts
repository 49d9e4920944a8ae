import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type MovementDirection = 'IN' | 'OUT';

/** The ledger: append-only; `quantity` is signed (IN > 0, OUT < 0) so a balance is a plain sum. */
@Entity('stock_movement')
@Index('ix_stock_movement_product', ['companyId', 'filialId', 'productId', 'id'])
@Index('ix_stock_movement_reference', ['companyId', 'referenceType', 'referenceId'])
export class StockMovement {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @Column({ type: 'varchar', length: 3 })
  direction!: MovementDirection;

  /** Why it moved: ENTRY_DOCUMENT, ENTRY_DOCUMENT_CANCEL, SALE, RETURN, OPENING_BALANCE, ADJUSTMENT… */
  @Column({ type: 'varchar', length: 40 })
  reason!: string;

  @QuantityColumn()
  quantity!: Dec;

  @PriceColumn({ name: 'unit_cost' })
  unitCost!: Dec;

  @QuantityColumn({ name: 'balance_after' })
  balanceAfter!: Dec;

  @PriceColumn({ name: 'average_cost_after' })
  averageCostAfter!: Dec;

  /**
   * Value-only adjustment (quantity 0): the amount added to (IN) or taken from (OUT) the value of
   * the stock, e.g. freight apportioned after the goods entered. 0 on quantity movements.
   */
  @AmountColumn({ name: 'value_adjustment' })
  valueAdjustment!: Dec;

  @Column({ name: 'reference_type', type: 'varchar', length: 40 })
  referenceType!: string;

  @IdColumn({ name: 'reference_id' })
  referenceId!: number;

  @Column({ name: 'reference_line_id', type: 'int', nullable: true })
  referenceLineId!: number | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
