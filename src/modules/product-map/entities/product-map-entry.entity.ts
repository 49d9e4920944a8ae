import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, FactorColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { isMysql } from '../../../core/db/engine';
import { Dec } from '../../../core/decimal';

/**
 * One supplier item mapped to one of our products (SPEC §5): the supplier's code, unit, description and
 * GTIN as the supplier declares them, and how many of our stock units one supplier unit holds.
 */
@Entity('product_map_entry')
@Index('uq_product_map_entry_supplier_code', ['companyId', 'supplierDocument', 'supplierProductCode'], { unique: true })
@Index('ix_product_map_entry_product', ['companyId', 'productId'])
export class ProductMapEntry {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  /** CNPJ (14) or CPF (11) digits. */
  @Column({ name: 'supplier_document', type: 'varchar', length: 14 })
  supplierDocument!: string;

  /** NF-e cProd (1–60 characters), compared exactly ("ab12" and "AB12" are different codes on both engines). */
  @Column({ name: 'supplier_product_code', type: 'varchar', length: 60, ...(isMysql ? { collation: 'utf8mb4_bin' } : {}) })
  supplierProductCode!: string;

  /** NF-e uCom. */
  @Column({ name: 'supplier_unit', type: 'varchar', length: 6 })
  supplierUnit!: string;

  /** NF-e xProd. */
  @Column({ name: 'supplier_description', type: 'varchar', length: 120, nullable: true })
  supplierDescription!: string | null;

  /** The supplier item's GTIN when valid (never "SEM GTIN"). */
  @Column({ type: 'varchar', length: 14, nullable: true })
  gtin!: string | null;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  /** Our stock units per supplier unit. */
  @FactorColumn({ name: 'conversion_factor' })
  conversionFactor!: Dec;

  @Column({ name: 'use_count', type: 'int', default: 0 })
  useCount!: number;

  @DateTimeColumn({ name: 'last_used_at', nullable: true })
  lastUsedAt!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
