import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, FactorColumn, IdColumn, JsonColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { EntryCfopSource, OperationClass, OperationClassSource } from '../fiscal/fiscal.types';

/** MATCHED: product set · PENDING: no product yet · IGNORED: kept, posts no stock, still counts in the payable. */
export type ItemReviewStatus = 'MATCHED' | 'PENDING' | 'IGNORED';

export interface StoredTax {
  cst: string | null;
  base: string | null;
  rate: string | null;
  value: string | null;
  /** ICMS of a Simples Nacional supplier: pCredSN and vCredICMSSN (absent otherwise). */
  snCreditRate?: string | null;
  snCreditValue?: string | null;
  /** ICMS-ST: the FCP-ST inside `value` (vBCFCPST, pFCPST, vFCPST; absent when not stated). */
  fcpBase?: string | null;
  fcpRate?: string | null;
  fcpValue?: string | null;
  /** ICMS of goods bought with CST 60 / CSOSN 500: the ST retained earlier the supplier declares (absent when none). */
  retained?: StoredRetainedSt;
}

/** vBCSTRet, pST, vICMSSubstituto, vICMSSTRet, vBCFCPSTRet, pFCPSTRet, vFCPSTRet as exact strings. */
export interface StoredRetainedSt {
  base: string;
  rate: string | null;
  substituteValue: string | null;
  value: string;
  fcpBase: string | null;
  fcpRate: string | null;
  fcpValue: string | null;
}
export type StoredTaxes = Record<'icms' | 'icmsSt' | 'ipi' | 'pis' | 'cofins', StoredTax>;

/**
 * A tax-reform block (IBS/CBS/IS, NT 2025.002) as the NF-e declares it: decimals as exact strings,
 * codes as text, groups the XML omits as null. Written by the NF-e import; the XML stays the source.
 */
export type ReformTaxBlock = { [key: string]: ReformTaxValue };
export type ReformTaxValue = string | number | boolean | null | ReformTaxBlock | ReformTaxValue[];

/**
 * One line of an entry document: the supplier's values as declared (cProd, xProd, uCom, qCom, vUnCom,
 * NCM, CFOP) next to the booked ones, the charges that land on it, and its cost in stock units.
 */
@Entity('entry_document_item')
@Index('ix_entry_document_item_document', ['companyId', 'entryDocumentId', 'lineNumber'])
@Index('ix_entry_document_item_product', ['companyId', 'productId'])
export class EntryDocumentItem {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @Column({ name: 'product_id', type: 'int', nullable: true })
  productId!: number | null;

  @Column({ name: 'review_status', type: 'varchar', length: 10 })
  reviewStatus!: ItemReviewStatus;

  /** cProd: the supplier's own code (the product map's key). */
  @Column({ name: 'supplier_product_code', type: 'varchar', length: 60, nullable: true })
  supplierProductCode!: string | null;

  @Column({ type: 'varchar', length: 200 })
  description!: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  ncm!: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  cfop!: string | null;

  @Column({ type: 'varchar', length: 6 })
  unit!: string;

  @QuantityColumn()
  quantity!: Dec;

  @PriceColumn({ name: 'unit_price' })
  unitPrice!: Dec;

  /** vProd: quantity × unit price, rounded to cents. */
  @AmountColumn()
  total!: Dec;

  @AmountColumn()
  discount!: Dec;

  @AmountColumn()
  freight!: Dec;

  @AmountColumn()
  insurance!: Dec;

  @AmountColumn({ name: 'other_expenses' })
  otherExpenses!: Dec;

  /** taxes.ipi.value and taxes.icmsSt.value, as columns because they are part of the landed cost. */
  @AmountColumn()
  ipi!: Dec;

  @AmountColumn({ name: 'icms_st' })
  icmsSt!: Dec;

  /** What the line adds to the document total: total − discount + freight + insurance + other + IPI + ICMS-ST. */
  @AmountColumn({ name: 'landed_total' })
  landedTotal!: Dec;

  @JsonColumn()
  taxes!: StoredTaxes;

  @FactorColumn({ name: 'conversion_factor' })
  conversionFactor!: Dec;

  /** quantity × conversion factor, in the product's stock unit. */
  @QuantityColumn({ name: 'stock_quantity' })
  stockQuantity!: Dec;

  /**
   * Freight of CT-e apportioned onto this line (SPEC §4b): part of its landed cost (unit cost), never
   * of the document total or the supplier's payable (the carrier bills it). Set by the CT-e module.
   */
  @AmountColumn({ name: 'apportioned_freight' })
  apportionedFreight!: Dec;

  /** Landed cost per stock unit (10 places). */
  @PriceColumn({ name: 'unit_cost' })
  unitCost!: Dec;

  @Column({ name: 'declared_description', type: 'varchar', length: 200, nullable: true })
  declaredDescription!: string | null;

  @Column({ name: 'declared_unit', type: 'varchar', length: 6, nullable: true })
  declaredUnit!: string | null;

  @QuantityColumn({ name: 'declared_quantity', nullable: true, default: null })
  declaredQuantity!: Dec | null;

  @PriceColumn({ name: 'declared_unit_price', nullable: true, default: null })
  declaredUnitPrice!: Dec | null;

  @Column({ name: 'declared_ncm', type: 'varchar', length: 8, nullable: true })
  declaredNcm!: string | null;

  @Column({ name: 'declared_cfop', type: 'varchar', length: 4, nullable: true })
  declaredCfop!: string | null;

  /** The purchase-order line this line receives against (SPEC §9), validated by the purchase module. */
  @Column({ name: 'purchase_order_item_id', type: 'int', nullable: true })
  purchaseOrderItemId!: number | null;
  /** The line's IBSCBS, IS, vItem and DFeReferenciado (imported NF-e of layout PL_010; null otherwise). */
  @JsonColumn({ name: 'reform_taxes', nullable: true })
  reformTaxes!: ReformTaxBlock | null;
  /** The inbound CFOP the line is booked with (1xxx/2xxx/3xxx), beside the issuer's declared one. */
  @Column({ name: 'entry_cfop', type: 'varchar', length: 4, nullable: true })
  entryCfop!: string | null;

  @Column({ name: 'entry_cfop_source', type: 'varchar', length: 12, default: 'NONE' })
  entryCfopSource!: EntryCfopSource;

  @Column({ name: 'operation_class', type: 'varchar', length: 30, nullable: true })
  operationClass!: OperationClass | null;

  @Column({ name: 'operation_class_source', type: 'varchar', length: 12, default: 'NONE' })
  operationClassSource!: OperationClassSource;

  /** Credits taken on the line by the filial's tax regime (what confirm records, per tax, for the document). */
  @AmountColumn({ name: 'credit_icms' })
  creditIcms!: Dec;

  @AmountColumn({ name: 'credit_pis' })
  creditPis!: Dec;

  @AmountColumn({ name: 'credit_cofins' })
  creditCofins!: Dec;

  @AmountColumn({ name: 'credit_ipi' })
  creditIpi!: Dec;

  /** An import's duty (vII: in the landed total, not in the supplier's payable) and customs expenses (vDespAdu, IOF, AFRMM: cost only). */
  @AmountColumn({ name: 'import_duty', default: 0 })
  importDuty!: Dec;

  @AmountColumn({ name: 'customs_expenses', default: 0 })
  customsExpenses!: Dec;

  /** CBS and IBS credited under the 2027 rule set (EC 132/2023, LC 214/2025 art. 47). */
  @AmountColumn({ name: 'credit_cbs', default: 0 })
  creditCbs!: Dec;

  @AmountColumn({ name: 'credit_ibs', default: 0 })
  creditIbs!: Dec;

  /** PIS/COFINS credit base: goods − discount + freight + insurance + other expenses − ICMS. */
  @AmountColumn({ name: 'credit_base' })
  creditBase!: Dec;

  /** Net landed cost of the line: landed total − credits (+ apportioned freight); unit_cost is this per stock unit. */
  @AmountColumn({ name: 'cost_total' })
  costTotal!: Dec;
}
