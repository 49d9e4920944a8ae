import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type ReceiptStatus = 'ACTIVE' | 'REVERSED';

/**
 * One receipt of a receivable (SPEC §13), as a payable's payment: `amount` is the part of the
 * receivable it settles; interest (juros) and fine (multa) come on top and a discount (desconto) is
 * granted off, so the money that came in is `total = amount + interest + fine − discount`. A
 * reversal keeps the row (REVERSED). Cash and Pix at the counter are born with one. A receipt a bank
 * return (collection) records carries the bank's fee and the credit date too.
 */
@Entity('receivable_receipt')
@Index('ix_receivable_receipt_receivable', ['companyId', 'receivableId', 'id'])
@Index('ix_receivable_receipt_filial_date', ['companyId', 'filialId', 'receiptDate', 'id'])
export class ReceivableReceipt {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'receivable_id' })
  receivableId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: ReceiptStatus;

  @DateColumn({ name: 'receipt_date' })
  receiptDate!: string;

  @IdColumn({ name: 'payment_method_id' })
  paymentMethodId!: number;

  /** The tenant's code of the method when received (the master row may be renamed later). */
  @Column({ name: 'payment_method_code', type: 'varchar', length: 30 })
  paymentMethodCode!: string;

  @AmountColumn()
  amount!: Dec;

  @AmountColumn()
  interest!: Dec;

  @AmountColumn()
  fine!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  total!: Dec;

  /** The bank's fee on a collected title (tarifa), deducted from what is credited; `total` stays what the payer paid. */
  @AmountColumn({ name: 'bank_fee' })
  bankFee!: Dec;

  /** When the money reaches the account (data de crédito of a bank return); null when received in hand. */
  @DateColumn({ name: 'credit_date', nullable: true })
  creditDate!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @Column({ name: 'reversed_by', type: 'varchar', length: 100, nullable: true })
  reversedBy!: string | null;

  @Column({ name: 'reversal_reason', type: 'varchar', length: 255, nullable: true })
  reversalReason!: string | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
