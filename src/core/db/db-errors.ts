/** Driver-neutral checks on database errors (mysql2 and better-sqlite3). */
export const codeOf = (err: unknown): string | undefined => {
  const e = err as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
};

export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isDeadlock(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
}

// The connection or its server went away (a database node killed, restarted, cut off), or a Galera
// node answered that it cannot serve (1047: not synced, or not in the primary component).
const UNAVAILABLE = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'POOL_NONEONLINE',
  'POOL_NOEXIST',
  'POOL_CLOSED',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_UNKNOWN_COM_ERROR',
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (code && UNAVAILABLE.has(code)) return true;
  // mysql2 marks errors that leave the connection unusable as fatal.
  const e = err as { fatal?: boolean; driverError?: { fatal?: boolean } };
  return e?.driverError?.fatal === true || e?.fatal === true;
}
