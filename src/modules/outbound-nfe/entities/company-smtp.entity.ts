import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/**
 * The company's own SMTP server for the NF-e delivery (one per company; without it the configured
 * SMTP_URL is used). The password is sealed (AES-256-GCM with CERT_ENCRYPTION_KEY, bound to the
 * company) like the A1 certificate's, and never leaves the service.
 */
@Entity('company_smtp')
@Index('uq_company_smtp', ['companyId'], { unique: true })
export class CompanySmtp {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 255 })
  host!: string;

  @Column({ type: 'int' })
  port!: number;

  /** TLS from the first byte (SMTPS, usually 465); false: plain then STARTTLS when the server offers it. */
  @Column({ type: 'boolean', default: false })
  secure!: boolean;

  @Column({ name: 'username', type: 'varchar', length: 255, nullable: true })
  user!: string | null;

  @BlobColumn({ name: 'password_sealed', nullable: true })
  passwordSealed!: Buffer | null;

  @Column({ name: 'from_address', type: 'varchar', length: 255 })
  from!: string;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
