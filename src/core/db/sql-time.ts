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

/**
 * "Now" inside SQL, to the millisecond, in UTC on both engines: the one spelling every hand-written
 * statement and `() => sqlNow()` query-builder assignment uses (TypeORM's own CURRENT_TIMESTAMP on
 * MySQL drops the milliseconds, which could move updated_at backwards).
 */
export function sqlNow(): string {
  return isMysql ? 'CURRENT_TIMESTAMP(3)' : "STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW')";
}
