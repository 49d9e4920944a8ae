import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * A filial's NFC-e (modelo 65) settings (SPEC §12.3): the série it numbers from (an invoice_series row
 * of model 65), the QR code version (2 with the CSC, 3 per NT 2025.001), the UF's consultation URLs as
 * data, whether every quick sale issues its NFC-e, and the synchronous transmission's deadline.
 */
@Entity('nfce_configuration')
@Index('uq_nfce_configuration_filial', ['companyId', 'filialId'], { unique: true })
export class NfceConfiguration {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'int' })
  series!: number;

  /** 2: QR code with the CSC hash; 3: NT 2025.001 (online p=chave|3|tpAmb; offline signed with the certificate). */
  @Column({ name: 'qr_version', type: 'int' })
  qrVersion!: number;

  /** CSC identifier (idToken), required by version 2. */
  @Column({ name: 'csc_id', type: 'int', nullable: true })
  cscId!: number | null;

  @Column({ name: 'csc_token', type: 'varchar', length: 36, nullable: true })
  cscToken!: string | null;

  /** The UF's QR code consultation address (before `?p=`). */
  @Column({ name: 'qr_code_url', type: 'varchar', length: 255 })
  qrCodeUrl!: string;

  /** The UF's key consultation address (urlChave). */
  @Column({ name: 'consult_url', type: 'varchar', length: 255 })
  consultUrl!: string;

  /** Every quick sale of the filial issues its NFC-e. */
  @Column({ name: 'auto_issue', type: 'boolean', default: false })
  autoIssue!: boolean;

  @Column({ name: 'sync_timeout_ms', type: 'int', default: 3000 })
  syncTimeoutMs!: number;

  /** Above this total the consumer must be identified (CPF/CNPJ); null: the UF sets no threshold. */
  @AmountColumn({ name: 'identification_threshold', nullable: true })
  identificationThreshold!: Dec | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
