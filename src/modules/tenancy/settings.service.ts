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
