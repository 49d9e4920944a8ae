import type { EntityManager } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { deferWrite, uowOf } from '../../core/db/transaction';
import type { EngineRule, EngineTaxGroup, EngineUfRate } from './engine';
import type { FiscalOperation } from './fiscal-document';
import type { EngineStAgreement } from './st-agreements';
import type { RuleSet } from './entities/rule-set.entity';
import { fiscalDataRepository as repo } from './fiscal-data.repository';

/*
 * The tax engine's cache of a company's fiscal master data — tax groups, operation rules, UF rates
 * (its own and the shipped ones), ST agreements and rule sets — per version of that data. The version
 * lives in the database (fiscal_data_version, one row per company, company 0 for the shipped rows) and
 * every write of those rows bumps it in its own transaction (`fiscalDataChanged`); each computation
 * reads it with its other reads (no round trip of its own), so a write through any replica is seen by
 * every other on its next computation. Rows are shared between computations: the engine never
 * mutates its input.
 */

export interface CompanyFiscalData {
  /** `company 0's version.company's version` when read. */
  version: string;
  taxGroups: Map<number, EngineTaxGroup>;
  /** Active rules by `taxGroupId:operation`. */
  rules: Map<string, EngineRule[]>;
  /** The company's and the shipped rows, every UF. */
  ufRates: EngineUfRate[];
  /** Active agreements by origin UF. */
  stAgreements: Map<string, EngineStAgreement[]>;
  ruleSets: RuleSet[];
}

/** Companies kept; the least recently used one leaves first. */
const MAX_COMPANIES = 500;
const cache = new Map<number, CompanyFiscalData>();

export const ruleKey = (taxGroupId: number, operation: FiscalOperation) => `${taxGroupId}:${operation}`;

const VERSION_SQL = 'SELECT company_id, version FROM fiscal_data_version WHERE company_id IN (0, ?)';

/** The version of the company's data (with the shipped data's): a missing row is version 0. */
export async function readFiscalDataVersion(em: EntityManager, companyId: number): Promise<string> {
  return versionOf(await em.query(VERSION_SQL, [companyId]));
}

/** readFiscalDataVersion's statement, to go with others in one round trip (its answer: `versionOf`). */
export const fiscalDataVersionRead = (companyId: number) => ({ sql: VERSION_SQL, params: [companyId] });

export function versionOf(raw: unknown): string {
  const rows = raw as { company_id: number | string; version: number | string }[];
  let shipped = 0;
  let own = 0;
  for (const r of rows) {
    if (Number(r.company_id) === 0) shipped = Number(r.version);
    else own = Number(r.version);
  }
  return `${shipped}.${own}`;
}

/** Every master-data row of the company the engine reads, indexed for it. */
export async function loadCompanyFiscalData(em: EntityManager, companyId: number, version: string): Promise<CompanyFiscalData> {
  const [taxGroups, rules, ufRates, stAgreements, ruleSets] = await Promise.all([
    repo.taxGroups(em, companyId),
    repo.activeRules(em, companyId),
    repo.ufRates(em, companyId),
    repo.activeStAgreements(em, companyId),
    repo.ruleSets(em, companyId),
  ]);
  const byKey = new Map<string, EngineRule[]>();
  for (const r of rules) {
    const key = ruleKey(r.taxGroupId, r.operation);
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  const byOrigin = new Map<string, EngineStAgreement[]>();
  for (const a of stAgreements) {
    const list = byOrigin.get(a.originUf);
    if (list) list.push(a);
    else byOrigin.set(a.originUf, [a]);
  }
  return { version, taxGroups: new Map(taxGroups.map((g) => [g.id, g])), rules: byKey, ufRates, stAgreements: byOrigin, ruleSets };
}

/** The cached data of the company if it is of `version`. */
export function cachedFiscalData(companyId: number, version?: string): CompanyFiscalData | undefined {
  const hit = cache.get(companyId);
  if (!hit || (version !== undefined && hit.version !== version)) return undefined;
  // Most recently used last (a Map keeps insertion order).
  cache.delete(companyId);
  cache.set(companyId, hit);
  return hit;
}

export function cacheFiscalData(companyId: number, data: CompanyFiscalData): void {
  cache.delete(companyId);
  cache.set(companyId, data);
  if (cache.size > MAX_COMPANIES) cache.delete(cache.keys().next().value!);
}

/**
 * Whether reads issued on `em` in one tick run in the order they were issued: a unit's batch (one
 * connection, in order) and SQLite (one connection) do; the pool outside a unit spreads them over
 * connections. The version must be read before the data cached under it.
 */
export const readsInIssueOrder = (em: EntityManager): boolean => !isMysql || uowOf(em) !== undefined;

const BUMP_SQL = isMysql
  ? 'INSERT INTO fiscal_data_version (company_id, version) VALUES (?, 1) ON DUPLICATE KEY UPDATE version = version + 1'
  : 'INSERT INTO fiscal_data_version (company_id, version) VALUES (?, 1) ON CONFLICT (company_id) DO UPDATE SET version = version + 1';

/**
 * Bumps the version of the company's fiscal master data: every write of tax groups, operation rules,
 * UF rates, ST agreements or rule sets calls it inside the write's transaction (with its COMMIT in a
 * unit: no round trip of its own), so the change and the new version commit together.
 */
export function fiscalDataChanged(em: EntityManager, companyId: number): Promise<void> {
  return deferWrite(em, { sql: BUMP_SQL, params: [companyId], label: 'fiscal_data_version' });
}
