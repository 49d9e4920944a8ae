import type { EntityManager } from 'typeorm';
import { businessToday } from '../../core/business-date';
import { isMysql } from '../../core/db/engine';
import { parseSqlTime } from '../../core/db/sql-time';
import { ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';

/*
 * The check every change dated in a fiscal period runs inside its own transaction (issue 47): NF-e and
 * NFC-e emission and cancellation, CC-e, voiding, entry documents confirmed or cancelled, returns both
 * ways, stock adjustments and counts, transfers. A closed period answers 409 FISCAL_PERIOD_CLOSED naming it.
 *
 * Why the filial row is locked: a close racing a change must leave the change either committed before
 * the close or refused. The period row may not exist yet (a month with no row is open), so there is
 * nothing of its own to lock; the filial row always exists. Changes take it shared (they do not wait
 * for each other), the close takes it exclusive (fiscal-periods.service.ts): the close waits for the
 * changes in flight to commit — its own check of the month then sees them — and a change that comes
 * after waits for the close and reads the period CLOSED (a locking read sees the latest commit under
 * READ COMMITTED). On SQLite the transactions are serialized anyway.
 */

export const periodOf = (date: Date | string): string => (typeof date === 'string' ? date.slice(0, 7) : businessToday(date).slice(0, 7));

/** The period of one date, or of each date (a cancellation touches its document's month and today's). */
export async function assertPeriodOpen(
  em: EntityManager,
  companyId: number,
  filialId: number,
  dates: Date | string | readonly (Date | string)[],
): Promise<void> {
  const periods = [...new Set((Array.isArray(dates) ? dates : [dates]).map((d: Date | string) => periodOf(d)))].sort();
  const closed = await closedPeriods(em, companyId, filialId, periods);
  if (closed.length) throw periodClosed(filialId, closed[0].period, closed[0].closedAt);
}

/** The closed periods among `periods`, under the filial row's shared lock (MySQL). */
export async function closedPeriods(
  em: EntityManager,
  companyId: number,
  filialId: number,
  periods: readonly string[],
): Promise<{ period: string; closedAt: Date | null }[]> {
  if (!periods.length) return [];
  const rows: { period: string | null; status: string | null; closed_at: Date | string | null }[] = await em.query(
    `SELECT p.period, p.status, p.closed_at FROM filial f LEFT JOIN fiscal_period p ON p.company_id = f.company_id AND p.filial_id = f.id AND p.period IN (${periods.map(() => '?').join(',')}) ` +
      `WHERE f.company_id = ? AND f.id = ?${isMysql ? ' LOCK IN SHARE MODE' : ''}`,
    [...periods, companyId, filialId],
  );
  return rows
    .filter((r) => r.period !== null && r.status === 'CLOSED')
    .map((r) => ({ period: r.period!, closedAt: parseSqlTime(r.closed_at) }))
    .sort((a, b) => a.period.localeCompare(b.period));
}

export function periodClosed(filialId: number, period: string, closedAt: Date | null): ConflictError {
  return new ConflictError(
    'FISCAL_PERIOD_CLOSED',
    `The fiscal period ${period} of this filial is closed: reopen it (POST /fiscal-periods/:filialId/${period}/reopen) to change what is dated in it`,
    {
      period,
      filialId: encodeId('filial', filialId),
      closedAt: closedAt ? closedAt.toISOString() : null,
    },
  );
}
