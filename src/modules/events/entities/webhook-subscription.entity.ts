import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, JsonColumn } from '../../../core/db/columns';

/** A tenant's webhook: where to POST its events, which types, and how far fan-out has read. */
@Entity('webhook_subscription')
@Index('ix_webhook_subscription_company', ['companyId', 'id'])
@Index('ix_webhook_subscription_active', ['active', 'id'])
export class WebhookSubscription {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 500 })
  url!: string;

  /** Event types delivered; empty → every type. */
  @JsonColumn()
  types!: string[];

  @Column({ type: 'varchar', length: 200, nullable: true })
  description!: string | null;

  /** HMAC-SHA256 key; shown to the tenant once, at creation. */
  @Column({ type: 'varchar', length: 80, select: false })
  secret!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Position (in the company's event stream) up to which events are already fanned out into deliveries. */
  @Column({ name: 'last_position', type: 'int', default: 0 })
  lastPosition!: number;

  @CreatedAtColumn()
  createdAt!: Date;
}
