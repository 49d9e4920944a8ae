import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DecimalColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

export type PaymentKind = 'CASH' | 'CREDIT_CARD' | 'DEBIT_CARD' | 'PIX' | 'BANK_SLIP' | 'STORE_CREDIT' | 'OTHER';

/**
 * How a sale paid by the method is received (SPEC §13): AT_ONCE (cash, Pix: the receivable is born
 * RECEIVED), ACQUIRER (a card: the acquirer pays `settlementDays` later, less `feePercent`), ON_CREDIT
 * ("a prazo", boleto: the customer owes it, due `settlementDays` later).
 */
export type SettlementMode = 'AT_ONCE' | 'ACQUIRER' | 'ON_CREDIT';

/** What a method of each kind does when its row leaves settlement or days unset. */
export const SETTLEMENT_DEFAULTS: Record<PaymentKind, { settlement: SettlementMode; settlementDays: number }> = {
  CASH: { settlement: 'AT_ONCE', settlementDays: 0 },
  PIX: { settlement: 'AT_ONCE', settlementDays: 0 },
  STORE_CREDIT: { settlement: 'AT_ONCE', settlementDays: 0 },
  OTHER: { settlement: 'AT_ONCE', settlementDays: 0 },
  CREDIT_CARD: { settlement: 'ACQUIRER', settlementDays: 30 },
  DEBIT_CARD: { settlement: 'ACQUIRER', settlementDays: 1 },
  BANK_SLIP: { settlement: 'ON_CREDIT', settlementDays: 30 },
};

/** The method's settlement, its own or its kind's default. */
export const settlementOf = (
  m: Pick<PaymentMethod, 'kind' | 'settlement' | 'settlementDays' | 'feePercent'>,
): { settlement: SettlementMode; settlementDays: number; feePercent: Dec } => ({
  settlement: m.settlement ?? SETTLEMENT_DEFAULTS[m.kind].settlement,
  settlementDays: m.settlementDays ?? SETTLEMENT_DEFAULTS[m.kind].settlementDays,
  feePercent: m.feePercent ?? new Dec(0),
});

@Entity('payment_method')
@Index('uq_payment_method_company_code', ['companyId', 'code'], { unique: true })
export class PaymentMethod {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  /** Tenant-chosen code used in payloads (e.g. "CASH", "PIX"). */
  @Column({ type: 'varchar', length: 30 })
  code!: string;

  @Column({ type: 'varchar', length: 80 })
  name!: string;

  @Column({ type: 'varchar', length: 20 })
  kind!: PaymentKind;

  /** Only cash gives change; other methods may not exceed what is owed. */
  @Column({ name: 'gives_change', type: 'boolean', default: false })
  givesChange!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Null: the kind's default (SETTLEMENT_DEFAULTS). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  settlement!: SettlementMode | null;

  /** Days from the sale to the due date (acquirer's settlement, a prazo term); null: the kind's default. */
  @Column({ name: 'settlement_days', type: 'int', nullable: true })
  settlementDays!: number | null;

  /** The acquirer's fee, percent of the payment (ACQUIRER only). */
  @DecimalColumn(7, 4, { name: 'fee_percent', default: '0.0000' })
  feePercent!: Dec;

  @CreatedAtColumn()
  createdAt!: Date;
}
