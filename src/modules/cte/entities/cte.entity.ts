import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import {
  AmountColumn,
  BlobColumn,
  CreatedAtColumn,
  DateColumn,
  DateTimeColumn,
  IdColumn,
  JsonColumn,
  UpdatedAtColumn,
} from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { PayerRole } from '../xml/cte-types';
import type { CteValidationReport } from '../xml/cte-validation';

/** RECEIVED: staged · APPORTIONED: freight on the goods and payable created · CANCELLED: what it posted reversed. */
export type CteStatus = 'RECEIVED' | 'APPORTIONED' | 'CANCELLED';
export type ApportionMethod = 'VALUE' | 'WEIGHT' | 'QUANTITY' | 'MANUAL';

/**
 * A CT-e (freight invoice) the filial pays (SPEC §4b): one per access key per company, stored with
 * its XML (gzip, byte for byte as received: its signature must verify).
 */
@Entity('cte')
@Index('uq_cte_company_key', ['companyId', 'accessKey'], { unique: true })
@Index('ix_cte_filial_issued', ['companyId', 'filialId', 'issuedAt', 'id'])
@Index('ix_cte_filial_status', ['companyId', 'filialId', 'status', 'issuedAt', 'id'])
@Index('ix_cte_filial_issuer', ['companyId', 'filialId', 'issuerDocument'])
export class Cte {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ name: 'access_key', type: 'varchar', length: 44 })
  accessKey!: string;

  @Column({ type: 'varchar', length: 12 })
  status!: CteStatus;

  /** The carrier (emit): CNPJ digits. */
  @Column({ name: 'issuer_document', type: 'varchar', length: 14 })
  issuerDocument!: string;

  @Column({ name: 'issuer_name', type: 'varchar', length: 150 })
  issuerName!: string;

  /** The name upper-cased without accents (searches). */
  @Column({ name: 'issuer_search', type: 'varchar', length: 150 })
  issuerSearch!: string;

  @Column({ name: 'issuer_state_registration', type: 'varchar', length: 20, nullable: true })
  issuerStateRegistration!: string | null;

  @Column({ name: 'issuer_uf', type: 'varchar', length: 2, nullable: true })
  issuerUf!: string | null;

  @Column({ type: 'varchar', length: 3 })
  series!: string;

  @Column({ type: 'varchar', length: 9 })
  number!: string;

  @DateTimeColumn({ name: 'issued_at' })
  issuedAt!: Date;

  /** The issue date as the carrier wrote it (its own offset): date filters. */
  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  @Column({ type: 'varchar', length: 12 })
  environment!: 'PRODUCTION' | 'HOMOLOGATION';

  @Column({ name: 'protocol_number', type: 'varchar', length: 20, nullable: true })
  protocolNumber!: string | null;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @Column({ name: 'payer_role', type: 'varchar', length: 10 })
  payerRole!: PayerRole;

  /** vTPrest: the service's total value. */
  @AmountColumn({ name: 'service_total' })
  serviceTotal!: Dec;

  /** vRec: what the carrier receives (the payable without installments). */
  @AmountColumn()
  receivable!: Dec;

  /** The ICMS the CT-e highlights (vICMS / vICMSOutraUF), 0 when exempt or Simples Nacional. */
  @AmountColumn({ name: 'icms_value' })
  icmsValue!: Dec;

  /** How many NF-e keys it carried (the keys are in cte_nfe). */
  @Column({ name: 'nfe_count', type: 'int', default: 0 })
  nfeCount!: number;

  @BlobColumn({ name: 'xml_gzip', select: false })
  xmlGzip!: Buffer;

  @Column({ name: 'xml_sha256', type: 'varchar', length: 64 })
  xmlSha256!: string;

  @JsonColumn({ name: 'validation' })
  validation!: CteValidationReport;

  @Column({ name: 'apportion_method', type: 'varchar', length: 10, nullable: true })
  apportionMethod!: ApportionMethod | null;

  /** The freight apportioned: vTPrest less the recoverable ICMS and PIS/COFINS. */
  @AmountColumn({ name: 'apportioned_amount' })
  apportionedAmount!: Dec;

  /** The ICMS on the freight the filial's regime recovers as a credit (kept out of the cost). */
  @AmountColumn({ name: 'recoverable_icms' })
  recoverableIcms!: Dec;

  /** PIS and COFINS credited on the freight net of its ICMS (Lucro Real, before the 2027 rule set). */
  @AmountColumn({ name: 'pis_credit', default: 0 })
  pisCredit!: Dec;

  @AmountColumn({ name: 'cofins_credit', default: 0 })
  cofinsCredit!: Dec;

  /** The part of the freight that belonged to goods already sold when it was apportioned (reported). */
  @AmountColumn({ name: 'sold_share' })
  soldShare!: Dec;

  /** Entry date of the freight: the payable's date when the CT-e has no installments. */
  @DateColumn({ name: 'entry_date', nullable: true })
  entryDate!: string | null;

  /** The carrier in the supplier master (set when apportioned: the payable's supplier). */
  @IdColumn({ name: 'supplier_id', nullable: true })
  supplierId!: number | null;

  @DateTimeColumn({ name: 'apportioned_at', nullable: true })
  apportionedAt!: Date | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 255, nullable: true })
  cancelReason!: string | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
