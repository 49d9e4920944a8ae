import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, DateTimeColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { TaxRegime } from '../../tenancy';
import type { CreditTax } from '../fiscal/fiscal.types';

export type TaxCreditStatus = 'RECORDED' | 'REVERSED';

/**
 * The credit a confirmed entry document gives, per tax (ICMS, PIS, COFINS, IPI): the sum of its lines'
 * credits by the filial's tax regime at confirmation. Cancelling the document reverses it.
 */
@Entity('entry_document_tax_credit')
@Index('ix_entry_document_tax_credit_document', ['companyId', 'entryDocumentId', 'tax'])
@Index('ix_entry_document_tax_credit_filial', ['companyId', 'filialId', 'entryDate'])
export class EntryDocumentTaxCredit {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @Column({ type: 'varchar', length: 6 })
  tax!: CreditTax;

  /** PIS/COFINS: the credit base; ICMS/IPI: the value of the lines whose tax was credited. */
  @AmountColumn()
  base!: Dec;

  @AmountColumn()
  amount!: Dec;

  @Column({ name: 'tax_regime', type: 'varchar', length: 20 })
  taxRegime!: TaxRegime;

  /** The document's entry date: the period whose books take the credit. */
  @DateColumn({ name: 'entry_date' })
  entryDate!: string;

  @Column({ type: 'varchar', length: 10 })
  status!: TaxCreditStatus;

  @DateTimeColumn({ name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
