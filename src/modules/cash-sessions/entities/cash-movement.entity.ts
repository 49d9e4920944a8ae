import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/** SANGRIA: cash taken out of the drawer (to the safe, the bank); SUPRIMENTO: cash put in (change). */
export type CashMovementType = 'SANGRIA' | 'SUPRIMENTO';
export const CASH_MOVEMENT_TYPES: CashMovementType[] = ['SANGRIA', 'SUPRIMENTO'];

/** A movement of cash in or out of a session's drawer, with its reason (append-only). */
@Entity('cash_movement')
@Index('ix_cash_movement_session', ['companyId', 'cashSessionId', 'id'])
export class CashMovement {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'cash_session_id' })
  cashSessionId!: number;

  @Column({ type: 'varchar', length: 20 })
  type!: CashMovementType;

  @AmountColumn()
  amount!: Dec;

  @Column({ type: 'varchar', length: 255 })
  reason!: string;

  @Column({ name: 'created_by', type: 'varchar', length: 64 })
  createdBy!: string;

  @CreatedAtColumn()
  createdAt!: Date;
}
