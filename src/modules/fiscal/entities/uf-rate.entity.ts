import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, DateColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * ICMS internal rate and FCP of a UF (SPEC §12.1), with its source and date. Rows of company 0 are
 * the data shipped with the service (migration seed from data/uf-rates.json); a company's own rows
 * override them, for every product (taxGroupId 0) or for one tax group (a UF's rate for those goods).
 */
@Entity('fiscal_uf_rate')
@Index('uq_fiscal_uf_rate_key', ['companyId', 'uf', 'taxGroupId', 'validFrom'], { unique: true })
export class UfRate {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** 0 → shipped with the service. */
  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 2 })
  uf!: string;

  /** 0 → every product; else the tax group the override is for. */
  @IdColumn({ name: 'tax_group_id', default: 0 })
  taxGroupId!: number;

  @DateColumn({ name: 'valid_from' })
  validFrom!: string;

  @DateColumn({ name: 'valid_to', nullable: true })
  validTo!: string | null;

  /** Internal ICMS rate without FCP (percent). */
  @DecimalColumn(7, 4, { name: 'internal_rate' })
  internalRate!: Dec;

  /** FCP (Fundo de Combate à Pobreza, ADCT art. 82) added to the internal rate (percent). */
  @DecimalColumn(7, 4, { name: 'fcp_rate', default: '0.0000' })
  fcpRate!: Dec;

  /** DIFAL of a non-contributor on the "base dupla" (the UF's law grosses the base up). */
  @Column({ name: 'difal_double_base', type: 'boolean', default: false })
  difalDoubleBase!: boolean;

  @Column({ type: 'varchar', length: 200 })
  source!: string;

  @DateColumn({ name: 'source_date' })
  sourceDate!: string;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
