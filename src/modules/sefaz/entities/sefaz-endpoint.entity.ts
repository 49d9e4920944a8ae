import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/**
 * Where one filial's authority calls go when not to the configured endpoints of its environment:
 * the local simulator of the embedded demo, or a contingency address. Absent → configuration.
 */
@Entity('sefaz_endpoint')
@Index('uq_sefaz_endpoint_filial', ['companyId', 'filialId'], { unique: true })
export class SefazEndpoint {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ name: 'dist_url', type: 'varchar', length: 300 })
  distUrl!: string;

  @Column({ name: 'event_url', type: 'varchar', length: 300 })
  eventUrl!: string;

  /** PEM of the only CA trusted for these URLs (null → system roots plus SEFAZ_CA_FILE). */
  @Column({ name: 'ca_pem', type: 'text', nullable: true })
  caPem!: string | null;

  @Column({ type: 'varchar', length: 60 })
  label!: string;

  /**
   * The quiet period this authority asks after a caught-up sync (137 / maxNSU) or a 656, in seconds:
   * the local simulator's is short (SEFAZ_SIMULATOR_WAIT_SECONDS) so a demo can sync again within a
   * minute. Null → SEFAZ_WAIT_SECONDS, the real authority's hour.
   */
  @Column({ name: 'wait_seconds', type: 'int', nullable: true })
  waitSeconds!: number | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
