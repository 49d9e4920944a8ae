import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { EntryCfopRule } from '../entities/entry-cfop-rule.entity';
import type { CfopRule } from './fiscal.types';

/** SQL of the company's CFOP rules. Every query is scoped by company. */

export const scopeKey = (r: { issuerCfop: string; ncm: string | null; productId: number | null }) =>
  `${r.issuerCfop}|${r.ncm ?? ''}|${r.productId ?? ''}`;

export const toRule = (r: EntryCfopRule): CfopRule => ({
  id: r.id,
  issuerCfop: r.issuerCfop,
  ncm: r.ncm,
  productId: r.productId,
  entryCfop: r.entryCfop,
  operationClass: r.operationClass,
});

/** The rules for these issuer CFOPs (the only ones a document's lines can use). */
export async function rulesForCfops(em: EntityManager, companyId: number, issuerCfops: string[]): Promise<CfopRule[]> {
  const cfops = [...new Set(issuerCfops)];
  if (!cfops.length) return [];
  return (await em.findBy(EntryCfopRule, { companyId, issuerCfop: In(cfops) })).map(toRule);
}

export function findRule(em: EntityManager, companyId: number, id: number): Promise<EntryCfopRule | null> {
  return em.findOneBy(EntryCfopRule, { id, companyId });
}

export async function insertRule(em: EntityManager, row: Partial<EntryCfopRule>): Promise<number> {
  const result = await em.insert(EntryCfopRule, row as never);
  return Number(result.identifiers[0].id);
}

/** Conditional on the version read: false → someone changed it first. */
export async function updateRuleIfCurrent(
  em: EntityManager,
  companyId: number,
  id: number,
  version: number,
  values: Partial<EntryCfopRule>,
): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(EntryCfopRule)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', { id, companyId, version })
    .execute();
  return (result.affected ?? 0) > 0;
}

export async function deleteRuleIfCurrent(em: EntityManager, companyId: number, id: number, version?: number): Promise<boolean> {
  const qb = em.createQueryBuilder().delete().from(EntryCfopRule).where('id = :id AND company_id = :companyId', { id, companyId });
  if (version !== undefined) qb.andWhere('version = :version', { version });
  const result = await qb.execute();
  return (result.affected ?? 0) > 0;
}

export interface RuleFilters {
  issuerCfop?: string;
  entryCfop?: string;
  productId?: number;
}

export function ruleListQuery(em: EntityManager, companyId: number, f: RuleFilters): SelectQueryBuilder<EntryCfopRule> {
  const qb = em.createQueryBuilder(EntryCfopRule, 'r').where('r.company_id = :companyId', { companyId });
  if (f.issuerCfop) qb.andWhere('r.issuer_cfop = :issuerCfop', { issuerCfop: f.issuerCfop });
  if (f.entryCfop) qb.andWhere('r.entry_cfop = :entryCfop', { entryCfop: f.entryCfop });
  if (f.productId !== undefined) qb.andWhere('r.product_id = :productId', { productId: f.productId });
  return qb;
}

export const rulesByIds = (em: EntityManager, ids: number[]) => em.findBy(EntryCfopRule, { id: In(ids) });
