import { defineRoutes } from '../../core/http/route';
import * as c from './fiscal.controller';
import { ApproximateTaxLoad, FiscalDocument, FiscalRule, FiscalRulePage, TaxGroup, TaxGroupPage, UfRate, UfRateList } from './fiscal.responses';
import { fiscalSchemas as s } from './fiscal.schemas';

const READ = 'fiscal:read';
const WRITE = 'fiscal:write';
const TAG = 'Fiscal';

export const fiscalRoutes = defineRoutes([
  { method: 'post', path: '/fiscal/preview', tag: TAG, summary: 'The computed fiscal document (taxes per item, totals, the rule each line used) of a sales order, a fulfilment or a free body; writes nothing', scope: READ, schema: s.preview, responses: { body: FiscalDocument, errors: { 404: ['SALES_ORDER_NOT_FOUND', 'FULFILLMENT_NOT_FOUND', 'FILIAL_NOT_FOUND', 'CUSTOMER_NOT_FOUND'], 422: ['FISCAL_DATA_INVALID', 'FISCAL_RULE_MISSING'] } }, handler: c.preview },
  { method: 'get', path: '/fiscal/tax-groups', tag: TAG, summary: 'The company tax groups (paginated)', scope: READ, schema: s.listTaxGroups, responses: { body: TaxGroupPage }, handler: c.taxGroups.list },
  { method: 'post', path: '/fiscal/tax-groups', tag: TAG, summary: 'Create a tax group', scope: WRITE, schema: s.createTaxGroup, idempotent: true, status: 201, responses: { body: TaxGroup, errors: { 409: ['TAX_GROUP_CODE_TAKEN', 'DUPLICATE'] } }, handler: c.taxGroups.create },
  { method: 'get', path: '/fiscal/tax-groups/:id', tag: TAG, summary: 'Read a tax group', scope: READ, schema: s.getTaxGroup, responses: { body: TaxGroup, errors: { 404: ['TAX_GROUP_NOT_FOUND'] } }, handler: c.taxGroups.get },
  { method: 'patch', path: '/fiscal/tax-groups/:id', tag: TAG, summary: 'Update a tax group (needs version)', scope: WRITE, schema: s.updateTaxGroup, responses: { body: TaxGroup, errors: { 404: ['TAX_GROUP_NOT_FOUND'], 409: ['STALE_VERSION', 'TAX_GROUP_CODE_TAKEN'] } }, handler: c.taxGroups.update },
  { method: 'get', path: '/fiscal/operations', tag: TAG, summary: 'The company fiscal operation rules (paginated; search by CFOP)', scope: READ, schema: s.listRules, responses: { body: FiscalRulePage }, handler: c.rules.list },
  { method: 'post', path: '/fiscal/operations', tag: TAG, summary: 'Create a fiscal operation rule: (tax group, operation, destination, contributor, valid from) → CFOP, CST/CSOSN, ST, PIS/COFINS, IPI', scope: WRITE, schema: s.createRule, idempotent: true, status: 201, responses: { body: FiscalRule, errors: { 400: ['INVALID_FISCAL_RULE', 'TAX_GROUP_NOT_FOUND'], 409: ['FISCAL_RULE_EXISTS', 'DUPLICATE'] } }, handler: c.rules.create },
  { method: 'get', path: '/fiscal/operations/:id', tag: TAG, summary: 'Read a fiscal operation rule', scope: READ, schema: s.getRule, responses: { body: FiscalRule, errors: { 404: ['FISCAL_OPERATION_RULE_NOT_FOUND'] } }, handler: c.rules.get },
  { method: 'patch', path: '/fiscal/operations/:id', tag: TAG, summary: 'Update a fiscal operation rule (needs version)', scope: WRITE, schema: s.updateRule, responses: { body: FiscalRule, errors: { 400: ['INVALID_FISCAL_RULE', 'TAX_GROUP_NOT_FOUND'], 404: ['FISCAL_OPERATION_RULE_NOT_FOUND'], 409: ['STALE_VERSION', 'FISCAL_RULE_EXISTS'] } }, handler: c.rules.update },
  { method: 'get', path: '/fiscal/uf-rates', tag: TAG, summary: 'ICMS internal rates and FCP per UF: the shipped rows and the company overrides, with source and date', scope: READ, schema: s.listUfRates, responses: { body: UfRateList }, handler: c.ufRates.list },
  { method: 'post', path: '/fiscal/uf-rates', tag: TAG, summary: "Override a UF's ICMS/FCP rates for the company (every product or one tax group)", scope: WRITE, schema: s.createUfRate, idempotent: true, status: 201, responses: { body: UfRate, errors: { 400: ['TAX_GROUP_NOT_FOUND'], 409: ['UF_RATE_EXISTS', 'DUPLICATE'] } }, handler: c.ufRates.create },
  { method: 'post', path: '/fiscal/approximate-taxes', tag: TAG, summary: 'Load the Lei 12.741 approximate-tax table (IBPT rates per NCM), replacing the company’s', scope: WRITE, schema: s.loadApproximateTaxes, idempotent: true, status: 201, responses: { body: ApproximateTaxLoad }, handler: c.approximateTaxes },
]);
