import { Entity, Index } from 'typeorm';
import { AmountColumn, DateColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import { OpenItemSettlement, SettlementStatus } from '../../open-items';

export type ReceiptStatus = SettlementStatus;

/**
 * One receipt of a receivable (SPEC §13), as a payable's payment: the settlement columns of the
 * open-items kernel plus the receivable it settles and its date. A reversal keeps the row (REVERSED).
 * Cash and Pix at the counter are born with one. A receipt a bank return (collection) records carries
 * the bank's fee and the credit date too.
 */
@Entity('receivable_receipt')
@Index('ix_receivable_receipt_receivable', ['companyId', 'receivableId', 'id'])
@Index('ix_receivable_receipt_filial_date', ['companyId', 'filialId', 'receiptDate', 'id'])
export class ReceivableReceipt extends OpenItemSettlement {
  @IdColumn({ name: 'receivable_id' })
  receivableId!: number;

  @DateColumn({ name: 'receipt_date' })
  receiptDate!: string;

  /** The bank's fee on a collected title (tarifa), deducted from what is credited; `total` stays what the payer paid. */
  @AmountColumn({ name: 'bank_fee' })
  bankFee!: Dec;

  /** When the money reaches the account (data de crédito of a bank return); null when received in hand. */
  @DateColumn({ name: 'credit_date', nullable: true })
  creditDate!: string | null;
}
