import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';

export type BatchFileStatus = 'PENDING' | 'STAGED' | 'DUPLICATE' | 'INVALID';

/**
 * One file of a batch upload: its name as it came, its content (gzip) until it has an outcome, and
 * that outcome — STAGED (a new record or the XML of a known summary, or an event applied), DUPLICATE
 * (its access key's XML or its event was already there: batch, feed or upload) or INVALID with a
 * problem code.
 */
@Entity('nfe_batch_file')
@Index('uq_nfe_batch_file_seq', ['companyId', 'jobId', 'seq'], { unique: true })
@Index('ix_nfe_batch_file_pending', ['companyId', 'jobId', 'status', 'phase', 'seq'])
@Index('ix_nfe_batch_file_order', ['companyId', 'jobId', 'processedOrder'])
export class NfeBatchFile {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'job_id' })
  jobId!: number;

  /** Position in the upload (1-based). */
  @Column({ type: 'int' })
  seq!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'int' })
  size!: number;

  /** NFE, EVENT, CTE… (the document's root element decides); null when it is not a document at all. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  kind!: string | null;

  /** Processing order: NF-e before the events that refer to them. */
  @Column({ type: 'int', default: 0 })
  phase!: number;

  @BlobColumn({ name: 'content_gz', nullable: true, select: false })
  contentGz!: Buffer | null;

  @Column({ type: 'varchar', length: 10 })
  status!: BatchFileStatus;

  @Column({ name: 'access_key', type: 'varchar', length: 44, nullable: true })
  accessKey!: string | null;

  @Column({ name: 'inbound_id', type: 'int', nullable: true })
  inboundId!: number | null;

  /** A CT-e file: the CT-e record it was staged as (or that already held its key). */
  @Column({ name: 'cte_id', type: 'int', nullable: true })
  cteId!: number | null;

  @Column({ name: 'problem_code', type: 'varchar', length: 60, nullable: true })
  problemCode!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  message!: string | null;

  /** The order outcomes were reached in (the job's `processed` after this file): the progress stream's cursor. */
  @Column({ name: 'processed_order', type: 'int', nullable: true })
  processedOrder!: number | null;

  @DateTimeColumn({ name: 'processed_at', nullable: true })
  processedAt!: Date | null;
}
