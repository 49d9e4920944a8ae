import { EntityManager, In } from 'typeorm';
import type { Statement } from '../../core/db/batching-query-runner';
import { hydrate } from '../../core/db/sql';
import { VersionedRowCache } from '../../core/db/versioned-row-cache';
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

/*
 * The customers and products the loader reads, kept per row and checked against the row's version by
 * the read itself (core/db/versioned-row-cache.ts): the same statement, answering only rows changed
 * since cached, so a preview of 50 known products neither receives nor hydrates them again.
 */
const customerRows = new VersionedRowCache(Customer, 20_000);
const productRows = new VersionedRowCache(Product, 50_000);

export const fiscalDataRepository = {
  /** Shared rows (never mutated by the engine or its loader). */
  customer: (em: EntityManager, companyId: number, id: number): Promise<Customer | null> => customerRows.readOne(em, companyId, id),
  /** The customer's and the products' reads as statements (readBatch) with their answers: shared rows. */
  customerRead: (em: EntityManager, companyId: number, id: number) => customerRows.plan(em, companyId, [id]),
  productsRead: (em: EntityManager, companyId: number, ids: number[]) => productRows.plan(em, companyId, ids),
  /** The company's tax groups, rules, UF rates and agreements: what rule-data-cache.ts keeps per version. */
  taxGroups: (em: EntityManager, companyId: number) => em.findBy(TaxGroup, { companyId }),
  activeRules: (em: EntityManager, companyId: number) => em.findBy(FiscalOperationRule, { companyId, active: true }),
  /** The company's and the shipped rows. */
  ufRates: (em: EntityManager, companyId: number) => em.findBy(UfRate, { companyId: In([0, companyId]) }),
  activeStAgreements: (em: EntityManager, companyId: number) => em.findBy(StAgreement, { companyId, active: true }),
  ruleSets: (em: EntityManager, companyId: number) => em.findBy(RuleSet, { companyId: In([0, companyId]) }),
  /** The company's rows for these products' NCMs in the issuing filial's UF table, and whether that UF has a table at all. */
  /**
   * The company's rows for these products' NCMs in the issuing filial's UF table, and whether that UF has
   * a table at all: two statements (to go with the loader's others) and the answer from their raw rows.
   */
  approximateTaxReads(
    em: EntityManager,
    companyId: number,
    filialId: number,
    productIds: number[],
  ): { statements: Statement[]; answer: (raws: unknown[]) => { loaded: boolean; rows: ApproximateTax[] } } {
    const ofFilialUf = 'a.uf IN (SELECT f.uf FROM filial f WHERE f.company_id = ? AND f.id = ?)';
    const statements: Statement[] = [];
    if (productIds.length)
      statements.push({
        sql:
          `SELECT a.* FROM fiscal_approximate_tax a WHERE a.company_id = ? AND a.ex = '' AND ${ofFilialUf} AND a.ncm IN ` +
          `(SELECT p.ncm FROM product p WHERE p.company_id = ? AND p.id IN (${productIds.map(() => '?').join(', ')}))`,
        params: [companyId, companyId, filialId, companyId, ...productIds],
      });
    statements.push({
      sql: `SELECT a.id FROM fiscal_approximate_tax a WHERE a.company_id = ? AND ${ofFilialUf} LIMIT 1`,
      params: [companyId, companyId, filialId],
    });
    return {
      statements,
      answer: (raws) => ({
        loaded: (raws[raws.length - 1] as unknown[]).length > 0,
        rows: productIds.length ? hydrate(em, ApproximateTax, raws[0] as Record<string, unknown>[]) : [],
      }),
    };
  },
};
