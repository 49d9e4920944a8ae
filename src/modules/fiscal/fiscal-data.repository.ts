import { EntityManager, In } from 'typeorm';
import { selectRows } from '../../core/db/sql';
import { Customer, Product } from '../catalog';
import { ApproximateTax } from './entities/approximate-tax.entity';
import { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
import { RuleSet } from './entities/rule-set.entity';
import { TaxGroup } from './entities/tax-group.entity';
import { StAgreement } from './entities/st-agreement.entity';
import { UfRate } from './entities/uf-rate.entity';

/*
 * Reads of the tax engine's loader; every query inside the tenant (company 0 rows: the shipped data).
 * The reads that depend on the products (their NCMs) and on the filial (its UF) name them by
 * subquery, so the loader issues all of them at once: one round trip inside a batching transaction
 * (a counter sale's NFC-e), not two.
 */
/** `property` among the products' `productColumn` values. */
const ofProducts = (property: string, productColumn: string) =>
  `${property} IN (SELECT p.${productColumn} FROM product p WHERE p.company_id = :companyId AND p.id IN (:...productIds))`;

export const fiscalDataRepository = {
  // The customer and the products in plain SELECTs hydrated by the columns' own transformers (core/db/sql.ts):
  // the same rows and statements as TypeORM's finds, without its query builder per read (issue 51).
  customer: async (em: EntityManager, companyId: number, id: number): Promise<Customer | null> =>
    (await selectRows(em, Customer, companyId, { id }))[0] ?? null,
  products: (em: EntityManager, companyId: number, ids: number[]) =>
    ids.length ? selectRows(em, Product, companyId, { id: ids }) : Promise.resolve([]),
  /** The company's tax groups, rules, UF rates and agreements: what rule-data-cache.ts keeps per version. */
  taxGroups: (em: EntityManager, companyId: number) => em.findBy(TaxGroup, { companyId }),
  activeRules: (em: EntityManager, companyId: number) => em.findBy(FiscalOperationRule, { companyId, active: true }),
  /** The company's and the shipped rows. */
  ufRates: (em: EntityManager, companyId: number) => em.findBy(UfRate, { companyId: In([0, companyId]) }),
  activeStAgreements: (em: EntityManager, companyId: number) => em.findBy(StAgreement, { companyId, active: true }),
  ruleSets: (em: EntityManager, companyId: number) => em.findBy(RuleSet, { companyId: In([0, companyId]) }),
  /** The company's rows for these products' NCMs in the issuing filial's UF table, and whether that UF has a table at all. */
  async approximateTaxesOfProducts(
    em: EntityManager,
    companyId: number,
    filialId: number,
    productIds: number[],
  ): Promise<{ loaded: boolean; rows: ApproximateTax[] }> {
    const ofFilialUf = 'a.uf IN (SELECT f.uf FROM filial f WHERE f.company_id = :companyId AND f.id = :filialId)';
    const [rows, any] = await Promise.all([
      productIds.length
        ? em
            .createQueryBuilder(ApproximateTax, 'a')
            .where("a.companyId = :companyId AND a.ex = ''", { companyId })
            .andWhere(ofFilialUf, { filialId })
            .andWhere(ofProducts('a.ncm', 'ncm'), { productIds })
            .getMany()
        : Promise.resolve([]),
      em
        .createQueryBuilder(ApproximateTax, 'a')
        .select('a.id')
        .where('a.companyId = :companyId', { companyId })
        .andWhere(ofFilialUf, { filialId })
        .limit(1)
        .getOne(),
    ]);
    return { loaded: any !== null, rows };
  },
};
