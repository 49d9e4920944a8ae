import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, JsonColumn } from '../db/columns';

/*
 * Domain events written in the same transaction as the change they describe. `id` is the event's
 * identity (receivers dedupe by it); it is taken at insert, so ids are not in commit order. Readers
 * page by `position` instead: the relay (outbox-relay.ts) gives each committed event the next
 * position of its company's stream, so positions are dense and follow the order events became
 * visible. `resourceSeq` numbers the events of one resource (aggregate) the same way.
 */
@Entity('outbox_event')
@Index('ux_outbox_company_position', ['companyId', 'position'], { unique: true })
@Index('ix_outbox_company_type_position', ['companyId', 'type', 'position'])
export class OutboxEvent {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ name: 'filial_id', type: 'int', nullable: true })
  filialId!: number | null;

  @Column({ type: 'varchar', length: 60 })
  type!: string;

  @Column({ name: 'aggregate_type', type: 'varchar', length: 40 })
  aggregateType!: string;

  @IdColumn({ name: 'aggregate_id' })
  aggregateId!: number;

  @JsonColumn()
  data!: Record<string, unknown>;

  @CreatedAtColumn()
  occurredAt!: Date;

  /** Place in the company's stream (1, 2, 3 …); null until the relay has seen the event committed. */
  @Column({ name: 'stream_position', type: 'int', nullable: true })
  position!: number | null;

  /** Place among the events of the same resource (1, 2, 3 …); set with `position`. */
  @Column({ name: 'resource_seq', type: 'int', nullable: true })
  resourceSeq!: number | null;
}
