import { type Dec, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { CashSession } from './entities/cash-session.entity';

/* Event payloads of cash sessions (hashids, money as JSON numbers); the use cases publish them. */

export const AUDIT_ENTITY = 'cash-session';
export const MOVEMENT_AUDIT_ENTITY = 'cash-movement';

const money = (d: Dec | null) => toJsonNumber(d, 'amount');

export const sessionEventData = (s: CashSession) => ({
  cashSessionId: encodeId('cash-session', s.id),
  filialId: encodeId('filial', s.filialId),
  terminalId: s.terminalId,
  operatorId: s.operatorId,
  status: s.status,
  openingFloat: money(s.openingFloat),
  openingDifference: money(s.openingDifference),
  expectedCash: money(s.expectedCash),
  countedCash: money(s.countedCash),
  closingDifference: money(s.closingDifference),
});

/** What the audit rows compare (before → after). */
export const sessionSnapshot = (s: CashSession) => ({
  status: s.status,
  terminalId: s.terminalId,
  operatorId: s.operatorId,
  openingFloat: s.openingFloat.toFixed(2),
  openingDifference: s.openingDifference?.toFixed(2) ?? null,
  expectedCash: s.expectedCash?.toFixed(2) ?? null,
  countedCash: s.countedCash?.toFixed(2) ?? null,
  closingDifference: s.closingDifference?.toFixed(2) ?? null,
  closing: s.closing ? JSON.stringify(s.closing) : null,
  approvedBy: s.approvedBy,
  reopenCount: s.reopenCount,
  reopenReason: s.reopenReason,
});
