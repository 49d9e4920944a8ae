import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Inverted index of product names: one row per (company, word, product). Name searches and the
 * description matching of supplier items read it by word (prefix ranges on the primary key) instead of
 * scanning every product name. The product code rides along so a search can order its matches by code
 * from the index rows alone (the primary key is clustered). Kept in step with the product by
 * `indexProductNames`.
 */
@Entity('product_search_token')
@Index('ix_product_search_token_product', ['companyId', 'productId'])
export class ProductSearchToken {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  token!: string;

  @PrimaryColumn({ name: 'product_id', type: 'int' })
  productId!: number;

  @Column({ type: 'varchar', length: 30 })
  code!: string;
}
