import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** What left stock for one order line in one fulfillment, and at which unit cost (returns restock at it). */
@Entity('fulfillment_item')
@Index('ix_fulfillment_item_fulfillment', ['companyId', 'fulfillmentId'])
@Index('ix_fulfillment_item_order_item', ['companyId', 'salesOrderItemId'])
export class FulfillmentItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'fulfillment_id' })
  fulfillmentId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @IdColumn({ name: 'sales_order_item_id' })
  salesOrderItemId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @QuantityColumn()
  quantity!: Dec;

  /** Average cost at which the goods left (0 for products without stock control). */
  @PriceColumn({ name: 'unit_cost' })
  unitCost!: Dec;
}
