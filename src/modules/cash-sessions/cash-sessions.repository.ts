import type { EntityManager } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { hydrate } from '../../core/db/sql';
import { queryOn } from '../../core/db/transaction';
import type { Statement } from '../../core/db/batching-query-runner';
import { CashMovement } from './entities/cash-movement.entity';
import { CashSession } from './entities/cash-session.entity';

/** A session of the tenant; `lock` takes its row for the transaction (MySQL; SQLite transactions are serialized). */
export async function findSession(em: EntityManager, companyId: number, id: number, lock = false): Promise<CashSession | null> {
  const rows = await queryOn<Record<string, unknown>[]>(
    em,
    `SELECT * FROM cash_session WHERE company_id = ? AND id = ?${lock && isMysql ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return hydrate(em, CashSession, rows)[0] ?? null;
}

/** The open session of a terminal, if any. */
export async function findOpenSession(
  em: EntityManager,
  companyId: number,
  filialId: number,
  terminalId: string,
): Promise<CashSession | null> {
  const rows = await queryOn<Record<string, unknown>[]>(
    em,
    'SELECT * FROM cash_session WHERE company_id = ? AND filial_id = ? AND open_terminal = ?',
    [companyId, filialId, terminalId],
  );
  return hydrate(em, CashSession, rows)[0] ?? null;
}

/**
 * The statement a sale reads its terminal's open session with, inside its own first round trip. The
 * shared lock (MySQL) makes a close wait for the sales in flight, and a sale after the close find none.
 */
export const openSessionStatement = (companyId: number, filialId: number, terminalId: string): Statement => ({
  sql: `SELECT id, status, terminal_id FROM cash_session WHERE company_id = ? AND filial_id = ? AND open_terminal = ?${isMysql ? ' LOCK IN SHARE MODE' : ''}`,
  params: [companyId, filialId, terminalId],
});

/** The terminal's latest counted session (the one a new opening is compared with). */
export async function lastCountedSession(
  em: EntityManager,
  companyId: number,
  filialId: number,
  terminalId: string,
): Promise<CashSession | null> {
  const rows = await queryOn<Record<string, unknown>[]>(
    em,
    "SELECT * FROM cash_session WHERE company_id = ? AND filial_id = ? AND terminal_id = ? AND status IN ('PENDING_APPROVAL', 'CLOSED') ORDER BY id DESC LIMIT 1",
    [companyId, filialId, terminalId],
  );
  return hydrate(em, CashSession, rows)[0] ?? null;
}

export async function movementsOf(em: EntityManager, companyId: number, cashSessionId: number): Promise<CashMovement[]> {
  const rows = await queryOn<Record<string, unknown>[]>(
    em,
    'SELECT * FROM cash_movement WHERE company_id = ? AND cash_session_id = ? ORDER BY id',
    [companyId, cashSessionId],
  );
  return hydrate(em, CashMovement, rows);
}

/** The conditional update of a session (status and version as read); false when someone moved it first. */
export async function updateSessionIf(em: EntityManager, s: CashSession, changes: Partial<CashSession>): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(CashSession)
    .set({ ...(changes as object), version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', {
      id: s.id,
      companyId: s.companyId,
      status: s.status,
      version: s.version,
    })
    .execute();
  return (result.affected ?? 0) > 0;
}
