import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** APPLIED: it became a receipt · REVIEW: flagged for a person, no receipt (reviewReason) · REFUNDED: wholly returned to the payer. */
export type PixPaymentStatus = 'APPLIED' | 'REVIEW' | 'REFUNDED';

/**
 * One Pix received (SPEC §14), as the PSP reported it on re-reading: its endToEndId is unique in the
 * company, so a Pix is applied once however many callbacks, re-reads or concurrent deliveries name it.
 * `amount` is what the payer paid (`valor`); for a `cobv` its parts: `original` settles the
 * receivable, interest and fine come on top, the discount off.
 */
@Entity('pix_payment')
@Index('ux_pix_payment_e2e', ['companyId', 'endToEndId'], { unique: true })
@Index('ix_pix_payment_charge', ['companyId', 'chargeId', 'id'])
@Index('ix_pix_payment_filial_status', ['companyId', 'filialId', 'status', 'id'])
export class PixPayment {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @Column({ name: 'end_to_end_id', type: 'varchar', length: 32 })
  endToEndId!: string;

  @Column({ type: 'varchar', length: 35, nullable: true })
  txid!: string | null;

  @IdColumn({ name: 'charge_id', nullable: true })
  chargeId!: number | null;

  @IdColumn({ name: 'receivable_id', nullable: true })
  receivableId!: number | null;

  @IdColumn({ name: 'receipt_id', nullable: true })
  receiptId!: number | null;

  @AmountColumn()
  amount!: Dec;

  @AmountColumn({ name: 'original_amount' })
  originalAmount!: Dec;

  @AmountColumn()
  interest!: Dec;

  @AmountColumn()
  fine!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn({ name: 'refunded_amount' })
  refundedAmount!: Dec;

  @DateTimeColumn({ name: 'paid_at' })
  paidAt!: Date;

  @Column({ type: 'varchar', length: 10 })
  status!: PixPaymentStatus;

  /** Why it needs a person: RECEIVABLE_SETTLED, EXCEEDS_BALANCE, BOLETO_PAID, UNKNOWN_TXID, RECEIVABLE_CANCELLED, PAYMENT_METHOD_UNAVAILABLE. */
  @Column({ name: 'review_reason', type: 'varchar', length: 40, nullable: true })
  reviewReason!: string | null;

  @Column({ name: 'payer_info', type: 'varchar', length: 140, nullable: true })
  payerInfo!: string | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
