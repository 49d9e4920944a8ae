import { diff, recordAudit } from '../../../core/audit/audit.service';
import type { TenantContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db/db-errors';
import { inTransaction, readerOf } from '../../../core/db/transaction';
import { ConflictError, NotFoundError, StaleVersionError, ValidationError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../../core/pagination';
import type { EntryCfopRule } from '../entities/entry-cfop-rule.entity';
import { loadProducts } from '../entry-document.repository';
import { DEFAULT_ENTRY_OPERATION, entryOperation, ENTRY_OPERATIONS } from './cfop-table';
import {
  deleteRuleIfCurrent,
  findRule,
  insertRule,
  RuleFilters,
  ruleListQuery,
  rulesByIds,
  scopeKey,
  updateRuleIfCurrent,
} from './cfop-rule.repository';
import type { OperationClass } from './fiscal.types';
import {
  CLASS_EFFECTS,
  NO_CREDIT_CONTRIBUTION_CSTS,
  PIS_COFINS_CREDIT_BASE,
  PURPOSES,
  REGIME_CREDITS,
  RETURN_OF_OURS_ISSUER_OPERATIONS,
  SIMPLES_CREDIT_CSOSNS,
} from './operation-rules';
import { INBOUND_RULE_SETS } from './rule-sets';

/*
 * The company's CFOP rules (issuer CFOP, optionally an NCM prefix or a product → entry CFOP and, where
 * needed, the class), and the default tables they refine. Drafts pick a rule change up the next time
 * they are computed; confirmed documents keep what they were booked with.
 */

export const AUDIT_ENTITY = 'entry-cfop-rule';

export interface CfopRuleInput {
  issuerCfop: string;
  ncm?: string | null;
  productId?: number | null;
  entryCfop: string;
  operationClass?: OperationClass | null;
}

export interface CfopRulePatch {
  entryCfop?: string;
  operationClass?: OperationClass | null;
}

/** An entry CFOP that names no operation (x949) needs the rule to say which. */
function assertBookable(entryCfop: string, operationClass: OperationClass | null | undefined): void {
  if (!operationClass && !entryOperation(entryCfop)?.operationClass) {
    throw new ValidationError('Invalid request', [
      { path: 'operationClass', message: `the entry CFOP ${entryCfop} names no operation; give operationClass` },
    ]);
  }
}

const ruleView = (r: Pick<EntryCfopRule, 'issuerCfop' | 'ncm' | 'productId' | 'entryCfop' | 'operationClass'>) => ({
  issuerCfop: r.issuerCfop,
  ncm: r.ncm,
  productId: r.productId === null ? null : encodeId('product', r.productId),
  entryCfop: r.entryCfop,
  operationClass: r.operationClass,
});

const eventData = (r: EntryCfopRule) => ({ ruleId: encodeId('entry-cfop-rule', r.id), ...ruleView(r), version: r.version });

export async function createCfopRule(ctx: TenantContext, input: CfopRuleInput): Promise<EntryCfopRule> {
  assertBookable(input.entryCfop, input.operationClass);
  const row = {
    issuerCfop: input.issuerCfop,
    ncm: input.ncm ?? null,
    productId: input.productId ?? null,
    entryCfop: input.entryCfop,
    operationClass: input.operationClass ?? null,
  };
  try {
    return await inTransaction(ctx, async (em) => {
      if (row.productId !== null && !(await loadProducts(em, ctx.companyId, [row.productId])).length) throw new NotFoundError('Product');
      const id = await insertRule(em, { companyId: ctx.companyId, ...row, scopeKey: scopeKey(row), version: 1 });
      const rule = (await findRule(em, ctx.companyId, id))!;
      await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'CREATED', changes: diff({}, ruleView(rule)) });
      await publishEvent(em, ctx, { type: 'entry-cfop-rule.created', aggregateType: AUDIT_ENTITY, aggregateId: id, data: eventData(rule) });
      return rule;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const existing = (await ruleListQuery(readerOf(ctx), ctx.companyId, { issuerCfop: row.issuerCfop }).getMany()).find(
      (r) => r.scopeKey === scopeKey(row),
    );
    throw new ConflictError(
      'CFOP_RULE_EXISTS',
      `A rule for CFOP ${row.issuerCfop} with this NCM and product already exists; edit it instead`,
      {
        ruleId: existing ? encodeId('entry-cfop-rule', existing.id) : null,
      },
    );
  }
}

export async function patchCfopRule(ctx: TenantContext, id: number, version: number, patch: CfopRulePatch): Promise<EntryCfopRule> {
  return inTransaction(ctx, async (em) => {
    const current = await findRule(em, ctx.companyId, id);
    if (!current) throw new NotFoundError('CFOP rule');
    if (current.version !== version) throw new StaleVersionError('CFOP rule', current.version);
    const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as EntryCfopRule;
    assertBookable(next.entryCfop, next.operationClass);
    const changes = diff(ruleView(current), ruleView(next));
    if (!Object.keys(changes).length) return current;
    if (!(await updateRuleIfCurrent(em, ctx.companyId, id, version, { entryCfop: next.entryCfop, operationClass: next.operationClass }))) {
      throw new StaleVersionError('CFOP rule', version + 1);
    }
    const updated = (await findRule(em, ctx.companyId, id))!;
    await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: id, action: 'UPDATED', changes });
    await publishEvent(em, ctx, {
      type: 'entry-cfop-rule.updated',
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: eventData(updated),
    });
    return updated;
  });
}

export async function deleteCfopRule(ctx: TenantContext, id: number): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const current = await findRule(em, ctx.companyId, id);
    if (!current) throw new NotFoundError('CFOP rule');
    if (!(await deleteRuleIfCurrent(em, ctx.companyId, id, current.version))) throw new StaleVersionError('CFOP rule', current.version + 1);
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: id,
      action: 'DELETED',
      changes: diff(ruleView(current), {}, Object.keys(ruleView(current))),
    });
    await publishEvent(em, ctx, {
      type: 'entry-cfop-rule.deleted',
      aggregateType: AUDIT_ENTITY,
      aggregateId: id,
      data: eventData(current),
    });
  });
}

export type CfopRuleListQuery = PageRequest & RuleFilters;

export function listCfopRules(ctx: TenantContext, query: CfopRuleListQuery): Promise<Page<EntryCfopRule>> {
  const em = readerOf(ctx);
  return paginate(
    ruleListQuery(em, ctx.companyId, query),
    [
      { column: 'r.issuer_cfop', direction: 'ASC' },
      { column: 'r.id', direction: 'ASC' },
    ],
    query,
    (ids) => rulesByIds(em, ids),
    (r) => r.id,
  );
}

/** The tables the rules refine, as data: what a line gets when no company rule applies, and what each booking means. */
export function fiscalDefaults() {
  return {
    defaultEntryCfops: Object.entries(DEFAULT_ENTRY_OPERATION).map(([exit, entry]) => ({ issuerCfop: `x${exit}`, entryCfop: `x${entry}` })),
    entryCfops: Object.entries(ENTRY_OPERATIONS).map(([suffix, op]) => ({
      entryCfop: `x${suffix}`,
      operationClass: op.operationClass,
      icmsCredit: op.icmsCredit,
      description: op.description,
      ...(op.posting
        ? {
            posting: {
              stock: op.posting.stock ?? null,
              payable: op.posting.payable ?? null,
              noCredit: !!op.posting.noCredit,
              fromThirdParty: !!op.posting.fromThirdParty,
              effect: op.posting.effect,
            },
          }
        : {}),
    })),
    operationClasses: Object.entries(CLASS_EFFECTS).map(([name, e]) => ({
      operationClass: name,
      stock: e.stock,
      payable: e.payable,
      credits: e.credits,
      refused: e.refused,
      effect: e.effect,
    })),
    purposes: Object.entries(PURPOSES).map(([code, p]) => ({
      finNFe: code,
      name: p.name,
      operationClass: p.forcesClass,
      payable: p.payable,
      creditsOfBaseClass: p.creditsOfBaseClass,
    })),
    returnOfOursIssuerCfops: [...RETURN_OF_OURS_ISSUER_OPERATIONS].map((s) => `x${s}`),
    simplesCreditCsosns: [...SIMPLES_CREDIT_CSOSNS],
    ruleSets: INBOUND_RULE_SETS.map((r) => ({ ruleSet: r.id, from: r.from, pisCofins: r.pisCofins, cbsIbs: r.cbsIbs })),
    taxRegimes: Object.entries(REGIME_CREDITS).map(([regime, r]) => ({
      taxRegime: regime,
      icmsCredit: r.icms,
      ipiCredit: r.ipi,
      pisCofins: r.pisCofins ? { pisRate: Number(r.pisCofins.pis.toFixed(4)), cofinsRate: Number(r.pisCofins.cofins.toFixed(4)) } : null,
    })),
    pisCofinsCreditBase: { ...PIS_COFINS_CREDIT_BASE, noCreditCsts: [...NO_CREDIT_CONTRIBUTION_CSTS] },
  };
}
