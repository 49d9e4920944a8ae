import type { EntityManager } from 'typeorm';
import { FiscalPeriod } from './entities/fiscal-period.entity';

/** SQL of fiscal periods; every query filtered by company and filial. */

export const findPeriod = (em: EntityManager, companyId: number, filialId: number, period: string) =>
  em.findOneBy(FiscalPeriod, { companyId, filialId, period });

export const periodsBetween = (em: EntityManager, companyId: number, filialId: number, from: string, to: string) =>
  em
    .createQueryBuilder(FiscalPeriod, 'p')
    .where('p.company_id = :companyId AND p.filial_id = :filialId AND p.period >= :from AND p.period <= :to', {
      companyId,
      filialId,
      from,
      to,
    })
    .orderBy('p.period', 'DESC')
    .getMany();

/** Conditional move of the row (status and version as read); false when someone moved it first. */
export async function movePeriod(em: EntityManager, row: FiscalPeriod, values: Partial<FiscalPeriod>): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(FiscalPeriod)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND status = :status AND version = :version', {
      id: row.id,
      companyId: row.companyId,
      status: row.status,
      version: row.version,
    })
    .execute();
  return (res.affected ?? 0) > 0;
}
