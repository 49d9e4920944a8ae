import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, JsonColumn } from '../db/columns';

/** One row per (company, Idempotency-Key): the request's fingerprint and, once done, its response. */
@Entity('idempotency_key')
@Index('uq_idempotency_key', ['companyId', 'key'], { unique: true })
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 120 })
  key!: string;

  /** sha256 of method, route and body. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash!: string;

  @Column({ type: 'varchar', length: 12 })
  state!: 'IN_PROGRESS' | 'DONE';

  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus!: number | null;

  @JsonColumn({ name: 'response_body', nullable: true })
  responseBody!: unknown;

  @Column({ name: 'response_content_type', type: 'varchar', length: 60, nullable: true })
  responseContentType!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
