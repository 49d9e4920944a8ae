import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type PayableStatus = 'OPEN' | 'PARTIALLY_PAID' | 'PAID' | 'CANCELLED';
/** ENTRY_DOCUMENT: an installment of a confirmed entry document · CTE: the carrier's freight (SPEC §4b). */
export type PayableSource = 'ENTRY_DOCUMENT' | 'CTE';

/**
 * Accounts payable (SPEC §3): one per installment of a confirmed entry document, or of a CT-e the
 * filial pays (the carrier as supplier). `overdue` is derived.
 */
@Entity('payable')
@Index('ix_payable_filial_due', ['companyId', 'filialId', 'dueDate', 'id'])
@Index('ix_payable_filial_status_due', ['companyId', 'filialId', 'status', 'dueDate', 'id'])
@Index('ix_payable_document', ['companyId', 'entryDocumentId', 'installmentNumber'])
@Index('ix_payable_supplier', ['companyId', 'supplierId'])
@Index('ix_payable_cte', ['companyId', 'cteId'])
export class Payable {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** The entry document (null for a CT-e's payable). */
  @IdColumn({ name: 'entry_document_id', nullable: true })
  entryDocumentId!: number | null;

  @Column({ name: 'source_type', type: 'varchar', length: 16, default: 'ENTRY_DOCUMENT' })
  sourceType!: PayableSource;

  /** The CT-e (source CTE). */
  @IdColumn({ name: 'cte_id', nullable: true })
  cteId!: number | null;

  @IdColumn({ name: 'supplier_id' })
  supplierId!: number;

  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  @Column({ name: 'supplier_name', type: 'varchar', length: 150 })
  supplierName!: string;

  /** The entry document's number (and series) as the supplier printed it. */
  @Column({ name: 'document_number', type: 'varchar', length: 20 })
  documentNumber!: string;

  @Column({ name: 'installment_number', type: 'int' })
  installmentNumber!: number;

  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @DateColumn({ name: 'due_date' })
  dueDate!: string;

  @AmountColumn()
  amount!: Dec;

  @AmountColumn({ name: 'paid_amount' })
  paidAmount!: Dec;

  @Column({ type: 'varchar', length: 16 })
  status!: PayableStatus;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
