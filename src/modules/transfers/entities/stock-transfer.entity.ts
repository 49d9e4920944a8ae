import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** ISSUING: its NF-e is being issued (the units are held); AUTHORIZED: the stock left; RELEASED: the NF-e was rejected/denied/voided; CANCELLED: the NF-e was cancelled, the stock came back. */
export type TransferStatus = 'ISSUING' | 'AUTHORIZED' | 'RELEASED' | 'CANCELLED';
export const TRANSFER_STATUSES: readonly TransferStatus[] = ['ISSUING', 'AUTHORIZED', 'RELEASED', 'CANCELLED'];

/**
 * Goods sent from one of the company's filiais to another (issue 34 item 1, SPEC §2): the sending
 * filial's outbound NF-e (CFOP 5152/6152, 5409/6409 for ST goods, from the tax engine) takes them
 * out at their average cost when authorized; the receiving filial books them by importing that NF-e.
 */
@Entity('stock_transfer')
@Index('ix_stock_transfer_from', ['companyId', 'fromFilialId', 'status'])
@Index('ix_stock_transfer_to', ['companyId', 'toFilialId'])
export class StockTransfer {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'from_filial_id' })
  fromFilialId!: number;

  @IdColumn({ name: 'to_filial_id' })
  toFilialId!: number;

  @Column({ type: 'varchar', length: 12 })
  status!: TransferStatus;

  /** The units at the sending filial's average cost when the transfer was made (the NF-e's vProd). */
  @AmountColumn()
  total!: Dec;

  @Column({ type: 'varchar', length: 500, nullable: true })
  notes!: string | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
