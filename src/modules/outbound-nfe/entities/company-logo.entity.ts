import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BlobColumn, CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/** The company's logo the DANFE prints in the issuer's box (PNG or JPEG, checked at upload). */
@Entity('company_logo')
@Index('uq_company_logo_company', ['companyId'], { unique: true })
export class CompanyLogo {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ name: 'content_type', type: 'varchar', length: 20 })
  contentType!: 'image/png' | 'image/jpeg';

  @BlobColumn()
  image!: Buffer;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
