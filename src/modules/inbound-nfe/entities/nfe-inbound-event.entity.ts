import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn } from '../../../core/db/columns';

/**
 * What happened to an inbound NF-e, oldest first: our own steps (STAGED, XML_ATTACHED, IMPORTED,
 * IGNORED) and the tax authority's events (e.g. 110111 cancellation, 210210 ciência) with their
 * sequence and protocol. Append-only.
 */
@Entity('nfe_inbound_event')
@Index('ix_nfe_inbound_event_inbound', ['companyId', 'inboundId', 'id'])
export class NfeInboundEvent {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'inbound_id' })
  inboundId!: number;

  @Column({ type: 'varchar', length: 30 })
  type!: string;

  /** tpEvento of an authority event (110111, 210210, …); null for our own steps. */
  @Column({ name: 'event_code', type: 'varchar', length: 6, nullable: true })
  eventCode!: string | null;

  @Column({ type: 'int', nullable: true })
  sequence!: number | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  protocol!: string | null;

  @Column({ type: 'varchar', length: 255 })
  description!: string;

  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  @DateTimeColumn({ name: 'occurred_at' })
  occurredAt!: Date;

  @JsonColumn({ nullable: true })
  data!: Record<string, unknown> | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
