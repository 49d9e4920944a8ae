import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** STATIC: a BR Code with the key, amount and a txid (no PSP call) · IMMEDIATE: a `cob` · DUE_DATE: a `cobv`. */
export type PixChargeKind = 'STATIC' | 'IMMEDIATE' | 'DUE_DATE';
/** PENDING: sent, no answer yet · ACTIVE: payable · COMPLETED: paid (CONCLUIDA) · REMOVED: removed at the PSP · REFUSED: the PSP refused it. */
export type PixChargeStatus = 'PENDING' | 'ACTIVE' | 'COMPLETED' | 'REMOVED' | 'REFUSED';

/**
 * A Pix charge of a receivable (SPEC §14): its txid (unique in the company: the PSP's key of the
 * charge, and what every Pix paying it carries), the BR Code the payer scans (static payload, or the
 * dynamic one pointing at the PSP's location), the amount and, for a `cobv`, the due date and the
 * fine, interest and discount sent to the PSP.
 */
@Entity('pix_charge')
@Index('ux_pix_charge_txid', ['companyId', 'txid'], { unique: true })
@Index('ix_pix_charge_receivable', ['companyId', 'receivableId', 'id'])
export class PixCharge {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'receivable_id' })
  receivableId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @Column({ type: 'varchar', length: 10 })
  kind!: PixChargeKind;

  @Column({ type: 'varchar', length: 35 })
  txid!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: PixChargeStatus;

  @Column({ name: 'pix_key', type: 'varchar', length: 77 })
  pixKey!: string;

  @AmountColumn()
  amount!: Dec;

  @DateColumn({ name: 'due_date', nullable: true })
  dueDate!: string | null;

  /** cob: seconds the charge stays payable; cobv: days after the due date it is still accepted. */
  @Column({ type: 'int' })
  validity!: number;

  @DecimalColumn(7, 4, { name: 'fine_percent', default: '0.0000' })
  finePercent!: Dec;

  @DecimalColumn(7, 4, { name: 'interest_per_day_percent', default: '0.0000' })
  interestPerDayPercent!: Dec;

  @AmountColumn({ name: 'discount_amount' })
  discountAmount!: Dec;

  @DateColumn({ name: 'discount_date', nullable: true })
  discountDate!: string | null;

  /** The PSP's payload location (dynamic charges). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  location!: string | null;

  /** The BR Code ("Pix copia e cola"); null until the PSP answered a dynamic charge. */
  @Column({ name: 'br_code', type: 'varchar', length: 512, nullable: true })
  brCode!: string | null;

  @Column({ name: 'refusal_reason', type: 'varchar', length: 500, nullable: true })
  refusalReason!: string | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
