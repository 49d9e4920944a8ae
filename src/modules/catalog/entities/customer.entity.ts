import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

@Entity('customer')
@Index('ix_customer_company_name', ['companyId', 'searchName'])
@Index('ix_customer_company_trade', ['companyId', 'searchTradeName'])
@Index('ix_customer_company_document', ['companyId', 'document'])
export class Customer {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 150 })
  name!: string;

  @Column({ name: 'trade_name', type: 'varchar', length: 150, nullable: true })
  tradeName!: string | null;

  @Column({ name: 'search_name', type: 'varchar', length: 150 })
  searchName!: string;

  @Column({ name: 'search_trade_name', type: 'varchar', length: 150, nullable: true })
  searchTradeName!: string | null;

  /** CPF (11) or CNPJ (14) digits; null for the anonymous counter customer. */
  @Column({ type: 'varchar', length: 14, nullable: true })
  document!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  phone!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
