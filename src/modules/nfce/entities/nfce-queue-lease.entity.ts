import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../../core/db/columns';

/** The transmission queue's lease: one replica runs it at a time; a dead holder's lease expires. */
@Entity('nfce_queue_lease')
export class NfceQueueLease {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name!: string;

  @Column({ type: 'varchar', length: 80, nullable: true })
  owner!: string | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;
}
