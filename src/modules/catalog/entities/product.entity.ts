import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, FactorColumn, IdColumn, PriceColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

@Entity('product')
@Index('uq_product_company_code', ['companyId', 'code'], { unique: true })
@Index('ix_product_company_gtin', ['companyId', 'gtin'])
@Index('ix_product_company_search', ['companyId', 'searchName'])
export class Product {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 30 })
  code!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Upper-cased, accent-free name used by searches (kept in step with `name` by the service). */
  @Column({ name: 'search_name', type: 'varchar', length: 200 })
  searchName!: string;

  @Column({ type: 'varchar', length: 6 })
  unit!: string;

  /** Barcode (GTIN-8/12/13/14); only valid GTINs are stored. */
  @Column({ type: 'varchar', length: 14, nullable: true })
  gtin!: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  ncm!: string | null;

  @Column({ type: 'varchar', length: 7, nullable: true })
  cest!: string | null;

  @PriceColumn()
  price!: Dec;

  /* Fiscal data for issuing documents (SPEC §1, §12). */

  /** Origin of the goods (orig 0–8, Ajuste SINIEF 20/2012): 0 national, 1/2/3/8 imported at 4 % … */
  @Column({ type: 'int', default: 0 })
  origin!: number;

  /** uTrib: the unit of taxation; null → the commercial unit. */
  @Column({ name: 'taxable_unit', type: 'varchar', length: 6, nullable: true })
  taxableUnit!: string | null;

  /** Taxable units per commercial unit (qTrib = qCom × factor). */
  @FactorColumn({ name: 'taxable_factor' })
  taxableFactor!: Dec;

  /** The company's tax group (fiscal module) whose rules apply; null → not billable yet. */
  @IdColumn({ name: 'tax_group_id', nullable: true })
  taxGroupId!: number | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ name: 'stock_controlled', type: 'boolean', default: true })
  stockControlled!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
