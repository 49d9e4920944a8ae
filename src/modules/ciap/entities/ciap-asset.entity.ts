import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/** ACTIVE: parts still to appropriate or appropriated; CANCELLED: its entry was cancelled, the parts not yet appropriated dropped. */
export type CiapAssetStatus = 'ACTIVE' | 'CANCELLED';
export const CIAP_ASSET_STATUSES: readonly CiapAssetStatus[] = ['ACTIVE', 'CANCELLED'];

/**
 * One good of the fixed assets (CIAP, LC 87/1996 art. 20 §5): an item of a confirmed entry document
 * booked as PURCHASE_FIXED_ASSET (CFOP x551/x406), its ICMS credit split into 48 monthly parts from the
 * month of entry. The ICMS columns are the four the EFD's G125 carries (VL_IMOB_ICMS_OP/ST/FRT/DIF).
 */
@Entity('ciap_asset')
@Index('ux_ciap_asset_item', ['companyId', 'entryDocumentItemId'], { unique: true })
@Index('ix_ciap_asset_filial', ['companyId', 'filialId', 'id'])
@Index('ix_ciap_asset_document', ['companyId', 'entryDocumentId'])
export class CiapAsset {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @IdColumn({ name: 'entry_document_item_id' })
  entryDocumentItemId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @Column({ type: 'varchar', length: 500 })
  description!: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  ncm!: string | null;

  /** The entry CFOP the line was booked with (1551, 2551, 1406, 2406). */
  @Column({ name: 'entry_cfop', type: 'varchar', length: 4 })
  entryCfop!: string;

  /** The entry document's number and supplier (G130's document, kept as of the entry). */
  @Column({ name: 'document_number', type: 'varchar', length: 20 })
  documentNumber!: string;

  @Column({ name: 'access_key', type: 'varchar', length: 44, nullable: true })
  accessKey!: string | null;

  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  @DateColumn({ name: 'entry_date' })
  entryDate!: string;

  /** The month of the first part (the entry date's): YYYY-MM. */
  @Column({ name: 'first_month', type: 'varchar', length: 7 })
  firstMonth!: string;

  /** VL_IMOB_ICMS_OP: the item's own ICMS (vICMS). */
  @AmountColumn({ name: 'icms_own' })
  icmsOwn!: Dec;

  /** VL_IMOB_ICMS_ST: the item's ICMS-ST (vICMSST). */
  @AmountColumn({ name: 'icms_st' })
  icmsSt!: Dec;

  /** VL_IMOB_ICMS_FRT: ICMS of the CT-e freight onto the item (see docs/decisions/tax-law-rows.md, row 9). */
  @AmountColumn({ name: 'icms_freight' })
  icmsFreight!: Dec;

  /** VL_IMOB_ICMS_DIF: the DIFAL the buyer paid on an interstate asset (row 9). */
  @AmountColumn({ name: 'icms_difal' })
  icmsDifal!: Dec;

  /** The credit to spread: the sum of the four. */
  @AmountColumn({ name: 'total_credit' })
  totalCredit!: Dec;

  @Column({ name: 'part_count', type: 'int' })
  partCount!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: CiapAssetStatus;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 500, nullable: true })
  cancelReason!: string | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
