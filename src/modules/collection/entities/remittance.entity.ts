import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { CnabLayout } from '../banks/banks';

/** A remessa file (CNAB 240 or 400) of an account: its sequential number, the file itself, and what it carries. */
@Entity('remittance')
@Index('ux_remittance_number', ['companyId', 'bankAccountId', 'fileNumber'], { unique: true })
export class Remittance {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  /** Número sequencial do arquivo (NSA), from the account's counter. */
  @Column({ name: 'file_number', type: 'int' })
  fileNumber!: number;

  @Column({ type: 'varchar', length: 8 })
  layout!: CnabLayout;

  @Column({ name: 'file_name', type: 'varchar', length: 40 })
  fileName!: string;

  /** The file as sent (CRLF lines, ASCII). */
  @Column({ type: 'text' })
  content!: string;

  @Column({ name: 'record_count', type: 'int' })
  recordCount!: number;

  @Column({ name: 'instruction_count', type: 'int' })
  instructionCount!: number;

  /** Sum of the values of the titles it registers. */
  @AmountColumn({ name: 'total_amount' })
  totalAmount!: Dec;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}
