import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';

export type OutboundEventType = '110111' | '110110';

/** A registered event of an outbound NF-e: cancellation (110111) or carta de correção (110110). */
@Entity('outbound_nfe_event')
@Index('uq_outbound_nfe_event', ['companyId', 'outboundNfeId', 'type', 'sequence'], { unique: true })
export class OutboundNfeEvent {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'outbound_nfe_id' })
  outboundNfeId!: number;

  @Column({ type: 'varchar', length: 6 })
  type!: OutboundEventType;

  @Column({ type: 'int' })
  sequence!: number;

  /** xJust (cancellation) or xCorrecao (CC-e). */
  @Column({ type: 'varchar', length: 1000 })
  text!: string;

  @Column({ name: 'c_stat', type: 'varchar', length: 3 })
  cStat!: string;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255 })
  xMotivo!: string;

  @Column({ type: 'varchar', length: 20 })
  protocol!: string;

  @DateTimeColumn({ name: 'registered_at' })
  registeredAt!: Date;

  /** procEventoNFe (gzip). */
  @BlobColumn({ name: 'xml_gz' })
  xmlGz!: Buffer;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
