import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many products of a company carry each index word (the term dictionary of product_search_token).
 * Description matching reads it to pick each item's rarest words before touching any postings list;
 * maintained with the index rows by `indexProductNames`.
 */
@Entity('product_search_term')
export class ProductSearchTerm {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  token!: string;

  @Column({ name: 'product_count', type: 'int' })
  productCount!: number;
}
