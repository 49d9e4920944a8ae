import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, JsonColumn } from '../db/columns';

/** Domain events written in the same transaction as the change they describe. */
@Entity('outbox_event')
@Index('ix_outbox_company', ['companyId', 'id'])
@Index('ix_outbox_company_type', ['companyId', 'type', 'id'])
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
}
