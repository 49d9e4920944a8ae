import { config } from '../config';

/** The engine is fixed for the life of the process (DB_URL set → MySQL/MariaDB, else embedded SQLite). */
export const engine = config.db.engine;
export const isMysql = engine === 'mysql';
export const isSqlite = engine === 'sqlite';
