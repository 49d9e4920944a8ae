import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, IdColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/** PENDING: its month not appropriated yet; APPROPRIATED: booked (credited × the month's taxed-exit share); DROPPED: the asset was cancelled first. */
export type CiapPartStatus = 'PENDING' | 'APPROPRIATED' | 'DROPPED';
export const CIAP_PART_STATUSES: readonly CiapPartStatus[] = ['PENDING', 'APPROPRIATED', 'DROPPED'];

/** One of an asset's 48 monthly parts: 1/48 of its credit (the cents' residue on the last), and once appropriated what was credited. */
@Entity('ciap_part')
@Index('ux_ciap_part_number', ['assetId', 'number'], { unique: true })
@Index('ix_ciap_part_month', ['companyId', 'filialId', 'month', 'status'])
export class CiapPart {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'asset_id' })
  assetId!: number;

  /** 1..48 (G125 NUM_PARC). */
  @Column({ type: 'int' })
  number!: number;

  @Column({ type: 'varchar', length: 7 })
  month!: string;

  /** G125 VL_PARC_PASS: the part before the month's share. */
  @AmountColumn()
  amount!: Dec;

  @Column({ type: 'varchar', length: 12 })
  status!: CiapPartStatus;

  /** What the month's appropriation credited of it (G126 VL_PARC_APROP's share); null until booked. */
  @AmountColumn({ nullable: true, default: null })
  credited!: Dec | null;

  @IdColumn({ name: 'appropriation_id', nullable: true })
  appropriationId!: number | null;
}
