import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event to one subscription: at-least-once, retried with exponential back-off. */
@Entity('webhook_delivery')
@Index('uq_webhook_delivery', ['subscriptionId', 'eventId'], { unique: true })
@Index('ix_webhook_delivery_due', ['subscriptionId', 'status', 'nextAttemptAt'])
@Index('ix_webhook_delivery_company', ['companyId', 'subscriptionId', 'id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'subscription_id' })
  subscriptionId!: number;

  @IdColumn({ name: 'event_id' })
  eventId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: DeliveryStatus;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @DateTimeColumn({ name: 'next_attempt_at' })
  nextAttemptAt!: Date;

  /** A dispatcher (of any replica) holds the delivery until then: longer than one attempt can take. */
  @DateTimeColumn({ name: 'locked_until', nullable: true })
  lockedUntil!: Date | null;

  /** Who holds the lease: an attempt writes its outcome only while the token is still its own. */
  @Column({ name: 'lease_token', type: 'varchar', length: 32, nullable: true, select: false })
  leaseToken!: string | null;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError!: string | null;

  @DateTimeColumn({ name: 'delivered_at', nullable: true })
  deliveredAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
