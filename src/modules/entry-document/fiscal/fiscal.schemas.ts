import { document, id, Joi, pagination, version } from '../../../core/http/schema';
import { typedSchema } from '../../../core/http/typed-input';
import type { ThirdPartyStockQuery } from '../../stock';
import type { CfopRuleInput, CfopRuleListQuery, CfopRulePatch } from './cfop-rule.service';
import { OPERATION_CLASSES } from './fiscal.types';

/** Request schemas of the CFOP rules and the third-party stock list, and the fiscal fields of drafts. */

/** An entry CFOP: 1xxx (same state), 2xxx (other state), 3xxx (abroad). */
export const entryCfop = () =>
  Joi.string()
    .pattern(/^[123]\d{3}$/)
    .messages({ 'string.pattern.base': '{{#label}} must be an entry CFOP (1xxx, 2xxx or 3xxx)' });

/** VALUE_ADJUSTMENT comes from finNFe only; every other class can be chosen. */
export const choosableClass = () => Joi.string().valid(...OPERATION_CLASSES.filter((c) => c !== 'VALUE_ADJUSTMENT'));

const ruleId = { params: Joi.object({ id: id('entry-cfop-rule').required() }) };

type ByRule = { params: { id: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const fiscalSchemas = {
  listRules: typedSchema<{ query: CfopRuleListQuery }>({
    query: Joi.object({
      ...pagination,
      issuerCfop: Joi.string().pattern(/^\d{4}$/),
      entryCfop: entryCfop(),
      productId: id('product'),
    }),
  }),
  defaults: typedSchema<{ query: Record<string, never> }>({ query: Joi.object({}) }),
  createRule: typedSchema<{ body: CfopRuleInput }>({
    body: Joi.object({
      issuerCfop: Joi.string()
        .pattern(/^[1-7]\d{3}$/)
        .required()
        .description("the CFOP the issuer declares (an entry CFOP for the company's own entry notes)")
        .example('5102'),
      ncm: Joi.string()
        .pattern(/^\d{2,8}$/)
        .allow(null)
        .description('an NCM prefix of 2 to 8 digits: the rule applies to those lines only'),
      productId: id('product').allow(null).description('the rule applies to this product only'),
      entryCfop: entryCfop().required(),
      operationClass: choosableClass().allow(null).description('needed when the entry CFOP names no operation (x949)'),
    }).oxor('ncm', 'productId'),
  }),
  patchRule: typedSchema<ByRule & { body: CfopRulePatch & { version: number } }>({
    ...ruleId,
    body: Joi.object({ version: version(), entryCfop: entryCfop(), operationClass: choosableClass().allow(null) }).or(
      'entryCfop',
      'operationClass',
    ),
  }),
  deleteRule: typedSchema<ByRule>(ruleId),
  thirdPartyStock: typedSchema<{ params: { filialId: number }; query: ThirdPartyStockQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      productId: id('product'),
      ownerDocument: document(),
      held: Joi.boolean().default(true).description('only products with goods held (default true)'),
    }),
  }),
};
