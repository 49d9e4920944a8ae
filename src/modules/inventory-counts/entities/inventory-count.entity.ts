import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/** OPEN: being counted; CLOSED: adjusted and valued (the snapshot); CANCELLED: dropped, nothing posted. */
export type InventoryCountStatus = 'OPEN' | 'CLOSED' | 'CANCELLED';
export const INVENTORY_COUNT_STATUSES: readonly InventoryCountStatus[] = ['OPEN', 'CLOSED', 'CANCELLED'];
/** MOT_INV of H005: 01 end of period, 02 change of tax regime, 03 closing of the establishment, 04 change of ICMS treatment, 05 ordered by the authority, 06 ST control. */
export const INVENTORY_MOTIVES = ['01', '02', '03', '04', '05', '06'] as const;
export type InventoryMotive = (typeof INVENTORY_MOTIVES)[number];

/**
 * A stock count of one filial: a sheet of products counted blind, closed into a valued snapshot at the
 * average cost, the differences posted to the stock ledger as adjustments. A closed count is the
 * inventory of Bloco H at its date.
 */
@Entity('inventory_count')
@Index('ix_inventory_count_filial', ['companyId', 'filialId', 'countDate', 'id'])
export class InventoryCount {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: InventoryCountStatus;

  /** The inventory date (H005 DT_INV): 31/12 for the yearly one, or the date of the motive. */
  @DateColumn({ name: 'count_date' })
  countDate!: string;

  @Column({ type: 'varchar', length: 2 })
  motive!: InventoryMotive;

  @Column({ type: 'varchar', length: 500, nullable: true })
  notes!: string | null;

  @Column({ name: 'line_count', type: 'int' })
  lineCount!: number;

  /** Σ counted quantity × average cost, once closed (H005 VL_INV). */
  @AmountColumn({ name: 'total_value' })
  totalValue!: Dec;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @Column({ name: 'closed_by', type: 'varchar', length: 100, nullable: true })
  closedBy!: string | null;

  @DateTimeColumn({ name: 'closed_at', nullable: true })
  closedAt!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
