import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

export type BatchJobStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

/**
 * A batch upload of XML files (a ZIP or a multipart set) for one filial: its files are staged one by
 * one, each in its own transaction with its outcome and these counters. A process works on it under a
 * lease; a dead process's lease expires and another resumes with the files still PENDING.
 */
@Entity('nfe_batch_job')
@Index('ix_nfe_batch_job_filial', ['companyId', 'filialId', 'id'])
@Index('ix_nfe_batch_job_status', ['status', 'leaseUntil'])
export class NfeBatchJob {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: BatchJobStatus;

  /** ZIP or MULTIPART. */
  @Column({ type: 'varchar', length: 10 })
  format!: 'ZIP' | 'MULTIPART';

  @Column({ name: 'upload_sha256', type: 'varchar', length: 64 })
  uploadSha256!: string;

  @Column({ type: 'int' })
  total!: number;

  /** Files with an outcome (staged + duplicates + invalid). */
  @Column({ type: 'int', default: 0 })
  processed!: number;

  @Column({ type: 'int', default: 0 })
  staged!: number;

  @Column({ type: 'int', default: 0 })
  duplicates!: number;

  @Column({ type: 'int', default: 0 })
  invalid!: number;

  @Column({ name: 'lease_owner', type: 'varchar', length: 80, nullable: true })
  leaseOwner!: string | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;

  /** Why the job failed as a whole (files keep their own outcomes). */
  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  /** The user who uploaded it: the actor of the records it stages. */
  @Column({ name: 'created_by', type: 'varchar', length: 120 })
  createdBy!: string;

  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId!: string | null;

  @DateTimeColumn({ name: 'started_at', nullable: true })
  startedAt!: Date | null;

  @DateTimeColumn({ name: 'finished_at', nullable: true })
  finishedAt!: Date | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
