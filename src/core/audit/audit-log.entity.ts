import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, JsonColumn } from '../db/columns';

/** Append-only trail: who did what to which entity, with changed fields as { field: [old, new] }. */
@Entity('audit_log')
@Index('ix_audit_entity', ['companyId', 'entity', 'entityId', 'id'])
export class AuditLog {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  @IdColumn({ name: 'entity_id' })
  entityId!: number;

  @Column({ type: 'varchar', length: 40 })
  action!: string;

  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId!: string | null;

  @JsonColumn({ nullable: true })
  changes!: Record<string, [unknown, unknown]> | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
