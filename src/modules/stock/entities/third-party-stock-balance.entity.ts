import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, IdColumn, QuantityColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/**
 * Goods of others held by a filial (remessas for industrialization, repair, demonstration, consignment,
 * deposit), per product and owner: never part of own stock or its cost. `value` is the owner's declared
 * value of what is held (the inventory's "de terceiros em nosso poder"). Always the sum of its movements.
 */
@Entity('third_party_stock_balance')
@Index('uq_third_party_stock_balance', ['companyId', 'filialId', 'productId', 'ownerDocument'], { unique: true })
export class ThirdPartyStockBalance {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'product_id' })
  productId!: number;

  /** The owner's CNPJ/CPF (the sender of the goods). */
  @Column({ name: 'owner_document', type: 'varchar', length: 14 })
  ownerDocument!: string;

  @IdColumn({ name: 'owner_supplier_id', nullable: true })
  ownerSupplierId!: number | null;

  @QuantityColumn()
  quantity!: Dec;

  @AmountColumn()
  value!: Dec;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
