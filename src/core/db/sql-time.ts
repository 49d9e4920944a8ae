import { isMysql } from './engine';

/**
 * A timestamp as a query parameter that compares correctly with stored datetime columns:
 * mysql2 binds Date itself; on SQLite TypeORM stores 'YYYY-MM-DD HH:MM:SS.SSS' (UTC) text.
 */
export function sqlTime(date: Date): Date | string {
  return isMysql ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}
