import type { EntityManager } from 'typeorm';
import type { Dec } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { Company, PurchaseToleranceMode } from './entities/company.entity';
import { Filial, NfeEnvironment, TaxRegime } from './entities/filial.entity';

/*
 * Read side of the tenant's settings for other modules (SPEC §1): the filial's fiscal settings and
 * the company's purchase tolerances. Other modules call these, never the tenancy entities' tables.
 */

export interface PurchaseTolerances {
  /** Over-receipt allowed, in percent of the ordered quantity. */
  quantityPct: Dec;
  /** Invoice unit price above the order's, in percent. */
  pricePct: Dec;
  mode: PurchaseToleranceMode;
}

export interface FilialFiscalSettings {
  nfeEnvironment: NfeEnvironment;
  autoCiencia: boolean;
  taxRegime: TaxRegime;
  allowNegativeStock: boolean;
  dfeSyncEnabled: boolean;
  dfeSyncIntervalMinutes: number;
}

export async function getPurchaseTolerances(em: EntityManager, companyId: number): Promise<PurchaseTolerances> {
  const company = await em.findOne(Company, {
    where: { id: companyId },
    select: { id: true, purchaseQuantityTolerancePct: true, purchasePriceTolerancePct: true, purchaseToleranceMode: true },
  });
  if (!company) throw new NotFoundError('Company');
  return { quantityPct: company.purchaseQuantityTolerancePct, pricePct: company.purchasePriceTolerancePct, mode: company.purchaseToleranceMode };
}

export async function getFilialFiscalSettings(em: EntityManager, companyId: number, filialId: number): Promise<FilialFiscalSettings> {
  const filial = await em.findOneBy(Filial, { id: filialId, companyId });
  if (!filial) throw new NotFoundError('Filial');
  const { nfeEnvironment, autoCiencia, taxRegime, allowNegativeStock, dfeSyncEnabled, dfeSyncIntervalMinutes } = filial;
  return { nfeEnvironment, autoCiencia, taxRegime, allowNegativeStock, dfeSyncEnabled, dfeSyncIntervalMinutes };
}

export interface DfeSyncFilial {
  companyId: number;
  filialId: number;
  dfeSyncIntervalMinutes: number;
  autoCiencia: boolean;
}

/** Active filiais of active companies with the scheduled DF-e sync on (the scheduler's work list, across tenants). */
export async function filialsWithDfeSync(em: EntityManager): Promise<DfeSyncFilial[]> {
  const rows = await em
    .createQueryBuilder(Filial, 'f')
    .innerJoin(Company, 'c', 'c.id = f.company_id')
    .select(['f.id', 'f.companyId', 'f.dfeSyncIntervalMinutes', 'f.autoCiencia'])
    .where('f.dfe_sync_enabled = :on AND f.active = :on AND c.active = :on', { on: true })
    .orderBy('f.id', 'ASC')
    .getMany();
  return rows.map((f) => ({ companyId: f.companyId, filialId: f.id, dfeSyncIntervalMinutes: f.dfeSyncIntervalMinutes, autoCiencia: f.autoCiencia }));
}

/** Every active filial of an active company (background work across tenants, such as deadline alerts). */
export async function activeFilialRefs(em: EntityManager): Promise<{ companyId: number; filialId: number; uf: string }[]> {
  const rows = await em
    .createQueryBuilder(Filial, 'f')
    .innerJoin(Company, 'c', 'c.id = f.company_id')
    .select(['f.id', 'f.companyId', 'f.uf'])
    .where('f.active = :on AND c.active = :on', { on: true })
    .orderBy('f.id', 'ASC')
    .getMany();
  return rows.map((f) => ({ companyId: f.companyId, filialId: f.id, uf: f.uf }));
}
