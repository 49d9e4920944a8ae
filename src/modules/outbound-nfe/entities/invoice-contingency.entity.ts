import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';

/**
 * A period a filial issued in contingency (SVC-AN / SVC-RS, tpEmis 6/7) because its authority was
 * down (NFeStatusServico4 108/109). Open while `endedAt` is null; the status service closes it.
 */
@Entity('invoice_contingency')
@Index('ix_invoice_contingency_filial', ['companyId', 'filialId', 'endedAt'])
export class InvoiceContingency {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 6 })
  mode!: 'SVC-AN' | 'SVC-RS';

  /** xJust of the documents issued in it. */
  @Column({ type: 'varchar', length: 256 })
  reason!: string;

  /** dhCont. */
  @DateTimeColumn()
  since!: Date;

  @DateTimeColumn({ name: 'checked_at' })
  checkedAt!: Date;

  @DateTimeColumn({ name: 'ended_at', nullable: true })
  endedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
