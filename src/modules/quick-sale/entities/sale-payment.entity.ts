import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** A payment taken for a counter sale; `change` is what went back to the customer from it (cash only). */
@Entity('sale_payment')
@Index('ix_sale_payment_order', ['companyId', 'salesOrderId'])
export class SalePayment {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @IdColumn({ name: 'payment_method_id' })
  paymentMethodId!: number;

  @Column({ name: 'method_code', type: 'varchar', length: 30 })
  methodCode!: string;

  /** What the customer handed over with this method. */
  @AmountColumn()
  amount!: Dec;

  @AmountColumn({ name: 'change_given' })
  changeGiven!: Dec;

  @CreatedAtColumn()
  createdAt!: Date;
}
