import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

@Entity('supplier')
@Index('uq_supplier_company_document', ['companyId', 'document'], { unique: true })
@Index('ix_supplier_company_name', ['companyId', 'searchName'])
export class Supplier {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  /** CNPJ (14) or CPF (11) digits. */
  @Column({ type: 'varchar', length: 14 })
  document!: string;

  @Column({ type: 'varchar', length: 150 })
  name!: string;

  @Column({ name: 'trade_name', type: 'varchar', length: 150, nullable: true })
  tradeName!: string | null;

  @Column({ name: 'search_name', type: 'varchar', length: 150 })
  searchName!: string;

  @Column({ name: 'state_registration', type: 'varchar', length: 20, nullable: true })
  stateRegistration!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  uf!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
