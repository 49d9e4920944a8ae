import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, DateColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/**
 * One line of a purchase order, in the company's own unit. open = quantity − received − cancelled
 * (never below zero); `isOpen` keeps that fact as a column so "open lines" is an indexed filter
 * (decimals are text on SQLite and are never compared in SQL).
 */
@Entity('purchase_order_item')
@Index('ix_purchase_order_item_order', ['companyId', 'purchaseOrderId', 'lineNumber'])
@Index('ix_purchase_order_item_product', ['companyId', 'productId', 'isOpen'])
export class PurchaseOrderItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'purchase_order_id' })
  purchaseOrderId!: number;

  /** 1..n: what the supplier writes in the NF-e's nItemPed. */
  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @Column({ type: 'varchar', length: 200 })
  description!: string;

  @Column({ type: 'varchar', length: 6 })
  unit!: string;

  /** The supplier's code of the product (cProd), when known. */
  @Column({ name: 'supplier_product_code', type: 'varchar', length: 60, nullable: true })
  supplierProductCode!: string | null;

  @QuantityColumn()
  quantity!: Dec;

  @PriceColumn({ name: 'unit_price' })
  unitPrice!: Dec;

  /** Line discount (amount). */
  @AmountColumn()
  discount!: Dec;

  /** round(quantity × unitPrice, 2) − discount. */
  @AmountColumn()
  total!: Dec;

  @DateColumn({ name: 'expected_date', nullable: true })
  expectedDate!: string | null;

  @QuantityColumn({ name: 'received_quantity' })
  receivedQuantity!: Dec;

  @QuantityColumn({ name: 'cancelled_quantity' })
  cancelledQuantity!: Dec;

  @Column({ name: 'is_open', type: 'boolean', default: true })
  isOpen!: boolean;
}
