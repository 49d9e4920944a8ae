import { Dec, ScaleName, SCALE, toJsonNumber } from '../../core/decimal';
import { jsonNumberOfDec } from '../../core/decimal-scaled';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { FiscalOperationRule } from './entities/fiscal-operation-rule.entity';
import type { TaxGroup } from './entities/tax-group.entity';
import type { UfRate } from './entities/uf-rate.entity';
import type { StAgreement } from './entities/st-agreement.entity';
import type { ComputedFiscalDocument, FiscalItem, IcmsGroup, PisCofinsGroup } from './fiscal-document';
import { legalStatements, simplesCreditOf } from './statements';

const iso = (d: Date | string) => new Date(d).toISOString();
/** toJsonNumber of a Dec that needs no rounding (the engine's figures are rounded already) without decimal.js's text. */
const jsonNumber = (v: Dec | null, scale: ScaleName) =>
  v === null || v === undefined
    ? null
    : v instanceof Dec
      ? (jsonNumberOfDec(v, SCALE[scale]) ?? toJsonNumber(v, scale))
      : toJsonNumber(v, scale);
const money = (v: Dec | null) => jsonNumber(v, 'amount');
const pct = (v: Dec | null) => jsonNumber(v, 'percent');

export const toTaxGroupDto = (g: TaxGroup) => ({
  id: encodeId('tax-group', g.id),
  code: g.code,
  name: g.name,
  active: g.active,
  version: g.version,
  createdAt: iso(g.createdAt),
  updatedAt: iso(g.updatedAt),
});

export const toRuleDto = (r: FiscalOperationRule) => ({
  id: encodeId('fiscal-rule', r.id),
  taxGroupId: encodeId('tax-group', r.taxGroupId),
  operation: r.operation,
  destination: r.destination,
  contributor: r.contributor,
  validFrom: r.validFrom,
  validTo: r.validTo,
  cfop: r.cfop,
  operationNature: r.operationNature,
  icmsCst: r.icmsCst,
  csosn: r.csosn,
  icmsBaseReduction: pct(r.icmsBaseReduction),
  icmsRate: pct(r.icmsRate),
  stMode: r.stMode,
  stMva: pct(r.stMva),
  stBaseReduction: pct(r.stBaseReduction),
  pisCst: r.pisCst,
  pisRate: pct(r.pisRate),
  cofinsCst: r.cofinsCst,
  cofinsRate: pct(r.cofinsRate),
  ipiCst: r.ipiCst,
  ipiRate: pct(r.ipiRate),
  ipiEnquadramento: r.ipiEnquadramento,
  ibsCbsCst: r.ibsCbsCst,
  ibsCbsClass: r.ibsCbsClass,
  benefitCode: r.benefitCode,
  reliefReason: r.reliefReason,
  reliefDeducted: r.reliefDeducted,
  active: r.active,
  version: r.version,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export const toStAgreementDto = (a: StAgreement) => ({
  id: encodeId('st-agreement', a.id),
  originUf: a.originUf,
  destinationUf: a.destinationUf,
  ncmPrefix: a.ncmPrefix,
  cest: a.cest || null,
  mva: pct(a.mva),
  destinationInternalRate: pct(a.destinationInternalRate),
  validFrom: a.validFrom,
  validTo: a.validTo,
  source: a.source,
  active: a.active,
  version: a.version,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

export const toUfRateDto = (r: UfRate) => ({
  id: encodeId('fiscal-uf-rate', r.id),
  shipped: r.companyId === 0,
  uf: r.uf,
  taxGroupId: r.taxGroupId === 0 ? null : encodeId('tax-group', r.taxGroupId),
  validFrom: r.validFrom,
  validTo: r.validTo,
  internalRate: pct(r.internalRate),
  fcpRate: pct(r.fcpRate),
  difalDoubleBase: r.difalDoubleBase,
  source: r.source,
  sourceDate: r.sourceDate,
});

const icmsDto = (g: IcmsGroup) => ({
  origin: g.origin,
  cst: g.cst,
  csosn: g.csosn,
  modBC: g.modBC,
  baseReduction: pct(g.baseReduction),
  base: money(g.base),
  rate: pct(g.rate),
  value: money(g.value),
  fcpBase: money(g.fcpBase),
  fcpRate: pct(g.fcpRate),
  fcpValue: money(g.fcpValue),
  st: g.st && {
    modBCST: g.st.modBCST,
    mva: pct(g.st.mva),
    baseReduction: pct(g.st.baseReduction),
    base: money(g.st.base),
    rate: pct(g.st.rate),
    value: money(g.st.value),
    fcpBase: money(g.st.fcpBase),
    fcpRate: pct(g.st.fcpRate),
    fcpValue: money(g.st.fcpValue),
  },
  simplesCreditRate: pct(g.simplesCreditRate),
  simplesCreditValue: money(g.simplesCreditValue),
  relief: g.relief ? { value: money(g.relief.value), reason: g.relief.reason, deducted: g.relief.deducted } : null,
  retained: g.retained
    ? {
        base: money(g.retained.base),
        rate: pct(g.retained.rate),
        substituteValue: money(g.retained.substituteValue),
        value: money(g.retained.value),
        fcpBase: money(g.retained.fcpBase),
        fcpRate: pct(g.retained.fcpRate),
        fcpValue: money(g.retained.fcpValue),
        entryDocumentId: encodeOptionalId('entry-document', g.retained.entryDocumentId),
        source: g.retained.source,
      }
    : null,
});
const pisCofinsDto = (g: PisCofinsGroup) => ({ cst: g.cst, base: money(g.base), rate: pct(g.rate), value: money(g.value) });

const itemDto = (i: FiscalItem) => ({
  lineNumber: i.lineNumber,
  productId: encodeId('product', i.productId),
  salesOrderItemId: encodeOptionalId('sales-order-item', i.salesOrderItemId),
  code: i.code,
  gtin: i.gtin,
  description: i.description,
  ncm: i.ncm,
  cest: i.cest,
  benefitCode: i.benefitCode ?? null,
  cfop: i.cfop,
  unit: i.unit,
  quantity: jsonNumber(i.quantity, 'quantity'),
  unitPrice: jsonNumber(i.unitPrice, 'price'),
  grossTotal: money(i.grossTotal),
  taxableGtin: i.taxableGtin,
  taxableUnit: i.taxableUnit,
  taxableQuantity: jsonNumber(i.taxableQuantity, 'quantity'),
  taxableUnitPrice: jsonNumber(i.taxableUnitPrice, 'price'),
  freight: money(i.freight),
  insurance: money(i.insurance),
  discount: money(i.discount),
  otherExpenses: money(i.otherExpenses),
  icms: icmsDto(i.icms),
  difal: i.difal && {
    base: money(i.difal.base),
    fcpBase: money(i.difal.fcpBase),
    fcpRate: pct(i.difal.fcpRate),
    internalRate: pct(i.difal.internalRate),
    interstateRate: pct(i.difal.interstateRate),
    destinationShare: pct(i.difal.destinationShare),
    fcpValue: money(i.difal.fcpValue),
    destinationValue: money(i.difal.destinationValue),
    originValue: money(i.difal.originValue),
  },
  ipi: i.ipi && {
    cst: i.ipi.cst,
    enquadramento: i.ipi.enquadramento,
    base: money(i.ipi.base),
    rate: pct(i.ipi.rate),
    value: money(i.ipi.value),
  },
  pis: pisCofinsDto(i.pis),
  cofins: pisCofinsDto(i.cofins),
  ibsCbs: i.ibsCbs && {
    cst: i.ibsCbs.cst,
    cClassTrib: i.ibsCbs.cClassTrib,
    base: money(i.ibsCbs.base),
    ibsUfRate: pct(i.ibsCbs.ibsUfRate),
    ibsUfValue: money(i.ibsCbs.ibsUfValue),
    ibsMunRate: pct(i.ibsCbs.ibsMunRate),
    ibsMunValue: money(i.ibsCbs.ibsMunValue),
    ibsValue: money(i.ibsCbs.ibsValue),
    cbsRate: pct(i.ibsCbs.cbsRate),
    cbsValue: money(i.ibsCbs.cbsValue),
  },
  approximateTaxes: money(i.approximateTaxes),
  total: money(i.total),
  rule: { ruleId: encodeOptionalId('fiscal-rule', i.rule.ruleId), description: i.rule.description, ratesSource: i.rule.ratesSource },
});

export const toFiscalDocumentDto = (d: ComputedFiscalDocument) => {
  const t = d.totals;
  const totals = Object.fromEntries(
    Object.entries(t)
      .filter(([k]) => k !== 'ibsCbs' && k !== 'vNFTot')
      .map(([k, v]) => [k, money(v as Dec)]),
  );
  return {
    model: d.model,
    operation: d.operation,
    operationNature: d.operationNature,
    direction: d.direction,
    purpose: d.purpose,
    destination: d.destination,
    finalConsumer: d.finalConsumer,
    presence: d.presence,
    issueDate: d.issueDate,
    ruleSetId: d.ruleSetId,
    issuer: { ...d.issuer, filialId: encodeId('filial', d.issuer.filialId) },
    recipient: { ...d.recipient, customerId: encodeOptionalId('customer', d.recipient.customerId) },
    items: d.items.map(itemDto),
    totals: {
      ...totals,
      ibsCbs: t.ibsCbs && {
        base: money(t.ibsCbs.base),
        ibsUf: money(t.ibsCbs.ibsUf),
        ibsMun: money(t.ibsCbs.ibsMun),
        ibs: money(t.ibsCbs.ibs),
        cbs: money(t.ibsCbs.cbs),
      },
      vNFTot: money(t.vNFTot),
    },
    simplesCredit: simplesCreditDto(d),
    statements: legalStatements(d),
    warnings: d.warnings,
  };
};

const simplesCreditDto = (d: ComputedFiscalDocument) => {
  const c = simplesCreditOf(d);
  return c && { rate: pct(c.rate), value: money(c.value) };
};
