import type { EntityManager } from 'typeorm';
import type { Dec } from '../../core/decimal';
import { definePort } from '../../core/port';

/*
 * What a cash session needs from the counter's sales (quick-sale, which depends on this module: the
 * sale finds its terminal's open session here). quick-sale provides it (src/modules/index.ts).
 */

/** One payment of a counter sale that belongs to a session. */
export interface SessionSalePayment {
  salesOrderId: number;
  methodCode: string;
  /** The payment method's kind (CASH, CREDIT_CARD, DEBIT_CARD, PIX…). */
  kind: string;
  amount: Dec;
  change: Dec;
  /** The sale no longer stands (its NFC-e was cancelled): it leaves the expected totals. */
  cancelled: boolean;
}

/** One NFC-e of a session's sales, as the X and Z reports list it. */
export interface SessionNote {
  nfceId: number;
  salesOrderId: number;
  series: number;
  number: number;
  accessKey: string;
  status: string;
  emissionType: number;
  total: Dec;
}

export interface CounterSales {
  paymentsOfSession(em: EntityManager, companyId: number, cashSessionId: number): Promise<SessionSalePayment[]>;
  notesOfSession(em: EntityManager, companyId: number, cashSessionId: number): Promise<SessionNote[]>;
  /** The filial's limit of a close's difference (per method) above which a supervisor approves it. */
  differenceLimit(em: EntityManager, companyId: number, filialId: number): Promise<Dec>;
}

export const counterSales = definePort<CounterSales>('cash-sessions → counter sales');
