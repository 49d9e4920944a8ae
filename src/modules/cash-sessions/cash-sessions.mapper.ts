import { toJsonNumber } from '../../core/decimal';
import type { Dec } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { CashMovement } from './entities/cash-movement.entity';
import type { CashSession } from './entities/cash-session.entity';
import type { SessionFigures } from './cash-sessions.rules';
import type { SessionReport, SessionView, TefAuthorization } from './cash-sessions.service';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const money = (d: Dec | string | null) => toJsonNumber(d, 'amount');

export const toMovementDto = (m: CashMovement) => ({
  id: encodeId('cash-movement', m.id),
  type: m.type,
  amount: money(m.amount),
  reason: m.reason,
  createdBy: m.createdBy,
  createdAt: iso(m.createdAt),
});

export const toSessionSummaryDto = (s: CashSession) => ({
  id: encodeId('cash-session', s.id),
  filialId: encodeId('filial', s.filialId),
  terminalId: s.terminalId,
  operatorId: s.operatorId,
  status: s.status,
  openingFloat: money(s.openingFloat),
  previousSessionId: encodeOptionalId('cash-session', s.previousSessionId),
  previousClosingCash: money(s.previousClosingCash),
  openingDifference: money(s.openingDifference),
  openedAt: iso(s.openedAt),
  openedBy: s.openedBy,
  closedAt: iso(s.closedAt),
  closedBy: s.closedBy,
  closing: s.closing
    ? s.closing.map((l) => ({
        method: l.method,
        kind: l.kind,
        expected: money(l.expected),
        counted: money(l.counted),
        difference: money(l.difference),
      }))
    : null,
  expectedCash: money(s.expectedCash),
  countedCash: money(s.countedCash),
  closingDifference: money(s.closingDifference),
  differenceLimit: money(s.differenceLimit),
  approvedAt: iso(s.approvedAt),
  approvedBy: s.approvedBy,
  approvalNote: s.approvalNote,
  reopenCount: s.reopenCount,
  reopenedAt: iso(s.reopenedAt),
  reopenReason: s.reopenReason,
  version: s.version,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const toFiguresDto = (f: SessionFigures) => ({
  lines: f.lines.map((l) => ({ method: l.method, kind: l.kind, sales: money(l.sales), expected: money(l.expected) })),
  cashReceived: money(f.cashReceived),
  changeGiven: money(f.changeGiven),
  sangrias: money(f.sangrias),
  suprimentos: money(f.suprimentos),
  salesCount: f.salesCount,
  cancelledSalesCount: f.cancelledSalesCount,
  salesTotal: money(f.salesTotal),
});

export const toSessionDto = (v: SessionView) => ({
  ...toSessionSummaryDto(v.session),
  movements: v.movements.map(toMovementDto),
  figures: v.figures ? toFiguresDto(v.figures) : null,
});

export const toReportDto = (r: SessionReport) => {
  const byStatus: Record<string, number> = {};
  for (const n of r.notes) byStatus[n.status] = (byStatus[n.status] ?? 0) + 1;
  return {
    kind: r.kind,
    generatedAt: r.generatedAt.toISOString(),
    session: toSessionDto(r.view),
    figures: toFiguresDto(r.figures),
    fiscalDocuments: r.notes.map((n) => ({
      id: encodeId('nfce', n.nfceId),
      salesOrderId: encodeId('sales-order', n.salesOrderId),
      series: n.series,
      number: n.number,
      accessKey: n.accessKey,
      status: n.status,
      contingency: n.emissionType === 9,
      total: money(n.total),
    })),
    fiscalDocumentsByStatus: byStatus,
  };
};

export const toTefDto = (sessionId: number, a: TefAuthorization) => ({
  cashSessionId: encodeId('cash-session', sessionId),
  terminalId: a.terminalId,
  method: a.method,
  amount: money(a.amount),
  card: { integration: 'TEF', acquirerCnpj: a.acquirerCnpj, brand: a.brand, authorizationCode: a.authorizationCode, nsu: a.nsu },
});
