import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn } from '../db/columns';

/**
 * One row per (company, Idempotency-Key): the request's fingerprint and, once done, its response.
 * An IN_PROGRESS row is leased to the process running the request (owner + expiry, renewed while it
 * runs), so a retry after that process died takes the key over instead of waiting forever.
 */
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

  /** Headers a replay must repeat (Location). */
  @JsonColumn({ name: 'response_headers', nullable: true })
  responseHeaders!: Record<string, string> | null;

  /** The attempt holding an IN_PROGRESS key (null once DONE). */
  @Column({ name: 'lease_owner', type: 'varchar', length: 36, nullable: true })
  leaseOwner!: string | null;

  @DateTimeColumn({ name: 'lease_expires_at', nullable: true })
  leaseExpiresAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
