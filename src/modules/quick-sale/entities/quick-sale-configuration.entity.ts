import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DecimalColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** The counter flow's settings of one filial (SPEC §7). */
@Entity('quick_sale_configuration')
@Index('uq_quick_sale_configuration_filial', ['companyId', 'filialId'], { unique: true })
export class QuickSaleConfiguration {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  @Column({ name: 'default_customer_id', type: 'int', nullable: true })
  defaultCustomerId!: number | null;

  @Column({ name: 'default_seller_id', type: 'int', nullable: true })
  defaultSellerId!: number | null;

  /** Payment method codes accepted at the counter. */
  @JsonColumn({ name: 'payment_methods' })
  paymentMethods!: string[];

  @Column({ name: 'default_payment_method', type: 'varchar', length: 30, nullable: true })
  defaultPaymentMethod!: string | null;

  /** Overrides the filial's setting for counter sales. */
  @Column({ name: 'allow_negative_stock', type: 'boolean', default: false })
  allowNegativeStock!: boolean;

  @Column({ name: 'require_customer', type: 'boolean', default: false })
  requireCustomer!: boolean;

  @DecimalColumn(7, 4, { name: 'max_discount_percent', default: '0.0000' })
  maxDiscountPercent!: Dec;

  /** Sales only in an open cash session of the terminal they name (docs/decisions/cash-sessions.md). */
  @Column({ name: 'require_cash_session', type: 'boolean', default: false })
  requireCashSession!: boolean;

  /** A close's difference (per method, either way) above this waits for a supervisor's approval. */
  @AmountColumn({ name: 'cash_difference_limit' })
  cashDifferenceLimit!: Dec;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
