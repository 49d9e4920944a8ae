import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';

/** Numbers of a série voided at the authority (NFeInutilizacao4), one row per accepted range. */
@Entity('invoice_number_void')
@Index('ix_invoice_number_void_series', ['companyId', 'seriesId', 'firstNumber'])
export class InvoiceNumberVoid {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'series_id' })
  seriesId!: number;

  @Column({ type: 'int' })
  model!: number;

  @Column({ type: 'int' })
  series!: number;

  @Column({ name: 'first_number', type: 'int' })
  firstNumber!: number;

  @Column({ name: 'last_number', type: 'int' })
  lastNumber!: number;

  @Column({ type: 'varchar', length: 255 })
  justification!: string;

  @Column({ name: 'c_stat', type: 'varchar', length: 3 })
  cStat!: string;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255 })
  xMotivo!: string;

  @Column({ type: 'varchar', length: 20 })
  protocol!: string;

  @DateTimeColumn({ name: 'voided_at' })
  voidedAt!: Date;

  /** procInutNFe (gzip). */
  @BlobColumn({ name: 'xml_gz' })
  xmlGz!: Buffer;

  /** AUTOMATIC (a REJECTED document abandoned) or the user who asked. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
