import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The version of a company's fiscal master data (tax groups, operation rules, UF rates, ST agreements,
 * rule sets; company 0: the shipped rows). Every write of those rows bumps it in the same transaction
 * (rule-data-cache.ts `fiscalDataChanged`), so a replica's cache of them is checked against the
 * database on every computation, not against an in-process flag.
 */
@Entity('fiscal_data_version')
export class FiscalDataVersion {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @Column({ type: 'int', default: 0 })
  version!: number;
}
