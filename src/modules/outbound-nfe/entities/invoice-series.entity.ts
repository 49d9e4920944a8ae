import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/**
 * A numbering sequence of fiscal documents: per filial, model (55 NF-e, 65 NFC-e) and série. The next
 * number is taken by a conditional UPDATE in the transaction that records the document, so a number
 * is either used by a stored document or never taken (no gaps); unusable numbers are voided.
 */
@Entity('invoice_series')
@Index('uq_invoice_series', ['companyId', 'filialId', 'model', 'series'], { unique: true })
export class InvoiceSeries {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'int' })
  model!: number;

  @Column({ type: 'int' })
  series!: number;

  @Column({ name: 'next_number', type: 'int' })
  nextNumber!: number;

  /** The série new documents of this model take (one per filial and model). */
  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
