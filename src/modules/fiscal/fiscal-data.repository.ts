import { EntityManager, In } from 'typeorm';
import { Customer, Product } from '../catalog';
import { ApproximateTax } from './entities/approximate-tax.entity';
import { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
import { RuleSet } from './entities/rule-set.entity';
import { TaxGroup } from './entities/tax-group.entity';
import { UfRate } from './entities/uf-rate.entity';
import type { FiscalOperation } from './fiscal-document';

/** Reads of the tax engine's loader; every query inside the tenant (company 0 rows: the shipped data). */
export const fiscalDataRepository = {
  customer: (em: EntityManager, companyId: number, id: number) => em.findOneBy(Customer, { id, companyId }),
  products: (em: EntityManager, companyId: number, ids: number[]) => (ids.length ? em.findBy(Product, { companyId, id: In(ids) }) : Promise.resolve([])),
  taxGroups: (em: EntityManager, companyId: number, ids: number[]) => (ids.length ? em.findBy(TaxGroup, { companyId, id: In(ids) }) : Promise.resolve([])),
  rules: (em: EntityManager, companyId: number, taxGroupIds: number[], operation: FiscalOperation) =>
    taxGroupIds.length ? em.findBy(FiscalOperationRule, { companyId, taxGroupId: In(taxGroupIds), operation, active: true }) : Promise.resolve([]),
  ufRates: (em: EntityManager, companyId: number, ufs: string[]) => em.findBy(UfRate, { companyId: In([0, companyId]), uf: In(ufs) }),
  ruleSets: (em: EntityManager, companyId: number) => em.findBy(RuleSet, { companyId: In([0, companyId]) }),
  /** The company's rows for these NCMs, and whether the company loaded a table at all. */
  async approximateTaxes(em: EntityManager, companyId: number, ncms: string[]): Promise<{ loaded: boolean; rows: ApproximateTax[] }> {
    const [rows, any] = await Promise.all([
      ncms.length ? em.findBy(ApproximateTax, { companyId, ncm: In(ncms), ex: '' }) : Promise.resolve([]),
      em.findOne(ApproximateTax, { where: { companyId }, select: { id: true } }),
    ]);
    return { loaded: any !== null, rows };
  },
};
