import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
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
import type { ValidationReport } from '../xml/validation-report';

export type InboundKind = 'SUMMARY' | 'FULL';
export type AuthorityStatus = 'AUTHORIZED' | 'DENIED' | 'CANCELLED';
export type Manifestation = 'NONE' | 'CIENCIA' | 'CONFIRMADA' | 'DESCONHECIDA' | 'NAO_REALIZADA';
export type InboundSource = 'SEFAZ' | 'UPLOAD';
export type ImportStatus = 'PENDING' | 'IMPORTED' | 'IGNORED';
/** NFeConsultaProtocolo4 on an uploaded XML's key: authorized with this document's digest, or why not. */
export type AuthorityCheck = 'CONFIRMED' | 'NOT_FOUND' | 'CANCELLED' | 'DENIED' | 'DIGEST_MISMATCH';

/**
 * An NF-e addressed to a filial, as received (SPEC §4): one per access key per filial. A SEFAZ
 * summary (resNFe) is a SUMMARY without XML until the full procNFe arrives; an uploaded XML is FULL
 * at once. The XML is kept gzip-compressed, byte for byte as received (its signature must verify).
 */
@Entity('nfe_inbound')
@Index('uq_nfe_inbound_filial_key', ['companyId', 'filialId', 'accessKey'], { unique: true })
@Index('ix_nfe_inbound_filial_issued', ['companyId', 'filialId', 'issuedAt', 'id'])
@Index('ix_nfe_inbound_filial_import', ['companyId', 'filialId', 'importStatus', 'issuedAt', 'id'])
@Index('ix_nfe_inbound_filial_issuer', ['companyId', 'filialId', 'issuerDocument'])
@Index('ix_nfe_inbound_filial_issue_date', ['companyId', 'filialId', 'issueDate'])
@Index('ix_nfe_inbound_company_key', ['companyId', 'accessKey'])
@Index('ix_nfe_inbound_entry_document', ['companyId', 'entryDocumentId'])
@Index('ix_nfe_inbound_filial_authorized', ['companyId', 'filialId', 'authorizedAt'])
export class NfeInbound {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ name: 'access_key', type: 'varchar', length: 44 })
  accessKey!: string;

  /** Emitter CNPJ/CPF digits. */
  @Column({ name: 'issuer_document', type: 'varchar', length: 14 })
  issuerDocument!: string;

  @Column({ name: 'issuer_name', type: 'varchar', length: 150 })
  issuerName!: string;

  /** The name upper-cased without accents (searches). */
  @Column({ name: 'issuer_search', type: 'varchar', length: 150 })
  issuerSearch!: string;

  @Column({ name: 'issuer_uf', type: 'varchar', length: 2, nullable: true })
  issuerUf!: string | null;

  @Column({ type: 'varchar', length: 2, default: '55' })
  model!: string;

  @Column({ type: 'varchar', length: 3, nullable: true })
  series!: string | null;

  @Column({ type: 'varchar', length: 9, nullable: true })
  number!: string | null;

  /** dhEmi as an instant (UTC): ordering. */
  @DateTimeColumn({ name: 'issued_at' })
  issuedAt!: Date;

  /** The issue date as the issuer wrote it (its own offset), as printed on the DANFE: date filters. */
  @DateColumn({ name: 'issue_date' })
  issueDate!: string;

  /** vNF. */
  @AmountColumn()
  total!: Dec;

  /** NSU of the DF-e distribution (15 digits, zero-padded); null for uploads. */
  @Column({ type: 'varchar', length: 15, nullable: true })
  nsu!: string | null;

  @Column({ type: 'varchar', length: 10 })
  kind!: InboundKind;

  @Column({ name: 'authority_status', type: 'varchar', length: 12 })
  authorityStatus!: AuthorityStatus;

  /** tpAmb of the document: PRODUCTION (1) or HOMOLOGATION (2). */
  @Column({ type: 'varchar', length: 12, default: 'PRODUCTION' })
  environment!: 'PRODUCTION' | 'HOMOLOGATION';

  @Column({ name: 'protocol_number', type: 'varchar', length: 20, nullable: true })
  protocolNumber!: string | null;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @Column({ type: 'varchar', length: 14, default: 'NONE' })
  manifestation!: Manifestation;

  @Column({ name: 'manifestation_protocol', type: 'varchar', length: 20, nullable: true })
  manifestationProtocol!: string | null;

  @DateTimeColumn({ name: 'manifestation_at', nullable: true })
  manifestationAt!: Date | null;

  @Column({ name: 'has_xml', type: 'boolean', default: false })
  hasXml!: boolean;

  /** gzip of the XML exactly as received (base64 of this is a DF-e docZip). */
  @BlobColumn({ name: 'xml_gzip', nullable: true, select: false })
  xmlGzip!: Buffer | null;

  @Column({ name: 'xml_sha256', type: 'varchar', length: 64, nullable: true })
  xmlSha256!: string | null;

  @Column({ type: 'varchar', length: 6 })
  source!: InboundSource;

  @Column({ name: 'import_status', type: 'varchar', length: 10, default: 'PENDING' })
  importStatus!: ImportStatus;

  @Column({ name: 'entry_document_id', type: 'int', nullable: true })
  entryDocumentId!: number | null;

  /** Event 610600 in the DF-e feed: a CT-e was authorized for this NF-e, so a freight invoice is coming (SPEC §4b). */
  @DateTimeColumn({ name: 'freight_cte_announced_at', nullable: true })
  freightCteAnnouncedAt!: Date | null;

  /** The announced CT-e's key (a full procEventoNFe names it; the resEvento summary does not). */
  @Column({ name: 'freight_cte_key', type: 'varchar', length: 44, nullable: true })
  freightCteKey!: string | null;

  /** The last consultation of the key at the authority (uploads must have CONFIRMED before confirmation; null: never consulted). */
  @Column({ name: 'authority_check', type: 'varchar', length: 16, nullable: true })
  authorityCheck!: AuthorityCheck | null;

  @Column({ name: 'authority_check_cstat', type: 'varchar', length: 3, nullable: true })
  authorityCheckCStat!: string | null;

  @DateTimeColumn({ name: 'authority_checked_at', nullable: true })
  authorityCheckedAt!: Date | null;

  /** The validation report when the XML was stored (recomputed on detail against the filial as it is now). */
  @JsonColumn({ name: 'validation', nullable: true })
  validation!: ValidationReport | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
