import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type DeductionStatus = 'ACTIVE' | 'REVERSED';
/** SUPPLIER_RETURN: goods sent back to the supplier (devolução de compra) abate what we owe. */
export type DeductionSource = 'SUPPLIER_RETURN';

/**
 * What a supplier return took off one payable (abatimento): the payable's `amount` is lowered by it,
 * and the row says by how much and why, so the cancellation of the return puts exactly that back.
 */
@Entity('payable_deduction')
@Index('ix_payable_deduction_payable', ['companyId', 'payableId', 'id'])
@Index('ix_payable_deduction_source', ['companyId', 'sourceType', 'sourceId'])
export class PayableDeduction {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'payable_id' })
  payableId!: number;

  @Column({ name: 'source_type', type: 'varchar', length: 20 })
  sourceType!: DeductionSource;

  @IdColumn({ name: 'source_id' })
  sourceId!: number;

  @AmountColumn()
  amount!: Dec;

  /** The payable's status before the deduction (a payable lowered to zero is CANCELLED; restoring reopens it). */
  @Column({ name: 'status_before', type: 'varchar', length: 16 })
  statusBefore!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: DeductionStatus;

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
