import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * A month's appropriation of a filial (G126): the parts of the month, the taxed and the total exits
 * the share came from (LC 87/1996 art. 20 §5 III), and what was credited. One per filial and month.
 */
@Entity('ciap_appropriation')
@Index('ux_ciap_appropriation_month', ['companyId', 'filialId', 'month'], { unique: true })
export class CiapAppropriation {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 7 })
  month!: string;

  /** G126 VL_TRIB_EXP: taxed exits and exports of the month (the fiscal books). */
  @AmountColumn({ name: 'taxed_exits' })
  taxedExits!: Dec;

  /** G126 VL_TOTAL: every regular exit of the month. */
  @AmountColumn({ name: 'total_exits' })
  totalExits!: Dec;

  /** G126 IND_PER_SAI: taxed / total, to 8 places (the credit itself is computed from the two values). */
  @DecimalColumn(12, 8, { name: 'exit_share' })
  exitShare!: Dec;

  /** G126 SOM_PARC: Σ the parts booked. */
  @AmountColumn({ name: 'parts_total' })
  partsTotal!: Dec;

  /** G126 VL_PARC_APROP: Σ credited. */
  @AmountColumn()
  credited!: Dec;

  @Column({ name: 'part_count', type: 'int' })
  partCount!: number;

  /** Where the exits came from: the fiscal books' summary of the month, its exit rows counted. */
  @Column({ type: 'varchar', length: 200 })
  source!: string;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
