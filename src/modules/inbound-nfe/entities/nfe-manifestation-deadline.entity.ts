import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { DeadlineRule } from '../deadlines/deadline-rules';

/**
 * The manifestation deadlines of one inbound record, as last computed (for `inbound_version` of the
 * record): what the "deadline within N days" list reads, and which alert thresholds were published.
 */
@Entity('nfe_manifestation_deadline')
@Index('uq_nfe_manifestation_deadline_inbound', ['companyId', 'inboundId'], { unique: true })
@Index('ix_nfe_manifestation_deadline_due', ['companyId', 'filialId', 'open', 'dueDate', 'id'])
export class NfeManifestationDeadline {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'inbound_id' })
  inboundId!: number;

  /** The record's version these deadlines were computed from. */
  @Column({ name: 'inbound_version', type: 'int' })
  inboundVersion!: number;

  @Column({ type: 'varchar', length: 20 })
  rule!: DeadlineRule;

  /** Computed from the summary only (the XML may bring a shorter rule). */
  @Column({ type: 'boolean', default: false })
  provisional!: boolean;

  @DateTimeColumn({ name: 'authorized_at' })
  authorizedAt!: Date;

  @DateColumn({ name: 'confirmacao_until' })
  confirmacaoUntil!: string;

  @DateColumn({ name: 'desconhecimento_until' })
  desconhecimentoUntil!: string;

  @DateColumn({ name: 'nao_realizada_until' })
  naoRealizadaUntil!: string;

  /** The earliest of the three. */
  @DateColumn({ name: 'due_date' })
  dueDate!: string;

  /** Authorized and without a conclusive manifestation yet (ciência is not conclusive). */
  @Column({ type: 'boolean' })
  open!: boolean;

  /** The tightest threshold (days before the due date) already published; null: none yet. */
  @Column({ name: 'notified_threshold', type: 'int', nullable: true })
  notifiedThreshold!: number | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
