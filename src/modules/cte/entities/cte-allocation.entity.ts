import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, DateTimeColumn, IdColumn, PriceColumn, QuantityColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type AllocationMode = 'LANDED_COST' | 'STOCK_ADJUSTMENT';

/**
 * One entry-document line's share of a CT-e's freight, as applied: into the landed cost of a DRAFT
 * (LANDED_COST) or as a value-only ledger adjustment of a CONFIRMED one (STOCK_ADJUSTMENT), with
 * what the stock absorbed and what belonged to goods already sold; and what the cancellation took
 * back. Lines are named by line number (a draft's item ids change when it is edited).
 */
@Entity('cte_allocation')
@Index('ix_cte_allocation_cte', ['companyId', 'cteId', 'id'])
@Index('ix_cte_allocation_document', ['companyId', 'entryDocumentId'])
export class CteAllocation {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'cte_id' })
  cteId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @Column({ name: 'line_number', type: 'int' })
  lineNumber!: number;

  @Column({ name: 'item_id', type: 'int' })
  itemId!: number;

  @Column({ name: 'product_id', type: 'int', nullable: true })
  productId!: number | null;

  @Column({ type: 'varchar', length: 16 })
  mode!: AllocationMode;

  /** The line's weight in the split: value, gross weight, quantity (or the manual amount). */
  @PriceColumn()
  basis!: Dec;

  /** The line's share of vTPrest. */
  @AmountColumn()
  share!: Dec;

  /** The part of the CT-e's ICMS on that share credited (the line's class and the regime admit it). */
  @AmountColumn({ name: 'icms_credit' })
  icmsCredit!: Dec;

  /** PIS and COFINS credited on the share net of its ICMS (Lucro Real). */
  @AmountColumn({ name: 'pis_credit', default: 0 })
  pisCredit!: Dec;

  @AmountColumn({ name: 'cofins_credit', default: 0 })
  cofinsCredit!: Dec;

  /** What went onto the line: share − ICMS credit − PIS/COFINS credits (its apportioned freight). */
  @AmountColumn()
  amount!: Dec;

  @QuantityColumn({ name: 'quantity_received' })
  quantityReceived!: Dec;

  @QuantityColumn({ name: 'quantity_in_stock' })
  quantityInStock!: Dec;

  /** The part of `amount` in the stock's value (all of it for LANDED_COST). */
  @AmountColumn()
  absorbed!: Dec;

  /** The part that belonged to goods already sold (STOCK_ADJUSTMENT): reported, not posted. */
  @AmountColumn()
  unabsorbed!: Dec;

  /** Cancellation: the value taken back from the stock (or from the draft's landed cost). */
  @AmountColumn({ name: 'reversed_amount' })
  reversedAmount!: Dec;

  /** Cancellation: the part no longer in stock (sold since), which stays with the sales. */
  @AmountColumn({ name: 'reversed_unabsorbed' })
  reversedUnabsorbed!: Dec;

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;
}
