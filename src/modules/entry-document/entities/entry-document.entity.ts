import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { ReformTaxBlock } from './entry-document-item.entity';
import type { NfePurpose } from '../fiscal/fiscal.types';
import type { TaxRegime } from '../../tenancy';

export type EntryDocumentStatus = 'DRAFT' | 'CONFIRMED' | 'CANCELLED';
export type EntryDocumentOrigin = 'MANUAL' | 'NFE_XML' | 'NFE_SEFAZ';

/** The XML's ICMSTot as declared (fixed-point strings), kept so confirmation can compare against it. */
export type ExpectedTotals = Partial<
  Record<'products' | 'freight' | 'insurance' | 'discount' | 'otherExpenses' | 'ipi' | 'icmsSt' | 'total', string>
>;

/** An inbound purchase invoice (SPEC §2). Totals are always computed by the server from the items. */
@Entity('entry_document')
// Duplicate NF-e detection: one live (draft or confirmed) document per access key in a company; a cancelled
// document gives its key back (live_access_key NULL), so the NF-e can be imported again. NULLs never collide.
@Index('uq_entry_document_live_access_key', ['companyId', 'liveAccessKey'], { unique: true })
@Index('ix_entry_document_access_key', ['companyId', 'accessKey'])
@Index('ix_entry_document_filial_entry', ['companyId', 'filialId', 'entryDate', 'id'])
@Index('ix_entry_document_filial_status', ['companyId', 'filialId', 'status', 'entryDate', 'id'])
// The product map's history (a supplier's last purchases) and supplier filters.
@Index('ix_entry_document_supplier_document', ['companyId', 'supplierDocument', 'status', 'entryDate'])
@Index('ix_entry_document_number', ['companyId', 'number'])
@Index('ix_entry_document_supplier', ['companyId', 'supplierId'])
export class EntryDocument {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 10 })
  status!: EntryDocumentStatus;

  @Column({ type: 'varchar', length: 10 })
  origin!: EntryDocumentOrigin;

  /** Fiscal model: 55 (NF-e), 65 (NFC-e), 01 (paper), … */
  @Column({ type: 'varchar', length: 2 })
  model!: string;

  @Column({ type: 'varchar', length: 3 })
  series!: string;

  @Column({ type: 'varchar', length: 9 })
  number!: string;

  @Column({ name: 'access_key', type: 'varchar', length: 44, nullable: true })
  accessKey!: string | null;

  /** `accessKey` while the document is DRAFT or CONFIRMED, NULL once CANCELLED (the unique key of imports). */
  @Column({ name: 'live_access_key', type: 'varchar', length: 44, nullable: true })
  liveAccessKey!: string | null;

  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @DateColumn({ name: 'entry_date' })
  entryDate!: string;

  @IdColumn({ name: 'supplier_id' })
  supplierId!: number;

  /** The supplier as the document names it (snapshot; the master row may change later). */
  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  @Column({ name: 'supplier_name', type: 'varchar', length: 150 })
  supplierName!: string;

  @Column({ name: 'supplier_state_registration', type: 'varchar', length: 20, nullable: true })
  supplierStateRegistration!: string | null;

  @Column({ name: 'supplier_uf', type: 'varchar', length: 2, nullable: true })
  supplierUf!: string | null;

  @Column({ name: 'operation_nature', type: 'varchar', length: 60, nullable: true })
  operationNature!: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  notes!: string | null;

  @AmountColumn({ name: 'total_products' })
  totalProducts!: Dec;

  @AmountColumn({ name: 'total_freight' })
  totalFreight!: Dec;

  @AmountColumn({ name: 'total_insurance' })
  totalInsurance!: Dec;

  @AmountColumn({ name: 'total_discount' })
  totalDiscount!: Dec;

  @AmountColumn({ name: 'total_other_expenses' })
  totalOtherExpenses!: Dec;

  @AmountColumn({ name: 'total_ipi' })
  totalIpi!: Dec;

  @AmountColumn({ name: 'total_icms_st' })
  totalIcmsSt!: Dec;

  @AmountColumn()
  total!: Dec;

  @JsonColumn({ name: 'expected_totals', nullable: true })
  expectedTotals!: ExpectedTotals | null;

  /** The NF-e's tax-reform header and totals (cMunFGIBS, finNFe, IBSCBSTot, ISTot, vNFTot, the year's rule and checks); null otherwise. */
  @JsonColumn({ name: 'reform_taxes', nullable: true })
  reformTaxes!: ReformTaxBlock | null;
  /** finNFe: 1 normal, 2 complementary, 3 adjustment, 4 return, 5 credit note, 6 debit note. */
  @Column({ type: 'varchar', length: 1, default: '1' })
  purpose!: NfePurpose;

  /** NFref access keys: the documents this one refers to. */
  @JsonColumn({ name: 'referenced_keys', nullable: true })
  referencedKeys!: string[] | null;

  /** The filial's tax regime the confirmation booked the costs and credits by (null until confirmed). */
  @Column({ name: 'tax_regime', type: 'varchar', length: 20, nullable: true })
  taxRegime!: TaxRegime | null;

  /** Kept with the header so lists show review progress without reading the items. */
  @Column({ name: 'item_count', type: 'int', default: 0 })
  itemCount!: number;

  @Column({ name: 'pending_item_count', type: 'int', default: 0 })
  pendingItemCount!: number;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 255, nullable: true })
  cancelReason!: string | null;

  @DateTimeColumn({ name: 'confirmed_at', nullable: true })
  confirmedAt!: Date | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  /** Set when the issuer cancelled the NF-e this document was imported from (a DRAFT can no longer be confirmed). */
  @DateTimeColumn({ name: 'nfe_cancelled_at', nullable: true })
  nfeCancelledAt!: Date | null;

  /** Optimistic lock: every change (edit, confirm, cancel) bumps it with a conditional UPDATE. */
  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
