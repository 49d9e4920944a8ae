import Joi from 'joi';
import { ConfigError } from './index';

/*
 * How inbound NF-e treat the tax-reform taxes (IBS, CBS, IS; NT 2025.002), per year of issue, as
 * configuration: the years after 2026 change by setting NFE_TAX_REFORM_RULES (a JSON array), not by
 * code. A document takes the rule with the greatest `fromYear` not after its dhEmi year (the first
 * rule for earlier documents). The defaults are the 2026 rule, the test year (docs/decisions.md):
 *   - charged false: IBS/CBS/IS are informative — not in the payable, the landed cost or the total;
 *   - itemValueConventions both: vItem and vNFTot may include the taxes or not. NT 2025.002 VB01-10
 *     says they are not added in 2025 and 2026, W60-10 that vNFTot = Σ vItem, both "implementação
 *     futura"; real authorized 2026 invoices follow either convention;
 *   - totalsBlock false: a difference (IBSCBSTot, ISTot, vItem, vNFTot) is a warning, never a block;
 * and the 2027 rule: charged, vItem/vNFTot with the taxes, a difference still a warning
 * (docs/decisions/tax-law-rows.md, 2027 inbound).
 */

export type ItemValueConvention = 'WITHOUT_TAXES' | 'WITH_TAXES';

export interface TaxReformRule {
  /** First calendar year of issue (dhEmi) the rule applies to. */
  fromYear: number;
  /** IBS, CBS and IS are charged: added to each item's other expenses, so to the payable, landed cost and total. */
  charged: boolean;
  /** What vItem (and so vNFTot) may be: without the taxes, with them (vIBS + vCBS + vIS + single-phase), or either. */
  itemValueConventions: ItemValueConvention[];
  /** A totals difference refuses stage and import (true) or is a warning (false). */
  totalsBlock: boolean;
}

export const DEFAULT_TAX_REFORM_RULES: readonly TaxReformRule[] = Object.freeze([
  Object.freeze({
    fromYear: 2026,
    charged: false,
    itemValueConventions: ['WITHOUT_TAXES', 'WITH_TAXES'] as ItemValueConvention[],
    totalsBlock: false,
  }),
  // 2027 on (LC 214/2025 arts. 343–346: CBS in full, PIS/COFINS extinct; IBS at 0.1 %): the taxes are charged on top of
  // vNF — vItem and vNFTot with them (NT 2025.002 VB01-10 without its 2025–2026 exception, W60-10) — so the buyer pays
  // them and credits them (LC 214/2025 art. 47), as the outbound engine already computes by date.
  Object.freeze({ fromYear: 2027, charged: true, itemValueConventions: ['WITH_TAXES'] as ItemValueConvention[], totalsBlock: false }),
]);

const ruleSchema = Joi.object({
  fromYear: Joi.number().integer().min(2020).max(2100).required(),
  charged: Joi.boolean().required(),
  itemValueConventions: Joi.array().items(Joi.string().valid('WITHOUT_TAXES', 'WITH_TAXES')).min(1).unique().required(),
  totalsBlock: Joi.boolean().required(),
});
const rulesSchema = Joi.array().items(ruleSchema).min(1).unique('fromYear');

/** NFE_TAX_REFORM_RULES (JSON) → the rules in year order; unset → the defaults. */
export function loadTaxReformRules(env: NodeJS.ProcessEnv): readonly TaxReformRule[] {
  const raw = env.NFE_TAX_REFORM_RULES;
  if (raw === undefined || raw.trim() === '') return DEFAULT_TAX_REFORM_RULES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('Invalid configuration: NFE_TAX_REFORM_RULES — must be a JSON array of rules');
  }
  const { value, error } = rulesSchema.validate(parsed, { abortEarly: true });
  if (error)
    throw new ConfigError(
      `Invalid configuration: NFE_TAX_REFORM_RULES${error.details[0].path.length ? `[${error.details[0].path.join('.')}]` : ''} — ${error.details[0].message}`,
    );
  return Object.freeze((value as TaxReformRule[]).sort((a, b) => a.fromYear - b.fromYear).map((r) => Object.freeze(r)));
}

export const taxReformRules: readonly TaxReformRule[] = loadTaxReformRules(process.env);

/** The rule for a year of issue. */
export function taxReformRuleFor(year: number, rules: readonly TaxReformRule[] = taxReformRules): TaxReformRule {
  let chosen = rules[0];
  for (const r of rules) if (r.fromYear <= year) chosen = r;
  return chosen;
}
