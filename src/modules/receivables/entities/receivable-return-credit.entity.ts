import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/** How much of a customer return's refund reduced one open receivable of the sale (creditReturn): the return's answer says where its refund went. */
@Entity('receivable_return_credit')
@Index('ix_receivable_return_credit_return', ['companyId', 'returnId'])
export class ReceivableReturnCredit {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'return_id' })
  returnId!: number;

  @IdColumn({ name: 'receivable_id' })
  receivableId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @AmountColumn()
  amount!: Dec;

  @CreatedAtColumn()
  createdAt!: Date;
}
