import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import type { DfeLogService } from '../../authority';

export type { DfeLogService };

/**
 * One exchange with the authority (each attempt of a retried call is its own row): the envelopes as
 * sent and received (gzip), the answer's cStat and the outcome. Never any key or PFX; the signer's
 * certificate inside signed events is replaced by its fingerprint.
 */
@Entity('sefaz_dfe_log')
@Index('ix_sefaz_dfe_log_filial', ['companyId', 'filialId', 'id'])
export class DfeLog {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 20 })
  service!: DfeLogService;

  /** distNSU | consNSU | consChNFe | the event type (210210, …). */
  @Column({ type: 'varchar', length: 20 })
  operation!: string;

  @Column({ type: 'varchar', length: 300 })
  endpoint!: string;

  @Column({ type: 'int', default: 1 })
  attempt!: number;

  @BlobColumn({ name: 'request_gz' })
  requestGz!: Buffer;

  @BlobColumn({ name: 'response_gz', nullable: true })
  responseGz!: Buffer | null;

  @Column({ name: 'http_status', type: 'int', nullable: true })
  httpStatus!: number | null;

  @Column({ type: 'varchar', length: 3, nullable: true })
  cStat!: string | null;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255, nullable: true })
  xMotivo!: string | null;

  /** Transport failure (timeout, refused, TLS) when there was no answer. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;

  @CreatedAtColumn()
  createdAt!: Date;
}
