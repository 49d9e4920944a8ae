import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, DateTimeColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * One product of a count sheet. The counter enters `countedQuantity` without seeing the stock; the
 * balance at that moment is kept (`expectedQuantity`) so a sale between the count and the close is not
 * undone by the adjustment: the close posts counted − expected.
 */
@Entity('inventory_count_line')
@Index('uq_inventory_count_line', ['companyId', 'countId', 'productId'], { unique: true })
export class InventoryCountLine {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'count_id' })
  countId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @QuantityColumn({ name: 'counted_quantity', nullable: true, default: null })
  countedQuantity!: Dec | null;

  /** The balance when the line was counted (not shown to a counter). */
  @QuantityColumn({ name: 'expected_quantity', nullable: true, default: null })
  expectedQuantity!: Dec | null;

  @Column({ name: 'counted_by', type: 'varchar', length: 100, nullable: true })
  countedBy!: string | null;

  @DateTimeColumn({ name: 'counted_at', nullable: true })
  countedAt!: Date | null;

  /** At the close: the adjustment (counted − expected), the balance after it and its average cost, the value. */
  @QuantityColumn({ nullable: true, default: null })
  difference!: Dec | null;

  @QuantityColumn({ name: 'snapshot_quantity', nullable: true, default: null })
  snapshotQuantity!: Dec | null;

  @PriceColumn({ name: 'unit_cost', nullable: true, default: null })
  unitCost!: Dec | null;

  @AmountColumn({ name: 'snapshot_value', nullable: true, default: null })
  snapshotValue!: Dec | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reason!: string | null;
}
