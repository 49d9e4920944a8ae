import { isMysql } from './engine';

/**
 * A timestamp as a query parameter that compares correctly with stored datetime columns:
 * mysql2 binds Date itself; on SQLite TypeORM stores 'YYYY-MM-DD HH:MM:SS.SSS' (UTC) text.
 */
export function sqlTime(date: Date): Date | string {
  return isMysql ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A datetime read raw (aggregates): mysql2 gives a Date, SQLite the stored UTC text. */
export function parseSqlTime(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
