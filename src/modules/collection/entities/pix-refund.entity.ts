import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** REQUESTED: sent (EM_PROCESSAMENTO) · RETURNED: the money went back (DEVOLVIDO) · FAILED: NAO_REALIZADO. */
export type PixRefundStatus = 'REQUESTED' | 'RETURNED' | 'FAILED';

/**
 * A devolução of a Pix received: `refundId` is the id the service gave the PSP (PUT
 * /pix/{e2eid}/devolucao/{id}, idempotent by that id). Once RETURNED it has adjusted the receipt
 * (`settled`): the Pix's receipt reversed and, for a partial refund, a receipt of what stays.
 */
@Entity('pix_refund')
@Index('ux_pix_refund_id', ['companyId', 'refundId'], { unique: true })
@Index('ix_pix_refund_payment', ['companyId', 'paymentId', 'id'])
export class PixRefund {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'payment_id' })
  paymentId!: number;

  @Column({ name: 'refund_id', type: 'varchar', length: 35 })
  refundId!: string;

  @Column({ name: 'rtr_id', type: 'varchar', length: 32, nullable: true })
  rtrId!: string | null;

  @AmountColumn()
  amount!: Dec;

  @Column({ type: 'varchar', length: 10 })
  status!: PixRefundStatus;

  @Column({ type: 'varchar', length: 140 })
  reason!: string;

  @Column({ name: 'failure_reason', type: 'varchar', length: 255, nullable: true })
  failureReason!: string | null;

  @DateTimeColumn({ name: 'returned_at', nullable: true })
  returnedAt!: Date | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
