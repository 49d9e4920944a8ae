import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, DateColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';
import type { FiscalDestination, FiscalOperation } from '../fiscal-document';

/** AGREEMENT: ST where an agreement of the pair of states covers the goods (st-agreement.entity.ts), with its MVA. */
export type StMode = 'NONE' | 'MVA' | 'ALREADY_TAXED' | 'AGREEMENT';

const Percent = (name: string) => DecimalColumn(7, 4, { name, nullable: true });

/**
 * A company's fiscal operation rule (SPEC §1, §12.1): for (tax group, operation, destination,
 * contributor buyer or not), valid from a date (to a date), what an item of the group gets — CFOP,
 * ICMS CST (regime normal) or CSOSN (Simples), base reduction, ST, PIS/COFINS, IPI, IBS/CBS class.
 * Null PIS/COFINS fields take the filial regime's defaults; null IBS/CBS fields the rule set's.
 */
@Entity('fiscal_operation_rule')
@Index('uq_fiscal_operation_rule_key', ['companyId', 'taxGroupId', 'operation', 'destination', 'contributor', 'validFrom'], {
  unique: true,
})
export class FiscalOperationRule {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'tax_group_id' })
  taxGroupId!: number;

  @Column({ type: 'varchar', length: 10 })
  operation!: FiscalOperation;

  @Column({ type: 'varchar', length: 12 })
  destination!: FiscalDestination;

  /** The buyer is an ICMS contributor (indIEDest 1). */
  @Column({ type: 'boolean' })
  contributor!: boolean;

  @DateColumn({ name: 'valid_from' })
  validFrom!: string;

  @DateColumn({ name: 'valid_to', nullable: true })
  validTo!: string | null;

  @Column({ type: 'varchar', length: 4 })
  cfop!: string;

  /** natOp; null → the operation's default wording. */
  @Column({ name: 'operation_nature', type: 'varchar', length: 60, nullable: true })
  operationNature!: string | null;

  @Column({ name: 'icms_cst', type: 'varchar', length: 2, nullable: true })
  icmsCst!: string | null;

  @Column({ type: 'varchar', length: 3, nullable: true })
  csosn!: string | null;

  /** pRedBC. */
  @Percent('icms_base_reduction')
  icmsBaseReduction!: Dec | null;

  /** A fixed ICMS rate for the group instead of the UF table's (e.g. a reduced internal rate). */
  @Percent('icms_rate')
  icmsRate!: Dec | null;

  @Column({ name: 'st_mode', type: 'varchar', length: 14, default: 'NONE' })
  stMode!: StMode;

  /** pMVAST (original MVA; adjusted for interstate operations). */
  @Percent('st_mva')
  stMva!: Dec | null;

  @Percent('st_base_reduction')
  stBaseReduction!: Dec | null;

  @Column({ name: 'pis_cst', type: 'varchar', length: 2, nullable: true })
  pisCst!: string | null;

  @Percent('pis_rate')
  pisRate!: Dec | null;

  @Column({ name: 'cofins_cst', type: 'varchar', length: 2, nullable: true })
  cofinsCst!: string | null;

  @Percent('cofins_rate')
  cofinsRate!: Dec | null;

  @Column({ name: 'ipi_cst', type: 'varchar', length: 2, nullable: true })
  ipiCst!: string | null;

  @Percent('ipi_rate')
  ipiRate!: Dec | null;

  @Column({ name: 'ipi_enquadramento', type: 'varchar', length: 3, nullable: true })
  ipiEnquadramento!: string | null;

  @Column({ name: 'ibs_cbs_cst', type: 'varchar', length: 3, nullable: true })
  ibsCbsCst!: string | null;

  @Column({ name: 'ibs_cbs_class', type: 'varchar', length: 6, nullable: true })
  ibsCbsClass!: string | null;

  /** cBenef: the UF's code of the tax benefit the items get (8 or 10 characters, or "SEM CBENEF"). */
  @Column({ name: 'benefit_code', type: 'varchar', length: 10, nullable: true })
  benefitCode!: string | null;

  /** motDesICMS: why the ICMS is relieved (CST 20, 40, 41, 50); null → no ICMS desonerado. */
  @Column({ name: 'relief_reason', type: 'int', nullable: true })
  reliefReason!: number | null;

  /** indDeduzDeson: the relieved ICMS is taken off the item's value (a sale to government, Convênio ICMS 26/2003). */
  @Column({ name: 'relief_deducted', type: 'boolean', default: false })
  reliefDeducted!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
