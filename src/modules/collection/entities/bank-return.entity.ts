import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, IdColumn, JsonColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** An uploaded retorno file and the report of what it did. */
@Entity('bank_return')
@Index('ix_bank_return_account', ['companyId', 'bankAccountId', 'id'])
export class BankReturn {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @Column({ name: 'file_number', type: 'int', nullable: true })
  fileNumber!: number | null;

  @Column({ name: 'content_sha256', type: 'varchar', length: 64 })
  contentSha256!: string;

  @Column({ name: 'occurrence_count', type: 'int' })
  occurrenceCount!: number;

  /** Counts by outcome (applied, duplicate, unknown, refused, flagged, ignored). */
  @JsonColumn()
  summary!: Record<string, number>;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}

export const OCCURRENCE_OUTCOMES = ['APPLIED', 'REFUSED', 'FLAGGED', 'UNKNOWN', 'IGNORED'] as const;
export type OccurrenceOutcome = (typeof OCCURRENCE_OUTCOMES)[number];

/**
 * One occurrence of a retorno, applied at most once: `occurrenceKey` (bank, agência/conta, nosso
 * número, occurrence code, occurrence date, amount in cents) is unique in the company, so the same
 * occurrence in a second file, or in two files at once, finds its first row and applies nothing.
 */
@Entity('bank_return_occurrence')
@Index('ux_bank_return_occurrence_key', ['companyId', 'occurrenceKey'], { unique: true })
@Index('ix_bank_return_occurrence_boleto', ['companyId', 'boletoId', 'id'])
export class BankReturnOccurrence {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'bank_return_id' })
  bankReturnId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @Column({ name: 'occurrence_key', type: 'varchar', length: 100 })
  occurrenceKey!: string;

  @Column({ name: 'nosso_numero', type: 'varchar', length: 20 })
  nossoNumero!: string;

  @Column({ name: 'occurrence_code', type: 'varchar', length: 2 })
  occurrenceCode!: string;

  @DateColumn({ name: 'occurrence_date' })
  occurrenceDate!: string;

  @AmountColumn({ name: 'paid_amount' })
  paidAmount!: Dec;

  @IdColumn({ name: 'boleto_id', nullable: true })
  boletoId!: number | null;

  @IdColumn({ name: 'receipt_id', nullable: true })
  receiptId!: number | null;

  @Column({ type: 'varchar', length: 10 })
  outcome!: OccurrenceOutcome;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reason!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
