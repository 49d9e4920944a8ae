/*
 * The business calendar: entry and due dates, "overdue", payment dates, quote validity and the
 * sales-order date filters are calendar days in Brazil's official time, America/Sao_Paulo, whatever
 * the server's clock zone — so a replica in another region agrees with the shop on what "today" is.
 * The IANA zone (not a fixed −03:00) so that a change of Brazil's time law (DST was dropped in 2019
 * and may come back) is a tzdata update, not a code change.
 */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/*
 * The zone's offsets are whole hours (−03:00, −02:00 in the DST years; since 1914), so its calendar day
 * can only change on a whole UTC minute: the day is worked out once per minute, not per call (an Intl
 * format per sale and per fulfil). Instants before 1914 (the local mean time's −03:06:28) always format.
 */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1914, 0, 1);
let cachedMinute = NaN;
let cachedDay = '';

/** Today as 'YYYY-MM-DD' in the business time zone. */
export function businessToday(now: Date = new Date()): string {
  const ms = now.getTime();
  if (!(ms >= WHOLE_MINUTE_OFFSETS_SINCE)) return dayFormat.format(now);
  const minute = Math.floor(ms / 60_000);
  if (minute !== cachedMinute) {
    cachedDay = dayFormat.format(now);
    cachedMinute = minute;
  }
  return cachedDay;
}

/** How far the business zone's wall clock is ahead of UTC at `instant` (negative in Brazil), in ms. */
function zoneOffsetMs(instant: number): number {
  const parts = Object.fromEntries(wallClock.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant a business calendar day starts, as the 'YYYY-MM-DD HH:MM:SS.mmm' text both engines compare. */
export function startOfBusinessDay(date: string): string {
  const midnightAsUtc = Date.parse(`${date}T00:00:00Z`);
  let start = midnightAsUtc - zoneOffsetMs(midnightAsUtc);
  start = midnightAsUtc - zoneOffsetMs(start);
  return new Date(start).toISOString().replace('T', ' ').replace('Z', '');
}

/** 'YYYY-MM-DD' plus `days` calendar days (negative goes back): due dates, aging limits. */
export function addCalendarDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/* The zone's offset only changes on a whole UTC hour: worked out once per hour, not per document. */
let cachedHour = NaN;
let cachedOffsetMs = 0;

/**
 * The fiscal date-time of an instant (dhEmi, dhEvento, dhRecbto: TDateTimeUTC): the business zone's
 * wall clock with no fraction and its explicit offset, e.g. '2026-11-27T10:15:00-03:00'. The one
 * clock the NF-e/NFC-e builders, the events and the DANFEs read, so a change of Brazil's time law is
 * a tzdata update here too.
 */
export function fiscalDateTime(at: Date = new Date()): string {
  const ms = at.getTime();
  const hour = Math.floor(ms / 3_600_000);
  if (hour !== cachedHour || !(ms >= WHOLE_MINUTE_OFFSETS_SINCE)) {
    cachedOffsetMs = zoneOffsetMs(ms);
    cachedHour = ms >= WHOLE_MINUTE_OFFSETS_SINCE ? hour : NaN;
  }
  const offsetMinutes = Math.round(cachedOffsetMs / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19)}${offset}`;
}
