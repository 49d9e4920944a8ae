import { EntityManager } from 'typeorm';
import { Dec } from '../decimal';
import { AuditLog } from './audit-log.entity';
import type { ActorContext } from '../context';
import { deferInsertRows, TenantRow } from '../db/sql';
import { appendOnCommit } from '../db/transaction';

export type Changes = Record<string, [unknown, unknown]>;

const comparable = (v: unknown): unknown => (v instanceof Dec ? v.toString() : v instanceof Date ? v.toISOString() : v);

/** Field-by-field diff of two plain snapshots; only fields that changed are kept. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>, fields = Object.keys(after)): Changes {
  const changes: Changes = {};
  for (const f of fields) {
    const a = comparable(before[f]);
    const b = comparable(after[f]);
    if (JSON.stringify(a) !== JSON.stringify(b)) changes[f] = [a ?? null, b ?? null];
  }
  return changes;
}

export async function recordAudit(
  em: EntityManager,
  ctx: ActorContext,
  entry: { entity: string; entityId: number; action: string; changes?: Changes | null },
): Promise<void> {
  await appendOnCommit(em, insertAuditRows, {
    companyId: ctx.companyId,
    entity: entry.entity,
    entityId: entry.entityId,
    action: entry.action,
    actor: ctx.actor,
    requestId: ctx.requestId ?? null,
    changes: entry.changes && Object.keys(entry.changes).length ? entry.changes : null,
  });
}

/** One statement for all the audit rows of a transaction; it goes out with the COMMIT. */
async function insertAuditRows(em: EntityManager, rows: TenantRow<AuditLog>[]): Promise<void> {
  await deferInsertRows(em, AuditLog, rows);
}
