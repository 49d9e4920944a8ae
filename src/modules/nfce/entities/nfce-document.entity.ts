import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * SIGNED: stored in the sale's transaction, not yet answered; AUTHORIZED; CONTINGENCY: issued offline
 * (tpEmis 9), waiting for the transmission queue; REJECTED: the authority refused it (cStat kept, to
 * be corrected); CANCELLED.
 */
export type NfceStatus = 'SIGNED' | 'AUTHORIZED' | 'CONTINGENCY' | 'REJECTED' | 'CANCELLED';

/**
 * The online attempt a note went to contingency after, when it may have reached the authority: the
 * offline note (the one printed) took a new number, and the attempt's is settled once the offline note
 * is authorized — PENDING, then SUBSTITUTED (it was authorized after all: cancelled by substitution,
 * 110112) or VOIDED (the authority never had it: its number voided).
 */
export type OriginalOutcome = 'PENDING' | 'SUBSTITUTED' | 'VOIDED';

export interface NfceSummary {
  items: { code: string; description: string; quantity: string; unit: string; unitPrice: string; total: string }[];
  payments: { tPag: string; amount: string }[];
  change: string;
  vProd: string;
  vDesc: string;
  vNF: string;
  vTotTrib: string;
  issuerName: string;
  issuerDocument: string;
  issuerAddress: string;
  consumerName: string | null;
}

/** One NFC-e (modelo 65) of a quick sale. */
@Entity('nfce_document')
@Index('uq_nfce_document_key', ['accessKey'], { unique: true })
@Index('uq_nfce_document_number', ['companyId', 'seriesId', 'number'], { unique: true })
@Index('uq_nfce_document_order', ['companyId', 'salesOrderId'], { unique: true })
@Index('ix_nfce_document_status', ['status', 'filialId', 'number'])
@Index('ix_nfce_document_filial_issued', ['companyId', 'filialId', 'issuedAt'])
export class NfceDocument {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @IdColumn({ name: 'series_id' })
  seriesId!: number;

  @Column({ type: 'int' })
  series!: number;

  @Column({ type: 'int' })
  number!: number;

  @Column({ name: 'access_key', type: 'varchar', length: 44 })
  accessKey!: string;

  /** The key of the online attempt when the note went to contingency after it (it may have reached the authority). */
  @Column({ name: 'online_key', type: 'varchar', length: 44, nullable: true })
  onlineKey!: string | null;

  /** The online attempt's number, when the offline note took a new one (see OriginalOutcome). */
  @Column({ name: 'online_number', type: 'int', nullable: true })
  onlineNumber!: number | null;

  @Column({ name: 'original_outcome', type: 'varchar', length: 20, nullable: true })
  originalOutcome!: OriginalOutcome | null;

  /** The protocol of the substitution event (110112) or of the voiding of the attempt's number. */
  @Column({ name: 'original_protocol', type: 'varchar', length: 20, nullable: true })
  originalProtocol!: string | null;

  /** procEventoNFe of the 110112, or procInutNFe of the voiding (gzip). */
  @BlobColumn({ name: 'original_xml_gz', nullable: true })
  originalXmlGz!: Buffer | null;

  @Column({ type: 'varchar', length: 20 })
  status!: NfceStatus;

  /** 1 normal, 9 offline contingency. */
  @Column({ name: 'emission_type', type: 'int' })
  emissionType!: number;

  @DateTimeColumn({ name: 'issued_at' })
  issuedAt!: Date;

  @Column({ name: 'random_code', type: 'varchar', length: 8 })
  randomCode!: string;

  @DateTimeColumn({ name: 'contingency_at', nullable: true })
  contingencyAt!: Date | null;

  @Column({ name: 'contingency_reason', type: 'varchar', length: 256, nullable: true })
  contingencyReason!: string | null;

  @AmountColumn()
  total!: Dec;

  @Column({ name: 'consumer_document', type: 'varchar', length: 14, nullable: true })
  consumerDocument!: string | null;

  @Column({ name: 'qr_code', type: 'varchar', length: 1000 })
  qrCode!: string;

  @Column({ name: 'consult_url', type: 'varchar', length: 255 })
  consultUrl!: string;

  @Column({ name: 'tp_amb', type: 'varchar', length: 1 })
  tpAmb!: string;

  @JsonColumn()
  summary!: NfceSummary;

  @BlobColumn({ name: 'signed_xml_gz' })
  signedXmlGz!: Buffer;

  /** The online attempt's signed XML (gzip), kept with `onlineKey`: if that one was authorized after all, it is the note. */
  @BlobColumn({ name: 'online_xml_gz', nullable: true })
  onlineXmlGz!: Buffer | null;

  @BlobColumn({ name: 'proc_xml_gz', nullable: true })
  procXmlGz!: Buffer | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  protocol!: string | null;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @Column({ name: 'c_stat', type: 'varchar', length: 3, nullable: true })
  cStat!: string | null;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255, nullable: true })
  xMotivo!: string | null;

  @Column({ name: 'cancel_protocol', type: 'varchar', length: 20, nullable: true })
  cancelProtocol!: string | null;

  /** procEventoNFe of the cancellation (gzip). */
  @BlobColumn({ name: 'cancel_xml_gz', nullable: true })
  cancelXmlGz!: Buffer | null;

  @Column({ name: 'send_attempts', type: 'int', default: 0 })
  sendAttempts!: number;

  /** The overdue alert (pending past the legal window) was raised once. */
  @Column({ name: 'overdue_alerted', type: 'boolean', default: false })
  overdueAlerted!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
