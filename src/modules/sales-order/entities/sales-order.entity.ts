import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type SalesOrderType = 'ORDER' | 'QUOTE';
export type FlowMode = 'STANDARD' | 'QUICK_SALE';
export type SalesOrderStatus = 'OPEN' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED' | 'CLOSED' | 'GROUPED';

/** `created_day` of an order created at `createdAt`: its UTC calendar date. */
export const createdDayOf = (createdAt: Date): string => createdAt.toISOString().slice(0, 10);

/*
 * A sales order or quote. Lists are served from the (company, filial, …, code) indexes: "newest code
 * first" is a backward index scan, and a numeric search is a set of code ranges on the same index
 * (docs/decisions.md). Codes come from the company's sequence in hi-lo blocks per process, so they
 * only roughly follow creation time: no list assumes code order is creation order.
 */
@Entity('sales_order')
@Index('uq_sales_order_company_code', ['companyId', 'code'], { unique: true })
@Index('ix_sales_order_filial_code', ['companyId', 'filialId', 'code'])
@Index('ix_sales_order_filial_status', ['companyId', 'filialId', 'status', 'code'])
@Index('ix_sales_order_filial_customer', ['companyId', 'filialId', 'customerId', 'code'])
@Index('ix_sales_order_filial_seller', ['companyId', 'filialId', 'sellerId', 'code'])
@Index('ix_sales_order_filial_alias', ['companyId', 'filialId', 'searchAlias'])
// Ordered by (created_at, id) for the createdAt sort, and carrying `code`: a date range sorted by code is
// sorted from this index alone (docs/decisions/bounded-list-totals.md).
@Index('ix_sales_order_filial_created', ['companyId', 'filialId', 'createdAt', 'id', 'code'])
// One creation day (UTC) already in code order: a date range sorted by code is one short index read
// per day, merged (byCreationDays, docs/decisions/bounded-list-totals.md).
@Index('ix_sales_order_filial_created_day', ['companyId', 'filialId', 'createdDay', 'code'])
@Index('ix_sales_order_grouped_into', ['companyId', 'groupedIntoId'])
export class SalesOrder {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** Sequential per company (sequence 'sales-order-code'); unique, increasing, gaps possible. */
  @IdColumn()
  code!: number;

  @Column({ type: 'varchar', length: 10 })
  type!: SalesOrderType;

  @Column({ name: 'flow_mode', type: 'varchar', length: 12, default: 'STANDARD' })
  flowMode!: FlowMode;

  @Column({ type: 'varchar', length: 20 })
  status!: SalesOrderStatus;

  @Column({ name: 'customer_id', type: 'int', nullable: true })
  customerId!: number | null;

  @Column({ name: 'seller_id', type: 'int', nullable: true })
  sellerId!: number | null;

  @Column({ type: 'varchar', length: 60, nullable: true })
  alias!: string | null;

  /** normalizeText(alias), kept in step by the service; the text search compares it by prefix. */
  @Column({ name: 'search_alias', type: 'varchar', length: 60, nullable: true })
  searchAlias!: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  notes!: string | null;

  /**
   * Payment terms: the installments' days from the billing date, as "30/60/90" (null: one installment
   * due on the billing date). Each fulfilment bills its value in these installments (receivables).
   */
  @Column({ name: 'payment_terms', type: 'varchar', length: 120, nullable: true })
  paymentTerms!: string | null;

  /**
   * Boleto on billing (issue 46, docs/decisions/collection-boleto.md): each customer installment a
   * fulfilment bills gets a registered boleto on this collection bank account of the order's filial,
   * in the billing transaction. Null: no boleto is issued automatically.
   */
  @Column({ name: 'boleto_bank_account_id', type: 'int', nullable: true })
  boletoBankAccountId!: number | null;

  /** Σ quantity × unit price of the lines (each rounded to the cent). */
  @AmountColumn({ name: 'gross_total' })
  grossTotal!: Dec;

  /** Σ line discounts. */
  @AmountColumn({ name: 'items_discount' })
  itemsDiscount!: Dec;

  /** Order-level discount, allocated over the lines (sales_order_item.order_discount_share). */
  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  freight!: Dec;

  /** vSeg: insurance charged with the goods, apportioned to the items like the freight. */
  @AmountColumn()
  insurance!: Dec;

  /** vOutro: other accessory expenses charged to the buyer, apportioned like the freight. */
  @AmountColumn({ name: 'other_expenses' })
  otherExpenses!: Dec;

  /** indFinal of its NF-e (POST /invoices/issue may still override it); null → the customer's. */
  @Column({ name: 'final_consumer', type: 'boolean', nullable: true })
  finalConsumer!: boolean | null;

  /** gross − line discounts − order discount + freight + insurance + other expenses. */
  @AmountColumn()
  total!: Dec;

  /** Quotes: last day the quote can be converted (inclusive, Brasília date). */
  @DateColumn({ name: 'valid_until', nullable: true })
  validUntil!: string | null;

  /** Set on the sources of a group: the order they were merged into. */
  @Column({ name: 'grouped_into_id', type: 'int', nullable: true })
  groupedIntoId!: number | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 500, nullable: true })
  cancelReason!: string | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  /**
   * The UTC calendar date of `createdAt` ('YYYY-MM-DD'), written with it by every insert (`createdDayOf`)
   * and never changed: the creation-day index's key. Null only on a row a previous version wrote while
   * its replicas were being replaced (the column is additive); the lists read those by created_at.
   */
  @DateColumn({ name: 'created_day', nullable: true })
  createdDay!: string | null;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
