import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * OPEN: the drawer is in use (sales and movements attach to it); PENDING_APPROVAL: counted, a
 * difference above the limit waits for a supervisor; CLOSED: counted and settled (a supervisor may
 * reopen it with a reason).
 */
export type CashSessionStatus = 'OPEN' | 'PENDING_APPROVAL' | 'CLOSED';
export const CASH_SESSION_STATUSES: CashSessionStatus[] = ['OPEN', 'PENDING_APPROVAL', 'CLOSED'];

/** One payment method at the close: what the session's sales and movements say, what was counted. */
export interface ClosingLine {
  method: string;
  kind: string;
  expected: string;
  counted: string;
  difference: string;
}

/** One operator's shift at one terminal (docs/decisions/cash-sessions.md). */
@Entity('cash_session')
// One open session per terminal: `open_terminal` is the terminal while OPEN, NULL after (NULLs never collide).
@Index('uq_cash_session_open_terminal', ['companyId', 'filialId', 'openTerminal'], { unique: true })
@Index('ix_cash_session_terminal', ['companyId', 'filialId', 'terminalId', 'id'])
@Index('ix_cash_session_filial_opened', ['companyId', 'filialId', 'openedAt'])
@Index('ix_cash_session_status', ['status'])
@Index('ix_cash_session_difference', ['companyId', 'filialId', 'withDifference', 'id'])
export class CashSession {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** The terminal (PDV/caixa) code of the filial, e.g. "CX01". */
  @Column({ name: 'terminal_id', type: 'varchar', length: 20 })
  terminalId!: string;

  @Column({ name: 'open_terminal', type: 'varchar', length: 20, nullable: true })
  openTerminal!: string | null;

  /** The operator who has the drawer (the user's id, as the token's `sub`). */
  @Column({ name: 'operator_id', type: 'varchar', length: 64 })
  operatorId!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: CashSessionStatus;

  /** The cash counted in the drawer at the opening. */
  @AmountColumn({ name: 'opening_float' })
  openingFloat!: Dec;

  /** The terminal's previous counted session, whose counted cash the opening is compared with. */
  @Column({ name: 'previous_session_id', type: 'int', nullable: true })
  previousSessionId!: number | null;

  @AmountColumn({ name: 'previous_closing_cash', nullable: true, default: null })
  previousClosingCash!: Dec | null;

  /** openingFloat − previousClosingCash, recorded once at the opening (null without a previous close). */
  @AmountColumn({ name: 'opening_difference', nullable: true, default: null })
  openingDifference!: Dec | null;

  @DateTimeColumn({ name: 'opened_at' })
  openedAt!: Date;

  @Column({ name: 'opened_by', type: 'varchar', length: 64 })
  openedBy!: string;

  @DateTimeColumn({ name: 'closed_at', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'closed_by', type: 'varchar', length: 64, nullable: true })
  closedBy!: string | null;

  /** Expected, counted and difference per payment method, written by the close (null while open). */
  @JsonColumn({ nullable: true })
  closing!: ClosingLine[] | null;

  @AmountColumn({ name: 'expected_cash', nullable: true, default: null })
  expectedCash!: Dec | null;

  @AmountColumn({ name: 'counted_cash', nullable: true, default: null })
  countedCash!: Dec | null;

  /** Σ of the close's differences (counted − expected) over every method. */
  @AmountColumn({ name: 'closing_difference', nullable: true, default: null })
  closingDifference!: Dec | null;

  /** Some method's difference at the close is not zero (a list filter: decimals are never compared in SQL). */
  @Column({ name: 'with_difference', type: 'boolean', default: false })
  withDifference!: boolean;

  /** The difference limit in force at the close (the quick-sale configuration's). */
  @AmountColumn({ name: 'difference_limit', nullable: true, default: null })
  differenceLimit!: Dec | null;

  @DateTimeColumn({ name: 'approved_at', nullable: true })
  approvedAt!: Date | null;

  @Column({ name: 'approved_by', type: 'varchar', length: 64, nullable: true })
  approvedBy!: string | null;

  @Column({ name: 'approval_note', type: 'varchar', length: 255, nullable: true })
  approvalNote!: string | null;

  @Column({ name: 'reopen_count', type: 'int', default: 0 })
  reopenCount!: number;

  @DateTimeColumn({ name: 'reopened_at', nullable: true })
  reopenedAt!: Date | null;

  @Column({ name: 'reopen_reason', type: 'varchar', length: 255, nullable: true })
  reopenReason!: string | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
