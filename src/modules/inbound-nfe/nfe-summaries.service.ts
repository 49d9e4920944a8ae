import type { EntityManager } from 'typeorm';
import { NfeInbound } from './entities/nfe-inbound.entity';

/*
 * For the DF-e scheduler's automatic ciência: authorized records a filial knows only by their summary
 * and has not manifested on, oldest first. The authority releases their full XML (as a new NSU of
 * the normal distribution) once the ciência is registered.
 */
export function summariesAwaitingCiencia(
  em: EntityManager,
  companyId: number,
  filialId: number,
  limit: number,
  excludeKeys: string[] = [],
): Promise<NfeInbound[]> {
  if (limit <= 0) return Promise.resolve([]);
  const qb = em
    .createQueryBuilder(NfeInbound, 'n')
    .where('n.company_id = :companyId AND n.filial_id = :filialId', { companyId, filialId })
    .andWhere("n.kind = 'SUMMARY' AND n.manifestation = 'NONE' AND n.authority_status = 'AUTHORIZED'")
    .orderBy('n.id', 'ASC')
    .take(limit);
  if (excludeKeys.length) qb.andWhere('n.access_key NOT IN (:...excludeKeys)', { excludeKeys });
  return qb.getMany();
}
