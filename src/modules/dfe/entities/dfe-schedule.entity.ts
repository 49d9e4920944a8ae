import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';

export type ScheduleOutcome = 'OK' | 'PARTIAL' | 'WAITING' | 'BLOCKED' | 'NO_CERTIFICATE' | 'ERROR';

/** A summary the scheduler's automatic ciência was refused for (not retried). */
export interface CienciaRefusal {
  accessKey: string;
  cStat: string | null;
  message: string;
  at: string;
}

/**
 * The scheduled DF-e sync of one filial: when it runs next, who runs it now (a lease any replica may
 * take with a conditional update once it has expired) and what the last runs did. Where the filial
 * stands with the authority (NSU, waits, gaps) stays in `sefaz_dfe_state`.
 */
@Entity('sefaz_dfe_schedule')
@Index('uq_sefaz_dfe_schedule_filial', ['companyId', 'filialId'], { unique: true })
@Index('ix_sefaz_dfe_schedule_due', ['nextRunAt'])
export class DfeSchedule {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @DateTimeColumn({ name: 'next_run_at' })
  nextRunAt!: Date;

  /** The replica running it now; with `leaseUntil` in the past the lease is free to take. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 80, nullable: true })
  leaseOwner!: string | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;

  @DateTimeColumn({ name: 'last_run_started_at', nullable: true })
  lastRunStartedAt!: Date | null;

  @DateTimeColumn({ name: 'last_run_finished_at', nullable: true })
  lastRunFinishedAt!: Date | null;

  @Column({ name: 'last_outcome', type: 'varchar', length: 20, nullable: true })
  lastOutcome!: ScheduleOutcome | null;

  @Column({ name: 'last_cstat', type: 'varchar', length: 3, nullable: true })
  lastCStat!: string | null;

  /** The last answer's xMotivo, or the error of a failed run. */
  @Column({ name: 'last_message', type: 'varchar', length: 500, nullable: true })
  lastMessage!: string | null;

  @Column({ name: 'last_error_code', type: 'varchar', length: 60, nullable: true })
  lastErrorCode!: string | null;

  @DateTimeColumn({ name: 'last_error_at', nullable: true })
  lastErrorAt!: Date | null;

  @Column({ name: 'consecutive_errors', type: 'int', default: 0 })
  consecutiveErrors!: number;

  @Column({ type: 'int', default: 0 })
  runs!: number;

  /** Documents of the last run / of every run (summaries, full XML and events). */
  @Column({ name: 'last_received', type: 'int', default: 0 })
  lastReceived!: number;

  @Column({ name: 'total_received', type: 'int', default: 0 })
  totalReceived!: number;

  /** Ciências sent by the last run (auto-ciência). */
  @Column({ name: 'last_ciencias', type: 'int', default: 0 })
  lastCiencias!: number;

  /** Another system consuming the CNPJ's distribution (656 with another position, or though we waited). */
  @DateTimeColumn({ name: 'foreign_consumer_at', nullable: true })
  foreignConsumerAt!: Date | null;

  @Column({ name: 'foreign_consumer_reason', type: 'varchar', length: 500, nullable: true })
  foreignConsumerReason!: string | null;

  @Column({ name: 'foreign_consumer_detections', type: 'int', default: 0 })
  foreignConsumerDetections!: number;

  @JsonColumn({ name: 'ciencia_refusals', nullable: true })
  cienciaRefusals!: CienciaRefusal[] | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
