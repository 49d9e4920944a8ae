import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';

/** QUEUED: waiting for the worker; RUNNING: being written; READY: validated, downloadable; BLOCKED: written but a blocking finding keeps it from release; FAILED: could not be written. */
export type SpedFileStatus = 'QUEUED' | 'RUNNING' | 'READY' | 'BLOCKED' | 'FAILED';
export const SPED_FILE_STATUSES: readonly SpedFileStatus[] = ['QUEUED', 'RUNNING', 'READY', 'BLOCKED', 'FAILED'];

export interface SpedFinding {
  severity: 'BLOCKING' | 'WARNING';
  code: string;
  message: string;
  register?: string;
  line?: number;
}

/** One EFD ICMS/IPI file requested for a filial's month: the job row, the file (gzip, ISO-8859-1 bytes), its trace and its findings. */
@Entity('sped_file')
@Index('ix_sped_file_filial', ['companyId', 'filialId', 'period', 'id'])
@Index('ix_sped_file_status', ['status', 'id'])
export class SpedFile {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 7 })
  period!: string;

  /** COD_FIN: 0 original, 1 substitute. */
  @Column({ type: 'varchar', length: 1 })
  finalidade!: string;

  /** IND_PERFIL: A, B or C. */
  @Column({ type: 'varchar', length: 1 })
  perfil!: string;

  /** The closed stock count written as Bloco H (null: H001 without movement). */
  @Column({ name: 'inventory_count_id', type: 'int', nullable: true })
  inventoryCountId!: number | null;

  @Column({ type: 'varchar', length: 10 })
  status!: SpedFileStatus;

  /** COD_VER of the layout in force for the period. */
  @Column({ name: 'layout_version', type: 'varchar', length: 3, nullable: true })
  layoutVersion!: string | null;

  @Column({ name: 'line_count', type: 'int', nullable: true })
  lineCount!: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  sha256!: string | null;

  /** The file as filed: ISO-8859-1 bytes, CRLF, gzip. */
  @BlobColumn({ name: 'content_gz', nullable: true, select: false })
  contentGz!: Buffer | null;

  /** Line number → the book refs that made it (gzip JSON). */
  @BlobColumn({ name: 'trace_gz', nullable: true, select: false })
  traceGz!: Buffer | null;

  /** What the request gave besides the key fields (accountant, revenue code, carried credit). */
  @JsonColumn({ nullable: true })
  request!: Record<string, unknown> | null;

  @JsonColumn({ nullable: true })
  findings!: SpedFinding[] | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ name: 'requested_by', type: 'varchar', length: 100 })
  requestedBy!: string;

  @Column({ name: 'lease_owner', type: 'varchar', length: 80, nullable: true })
  leaseOwner!: string | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;

  @DateTimeColumn({ name: 'finished_at', nullable: true })
  finishedAt!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
