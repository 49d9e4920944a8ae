import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, FactorColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/**
 * One entry-document line sent back: the quantity in the supplier's unit (as invoiced), its values and
 * taxes as the supplier's NF-e carried them for that share, the cost its goods entered stock with,
 * and the credits the entry took on it that go back.
 */
@Entity('supplier_return_item')
@Index('ix_supplier_return_item_return', ['companyId', 'supplierReturnId', 'lineNumber'])
@Index('ix_supplier_return_item_entry_item', ['companyId', 'entryDocumentItemId'])
export class SupplierReturnItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'supplier_return_id' })
  supplierReturnId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @IdColumn({ name: 'entry_document_item_id' })
  entryDocumentItemId!: number;

  @IdColumn({ name: 'product_id', nullable: true })
  productId!: number | null;

  @IdColumn({ name: 'purchase_order_item_id', nullable: true })
  purchaseOrderItemId!: number | null;

  @Column({ type: 'varchar', length: 4 })
  cfop!: string;

  /** In the supplier's unit, as invoiced. */
  @QuantityColumn()
  quantity!: Dec;

  @FactorColumn({ name: 'conversion_factor' })
  conversionFactor!: Dec;

  /** quantity × conversion factor: what leaves our stock (0 when the line posted no stock). */
  @QuantityColumn({ name: 'stock_quantity' })
  stockQuantity!: Dec;

  @PriceColumn({ name: 'unit_price' })
  unitPrice!: Dec;

  @AmountColumn({ name: 'products_value' })
  productsValue!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  freight!: Dec;

  @AmountColumn()
  insurance!: Dec;

  @AmountColumn({ name: 'other_expenses' })
  otherExpenses!: Dec;

  @AmountColumn({ name: 'icms_base' })
  icmsBase!: Dec;

  @AmountColumn()
  icms!: Dec;

  @AmountColumn({ name: 'ipi_base' })
  ipiBase!: Dec;

  @AmountColumn()
  ipi!: Dec;

  @AmountColumn({ name: 'icms_st_base' })
  icmsStBase!: Dec;

  @AmountColumn({ name: 'icms_st' })
  icmsSt!: Dec;

  @AmountColumn()
  total!: Dec;

  /** Per stock unit, as the goods entered (null: the line posted no stock). */
  @PriceColumn({ name: 'entry_unit_cost', nullable: true })
  entryUnitCost!: Dec | null;

  @AmountColumn({ name: 'stock_value' })
  stockValue!: Dec;

  @AmountColumn({ name: 'credit_icms' })
  creditIcms!: Dec;

  @AmountColumn({ name: 'credit_pis' })
  creditPis!: Dec;

  @AmountColumn({ name: 'credit_cofins' })
  creditCofins!: Dec;

  @AmountColumn({ name: 'credit_ipi' })
  creditIpi!: Dec;

  @AmountColumn({ name: 'credit_cbs' })
  creditCbs!: Dec;

  @AmountColumn({ name: 'credit_ibs' })
  creditIbs!: Dec;
}
