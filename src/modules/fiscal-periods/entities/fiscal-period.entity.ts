import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';

/** OPEN: documents dated in the month may change; CLOSED: nothing dated in it changes (SPEC §15). */
export type FiscalPeriodStatus = 'OPEN' | 'CLOSED';
export const FISCAL_PERIOD_STATUSES: readonly FiscalPeriodStatus[] = ['OPEN', 'CLOSED'];

/** A document the close found inside a legal window, acknowledged when the period was closed with `force`. */
export interface AcknowledgedPending {
  kind: string;
  model: number | null;
  series: number | null;
  number: number | null;
  accessKey: string | null;
  reason: string;
}

/**
 * One month of one filial (issue 47): the row exists once the month was first closed; a month with no
 * row is OPEN. Closing and reopening move the same row (version, audit trail, events).
 */
@Entity('fiscal_period')
@Index('ux_fiscal_period', ['companyId', 'filialId', 'period'], { unique: true })
export class FiscalPeriod {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** 'YYYY-MM', the calendar month in America/Sao_Paulo. */
  @Column({ type: 'varchar', length: 7 })
  period!: string;

  @Column({ type: 'varchar', length: 8 })
  status!: FiscalPeriodStatus;

  @DateTimeColumn({ name: 'closed_at', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'closed_by', type: 'varchar', length: 100, nullable: true })
  closedBy!: string | null;

  /** What the last close acknowledged (closed with force while these were still inside a legal window). */
  @JsonColumn({ name: 'acknowledged', nullable: true })
  acknowledged!: AcknowledgedPending[] | null;

  @DateTimeColumn({ name: 'reopened_at', nullable: true })
  reopenedAt!: Date | null;

  @Column({ name: 'reopened_by', type: 'varchar', length: 100, nullable: true })
  reopenedBy!: string | null;

  @Column({ name: 'reopen_reason', type: 'varchar', length: 500, nullable: true })
  reopenReason!: string | null;

  /** How many times the month was closed (a reopened month closes again). */
  @IdColumn({ name: 'close_count', default: 0 })
  closeCount!: number;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
