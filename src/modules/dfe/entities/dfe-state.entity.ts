import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';

/** Inclusive NSU ranges still to be fetched one by one (consNSU), as 15-digit strings. */
export type NsuGap = [string, string];

/**
 * Where a filial stands in the authority's DF-e distribution: the NSU to continue from (exactly as the
 * authority returned it), the last answer, and when the next query is allowed. `leaseUntil` makes one
 * sync at a time per filial (a second concurrent one would break the NSU sequence → 656).
 */
@Entity('sefaz_dfe_state')
@Index('uq_sefaz_dfe_state_filial', ['companyId', 'filialId'], { unique: true })
export class DfeState {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ name: 'ult_nsu', type: 'varchar', length: 15, default: '000000000000000' })
  ultNsu!: string;

  @Column({ name: 'max_nsu', type: 'varchar', length: 15, default: '000000000000000' })
  maxNsu!: string;

  @Column({ name: 'last_cstat', type: 'varchar', length: 3, nullable: true })
  lastCStat!: string | null;

  @Column({ name: 'last_xmotivo', type: 'varchar', length: 255, nullable: true })
  lastXMotivo!: string | null;

  @DateTimeColumn({ name: 'last_sync_at', nullable: true })
  lastSyncAt!: Date | null;

  @DateTimeColumn({ name: 'next_allowed_at', nullable: true })
  nextAllowedAt!: Date | null;

  @JsonColumn({ name: 'pending_gaps', nullable: true })
  pendingGaps!: NsuGap[] | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
