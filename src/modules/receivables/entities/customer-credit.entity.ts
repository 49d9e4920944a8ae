import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** CREDIT: store credit the customer holds · REFUND: money the shop owes back, paid out by `methodCode`. */
export type CustomerCreditKind = 'CREDIT' | 'REFUND';

/**
 * What a customer return leaves after it reduced the sale's open receivables (SPEC §8, §13): a store
 * credit when the return's refund method is STORE_CREDIT, otherwise a refund to pay by that method.
 */
@Entity('customer_credit')
@Index('ix_customer_credit_customer', ['companyId', 'customerId', 'id'])
@Index('ix_customer_credit_return', ['companyId', 'returnId'])
export class CustomerCredit {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'customer_id' })
  customerId!: number;

  @IdColumn({ name: 'return_id' })
  returnId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @Column({ type: 'varchar', length: 10 })
  kind!: CustomerCreditKind;

  @Column({ name: 'method_code', type: 'varchar', length: 30 })
  methodCode!: string;

  @AmountColumn()
  amount!: Dec;

  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}
