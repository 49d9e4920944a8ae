import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type SettlementStatus = 'ACTIVE' | 'REVERSED';

/**
 * The columns every settlement of an open item has (a payable's payment, a receivable's receipt):
 * `amount` is the part of the item it settles; interest (juros) and fine (multa) come on top and a
 * discount (desconto) is granted off, so the money that moved is `total = amount + interest + fine −
 * discount`. A reversal keeps the row (REVERSED) with who, when and why. Not an entity itself: each
 * side's entity (PayablePayment, ReceivableReceipt) extends it with its table, the column naming its
 * item, its date and its own extras; the tables are as they were before this class existed.
 */
export abstract class OpenItemSettlement {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: SettlementStatus;

  @IdColumn({ name: 'payment_method_id' })
  paymentMethodId!: number;

  /** The tenant's code of the method when settled (the master row may be renamed later). */
  @Column({ name: 'payment_method_code', type: 'varchar', length: 30 })
  paymentMethodCode!: string;

  @AmountColumn()
  amount!: Dec;

  @AmountColumn()
  interest!: Dec;

  @AmountColumn()
  fine!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  total!: Dec;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @Column({ name: 'reversed_by', type: 'varchar', length: 100, nullable: true })
  reversedBy!: string | null;

  @Column({ name: 'reversal_reason', type: 'varchar', length: 255, nullable: true })
  reversalReason!: string | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
