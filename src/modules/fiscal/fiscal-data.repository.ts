import { Brackets, EntityManager, In } from 'typeorm';
import { Customer, Product } from '../catalog';
import { ApproximateTax } from './entities/approximate-tax.entity';
import { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
import { RuleSet } from './entities/rule-set.entity';
import { TaxGroup } from './entities/tax-group.entity';
import { StAgreement } from './entities/st-agreement.entity';
import { UfRate } from './entities/uf-rate.entity';
import type { FiscalOperation } from './fiscal-document';

/*
 * Reads of the tax engine's loader; every query inside the tenant (company 0 rows: the shipped data).
 * The reads that depend on the products (their tax groups, rules and NCMs) and on the parties (their
 * UFs) name them by subquery, so the loader issues all of them at once: one round trip inside a
 * batching transaction (a counter sale's NFC-e), not two.
 */
/** `property` among the products' `productColumn` values. */
const ofProducts = (property: string, productColumn: string) => `${property} IN (SELECT p.${productColumn} FROM product p WHERE p.company_id = :companyId AND p.id IN (:...productIds))`;

export const fiscalDataRepository = {
  customer: (em: EntityManager, companyId: number, id: number) => em.findOneBy(Customer, { id, companyId }),
  products: (em: EntityManager, companyId: number, ids: number[]) => (ids.length ? em.findBy(Product, { companyId, id: In(ids) }) : Promise.resolve([])),
  /** The tax groups of these products. */
  taxGroupsOfProducts: (em: EntityManager, companyId: number, productIds: number[]) =>
    productIds.length
      ? em.createQueryBuilder(TaxGroup, 'g').where('g.companyId = :companyId', { companyId }).andWhere(ofProducts('g.id', 'tax_group_id'), { productIds }).getMany()
      : Promise.resolve([]),
  /** The active rules of the operation for these products' tax groups. */
  rulesOfProducts: (em: EntityManager, companyId: number, productIds: number[], operation: FiscalOperation) =>
    productIds.length
      ? em
          .createQueryBuilder(FiscalOperationRule, 'r')
          .where('r.companyId = :companyId AND r.operation = :operation AND r.active = :active', { companyId, operation, active: true })
          .andWhere(ofProducts('r.taxGroupId', 'tax_group_id'), { productIds })
          .getMany()
      : Promise.resolve([]),
  /** The UF rates (the company's and the shipped ones) of these filiais' and this customer's UFs. */
  ufRatesOfParties: (em: EntityManager, companyId: number, filialIds: number[], customerId: number | null) => {
    const q = em
      .createQueryBuilder(UfRate, 'u')
      .where('u.companyId IN (0, :companyId)', { companyId })
      .andWhere(
        new Brackets((w) => {
          w.where('u.uf IN (SELECT f.uf FROM filial f WHERE f.company_id = :companyId AND f.id IN (:...filialIds))', { filialIds });
          if (customerId !== null) w.orWhere('u.uf IN (SELECT c.uf FROM customer c WHERE c.company_id = :companyId AND c.id = :customerId)', { customerId });
        }),
      );
    return q.getMany();
  },
  /** The company's active ST agreements out of this filial's UF. */
  stAgreementsOf: (em: EntityManager, companyId: number, filialId: number) =>
    em
      .createQueryBuilder(StAgreement, 's')
      .where('s.companyId = :companyId AND s.active = :active', { companyId, active: true })
      .andWhere('s.origin_uf IN (SELECT f.uf FROM filial f WHERE f.company_id = :companyId AND f.id = :filialId)', { filialId })
      .getMany(),
  ruleSets: (em: EntityManager, companyId: number) => em.findBy(RuleSet, { companyId: In([0, companyId]) }),
  /** The company's rows for these products' NCMs in the issuing filial's UF table, and whether that UF has a table at all. */
  async approximateTaxesOfProducts(em: EntityManager, companyId: number, filialId: number, productIds: number[]): Promise<{ loaded: boolean; rows: ApproximateTax[] }> {
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
      em.createQueryBuilder(ApproximateTax, 'a').select('a.id').where('a.companyId = :companyId', { companyId }).andWhere(ofFilialUf, { filialId }).limit(1).getOne(),
    ]);
    return { loaded: any !== null, rows };
  },
};
