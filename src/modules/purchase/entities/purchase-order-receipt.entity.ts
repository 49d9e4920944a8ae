import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn, DateTimeColumn, FactorColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type ReceiptStatus = 'CONFIRMED' | 'CANCELLED';

/**
 * One entry-document line received against one purchase-order line: written when the entry document
 * is confirmed, marked CANCELLED (never deleted) when it is cancelled. The purchase module answers
 * `GET /purchase/:id/receipts` and reverts receipts from these rows alone.
 */
@Entity('purchase_order_receipt')
@Index('ix_purchase_order_receipt_order', ['companyId', 'purchaseOrderId', 'id'])
@Index('ix_purchase_order_receipt_document', ['companyId', 'entryDocumentId', 'status'])
export class PurchaseOrderReceipt {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'purchase_order_id' })
  purchaseOrderId!: number;

  @IdColumn({ name: 'purchase_order_item_id' })
  purchaseOrderItemId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @IdColumn({ name: 'entry_document_item_id' })
  entryDocumentItemId!: number;

  /** The entry document's line number. */
  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @Column({ name: 'document_number', type: 'varchar', length: 9 })
  documentNumber!: string;

  @Column({ name: 'document_series', type: 'varchar', length: 3 })
  documentSeries!: string;

  @Column({ name: 'access_key', type: 'varchar', length: 44, nullable: true })
  accessKey!: string | null;

  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @DateColumn({ name: 'entry_date' })
  entryDate!: string;

  /** Received, in the company's unit (the invoice quantity × conversion factor). */
  @QuantityColumn()
  quantity!: Dec;

  /** As invoiced, in the supplier's unit. */
  @QuantityColumn({ name: 'invoice_quantity' })
  invoiceQuantity!: Dec;

  @Column({ name: 'invoice_unit', type: 'varchar', length: 6 })
  invoiceUnit!: string;

  @FactorColumn({ name: 'conversion_factor' })
  conversionFactor!: Dec;

  /** Invoice price per company unit, net of the line discount. */
  @PriceColumn({ name: 'unit_price' })
  unitPrice!: Dec;

  /** The order line's net price per unit when this was received. */
  @PriceColumn({ name: 'order_unit_price' })
  orderUnitPrice!: Dec;

  @Column({ type: 'varchar', length: 10 })
  status!: ReceiptStatus;

  @DateTimeColumn({ name: 'received_at' })
  receivedAt!: Date;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;
}
