import { Entity, Index } from 'typeorm';
import { DateColumn, IdColumn } from '../../../core/db/columns';
import { OpenItemSettlement, SettlementStatus } from '../../open-items';

export type PaymentStatus = SettlementStatus;

/**
 * One payment of a payable (SPEC §3): the settlement columns of the open-items kernel (amount,
 * interest, fine, discount, total, the method, the reversal) plus the payable it settles and its date.
 * A reversal keeps the row (REVERSED).
 */
@Entity('payable_payment')
@Index('ix_payable_payment_payable', ['companyId', 'payableId', 'id'])
@Index('ix_payable_payment_filial_date', ['companyId', 'filialId', 'paymentDate', 'id'])
export class PayablePayment extends OpenItemSettlement {
  @IdColumn({ name: 'payable_id' })
  payableId!: number;

  @DateColumn({ name: 'payment_date' })
  paymentDate!: string;
}
