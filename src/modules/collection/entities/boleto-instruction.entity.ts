import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, DateColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export const INSTRUCTION_KINDS = ['REGISTER', 'CHANGE_DUE_DATE', 'CHANGE_AMOUNT', 'WRITE_OFF', 'PROTEST'] as const;
export type InstructionKind = (typeof INSTRUCTION_KINDS)[number];

/**
 * An instruction to the bank about one boleto, waiting for a remessa (`remittanceId` null) or carried
 * by one. A remessa claims its instructions with a conditional UPDATE (`remittance_id IS NULL`), so
 * two files built at once never carry the same instruction.
 */
@Entity('boleto_instruction')
@Index('ix_boleto_instruction_pending', ['companyId', 'bankAccountId', 'remittanceId', 'id'])
@Index('ix_boleto_instruction_boleto', ['companyId', 'boletoId', 'id'])
export class BoletoInstruction {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @IdColumn({ name: 'boleto_id' })
  boletoId!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: InstructionKind;

  @DateColumn({ name: 'new_due_date', nullable: true })
  newDueDate!: string | null;

  @AmountColumn({ name: 'new_amount', nullable: true })
  newAmount!: Dec | null;

  /** The remessa that carries it (null: pending). 0 is never used. */
  @IdColumn({ name: 'remittance_id', nullable: true })
  remittanceId!: number | null;

  @Column({ name: 'created_by', type: 'varchar', length: 100 })
  createdBy!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}
