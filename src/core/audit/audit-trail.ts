import { NO_UNIT, readerOf } from '../db/transaction';
import { mapPage, Page, PageRequest, paginate } from '../pagination';
import { AuditLog } from './audit-log.entity';

/** One row of an audit trail as the API shows it (`AuditTrailPage` in core/http/response-schema.ts). */
export interface AuditEntryDto {
  action: string;
  actor: string;
  requestId: string | null;
  at: string;
  changes: Record<string, [unknown, unknown]> | null;
}

const trailQuery = (companyId: number, entity: string, entityId: number) =>
  readerOf(NO_UNIT)
    .createQueryBuilder(AuditLog, 'a')
    .where('a.company_id = :companyId AND a.entity = :entity AND a.entity_id = :entityId', { companyId, entity, entityId });

/**
 * The audit trail of one entity, oldest first, paginated like every list (ix_audit_entity serves it).
 * The caller has checked that the entity is the tenant's and its filial granted; any module with
 * audited rows serves its trail with this and the shared response schema.
 */
export async function auditTrail(companyId: number, entity: string, entityId: number, page: PageRequest): Promise<Page<AuditEntryDto>> {
  const rows = await paginate(
    trailQuery(companyId, entity, entityId),
    [{ column: 'a.id', direction: 'ASC' }],
    page,
    (ids) => trailQuery(companyId, entity, entityId).andWhere('a.id IN (:...ids)', { ids }).orderBy('a.id', 'ASC').getMany(),
    (a) => a.id,
  );
  return mapPage(rows, (a) => ({
    action: a.action,
    actor: a.actor,
    requestId: a.requestId,
    at: new Date(a.createdAt).toISOString(),
    changes: a.changes,
  }));
}
