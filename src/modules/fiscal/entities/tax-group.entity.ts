import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/** A company's tax group: products in it share the fiscal operation rules (SPEC §1, §12.1). */
@Entity('fiscal_tax_group')
@Index('uq_fiscal_tax_group_code', ['companyId', 'code'], { unique: true })
export class TaxGroup {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 20 })
  code!: string;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
