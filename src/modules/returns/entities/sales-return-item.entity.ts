import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, IdColumn, JsonColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** The original NF-e/NFC-e lines a returned quantity reverses (quantities as decimal strings). */
export interface FiscalOrigin {
  accessKey: string;
  lineNumber: number;
  quantity: string;
}

@Entity('sales_return_item')
@Index('ix_sales_return_item_return', ['companyId', 'returnId'])
@Index('ix_sales_return_item_order_item', ['companyId', 'salesOrderItemId'])
export class SalesReturnItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'return_id' })
  returnId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @IdColumn({ name: 'sales_order_item_id' })
  salesOrderItemId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  @QuantityColumn()
  quantity!: Dec;

  /** Back into stock (false: damaged goods, no stock movement). */
  @Column({ type: 'boolean' })
  restock!: boolean;

  /** The cost the goods left with, at which they come back. */
  @PriceColumn({ name: 'unit_cost' })
  unitCost!: Dec;

  @AmountColumn({ name: 'refund_amount' })
  refundAmount!: Dec;

  /** Where the returned units were invoiced (null: sold without a fiscal document of ours). */
  @JsonColumn({ name: 'fiscal_origins', nullable: true })
  fiscalOrigins!: FiscalOrigin[] | null;
}
