import { In } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { Page, PageRequest, paginate } from '../../core/pagination';
import type { DfeLogService } from '../authority';
import { authorityTarget, DfeLog, loadFilial, SefazCertificate } from '../sefaz';
import { findState } from './dfe-state.repository';
import type { DfeState } from './entities/dfe-state.entity';

/** Read side: where a filial stands with the authority, and its DF-e log. */

export async function dfeStatus(
  ctx: TenantContext,
  filialId: number,
): Promise<{
  state: DfeState | null;
  endpoints: { distUrl: string; eventUrl: string; label: string };
  certificate: SefazCertificate | null;
}> {
  const filial = await loadFilial(ctx.companyId, filialId, readerOf(ctx));
  return {
    state: await findState(ctx.companyId, filialId),
    endpoints: await authorityTarget(filial),
    certificate: await readerOf(ctx).findOneBy(SefazCertificate, { companyId: ctx.companyId, filialId }),
  };
}

export function listLog(ctx: TenantContext, filialId: number, query: PageRequest & { service?: DfeLogService }): Promise<Page<DfeLog>> {
  const em = readerOf(ctx);
  const qb = em
    .createQueryBuilder(DfeLog, 'l')
    .where('l.company_id = :companyId AND l.filial_id = :filialId', { companyId: ctx.companyId, filialId });
  if (query.service) qb.andWhere('l.service = :service', { service: query.service });
  return paginate(
    qb,
    [{ column: 'l.id', direction: 'DESC' }],
    query,
    (ids) => em.findBy(DfeLog, { id: In(ids) }),
    (l) => l.id,
  );
}
