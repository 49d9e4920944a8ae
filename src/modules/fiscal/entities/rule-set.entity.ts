import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * The federal rule set by date (SPEC §12.1): whether PIS/COFINS apply, whether the IBS/CBS group is
 * present and owed or informative, and its rates (LC 214/2025; 2026 test year CBS 0.9 %, IBS 0.1 %).
 * Company 0 rows ship with the service (data/rule-sets.json); a company's row of the same code wins.
 */
@Entity('fiscal_rule_set')
@Index('uq_fiscal_rule_set_code', ['companyId', 'code'], { unique: true })
export class RuleSet {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 10 })
  code!: string;

  @DateColumn({ name: 'valid_from' })
  validFrom!: string;

  @DateColumn({ name: 'valid_to', nullable: true })
  validTo!: string | null;

  @Column({ name: 'pis_cofins', type: 'boolean' })
  pisCofins!: boolean;

  @Column({ name: 'ibs_cbs', type: 'boolean' })
  ibsCbs!: boolean;

  /** IBS/CBS shown but not owed (2026): never in vNF. */
  @Column({ name: 'ibs_cbs_informative', type: 'boolean' })
  ibsCbsInformative!: boolean;

  @DecimalColumn(7, 4, { name: 'cbs_rate', default: '0.0000' })
  cbsRate!: Dec;

  @DecimalColumn(7, 4, { name: 'ibs_uf_rate', default: '0.0000' })
  ibsUfRate!: Dec;

  @DecimalColumn(7, 4, { name: 'ibs_mun_rate', default: '0.0000' })
  ibsMunRate!: Dec;

  @Column({ name: 'ibs_cbs_cst', type: 'varchar', length: 3, default: '000' })
  ibsCbsCst!: string;

  @Column({ name: 'ibs_cbs_class', type: 'varchar', length: 6, default: '000001' })
  ibsCbsClass!: string;

  @Column({ type: 'varchar', length: 200 })
  source!: string;

  @DateColumn({ name: 'source_date' })
  sourceDate!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
