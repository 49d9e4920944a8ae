import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateColumn, DecimalColumn, IdColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * The Lei 12.741/2012 approximate-tax table a company loads (IBPT layout: per NCM the federal rate
 * for national and imported goods, the state and the municipal rate), with its version and validity.
 * IBPT publishes one table per UF (the state rate is the UF's): a company loads one per UF it issues from.
 */
@Entity('fiscal_approximate_tax')
@Index('uq_fiscal_approximate_tax_uf_ncm', ['companyId', 'uf', 'ncm', 'ex'], { unique: true })
export class ApproximateTax {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  /** The UF whose table this row is (the issuing filial's UF picks it). */
  @Column({ type: 'varchar', length: 2, default: '' })
  uf!: string;

  @Column({ type: 'varchar', length: 8 })
  ncm!: string;

  @Column({ type: 'varchar', length: 3, default: '' })
  ex!: string;

  @DecimalColumn(7, 4, { name: 'federal_national_rate' })
  federalNationalRate!: Dec;

  @DecimalColumn(7, 4, { name: 'federal_imported_rate' })
  federalImportedRate!: Dec;

  @DecimalColumn(7, 4, { name: 'state_rate' })
  stateRate!: Dec;

  @DecimalColumn(7, 4, { name: 'municipal_rate' })
  municipalRate!: Dec;

  @DateColumn({ name: 'valid_from' })
  validFrom!: string;

  @DateColumn({ name: 'valid_to' })
  validTo!: string;

  /** The table's version (IBPT "versao") and source ("fonte"). */
  @Column({ name: 'table_version', type: 'varchar', length: 20 })
  tableVersion!: string;

  @Column({ type: 'varchar', length: 60 })
  source!: string;

  /** The IBPT table's key ("chave"), printed with the source in infCpl. */
  @Column({ name: 'table_key', type: 'varchar', length: 20, default: '' })
  tableKey!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}
