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

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
