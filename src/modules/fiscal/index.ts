/*
 * The fiscal module's front door (SPEC §12.1): what the issuing paths (NF-e from billing, NFC-e,
 * devoluções) use. `computeFiscalDocument` loads the tenant's fiscal data and runs the pure engine;
 * the contract it returns is fiscal-document.ts. For the composition root (src/modules/index.ts):
 * its routes and the tax-group lookup it provides to the catalog's port.
 */
export { computeFiscalDocument } from './compute.service';
// The NFC-e at the counter reads ahead (with the sale's first round trip), then computes on the priced lines.
export { loadEngineInput } from './compute.service';
export type { EngineInput } from './engine';
export { computeDocument, totalsOf } from './engine';
export { amountDueOf, itemValueOf, reformTaxesInItemValue } from './fiscal-document';
export { legalStatements, simplesCreditOf } from './statements';
export type {
  AppliedRule,
  ComputedFiscalDocument,
  ComputeFiscalDocument,
  Crt,
  DifalGroup,
  FiscalAddress,
  FiscalComputationRequest,
  FiscalDestination,
  FiscalIssuer,
  FiscalItem,
  FiscalItemInput,
  FiscalModel,
  FiscalOperation,
  FiscalRecipient,
  FiscalTotals,
  IbsCbsGroup,
  IcmsGroup,
  IcmsRetainedGroup,
  IcmsStGroup,
  IeIndicator,
  IpiGroup,
  PisCofinsGroup,
} from './fiscal-document';
export { loadFiscalIssuer, loadFiscalRecipient } from './compute.service';
export { buildReturnDocument, recipientFromParty, returnCfop } from './return-document';
export type { ReturnDocumentInput, ReturnLine, ReturnSide } from './return-document';
export { fiscalRoutes } from './fiscal.router';
export { approximateTaxTableOf, loadApproximateTaxes, saleRulesSummary, taxGroupLookupProvider } from './master-data.service';
// The demo seed writes the demo company's tax groups and operation rules.
export { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
export { TaxGroup } from './entities/tax-group.entity';
// Whoever writes those rows outside this module's routes (the demo seed) bumps the engine cache's version.
export { fiscalDataChanged } from './rule-data-cache';
