import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { MovementDirection } from './stock-movement.entity';

/** The third-party stock ledger: append-only, signed quantity and value (IN > 0, OUT < 0). */
@Entity('third_party_stock_movement')
@Index('ix_third_party_stock_movement_product', ['companyId', 'filialId', 'productId', 'id'])
@Index('ix_third_party_stock_movement_reference', ['companyId', 'referenceType', 'referenceId'])
export class ThirdPartyStockMovement {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @Column({ name: 'owner_document', type: 'varchar', length: 14 })
  ownerDocument!: string;

  @Column({ type: 'varchar', length: 3 })
  direction!: MovementDirection;

  @Column({ type: 'varchar', length: 40 })
  reason!: string;

  @QuantityColumn()
  quantity!: Dec;

  @AmountColumn()
  value!: Dec;

  @QuantityColumn({ name: 'balance_after' })
  balanceAfter!: Dec;

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
