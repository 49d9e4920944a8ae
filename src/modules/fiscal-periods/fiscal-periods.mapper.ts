import { encodeId } from '../../core/hashids';
import type { FiscalPeriod } from './entities/fiscal-period.entity';
import { pendingDto, PeriodView } from './fiscal-periods.service';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toPeriodDto = (p: FiscalPeriod) => ({
  filialId: encodeId('filial', p.filialId),
  period: p.period,
  status: p.status,
  closedAt: iso(p.closedAt),
  closedBy: p.closedBy,
  closeCount: p.closeCount,
  acknowledged: (p.acknowledged ?? []).map((a) => ({
    kind: a.kind,
    model: a.model,
    series: a.series,
    number: a.number,
    accessKey: a.accessKey,
    reason: a.reason,
  })),
  reopenedAt: iso(p.reopenedAt),
  reopenedBy: p.reopenedBy,
  reopenReason: p.reopenReason,
  version: p.version,
});

export const toPeriodDetailDto = (v: PeriodView) => ({ period: toPeriodDto(v.row), pending: v.pending.map(pendingDto) });
