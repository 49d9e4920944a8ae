/** What openDatabase learned about the database server; read by the statement helpers. */
export const serverTraits = {
  /**
   * A Galera node (wsrep_on). A node applies what the others committed a little later, so each
   * connection reads causally (wsrep_sync_wait = 1: a read or START TRANSACTION first waits for the
   * node to apply everything committed before it): a request sees what an earlier request (its own
   * idempotency claim, or another replica's work on another node) committed.
   */
  galera: false,
};

/** Statements run once on each new MySQL connection (TypeORM's pool and the transactions' pool). */
export function sessionSetup(): string[] {
  return ['SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', ...(serverTraits.galera ? ['SET SESSION wsrep_sync_wait = 1'] : [])];
}
