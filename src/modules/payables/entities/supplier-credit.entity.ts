import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { DeductionSource } from './payable-deduction.entity';

/** OPEN: the supplier owes it to us · CANCELLED: its source was undone (the return's NF-e cancelled). */
export type SupplierCreditStatus = 'OPEN' | 'CANCELLED';

/**
 * What a supplier return is worth beyond the supplier's open payables of that purchase (it was paid
 * already): a credit the supplier owes us, to be refunded or set off against a later purchase.
 */
@Entity('supplier_credit')
@Index('ix_supplier_credit_supplier', ['companyId', 'supplierId', 'id'])
@Index('ix_supplier_credit_source', ['companyId', 'sourceType', 'sourceId'])
export class SupplierCredit {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'supplier_id' })
  supplierId!: number;

  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  /** The purchase whose payables could not take the whole return. */
  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @Column({ name: 'source_type', type: 'varchar', length: 20 })
  sourceType!: DeductionSource;

  @IdColumn({ name: 'source_id' })
  sourceId!: number;

  @AmountColumn()
  amount!: Dec;

  @Column({ type: 'varchar', length: 10 })
  status!: SupplierCreditStatus;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
