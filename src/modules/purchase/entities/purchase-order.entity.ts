import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type PurchaseOrderStatus = 'DRAFT' | 'APPROVED' | 'PARTIALLY_RECEIVED' | 'RECEIVED' | 'CANCELLED' | 'CLOSED';
/** Who pays the freight (NF-e modFrete): CIF the supplier, FOB us, THIRD_PARTY someone else, NONE no transport. */
export type FreightTerms = 'CIF' | 'FOB' | 'THIRD_PARTY' | 'NONE';

/*
 * A purchase order (SPEC §9). `code` is what the supplier writes in the NF-e's xPed. The supplier is
 * kept as a snapshot (id, document, name) so receipts match by document without reading the catalog.
 */
@Entity('purchase_order')
@Index('uq_purchase_order_company_code', ['companyId', 'code'], { unique: true })
@Index('ix_purchase_order_filial_code', ['companyId', 'filialId', 'code'])
@Index('ix_purchase_order_filial_status', ['companyId', 'filialId', 'status', 'code'])
// Receipts look up the supplier's open orders of a filial (NF-e auto-link, open-items).
@Index('ix_purchase_order_filial_supplier', ['companyId', 'filialId', 'supplierDocument', 'status', 'code'])
@Index('ix_purchase_order_supplier', ['companyId', 'supplierId'])
export class PurchaseOrder {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** Sequential per company (sequence 'purchase-order-code'); unique, increasing, gaps possible. */
  @IdColumn()
  code!: number;

  @Column({ type: 'varchar', length: 20 })
  status!: PurchaseOrderStatus;

  @IdColumn({ name: 'supplier_id' })
  supplierId!: number;

  /** CNPJ/CPF digits (CNPJ may be alphanumeric). */
  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  @Column({ name: 'supplier_name', type: 'varchar', length: 150 })
  supplierName!: string;

  @DateColumn({ name: 'expected_date', nullable: true })
  expectedDate!: string | null;

  /** Payment terms: this many installments, one every `paymentDays` days from the invoice. */
  @Column({ name: 'payment_installments', type: 'int', nullable: true })
  paymentInstallments!: number | null;

  @Column({ name: 'payment_days', type: 'int', nullable: true })
  paymentDays!: number | null;

  @Column({ name: 'freight_terms', type: 'varchar', length: 12, nullable: true })
  freightTerms!: FreightTerms | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  notes!: string | null;

  /** Σ round(quantity × unit price, 2) of the lines. */
  @AmountColumn({ name: 'total_products' })
  totalProducts!: Dec;

  /** Σ line discounts. */
  @AmountColumn({ name: 'total_discount' })
  totalDiscount!: Dec;

  /** products − discount. */
  @AmountColumn()
  total!: Dec;

  @DateTimeColumn({ name: 'approved_at', nullable: true })
  approvedAt!: Date | null;

  @Column({ name: 'approved_by', type: 'varchar', length: 100, nullable: true })
  approvedBy!: string | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 500, nullable: true })
  cancelReason!: string | null;

  @DateTimeColumn({ name: 'closed_at', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'close_reason', type: 'varchar', length: 500, nullable: true })
  closeReason!: string | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
