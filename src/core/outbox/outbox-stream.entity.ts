import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The last position the relay handed out, per company: stream `*` is the company's event stream (its
 * row is also the relay's lock), `<aggregateType>:<aggregateId>` the sequence of one resource.
 */
@Entity('outbox_stream')
export class OutboxStream {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  stream!: string;

  @Column({ name: 'last_value', type: 'int', default: 0 })
  lastValue!: number;
}
