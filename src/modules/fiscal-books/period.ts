import { startOfBusinessDay } from '../../core/business-date';

/** A fiscal month: 'YYYY-MM', its first and last calendar day and the UTC instants it spans in the business zone. */
export interface FiscalMonth {
  period: string;
  firstDay: string;
  lastDay: string;
  /** The instant the month starts and the instant the next one starts (exclusive). */
  from: Date;
  to: Date;
}

export const PERIOD_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

const instant = (text: string) => new Date(text.replace(' ', 'T') + 'Z');

export function fiscalMonth(period: string): FiscalMonth {
  const [y, m] = period.split('-').map(Number);
  const firstDay = `${period}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  const lastDay = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return { period, firstDay, lastDay, from: instant(startOfBusinessDay(firstDay)), to: instant(startOfBusinessDay(next)) };
}
