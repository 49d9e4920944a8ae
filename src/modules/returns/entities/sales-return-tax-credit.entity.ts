import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type ReturnCreditTax = 'ICMS' | 'PIS' | 'COFINS' | 'IPI';

/**
 * The taxes of the original sale a customer return gives back as credits, per tax, by the filial's
 * regime (the shape of entry_document_tax_credit): recorded when the devolução document is authorized
 * (ours) or the customer's devolução is imported; reversed when our devolução is cancelled.
 */
@Entity('sales_return_tax_credit')
@Index('ix_sales_return_tax_credit_return', ['companyId', 'returnId', 'tax'])
@Index('ix_sales_return_tax_credit_filial', ['companyId', 'filialId', 'entryDate'])
export class SalesReturnTaxCredit {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'return_id' })
  returnId!: number;

  /** The devolução document's key (ours or the customer's). */
  @Column({ name: 'access_key', type: 'varchar', length: 44 })
  accessKey!: string;

  @Column({ type: 'varchar', length: 6 })
  tax!: ReturnCreditTax;

  @AmountColumn()
  base!: Dec;

  @AmountColumn()
  amount!: Dec;

  @Column({ name: 'tax_regime', type: 'varchar', length: 20 })
  taxRegime!: string;

  @DateColumn({ name: 'entry_date' })
  entryDate!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: 'RECORDED' | 'REVERSED';

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
