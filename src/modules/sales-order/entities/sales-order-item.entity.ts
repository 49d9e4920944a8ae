import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, IdColumn, JsonColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** Where a line of a grouped order came from. */
export interface LineOrigin {
  salesOrderId: number;
  salesOrderItemId: number;
  quantity: string;
}

/**
 * One line. remaining = quantity − fulfilled − cancelled (returns bring goods back; they do not reopen
 * the line). `discount` + `orderDiscountShare` is everything taken off `quantity × unitPrice`, stored
 * to the cent so a refund can be computed exactly.
 */
@Entity('sales_order_item')
@Index('ix_sales_order_item_order', ['companyId', 'salesOrderId', 'lineNumber'])
@Index('ix_sales_order_item_product', ['companyId', 'productId'])
export class SalesOrderItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @Column({ type: 'varchar', length: 200 })
  description!: string;

  @Column({ type: 'varchar', length: 6 })
  unit!: string;

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

  /** This line's part of the order discount (allocate() over the line totals, exact to the cent). */
  @AmountColumn({ name: 'order_discount_share' })
  orderDiscountShare!: Dec;

  @QuantityColumn({ name: 'fulfilled_quantity' })
  fulfilledQuantity!: Dec;

  @QuantityColumn({ name: 'returned_quantity' })
  returnedQuantity!: Dec;

  @QuantityColumn({ name: 'cancelled_quantity' })
  cancelledQuantity!: Dec;

  /** Grouping provenance: the source lines merged into this one (null for ordinary lines). */
  @JsonColumn({ nullable: true })
  origins!: LineOrigin[] | null;
}
