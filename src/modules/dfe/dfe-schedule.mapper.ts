import { encodeId } from '../../core/hashids';
import type { ScheduleView } from './dfe-schedule.service';
import { nsuToBigInt } from '../authority';

/** The schedule of a filial as the API shows it. */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
/** A detection stays reported for a week: another system typically polls hourly or daily. */
const FOREIGN_CONSUMER_WINDOW_MS = 7 * 86_400_000;

export type ScheduleStatus = 'DISABLED' | 'NO_CERTIFICATE' | 'RUNNING' | 'SCHEDULED';

export function toScheduleDto(v: ScheduleView, now = new Date()) {
  const s = v.schedule;
  const leased = !!s?.leaseUntil && new Date(s.leaseUntil).getTime() > now.getTime();
  const status: ScheduleStatus = !v.filial.dfeSyncEnabled
    ? 'DISABLED'
    : !v.hasCertificate
      ? 'NO_CERTIFICATE'
      : leased
        ? 'RUNNING'
        : 'SCHEDULED';
  const gaps = (v.state?.pendingGaps ?? []).reduce((n, [a, b]) => n + Number(nsuToBigInt(b) - nsuToBigInt(a) + 1n), 0);
  const foreignAt = s?.foreignConsumerAt ? new Date(s.foreignConsumerAt) : null;
  return {
    filialId: encodeId('filial', v.filial.id),
    cnpj: v.filial.cnpj,
    settings: { enabled: v.filial.dfeSyncEnabled, intervalMinutes: v.filial.dfeSyncIntervalMinutes, autoCiencia: v.filial.autoCiencia },
    hasCertificate: v.hasCertificate,
    status,
    // Without a row yet an enabled filial runs at the scheduler's next look.
    nextRunAt: v.filial.dfeSyncEnabled ? iso(s?.nextRunAt) : null,
    nextAllowedAt: iso(v.state?.nextAllowedAt),
    lastRun: s?.lastRunStartedAt
      ? {
          startedAt: iso(s.lastRunStartedAt),
          finishedAt: iso(s.lastRunFinishedAt),
          outcome: s.lastOutcome,
          cStat: s.lastCStat,
          message: s.lastMessage,
          documentsReceived: s.lastReceived,
          ciencias: s.lastCiencias,
        }
      : null,
    runs: s?.runs ?? 0,
    documentsReceived: s?.totalReceived ?? 0,
    errors: {
      consecutive: s?.consecutiveErrors ?? 0,
      lastAt: iso(s?.lastErrorAt),
      lastCode: s?.lastErrorCode ?? null,
    },
    anotherSystemConsuming: {
      detected: !!foreignAt && now.getTime() - foreignAt.getTime() < FOREIGN_CONSUMER_WINDOW_MS,
      lastDetectedAt: iso(foreignAt),
      reason: s?.foreignConsumerReason ?? null,
      detections: s?.foreignConsumerDetections ?? 0,
    },
    nsu: { ultNSU: v.state?.ultNsu ?? '000000000000000', maxNSU: v.state?.maxNsu ?? '000000000000000', pendingGapNsus: gaps },
    running: leased ? { by: s!.leaseOwner, leaseUntil: iso(s!.leaseUntil) } : null,
    cienciaRefusals: s?.cienciaRefusals ?? [],
  };
}
