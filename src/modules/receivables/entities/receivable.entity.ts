import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import {
  AmountColumn,
  CreatedAtColumn,
  DateColumn,
  DateTimeColumn,
  DecimalColumn,
  IdColumn,
  UpdatedAtColumn,
} from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type ReceivableStatus = 'OPEN' | 'PARTIALLY_RECEIVED' | 'RECEIVED' | 'CANCELLED';
/** CUSTOMER: the buyer owes it (installments, a prazo, boleto) · ACQUIRER: the card acquirer settles a card payment. */
export type DebtorType = 'CUSTOMER' | 'ACQUIRER';
/** FULFILLMENT: billed by a fulfilment · FISCAL_DOCUMENT: its NF-e was authorized · QUICK_SALE: a payment of a counter sale. */
export type ReceivableOrigin = 'FULFILLMENT' | 'FISCAL_DOCUMENT' | 'QUICK_SALE';

/**
 * Accounts receivable (SPEC §13): one per installment of a billed fulfilment, or one per payment of a
 * counter sale. `amount` is what the debtor owes (for an acquirer, the payment less its fee:
 * `grossAmount − feeAmount`). What is settled is `receivedAmount` (standing receipts) plus
 * `creditedAmount` (customer returns); the open balance is `amount − received − credited`.
 * `overdue` is derived.
 */
@Entity('receivable')
// The list's two orders, each covering what its summary reads (status and the amounts), so the
// summary of a list's first rows is a read of this index alone (docs/decisions/bounded-list-totals.md).
@Index('ix_receivable_filial_due', ['companyId', 'filialId', 'dueDate', 'id', 'status', 'amount', 'receivedAmount', 'creditedAmount'])
@Index('ix_receivable_filial_status_due', [
  'companyId',
  'filialId',
  'status',
  'dueDate',
  'id',
  'amount',
  'receivedAmount',
  'creditedAmount',
])
@Index('ix_receivable_fulfillment', ['companyId', 'fulfillmentId', 'installmentNumber'])
@Index('ix_receivable_order', ['companyId', 'salesOrderId', 'id'])
@Index('ix_receivable_nsu', ['companyId', 'nsu'])
// A customer's receivables in a filial (the list by customer, the statement) in due order, covering the summary too.
@Index('ix_receivable_filial_customer_due', [
  'companyId',
  'filialId',
  'customerId',
  'dueDate',
  'id',
  'status',
  'amount',
  'receivedAmount',
  'creditedAmount',
])
export class Receivable {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ name: 'debtor_type', type: 'varchar', length: 10 })
  debtorType!: DebtorType;

  /** The sale's customer (kept on an acquirer's receivable too, for the record; statements list only CUSTOMER ones). */
  @IdColumn({ name: 'customer_id', nullable: true })
  customerId!: number | null;

  /** The payment method: the acquirer's card method, the a prazo method, cash or Pix (null: the order's payment terms). */
  @IdColumn({ name: 'payment_method_id', nullable: true })
  paymentMethodId!: number | null;

  @Column({ name: 'payment_method_code', type: 'varchar', length: 30, nullable: true })
  paymentMethodCode!: string | null;

  @Column({ name: 'origin_type', type: 'varchar', length: 16 })
  originType!: ReceivableOrigin;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  /** The order's code, as printed on the sale. */
  @IdColumn({ name: 'sales_order_code' })
  salesOrderCode!: number;

  @IdColumn({ name: 'fulfillment_id' })
  fulfillmentId!: number;

  /** The authorized NF-e that bills it (attachFiscalDocument). */
  @IdColumn({ name: 'fiscal_document_id', nullable: true })
  fiscalDocumentId!: number | null;

  @Column({ name: 'access_key', type: 'varchar', length: 44, nullable: true })
  accessKey!: string | null;

  @Column({ name: 'installment_number', type: 'int' })
  installmentNumber!: number;

  @Column({ name: 'installment_count', type: 'int' })
  installmentCount!: number;

  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @DateColumn({ name: 'due_date' })
  dueDate!: string;

  /** What the sale charged for this installment or payment (before an acquirer's fee). */
  @AmountColumn({ name: 'gross_amount' })
  grossAmount!: Dec;

  /** The acquirer's fee, percent of the gross (0 for a customer's receivable). */
  @DecimalColumn(7, 4, { name: 'fee_percent', default: '0.0000' })
  feePercent!: Dec;

  @AmountColumn({ name: 'fee_amount' })
  feeAmount!: Dec;

  /** What the debtor owes: gross − fee. */
  @AmountColumn()
  amount!: Dec;

  @AmountColumn({ name: 'received_amount' })
  receivedAmount!: Dec;

  /** Reduced by customer returns (credits), never received. */
  @AmountColumn({ name: 'credited_amount' })
  creditedAmount!: Dec;

  @Column({ type: 'varchar', length: 20 })
  status!: ReceivableStatus;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 255, nullable: true })
  cancelReason!: string | null;

  /** The card payment's identification (acquirer receivables): NSU, cAut, tBand, acquirer CNPJ — a statement is matched by NSU. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  nsu!: string | null;

  @Column({ name: 'authorization_code', type: 'varchar', length: 128, nullable: true })
  authorizationCode!: string | null;

  @Column({ name: 'card_brand', type: 'varchar', length: 2, nullable: true })
  cardBrand!: string | null;

  @Column({ name: 'acquirer_cnpj', type: 'varchar', length: 14, nullable: true })
  acquirerCnpj!: string | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
