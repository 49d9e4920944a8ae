import type { EntityManager } from 'typeorm';
import { getFilialFiscalSettings } from '../../tenancy/settings.service';
import { rulesForCfops } from './cfop-rule.repository';
import type { FiscalContext } from './fiscal.types';

/** The filial's tax regime and the company's CFOP rules for the issuer CFOPs of a document's lines. */
export async function loadFiscalContext(em: EntityManager, companyId: number, filialId: number, cfops: (string | null | undefined)[]): Promise<FiscalContext> {
  const { taxRegime } = await getFilialFiscalSettings(em, companyId, filialId);
  const rules = await rulesForCfops(em, companyId, cfops.filter((c): c is string => !!c));
  return { taxRegime, rules };
}
