import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

@Entity('seller')
@Index('ix_seller_company_name', ['companyId', 'searchName'])
export class Seller {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Column({ type: 'varchar', length: 60, nullable: true })
  alias!: string | null;

  @Column({ name: 'search_name', type: 'varchar', length: 200 })
  searchName!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
