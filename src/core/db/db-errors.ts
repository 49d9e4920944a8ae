/** Driver-neutral checks on database errors (mysql2 and better-sqlite3). */
export const codeOf = (err: unknown): string | undefined => {
  const e = err as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
};

/**
 * A write deferred on a MySQL transaction (`deferWrite` and the `defer…` helpers) failed in the batch
 * of a later statement. It is not that statement's error, so it matches none of the checks below:
 * a caller's `catch` around its own statement (`isUniqueViolation` → handle) cannot take it for its
 * own. The transaction fails with it; `driverErrorCode` still sees the cause's code (deadlock retry).
 */
export class DeferredWriteFailed extends Error {
  constructor(
    /** What the deferred statement was for (its `label`). */
    readonly label: string,
    /** The database error of the deferred statement itself. */
    override readonly cause: unknown,
  ) {
    super(`Deferred write "${label}" failed: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'DeferredWriteFailed';
  }
}

/** The driver's error code, looking through a DeferredWriteFailed to its cause. */
export function driverErrorCode(err: unknown): string | undefined {
  return codeOf(err instanceof DeferredWriteFailed ? err.cause : err);
}

export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A lock conflict: the whole transaction may be retried, so a deferred write's counts too. */
export function isDeadlock(err: unknown): boolean {
  const code = driverErrorCode(err);
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
  'POOL_ACQUIRE_TIMEOUT',
  'POOL_BUSY',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_NOEXIST',
  'POOL_CLOSED',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_UNKNOWN_COM_ERROR',
]);

/**
 * A Galera node that lost the primary component (a partition) fails a COMMIT or a streaming fragment
 * with a generic error number and the provider's status in the message (MariaDB 10.11:
 * "Error while appending streaming replication fragment(provider status: Not connected to Primary
 * Component)"): the node cannot serve, like a 1047.
 */
export const isNotInPrimaryComponent = (err: unknown): boolean =>
  /not connected to primary component/i.test(String((err as Error)?.message ?? ''));

export function isDatabaseUnavailable(err: unknown): boolean {
  const cause = err instanceof DeferredWriteFailed ? err.cause : err;
  const code = codeOf(cause);
  if (code && UNAVAILABLE.has(code)) return true;
  if (isNotInPrimaryComponent(cause)) return true;
  // mysql2 marks errors that leave the connection unusable as fatal.
  const e = cause as { fatal?: boolean; driverError?: { fatal?: boolean } };
  return e?.driverError?.fatal === true || e?.fatal === true;
}
