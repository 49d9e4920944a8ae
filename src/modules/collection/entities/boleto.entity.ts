import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import {
  AmountColumn,
  CreatedAtColumn,
  DateColumn,
  DateTimeColumn,
  DecimalColumn,
  IdColumn,
  UpdatedAtColumn,
} from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { BankCode } from '../banks/banks';

export const BOLETO_STATUSES = [
  'PENDING_REGISTRATION',
  'REGISTERED',
  'REFUSED',
  'PAID',
  'PARTIALLY_PAID',
  'WRITTEN_OFF',
  'PROTESTED',
  'CANCELLED',
] as const;
export type BoletoStatus = (typeof BOLETO_STATUSES)[number];

/**
 * A registered boleto of a receivable (SPEC §14): its nosso número (unique per account: a number is
 * never reused), the barcode and linha digitável computed once when issued, the title's terms sent
 * to the bank (value, due date, fine, interest, discount) and its status as the bank's returns move
 * it (boleto.state.ts). `reviewReason` flags a title a return could not settle by itself (a payment
 * after a write-off, a payment above what is open).
 */
@Entity('boleto')
@Index('ux_boleto_nosso_numero', ['companyId', 'bankAccountId', 'nossoNumero'], { unique: true })
@Index('ix_boleto_receivable', ['companyId', 'receivableId', 'id'])
@Index('ix_boleto_account_status', ['companyId', 'bankAccountId', 'status', 'id'])
export class Boleto {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @IdColumn({ name: 'receivable_id' })
  receivableId!: number;

  @Column({ name: 'bank_code', type: 'varchar', length: 3 })
  bankCode!: BankCode;

  /** The value of core/sequence the nosso número was built from. */
  @Column({ type: 'int' })
  sequence!: number;

  @Column({ name: 'nosso_numero', type: 'varchar', length: 20 })
  nossoNumero!: string;

  @Column({ name: 'nosso_numero_dv', type: 'varchar', length: 1 })
  nossoNumeroDv!: string;

  @Column({ name: 'nosso_numero_printed', type: 'varchar', length: 30 })
  nossoNumeroPrinted!: string;

  /** Número do documento: the receivable as the payer knows it (order code / installment). */
  @Column({ name: 'document_number', type: 'varchar', length: 15 })
  documentNumber!: string;

  @AmountColumn()
  amount!: Dec;

  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @DateColumn({ name: 'due_date' })
  dueDate!: string;

  @Column({ type: 'varchar', length: 44 })
  barcode!: string;

  @Column({ name: 'digitable_line', type: 'varchar', length: 47 })
  digitableLine!: string;

  @DecimalColumn(7, 4, { name: 'fine_percent', default: '0.0000' })
  finePercent!: Dec;

  @DecimalColumn(7, 4, { name: 'interest_per_day_percent', default: '0.0000' })
  interestPerDayPercent!: Dec;

  @AmountColumn({ name: 'discount_amount' })
  discountAmount!: Dec;

  @DateColumn({ name: 'discount_date', nullable: true })
  discountDate!: string | null;

  @Column({ name: 'protest_days', type: 'int', nullable: true })
  protestDays!: number | null;

  @Column({ name: 'write_off_days', type: 'int', nullable: true })
  writeOffDays!: number | null;

  @Column({ type: 'varchar', length: 24 })
  status!: BoletoStatus;

  /** The bank's reason when it refused the registration (retorno rejeição). */
  @Column({ name: 'refusal_reason', type: 'varchar', length: 255, nullable: true })
  refusalReason!: string | null;

  /** Set when a return occurrence needs a person (payment after write-off, above the balance …). */
  @Column({ name: 'review_reason', type: 'varchar', length: 255, nullable: true })
  reviewReason!: string | null;

  /** What the bank reported paid (liquidações applied), interest and fine included. */
  @AmountColumn({ name: 'paid_amount' })
  paidAmount!: Dec;

  @DateTimeColumn({ name: 'registered_at', nullable: true })
  registeredAt!: Date | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
