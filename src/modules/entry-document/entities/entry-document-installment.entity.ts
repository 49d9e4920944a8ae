import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, DateColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** A planned payment of an entry document; each becomes one payable at confirmation. */
@Entity('entry_document_installment')
@Index('ix_entry_document_installment_document', ['companyId', 'entryDocumentId', 'number'])
export class EntryDocumentInstallment {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'entry_document_id' })
  entryDocumentId!: number;

  @Column({ type: 'int' })
  number!: number;

  @DateColumn({ name: 'due_date' })
  dueDate!: string;

  @AmountColumn()
  amount!: Dec;
}
