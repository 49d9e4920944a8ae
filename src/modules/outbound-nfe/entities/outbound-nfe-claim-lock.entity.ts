import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The lock row of what an NF-e may bill (SPEC §12.2, exactly once): one per sales order for billing
 * (`O<orderId>`: the order billed whole and each of its fulfilments) and one per registered source
 * (its claim). Every issuing transaction writes it first, then checks what already holds the goods;
 * see issue-source.ts.
 */
@Entity('outbound_nfe_claim_lock')
export class OutboundNfeClaimLock {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 24 })
  scope!: string;

  /** Issuing transactions that took the lock (the write is what locks; the count is only a trace). */
  @Column({ type: 'int', default: 0 })
  taken!: number;
}
