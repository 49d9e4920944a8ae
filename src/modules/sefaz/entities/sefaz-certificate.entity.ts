import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

export type CertificateTrust = 'TRUSTED' | 'UNTRUSTED' | 'UNVERIFIABLE';

/**
 * A filial's A1 certificate. The PFX and its password live only inside `sealed` (AES-256-GCM with
 * the configured key, bound to company and filial); the rest is what may be shown.
 */
@Entity('sefaz_certificate')
@Index('uq_sefaz_certificate_filial', ['companyId', 'filialId'], { unique: true })
export class SefazCertificate {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 500 })
  subject!: string;

  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  /** Holder's CNPJ as the certificate states it (null when it states none). */
  @Column({ type: 'varchar', length: 14, nullable: true })
  cnpj!: string | null;

  @Column({ name: 'serial_number', type: 'varchar', length: 80 })
  serialNumber!: string;

  /** SHA-256 of the DER certificate (hex): names the certificate in logs without showing it. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  @DateTimeColumn({ name: 'valid_from' })
  validFrom!: Date;

  @DateTimeColumn({ name: 'valid_to' })
  validTo!: Date;

  /** iv(12) ‖ tag(16) ‖ AES-256-GCM ciphertext of { pfx, password }. */
  @BlobColumn()
  sealed!: Buffer;

  /**
   * The chain's verdict at upload (fiscal-xml signer trust against NFE_TRUSTED_ROOTS): TRUSTED, or
   * UNTRUSTED / UNVERIFIABLE — accepted only for a homologação filial, with `trustWarning` saying why.
   * Null: uploaded before the check existed.
   */
  @Column({ type: 'varchar', length: 12, nullable: true })
  trust!: CertificateTrust | null;

  @Column({ name: 'trust_warning', type: 'varchar', length: 300, nullable: true })
  trustWarning!: string | null;

  /** The smallest expiry threshold (30, 15, 7 days) already announced by nfe.certificate.expiring; null: none yet. */
  @Column({ name: 'expiry_alerted_days', type: 'int', nullable: true })
  expiryAlertedDays!: number | null;

  @Column({ name: 'uploaded_by', type: 'varchar', length: 100 })
  uploadedBy!: string;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
