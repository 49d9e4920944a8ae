import { encodeId } from '../../core/hashids';
import type { FiscalPeriod } from './entities/fiscal-period.entity';

/** Payloads of fiscal-period.closed / fiscal-period.reopened (hashids only). */
export const periodEvent = (p: FiscalPeriod, extra: Record<string, unknown> = {}) => ({
  filialId: encodeId('filial', p.filialId),
  period: p.period,
  status: p.status,
  closedAt: p.closedAt ? p.closedAt.toISOString() : null,
  closedBy: p.closedBy,
  closeCount: p.closeCount,
  ...extra,
});
