import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DecimalColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

export type PurchaseToleranceMode = 'BLOCK' | 'WARN';

@Entity('company')
export class Company {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Index('uq_company_cnpj', { unique: true })
  @Column({ type: 'varchar', length: 14 })
  cnpj!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Three-way match (SPEC §9): received quantity may exceed the open quantity by this percentage. */
  @DecimalColumn(7, 4, { name: 'purchase_quantity_tolerance_pct', default: '0.0000' })
  purchaseQuantityTolerancePct!: Dec;

  /** Three-way match: the invoice's unit price may exceed the order's by this percentage. */
  @DecimalColumn(7, 4, { name: 'purchase_price_tolerance_pct', default: '2.0000' })
  purchasePriceTolerancePct!: Dec;

  /** BLOCK: divergences beyond tolerance block confirmation; WARN: they are warnings only. */
  @Column({ name: 'purchase_tolerance_mode', type: 'varchar', length: 5, default: 'BLOCK' })
  purchaseToleranceMode!: PurchaseToleranceMode;

  /** Optimistic lock of the settings (PATCH /settings/company). */
  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;
}
