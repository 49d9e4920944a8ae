import type { EntityManager } from 'typeorm';
import { isUf } from '../../core/br-fiscal';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { ConflictError, ValidationError } from '../../core/errors';
import { recordAudit } from '../../core/audit/audit.service';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { TaxGroupLookup } from '../catalog';
import { catalogResource, ListQuery } from '../catalog';
import { ApproximateTax } from './entities/approximate-tax.entity';
import { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
import { TaxGroup } from './entities/tax-group.entity';
import { UfRate } from './entities/uf-rate.entity';
import { StAgreement } from './entities/st-agreement.entity';
import { pisCofinsCstProblem } from './pis-cofins';
import { IbptTable, parseIbptCsv } from './ibpt-csv';
import { encodeId } from '../../core/hashids';
import { fiscalDataChanged } from './rule-data-cache';

/*
 * The company's fiscal master data (SPEC §1, §12.1): tax groups, fiscal operation rules, UF rate
 * overrides and the Lei 12.741 table — versioned, audited, with events, like the catalog's resources.
 */

/** `row`, once the company's fiscal data version is bumped in the write's transaction (the engine's cache: rule-data-cache.ts). */
async function changed<T>(em: EntityManager, ctx: ActorContext, row: T): Promise<T> {
  await fiscalDataChanged(em, ctx.companyId);
  return row;
}

const groups = catalogResource<TaxGroup>({
  target: TaxGroup,
  name: 'Tax group',
  auditEntity: 'tax-group',
  orderBy: 'code',
  events: { type: 'tax-group', data: (g) => ({ taxGroupId: encodeId('tax-group', g.id), code: g.code, name: g.name, active: g.active }) },
  search: (qb, term) => qb.where('(r.code LIKE :t OR r.name LIKE :t)', { t: `%${term}%` }),
});

export type TaxGroupInput = Partial<Pick<TaxGroup, 'code' | 'name' | 'active'>>;

const codeTaken = (code: string | undefined) => new ConflictError('TAX_GROUP_CODE_TAKEN', `Tax group code ${code ?? ''} is already in use`);

export const taxGroupService = {
  list: (ctx: ActorContext, q: ListQuery) => groups.list(ctx, q),
  get: (ctx: ActorContext, id: number) => groups.get(ctx, id),
  async create(ctx: ActorContext, input: TaxGroupInput): Promise<TaxGroup> {
    try {
      return await inTransaction(ctx, async (em) => changed(em, ctx, await groups.createIn(em, ctx, { active: true, ...input })));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken(input.code);
      throw err;
    }
  },
  async update(ctx: ActorContext, id: number, version: number, input: TaxGroupInput): Promise<TaxGroup> {
    try {
      return await inTransaction(ctx, async (em) => changed(em, ctx, await groups.updateIn(em, ctx, id, version, input)));
    } catch (err) {
      if (isUniqueViolation(err)) throw codeTaken(input.code);
      throw err;
    }
  },
};

/** The catalog checks a product's tax group through this (catalog.ports.ts). */
export const taxGroupLookupProvider: TaxGroupLookup = {
  exists: (em: EntityManager, companyId: number, taxGroupId: number) => em.existsBy(TaxGroup, { id: taxGroupId, companyId }),
};

const rules = catalogResource<FiscalOperationRule>({
  target: FiscalOperationRule,
  name: 'Fiscal operation rule',
  auditEntity: 'fiscal-rule',
  orderBy: 'tax_group_id',
  events: {
    type: 'fiscal-rule',
    data: (r) => ({
      ruleId: encodeId('fiscal-rule', r.id),
      taxGroupId: encodeId('tax-group', r.taxGroupId),
      operation: r.operation,
      destination: r.destination,
      contributor: r.contributor,
      cfop: r.cfop,
      validFrom: r.validFrom,
    }),
  },
  search: (qb, term) => qb.where('r.cfop = :t', { t: term }),
});

export type RuleInput = Partial<Omit<FiscalOperationRule, 'id' | 'companyId' | 'version' | 'createdAt' | 'updatedAt'>>;

const ruleTaken = () =>
  new ConflictError(
    'FISCAL_RULE_EXISTS',
    'A rule for this tax group, operation, destination, contributor and valid-from date already exists',
  );

/** motDesICMS by CST (MOC 7.0: N28 of ICMS20, N28 of ICMS40). */
const RELIEF_REASONS: Record<string, number[]> = { '20': [3, 9, 12], '40': [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 90] };
RELIEF_REASONS['41'] = RELIEF_REASONS['50'] = RELIEF_REASONS['40'];

function reliefProblems(r: RuleInput): { path: string; message: string }[] {
  if (r.reliefDeducted && !r.reliefReason) return [{ path: 'reliefDeducted', message: 'needs the reliefReason (motDesICMS)' }];
  if (!r.reliefReason) return [];
  const allowed = RELIEF_REASONS[r.icmsCst ?? ''];
  if (!allowed) return [{ path: 'reliefReason', message: 'ICMS desonerado is carried by CST 20, 40, 41 or 50' }];
  return allowed.includes(r.reliefReason)
    ? []
    : [{ path: 'reliefReason', message: `motDesICMS ${r.reliefReason} is not one of CST ${r.icmsCst}'s (${allowed.join(', ')})` }];
}

/** Checks that need more than one field (400 naming them); `r` is the rule as it will be stored. */
function checkRule(r: RuleInput): void {
  const errors: { path: string; message: string }[] = [];
  if (!r.icmsCst && !r.csosn)
    errors.push({ path: 'icmsCst', message: 'a rule needs the ICMS CST (regime normal), the CSOSN (Simples), or both' });
  if (r.validTo && r.validFrom && r.validTo < r.validFrom) errors.push({ path: 'validTo', message: 'before validFrom' });
  if (r.stMode === 'MVA' && !r.stMva) errors.push({ path: 'stMva', message: 'ST by MVA needs the MVA' });
  if (r.stMode === 'ALREADY_TAXED' && r.icmsCst && r.icmsCst !== '60')
    errors.push({ path: 'icmsCst', message: 'goods already taxed by ST take CST 60' });
  if (r.stMode === 'ALREADY_TAXED' && r.csosn && r.csosn !== '500')
    errors.push({ path: 'csosn', message: 'goods already taxed by ST take CSOSN 500' });
  if (['10', '30', '70'].includes(r.icmsCst ?? '') && r.stMode !== 'MVA' && r.stMode !== 'AGREEMENT')
    errors.push({ path: 'stMode', message: `CST ${r.icmsCst} needs stMode MVA or AGREEMENT` });
  if (r.stMode === 'AGREEMENT' && r.stMva) errors.push({ path: 'stMva', message: 'ST by agreement takes the MVA of the agreement' });
  const stCode = ['10', '30', '70'].includes(r.icmsCst ?? '') || ['201', '202', '203'].includes(r.csosn ?? '');
  if (r.stMode === 'AGREEMENT' && !stCode)
    errors.push({ path: 'stMode', message: 'ST by agreement needs a CST (10, 30, 70) or CSOSN (201, 202, 203) with ST' });
  for (const field of ['pisCst', 'cofinsCst'] as const) {
    const problem = r[field] && r.operation ? pisCofinsCstProblem(r[field]!, r.operation) : null;
    if (problem) errors.push({ path: field, message: problem });
  }
  errors.push(...reliefProblems(r));
  if (r.cfop && r.destination) {
    const first = r.cfop[0];
    const ok =
      r.destination === 'INTERNAL'
        ? ['1', '5'].includes(first)
        : r.destination === 'INTERSTATE'
          ? ['2', '6'].includes(first)
          : ['3', '7'].includes(first);
    if (!ok) errors.push({ path: 'cfop', message: `CFOP ${r.cfop} does not match destination ${r.destination}` });
  }
  if (errors.length) throw new ValidationError('Invalid fiscal rule', errors, 'INVALID_FISCAL_RULE');
}

async function assertGroup(em: EntityManager, companyId: number, taxGroupId: number | undefined): Promise<void> {
  if (taxGroupId !== undefined && !(await em.existsBy(TaxGroup, { id: taxGroupId, companyId }))) {
    throw new ValidationError(
      'Unknown tax group',
      [{ path: 'taxGroupId', message: 'not a tax group of the company' }],
      'TAX_GROUP_NOT_FOUND',
    );
  }
}

export const ruleService = {
  list: (ctx: ActorContext, q: ListQuery) => rules.list(ctx, q),
  get: (ctx: ActorContext, id: number) => rules.get(ctx, id),
  async create(ctx: ActorContext, input: RuleInput): Promise<FiscalOperationRule> {
    const values: RuleInput = { stMode: 'NONE', active: true, validTo: null, ...input };
    checkRule(values);
    try {
      return await inTransaction(ctx, async (em) => {
        await assertGroup(em, ctx.companyId, values.taxGroupId);
        return changed(em, ctx, await rules.createIn(em, ctx, values));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw ruleTaken();
      throw err;
    }
  },
  async update(ctx: ActorContext, id: number, version: number, input: RuleInput): Promise<FiscalOperationRule> {
    try {
      return await inTransaction(ctx, async (em) => {
        const current = await rules.getIn(em, ctx, id);
        checkRule({ ...current, ...input });
        await assertGroup(em, ctx.companyId, input.taxGroupId);
        return changed(em, ctx, await rules.updateIn(em, ctx, id, version, input));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw ruleTaken();
      throw err;
    }
  },
};

const agreements = catalogResource<StAgreement>({
  target: StAgreement,
  name: 'ST agreement',
  auditEntity: 'st-agreement',
  orderBy: 'origin_uf',
  events: {
    type: 'st-agreement',
    data: (a) => ({
      stAgreementId: encodeId('st-agreement', a.id),
      originUf: a.originUf,
      destinationUf: a.destinationUf,
      ncmPrefix: a.ncmPrefix,
      cest: a.cest || null,
      validFrom: a.validFrom,
    }),
  },
  search: (qb, term) => qb.where('(r.ncm_prefix LIKE :t OR r.destination_uf = :uf)', { t: `${term}%`, uf: term.toUpperCase() }),
});

export type StAgreementInput = Partial<
  Pick<
    StAgreement,
    'originUf' | 'destinationUf' | 'ncmPrefix' | 'mva' | 'destinationInternalRate' | 'validFrom' | 'validTo' | 'source' | 'active'
  >
> & {
  cest?: string | null;
};

const agreementTaken = () =>
  new ConflictError('ST_AGREEMENT_EXISTS', 'An agreement for this pair of states, NCM, CEST and valid-from date already exists');

/** The agreement as it will be stored: UFs checked, the CEST's empty form '' (every CEST of the NCM). */
function agreementValues(a: StAgreementInput): Partial<StAgreement> {
  const errors: { path: string; message: string }[] = [];
  for (const k of ['originUf', 'destinationUf'] as const)
    if (a[k] !== undefined && !isUf(a[k]!)) errors.push({ path: k, message: `${a[k]} is not a UF` });
  if (a.validTo && a.validFrom && a.validTo < a.validFrom) errors.push({ path: 'validTo', message: 'before validFrom' });
  if (errors.length) throw new ValidationError('Invalid ST agreement', errors, 'INVALID_ST_AGREEMENT');
  const { cest, ...rest } = a;
  return { ...rest, ...(cest !== undefined ? { cest: cest ?? '' } : {}) };
}

export const stAgreementService = {
  list: (ctx: ActorContext, q: ListQuery) => agreements.list(ctx, q),
  get: (ctx: ActorContext, id: number) => agreements.get(ctx, id),
  async create(ctx: ActorContext, input: StAgreementInput): Promise<StAgreement> {
    try {
      const values = { active: true, validTo: null, destinationInternalRate: null, cest: '', ...agreementValues(input) };
      return await inTransaction(ctx, async (em) => changed(em, ctx, await agreements.createIn(em, ctx, values)));
    } catch (err) {
      if (isUniqueViolation(err)) throw agreementTaken();
      throw err;
    }
  },
  async update(ctx: ActorContext, id: number, version: number, input: StAgreementInput): Promise<StAgreement> {
    try {
      return await inTransaction(ctx, async (em) => {
        // The merged agreement is checked (validTo against a stored validFrom); only the given fields are written.
        agreementValues({ ...(await agreements.getIn(em, ctx, id)), ...input });
        return changed(em, ctx, await agreements.updateIn(em, ctx, id, version, agreementValues(input)));
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw agreementTaken();
      throw err;
    }
  },
};

export interface UfRateInput {
  uf: string;
  taxGroupId?: number | null;
  validFrom: string;
  validTo?: string | null;
  internalRate: Dec;
  fcpRate?: Dec;
  difalDoubleBase?: boolean;
  source: string;
  sourceDate: string;
}

/** The UF rows a company sees: the shipped ones and its own overrides. */
export async function listUfRates(ctx: ActorContext, uf?: string): Promise<UfRate[]> {
  const qb = readerOf(ctx).createQueryBuilder(UfRate, 'r').where('r.company_id IN (0, :companyId)', { companyId: ctx.companyId });
  if (uf) qb.andWhere('r.uf = :uf', { uf });
  return qb
    .orderBy('r.uf', 'ASC')
    .addOrderBy('r.company_id', 'ASC')
    .addOrderBy('r.tax_group_id', 'ASC')
    .addOrderBy('r.valid_from', 'ASC')
    .getMany();
}

/** A company override of a UF's rates (for every product, or one tax group). */
export async function createUfRate(ctx: ActorContext, input: UfRateInput): Promise<UfRate> {
  if (!isUf(input.uf)) throw new ValidationError('Invalid UF', [{ path: 'uf', message: `${input.uf} is not a UF` }]);
  try {
    return await inTransaction(ctx, async (em) => {
      await assertGroup(em, ctx.companyId, input.taxGroupId ?? undefined);
      const row = await em.save(
        em.create(UfRate, {
          companyId: ctx.companyId,
          uf: input.uf,
          taxGroupId: input.taxGroupId ?? 0,
          validFrom: input.validFrom,
          validTo: input.validTo ?? null,
          internalRate: input.internalRate,
          fcpRate: input.fcpRate ?? new Dec(0),
          difalDoubleBase: input.difalDoubleBase ?? false,
          source: input.source,
          sourceDate: input.sourceDate,
        }),
      );
      await recordAudit(em, ctx, { entity: 'fiscal-uf-rate', entityId: row.id, action: 'CREATED' });
      await publishEvent(em, ctx, {
        type: 'fiscal-uf-rate.created',
        aggregateType: 'fiscal-uf-rate',
        aggregateId: row.id,
        data: { ufRateId: encodeId('fiscal-uf-rate', row.id), uf: row.uf, validFrom: row.validFrom },
      });
      return changed(em, ctx, row);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ConflictError('UF_RATE_EXISTS', `The company already has a ${input.uf} rate from ${input.validFrom} for this scope`);
    throw err;
  }
}

export interface ApproximateTaxUpload {
  /** The UF whose table it is (IBPT publishes one per UF). */
  uf: string;
  /** The IBPT CSV as published (ibpt-csv.ts); or the same table as JSON below. */
  csv?: string;
  tableVersion?: string;
  tableKey?: string;
  source?: string;
  validFrom?: string;
  validTo?: string;
  rows?: { ncm: string; ex?: string; federalNationalRate: Dec; federalImportedRate: Dec; stateRate: Dec; municipalRate: Dec }[];
}

export interface ApproximateTaxLoadResult {
  uf: string;
  rows: number;
  tableVersion: string;
  tableKey: string;
  source: string;
  validFrom: string;
  validTo: string;
}

function tableOf(upload: ApproximateTaxUpload): IbptTable {
  if (upload.csv !== undefined) return parseIbptCsv(upload.csv);
  const missing = (['tableVersion', 'source', 'validFrom', 'validTo', 'rows'] as const).filter((k) => upload[k] === undefined);
  if (missing.length)
    throw new ValidationError(
      'Incomplete table',
      missing.map((k) => ({ path: k, message: 'is required (or send the IBPT csv)' })),
    );
  return {
    tableVersion: upload.tableVersion!,
    tableKey: upload.tableKey ?? '',
    source: upload.source!,
    validFrom: upload.validFrom!,
    validTo: upload.validTo!,
    rows: upload.rows!.map((r) => ({ ...r, ex: r.ex ?? '' })),
  };
}

/** Replaces the company's Lei 12.741 table of one UF with the one uploaded (one transaction: the old table until it commits). */
export async function loadApproximateTaxes(ctx: ActorContext, upload: ApproximateTaxUpload): Promise<ApproximateTaxLoadResult> {
  if (!isUf(upload.uf)) throw new ValidationError('Invalid UF', [{ path: 'uf', message: `${upload.uf} is not a UF` }]);
  const table = tableOf(upload);
  const seen = new Set<string>();
  table.rows.forEach((r, i) => {
    const key = `${r.ncm}:${r.ex}`;
    if (seen.has(key))
      throw new ValidationError('Duplicate NCM', [
        { path: upload.csv !== undefined ? 'csv' : `rows[${i}].ncm`, message: `${r.ncm}${r.ex ? ` ex ${r.ex}` : ''} appears twice` },
      ]);
    seen.add(key);
  });
  if (table.validTo < table.validFrom) throw new ValidationError('Invalid validity', [{ path: 'validTo', message: 'before validFrom' }]);
  const uf = upload.uf;
  const result: ApproximateTaxLoadResult = {
    uf,
    rows: table.rows.length,
    tableVersion: table.tableVersion,
    tableKey: table.tableKey,
    source: table.source,
    validFrom: table.validFrom,
    validTo: table.validTo,
  };
  return inTransaction(ctx, async (em) => {
    await em.delete(ApproximateTax, { companyId: ctx.companyId, uf });
    for (let i = 0; i < table.rows.length; i += 500) {
      const chunk = table.rows.slice(i, i + 500).map((r) => ({
        companyId: ctx.companyId,
        uf,
        ncm: r.ncm,
        ex: r.ex,
        federalNationalRate: r.federalNationalRate,
        federalImportedRate: r.federalImportedRate,
        stateRate: r.stateRate,
        municipalRate: r.municipalRate,
        validFrom: table.validFrom,
        validTo: table.validTo,
        tableVersion: table.tableVersion,
        tableKey: table.tableKey,
        source: table.source,
      }));
      await em.insert(ApproximateTax, chunk);
    }
    await recordAudit(em, ctx, {
      entity: 'fiscal-approximate-tax',
      entityId: ctx.companyId,
      action: 'LOADED',
      changes: { uf: [null, uf], tableVersion: [null, table.tableVersion], rows: [null, table.rows.length] },
    });
    await publishEvent(em, ctx, {
      type: 'fiscal-approximate-tax.loaded',
      aggregateType: 'company',
      aggregateId: ctx.companyId,
      data: {
        uf,
        tableVersion: table.tableVersion,
        tableKey: table.tableKey,
        rows: table.rows.length,
        validFrom: table.validFrom,
        validTo: table.validTo,
      },
    });
    return result;
  });
}

/** The readiness check's view of a UF's table on a day: none loaded, loaded but not in force, or in force (its version and end). */
export async function approximateTaxTableOf(
  em: EntityManager,
  companyId: number,
  uf: string,
  day: string,
): Promise<{ loaded: boolean; valid: { tableVersion: string; tableKey: string; validTo: string } | null }> {
  const rows = await em
    .createQueryBuilder(ApproximateTax, 'a')
    .select(['a.tableVersion', 'a.tableKey', 'a.validFrom', 'a.validTo'])
    .where('a.companyId = :companyId AND a.uf = :uf', { companyId, uf })
    .orderBy('a.validTo', 'DESC')
    .limit(1)
    .getMany();
  const r = rows[0];
  if (!r) return { loaded: false, valid: null };
  return {
    loaded: true,
    valid: r.validFrom <= day && day <= r.validTo ? { tableVersion: r.tableVersion, tableKey: r.tableKey, validTo: r.validTo } : null,
  };
}

/** What a first note needs of the company's tax rules (the readiness check): active tax groups, and active SALE rules among them. */
export async function saleRulesSummary(em: EntityManager, companyId: number): Promise<{ taxGroups: number; saleRules: number }> {
  const [taxGroups, saleRules] = await Promise.all([
    em.countBy(TaxGroup, { companyId, active: true }),
    em.countBy(FiscalOperationRule, { companyId, operation: 'SALE', active: true }),
  ]);
  return { taxGroups, saleRules };
}
