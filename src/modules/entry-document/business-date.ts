/*
 * Calendar dates of the business (entry dates, due dates, "overdue") follow Brazil's official time,
 * not the server's clock zone, so a replica in another region agrees with the shop on what "today" is.
 */
const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';
const formatter = new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today as 'YYYY-MM-DD' in the business time zone. */
export const businessToday = (now: Date = new Date()): string => formatter.format(now);
