import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn } from '../../../core/db/columns';

/** One delivery of goods of an order (goods leave stock through the ledger at average cost). */
@Entity('fulfillment')
@Index('ix_fulfillment_order', ['companyId', 'salesOrderId', 'id'])
export class Fulfillment {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
