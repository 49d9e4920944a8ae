import type { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext, TenantContext } from '../../core/context';
import type { Statement } from '../../core/db/batching-query-runner';
import { hydrate, selectRows } from '../../core/db/sql';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { compactStateRegistration, isValidStateRegistration, municipalityCodeMatchesUf } from '../../core/br-fiscal';
import { BusinessRuleError, ForbiddenError, NotFoundError, StaleVersionError, ValidationError } from '../../core/errors';

import { Dec, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
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
  allowUnverifiedUploads: boolean;
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
  return {
    quantityPct: company.purchaseQuantityTolerancePct,
    pricePct: company.purchasePriceTolerancePct,
    mode: company.purchaseToleranceMode,
  };
}

export async function getFilialFiscalSettings(em: EntityManager, companyId: number, filialId: number): Promise<FilialFiscalSettings> {
  const filial = await em.findOneBy(Filial, { id: filialId, companyId });
  if (!filial) throw new NotFoundError('Filial');
  const { nfeEnvironment, autoCiencia, allowUnverifiedUploads, taxRegime, allowNegativeStock, dfeSyncEnabled, dfeSyncIntervalMinutes } =
    filial;
  return { nfeEnvironment, autoCiencia, allowUnverifiedUploads, taxRegime, allowNegativeStock, dfeSyncEnabled, dfeSyncIntervalMinutes };
}

/* Write side: the routes under /settings and the operators' CLI. */

export interface FilialAddressInput {
  street: string;
  number: string;
  complement?: string | null;
  district: string;
  municipalityCode: string;
  municipalityName: string;
  postalCode?: string | null;
  phone?: string | null;
}

export type FilialSettingsPatch = Partial<FilialFiscalSettings> & {
  stateRegistration?: string | null;
  tradeName?: string | null;
  address?: FilialAddressInput;
  cnae?: string | null;
  industrial?: boolean;
  simplesExcessSublimit?: boolean;
  simplesCreditRate?: Dec | null;
};

/** The patch as columns: the address object flattened, the IE compacted; IE and cMun checked against the filial's UF (400). */
export function filialColumns(filial: Pick<Filial, 'uf'>, patch: FilialSettingsPatch): Record<string, unknown> {
  const { address, ...rest } = patch;
  const out: Record<string, unknown> = { ...rest };
  const errors: { path: string; message: string }[] = [];
  if (address) {
    Object.assign(out, {
      addressStreet: address.street,
      addressNumber: address.number,
      addressComplement: address.complement ?? null,
      addressDistrict: address.district,
      municipalityCode: address.municipalityCode,
      municipalityName: address.municipalityName,
      postalCode: address.postalCode ?? null,
      phone: address.phone ?? null,
    });
    if (!municipalityCodeMatchesUf(address.municipalityCode, filial.uf))
      errors.push({
        path: 'address.municipalityCode',
        message: `${address.municipalityCode} is not an IBGE municipality code of ${filial.uf}`,
      });
  }
  if (patch.stateRegistration) {
    out.stateRegistration = compactStateRegistration(patch.stateRegistration);
    if (!isValidStateRegistration(out.stateRegistration as string, filial.uf))
      errors.push({ path: 'stateRegistration', message: `not a valid IE of ${filial.uf} (format or check digits)` });
  }
  if (errors.length)
    throw new ValidationError(
      'Invalid fiscal data',
      errors,
      errors.some((e) => e.path === 'stateRegistration') ? 'INVALID_STATE_REGISTRATION' : 'INVALID_FISCAL_DATA',
    );
  return out;
}

/** Unverified uploads are a homologation convenience: never in production (SPEC §2). */
export function assertUploadPolicy(filial: Pick<Filial, 'nfeEnvironment' | 'allowUnverifiedUploads'>, patch: FilialSettingsPatch): void {
  const environment = patch.nfeEnvironment ?? filial.nfeEnvironment;
  const allow = patch.allowUnverifiedUploads ?? filial.allowUnverifiedUploads;
  if (allow && environment === 'PRODUCTION') {
    throw new BusinessRuleError(
      'UNVERIFIED_UPLOADS_PRODUCTION',
      patch.allowUnverifiedUploads
        ? 'A PRODUCTION filial cannot allow unverified uploads: every NF-e XML uploaded by hand is consulted at the authority before confirmation'
        : 'The filial allows unverified uploads: turn allowUnverifiedUploads off before moving it to PRODUCTION',
      { nfeEnvironment: environment },
    );
  }
}

export interface CompanySettingsPatch {
  purchaseQuantityTolerancePct?: Dec;
  purchasePriceTolerancePct?: Dec;
  purchaseToleranceMode?: PurchaseToleranceMode;
}

const FILIAL_FIELDS = [
  'nfeEnvironment',
  'autoCiencia',
  'allowUnverifiedUploads',
  'taxRegime',
  'allowNegativeStock',
  'dfeSyncEnabled',
  'dfeSyncIntervalMinutes',
  'stateRegistration',
  'tradeName',
  'addressStreet',
  'addressNumber',
  'addressComplement',
  'addressDistrict',
  'municipalityCode',
  'municipalityName',
  'postalCode',
  'phone',
  'cnae',
  'industrial',
  'simplesExcessSublimit',
  'simplesCreditRate',
] as const;
const COMPANY_FIELDS = ['purchaseQuantityTolerancePct', 'purchasePriceTolerancePct', 'purchaseToleranceMode'] as const;

const given = <K extends string>(fields: readonly K[], patch: Partial<Record<K, unknown>>) => fields.filter((f) => patch[f] !== undefined);

/** A filial of the caller's company with its settings and version (the route checked the grant). */
export async function findFilialSettings(ctx: ActorContext, filialId: number, em: EntityManager = readerOf(ctx)): Promise<Filial> {
  const filial = await em.findOneBy(Filial, { id: filialId, companyId: ctx.companyId });
  if (!filial) throw new NotFoundError('Filial');
  return filial;
}

export async function findCompanySettings(ctx: ActorContext, em: EntityManager = readerOf(ctx)): Promise<Company> {
  const company = await em.findOneBy(Company, { id: ctx.companyId });
  if (!company) throw new NotFoundError('Company');
  return company;
}

/** Decimal settings travel in events as JSON numbers, like REST bodies (SPEC §10); the audit keeps the stored text. */
function eventChanges(changes: Record<string, [unknown, unknown]>): Record<string, [unknown, unknown]> {
  const asNumber = (v: unknown) => (v === null || v === undefined ? (v ?? null) : toJsonNumber(v as Dec | string, 'percent'));
  if (!('simplesCreditRate' in changes)) return changes;
  const [from, to] = changes.simplesCreditRate;
  return { ...changes, simplesCreditRate: [asNumber(from), asNumber(to)] };
}

/**
 * Changes a filial's settings under its version (stale → 409), audited with the changed fields and
 * published as filial.settings-changed. Nothing to change → the filial as it is, version unchanged.
 */
export async function updateFilialSettings(
  ctx: ActorContext,
  filialId: number,
  version: number,
  patch: FilialSettingsPatch,
): Promise<Filial> {
  return inTransaction(ctx, async (em) => {
    const filial = await findFilialSettings(ctx, filialId, em);
    if (filial.version !== version) throw new StaleVersionError('Filial', filial.version);
    const columns = filialColumns(filial, patch);
    assertUploadPolicy(filial, patch);
    const fields = given(FILIAL_FIELDS, columns as Partial<Record<(typeof FILIAL_FIELDS)[number], unknown>>);
    const changes = diff(filial as unknown as Record<string, unknown>, columns, fields);
    if (!Object.keys(changes).length) return filial;
    const result = await em
      .createQueryBuilder()
      .update(Filial)
      .set({ ...Object.fromEntries(fields.map((f) => [f, columns[f]])), version: () => 'version + 1' } as never)
      .where('id = :id AND company_id = :companyId AND version = :version', { id: filial.id, companyId: ctx.companyId, version })
      .execute();
    if (!result.affected) throw new StaleVersionError('Filial', version + 1);
    const updated = await findFilialSettings(ctx, filialId, em);
    await recordAudit(em, ctx, { entity: 'filial', entityId: filial.id, action: 'UPDATED', changes });
    await publishEvent(em, ctx, {
      type: 'filial.settings-changed',
      filialId: filial.id,
      aggregateType: 'filial',
      aggregateId: filial.id,
      data: { filialId: encodeId('filial', filial.id), changes: eventChanges(changes), version: updated.version },
    });
    return updated;
  });
}

/**
 * The company's purchase tolerances, the same way (company.settings-changed). They govern every
 * filial, so the token must grant all of them (`filiais: ["*"]`).
 */
export async function updateCompanySettings(ctx: TenantContext, version: number, patch: CompanySettingsPatch): Promise<Company> {
  if (ctx.grantedFiliais !== '*')
    throw new ForbiddenError('Company settings need a token granting every filial of the company', 'ALL_FILIAIS_REQUIRED');
  return inTransaction(ctx, async (em) => {
    const company = await findCompanySettings(ctx, em);
    if (company.version !== version) throw new StaleVersionError('Company', company.version);
    const fields = given(COMPANY_FIELDS, patch);
    const snapshot = (c: CompanySettingsPatch) =>
      Object.fromEntries(fields.map((f) => [f, c[f] instanceof Dec ? toJsonNumber(c[f] as Dec, 'percent') : c[f]]));
    const changes = diff(snapshot(company), snapshot(patch), fields);
    if (!Object.keys(changes).length) return company;
    const result = await em
      .createQueryBuilder()
      .update(Company)
      .set({ ...Object.fromEntries(fields.map((f) => [f, patch[f]])), version: () => 'version + 1' } as never)
      .where('id = :id AND version = :version', { id: company.id, version })
      .execute();
    if (!result.affected) throw new StaleVersionError('Company', version + 1);
    const updated = await findCompanySettings(ctx, em);
    await recordAudit(em, ctx, { entity: 'company', entityId: company.id, action: 'UPDATED', changes });
    await publishEvent(em, ctx, {
      type: 'company.settings-changed',
      aggregateType: 'company',
      aggregateId: company.id,
      data: { companyId: encodeId('company', company.id), changes, version: updated.version },
    });
    return updated;
  });
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
  return rows.map((f) => ({
    companyId: f.companyId,
    filialId: f.id,
    dfeSyncIntervalMinutes: f.dfeSyncIntervalMinutes,
    autoCiencia: f.autoCiencia,
  }));
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

/** What the tax engine reads of a filial: its fiscal profile with the company's legal name (SPEC §12.1). */
export interface FilialFiscalProfile {
  filial: Filial;
  companyName: string;
}

export async function getFilialFiscalProfile(em: EntityManager, companyId: number, filialId: number): Promise<FilialFiscalProfile | null> {
  // Plain SQL: every NF-e and NFC-e reads this, and TypeORM's find (query builder, column selects, mapping) was ~2 % of an NFC-e sale's API CPU (RESULTS.md, 2026-12-03).
  const [filials, companies] = await Promise.all([
    selectRows(em, Filial, companyId, { id: filialId }),
    em.query('SELECT name FROM company WHERE id = ?', [companyId]) as Promise<{ name: string }[]>,
  ]);
  if (!filials.length || !companies.length) return null;
  return { filial: filials[0], companyName: companies[0].name };
}

/**
 * getFilialFiscalProfile's two reads as statements, to go with a caller's others in one round trip
 * (readBatch: the tax engine's loader), and the profile from their raw rows.
 */
export function filialFiscalProfileReads(
  em: EntityManager,
  companyId: number,
  filialId: number,
): { statements: Statement[]; profile: (filialRows: unknown, companyRows: unknown) => FilialFiscalProfile | null } {
  const filialTable = em.connection.driver.escape(em.connection.getMetadata(Filial).tableName);
  return {
    statements: [
      { sql: `SELECT * FROM ${filialTable} WHERE company_id = ? AND id = ?`, params: [companyId, filialId] },
      { sql: 'SELECT name FROM company WHERE id = ?', params: [companyId] },
    ],
    profile: (filialRows, companyRows) => {
      const [filial] = hydrate(em, Filial, filialRows as Record<string, unknown>[]);
      const [company] = companyRows as { name: string }[];
      return filial && company ? { filial, companyName: company.name } : null;
    },
  };
}
