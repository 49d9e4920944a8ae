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

  /** PENDING: reserved and asked (or to be asked again); VOIDED: the authority homologated it; REFUSED: it did not (numbers free again only if never issued). */
  @Column({ type: 'varchar', length: 10 })
  status!: 'PENDING' | 'VOIDED' | 'REFUSED';

  @Column({ name: 'c_stat', type: 'varchar', length: 3, nullable: true })
  cStat!: string | null;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255, nullable: true })
  xMotivo!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  protocol!: string | null;

  @DateTimeColumn({ name: 'voided_at', nullable: true })
  voidedAt!: Date | null;

  /** procInutNFe (gzip) once homologated. */
  @BlobColumn({ name: 'xml_gz', nullable: true })
  xmlGz!: Buffer | null;

  /** AUTOMATIC (a REJECTED document abandoned) or the user who asked. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
