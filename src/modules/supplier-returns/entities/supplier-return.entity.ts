import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/**
 * ISSUED: our NF-e de devolução is signed / with the authority (its quantities reserved) ·
 * AUTHORIZED: posted (stock out, credits reversed, payables abated) · REJECTED: the authority refused
 * it, the number may still be corrected and re-sent (quantities still reserved) · DENIED / VOIDED: the
 * number is spent or voided, nothing was posted, the quantities are free again · FAILED: no NF-e could
 * be stored for it (certificate, fiscal data), the quantities are free again · CANCELLED: the
 * authorized NF-e was cancelled (110111) and every posting reversed.
 */
export type SupplierReturnStatus = 'ISSUED' | 'AUTHORIZED' | 'REJECTED' | 'DENIED' | 'VOIDED' | 'FAILED' | 'CANCELLED';

/** A return of purchased goods to their supplier (devolução de compra, SPEC §8, §12.4). */
@Entity('supplier_return')
@Index('uq_supplier_return_code', ['companyId', 'code'], { unique: true })
@Index('ix_supplier_return_filial', ['companyId', 'filialId', 'id'])
@Index('ix_supplier_return_document', ['companyId', 'entryDocumentId', 'status'])
@Index('ix_supplier_return_invoice', ['companyId', 'invoiceId'])
@Index('uq_supplier_return_request', ['companyId', 'requestKey'], { unique: true })
export class SupplierReturn {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** Sequential per company (sequence 'supplier-return-code'). */
  @Column({ type: 'int' })
  code!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  /** The supplier's NF-e our devolução references (refNFe); null for a manual entry document. */
  @Column({ name: 'referenced_key', type: 'varchar', length: 44, nullable: true })
  referencedKey!: string | null;

  @IdColumn({ name: 'supplier_id' })
  supplierId!: number;

  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  @Column({ name: 'supplier_name', type: 'varchar', length: 150 })
  supplierName!: string;

  @Column({ type: 'varchar', length: 12 })
  status!: SupplierReturnStatus;

  @Column({ type: 'varchar', length: 255 })
  reason!: string;

  /** Our NF-e de devolução (invoices module). */
  @IdColumn({ name: 'invoice_id', nullable: true })
  invoiceId!: number | null;

  @AmountColumn({ name: 'products_value' })
  productsValue!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  freight!: Dec;

  @AmountColumn()
  insurance!: Dec;

  @AmountColumn({ name: 'other_expenses' })
  otherExpenses!: Dec;

  @AmountColumn()
  icms!: Dec;

  @AmountColumn()
  ipi!: Dec;

  @AmountColumn({ name: 'icms_st' })
  icmsSt!: Dec;

  /** What the supplier owes back: the NF-e's total (vNF). */
  @AmountColumn()
  total!: Dec;

  /** The goods' value at the cost they entered with (what leaves the stock). */
  @AmountColumn({ name: 'stock_value' })
  stockValue!: Dec;

  @AmountColumn({ name: 'credit_icms' })
  creditIcms!: Dec;

  @AmountColumn({ name: 'credit_pis' })
  creditPis!: Dec;

  @AmountColumn({ name: 'credit_cofins' })
  creditCofins!: Dec;

  @AmountColumn({ name: 'credit_ipi' })
  creditIpi!: Dec;

  @AmountColumn({ name: 'credit_cbs' })
  creditCbs!: Dec;

  @AmountColumn({ name: 'credit_ibs' })
  creditIbs!: Dec;

  /** On authorization: what was taken off the purchase's payables, and what became a supplier credit. */
  @AmountColumn({ name: 'payables_deducted' })
  payablesDeducted!: Dec;

  @AmountColumn({ name: 'supplier_credit' })
  supplierCredit!: Dec;

  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  /** The Idempotency-Key of the request that registered it: a retry after a crash issues this return's NF-e, not a second return. */
  @Column({ name: 'request_key', type: 'varchar', length: 255, nullable: true })
  requestKey!: string | null;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
