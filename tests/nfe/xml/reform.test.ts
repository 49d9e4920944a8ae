import { expect } from 'chai';
import { ConfigError } from '../../../src/core/config';
import { DEFAULT_TAX_REFORM_RULES, loadTaxReformRules, TaxReformRule, taxReformRuleFor } from '../../../src/core/config/tax-reform';
import { Dec } from '../../../src/core/decimal';
import { toDraftInput } from '../../../src/modules/inbound-nfe/nfe-draft';
import { inspectNfeXml } from '../../../src/modules/inbound-nfe/xml/inspect';
import { parseNfe } from '../../../src/modules/fiscal-xml/nfe/nfe-parser';
import { checkReformTotals } from '../../../src/modules/inbound-nfe/xml/reform-totals';
import { buildValidationReport, RecipientContext, ValidationReport } from '../../../src/modules/inbound-nfe/xml/validation-report';
import { buildNfe, NfeSpec, REFORM_ITEMS } from '../../support/nfe-builder';

/*
 * The tax-reform layout (PL_010, NT 2025.002) as parsed, reconciled under the rule of the year, and
 * carried into the entry document draft.
 */

const FILIAL: RecipientContext = { document: '23765766000162', environment: 'PRODUCTION' };
const REFERENCED = '35250137241249000107550014231152171571688010';
const spec = (over: Partial<NfeSpec> = {}): NfeSpec => ({
  recipient: { cnpj: FILIAL.document },
  issuedAt: '2026-08-10T10:00:00-03:00',
  items: REFORM_ITEMS,
  ...over,
});
const str = (d: Dec | null | undefined) => (d ? d.toFixed() : d);
const checkOf = (r: ValidationReport, name: string) => r.checks.find((c) => c.check === name)!;
const RULE_2027: TaxReformRule = { fromYear: 2027, charged: true, itemValueConventions: ['WITH_TAXES'], totalsBlock: true };

describe('nfe/xml: tax-reform groups (PL_010)', () => {
  const built = buildNfe(spec({ purpose: '6', debitNoteType: '04', ibsCbsMunicipality: '3550308', references: [REFERENCED] }));

  it('reads every group per item into exact decimals', async () => {
    const nfe = await parseNfe(built.xml);
    const [first, mono, suspended] = nfe.items;
    const g = first.taxes.ibsCbs!;
    expect(g).to.include({ cst: '000', classCode: '000001', donation: null });
    expect(str(g.general!.base)).to.equal('20');
    expect(str(g.general!.ibsState.rate)).to.equal('0.1');
    expect(g.general!.ibsState.reduction!.effectiveRate.toFixed(4)).to.equal('0.0800');
    expect(str(g.general!.ibsState.deferral!.rate)).to.equal('10');
    expect(str(g.general!.ibsState.returnedValue)).to.equal('0.01');
    expect(str(g.general!.cbs.value)).to.equal('0.12');
    expect(str(g.general!.ibsValue)).to.equal('0.01');
    expect(g.general!.regular).to.include({ cst: '000', classCode: '000001' });
    expect(str(g.general!.regular!.cbsValue)).to.equal('0.14');
    expect(str(g.creditReversal!.cbsValue)).to.equal('0.1');
    expect(g.presumedCredit).to.deep.include({ creditCode: '01' });
    expect(str(g.presumedCredit!.ibs!.value)).to.equal('0.2');
    expect(first.taxes.selectiveTax).to.include({ cst: '000', classCode: '000001', unit: null });
    expect(str(first.taxes.selectiveTax!.value)).to.equal('0.4');
    expect(first.itemValue!.toFixed(2)).to.equal('21.53');

    const sp = mono.taxes.ibsCbs!.singlePhase!;
    expect(mono.taxes.ibsCbs!.general).to.equal(null);
    expect([str(sp.standard!.baseQuantity), str(sp.standard!.ibsAdRemRate), str(sp.ibsTotal), str(sp.cbsTotal)]).to.deep.equal([
      '100',
      '0.1',
      '10',
      '20',
    ]);

    expect(suspended.taxes.ibsCbs).to.deep.include({ cst: '410', classCode: '410999', general: null, singlePhase: null });
    expect(suspended.referencedDocument).to.deep.equal({ accessKey: REFERENCED, lineNumber: 2 });
  });

  it('reads the header and the totals', async () => {
    const nfe = await parseNfe(built.xml);
    expect(nfe.ide).to.include({ purpose: '6', debitNoteType: '04', creditNoteType: null, ibsCbsMunicipality: '3550308' });
    expect(nfe.ide.referencedKeys).to.deep.equal([REFERENCED]);
    expect(nfe.ide.references).to.deep.equal([{ kind: 'NFE', accessKey: REFERENCED, fields: null }]);
    const t = nfe.totals;
    expect([
      str(t.ibsCbs!.base),
      str(t.ibsCbs!.ibs!.value),
      str(t.ibsCbs!.cbs!.value),
      str(t.ibsCbs!.singlePhase!.cbsValue),
      str(t.ibsCbs!.creditReversal!.ibsValue),
    ]).to.deep.equal(['20', '0.01', '0.12', '20', '0.05']);
    expect(str(t.selectiveTax)).to.equal('0.4');
    expect(t.invoiceWithTaxes!.toFixed(2)).to.equal(built.totals.vNFTot);
    expect(t.invoice.toFixed(2)).to.equal(built.totals.vNF);
  });

  it('a signed protocol and every PL_010 check PASS on a consistent document', async () => {
    const { report } = await inspectNfeXml(buildNfe(spec({ protocolSigned: true })).xml, FILIAL);
    expect(report.checks.filter((c) => c.outcome !== 'PASS').map((c) => c.check)).to.deep.equal([]);
    expect(report.valid).to.equal(true);
  });

  it('refuses a reform group without its required fields, naming the path', async () => {
    const broken = built.xml.replace(/<pCBS>[^<]*<\/pCBS>/, '');
    try {
      await parseNfe(broken);
      expect.fail('parsed');
    } catch (err) {
      expect((err as { code: string }).code).to.equal('NFE_INVALID_CONTENT');
      expect(JSON.stringify((err as { extensions: unknown }).extensions)).to.contain('det[1]/imposto/IBSCBS/gIBSCBS/gCBS/pCBS');
    }
  });
});

describe('nfe/xml: tax-reform totals under the rule of the year', () => {
  const signedWith = (mutate: (xml: string) => string, over: Partial<NfeSpec> = {}) =>
    buildNfe(spec({ ...over, beforeSigning: mutate })).xml;

  it('2026: IBSCBSTot, ISTot, vItem and vNFTot differences are warnings, never blocks', async () => {
    const xml = signedWith((x) =>
      x
        .replace(/<vBCIBSCBS>[^<]*<\/vBCIBSCBS>/, '<vBCIBSCBS>21.00</vBCIBSCBS>')
        .replace(/<ISTot><vIS>[^<]*<\/vIS><\/ISTot>/, '<ISTot><vIS>0.50</vIS></ISTot>')
        .replace(/<vItem>([^<]*)<\/vItem>/, '<vItem>99.99</vItem>')
        .replace(/<vNFTot>[^<]*<\/vNFTot>/, '<vNFTot>1.00</vNFTot>'),
    );
    const { report } = await inspectNfeXml(xml, FILIAL);
    for (const [check, code] of [
      ['IBSCBS_TOTAL', 'NFE_IBSCBS_TOTAL_MISMATCH'],
      ['IS_TOTAL', 'NFE_IS_TOTAL_MISMATCH'],
      ['ITEM_VALUE', 'NFE_ITEM_VALUE_MISMATCH'],
      ['INVOICE_TOTAL_WITH_TAXES', 'NFE_INVOICE_TOTAL_WITH_TAXES_MISMATCH'],
    ]) {
      expect(checkOf(report, check), check).to.include({ outcome: 'FAIL', blocking: false, code });
    }
    expect(checkOf(report, 'IBSCBS_TOTAL').details!.mismatches).to.deep.equal([{ field: 'IBSCBSTot/vBCIBSCBS', items: 20, total: 21 }]);
    expect(checkOf(report, 'ITEM_VALUE').details!.mismatches).to.deep.equal([
      { lineNumber: 1, vItem: 99.99, withoutTaxes: 21, withTaxes: 21.53 },
    ]);
    expect(checkOf(report, 'INVOICE_TOTAL_WITH_TAXES').details).to.deep.include({
      vNFTot: 1,
      convention: null,
      rule: { year: 2026, fromYear: 2026, charged: false, itemValueConventions: ['WITHOUT_TAXES', 'WITH_TAXES'] },
    });
    expect(report.valid).to.equal(true);
    expect(report.warnings).to.have.members([
      'NFE_IBSCBS_TOTAL_MISMATCH',
      'NFE_IS_TOTAL_MISMATCH',
      'NFE_ITEM_VALUE_MISMATCH',
      'NFE_INVOICE_TOTAL_WITH_TAXES_MISMATCH',
    ]);
  });

  it('2026 accepts vNFTot with and without the taxes (the real invoices do both)', async () => {
    for (const itemValues of ['WITH_TAXES', 'WITHOUT_TAXES'] as const) {
      const b = buildNfe(spec({ itemValues }));
      const { report } = await inspectNfeXml(b.xml, FILIAL);
      expect(checkOf(report, 'INVOICE_TOTAL_WITH_TAXES').outcome, itemValues).to.equal('PASS');
      expect(checkOf(report, 'INVOICE_TOTAL_WITH_TAXES').details!.convention).to.equal(itemValues);
      expect(checkOf(report, 'ITEM_VALUE').outcome).to.equal('PASS');
    }
  });

  it('items with IBSCBS and no IBSCBSTot (and the reverse for IS) are reported', async () => {
    const xml = signedWith((x) => x.replace(/<IBSCBSTot>[\s\S]*<\/IBSCBSTot>/, '').replace(/<IS>[\s\S]*?<\/IS>/, ''));
    const { report } = await inspectNfeXml(xml, FILIAL);
    expect(checkOf(report, 'IBSCBS_TOTAL').message).to.equal('Items have IBSCBS but the totals have no IBSCBSTot');
    expect(checkOf(report, 'IS_TOTAL').message).to.equal('ISTot is given but no item has IS');
  });

  it('a configured later year changes the rule without code: one convention, and differences block', async () => {
    const rules = [...DEFAULT_TAX_REFORM_RULES, RULE_2027];
    const without2027 = buildNfe(spec({ issuedAt: '2027-02-01T10:00:00-03:00', itemValues: 'WITHOUT_TAXES' }));
    const { nfe, signature } = await inspectNfeXml(without2027.xml, FILIAL);
    const report = buildValidationReport(nfe, signature, FILIAL, rules);
    expect(checkOf(report, 'INVOICE_TOTAL_WITH_TAXES')).to.include({ outcome: 'FAIL', blocking: true });
    expect(checkOf(report, 'ITEM_VALUE')).to.include({ outcome: 'FAIL', blocking: true });
    expect(report.blockingCodes).to.deep.equal(['NFE_ITEM_VALUE_MISMATCH', 'NFE_INVOICE_TOTAL_WITH_TAXES_MISMATCH']);
    // The same document dated 2026 still follows the 2026 rule.
    const in2026 = await inspectNfeXml(buildNfe(spec({ itemValues: 'WITHOUT_TAXES' })).xml, FILIAL);
    expect(buildValidationReport(in2026.nfe, in2026.signature, FILIAL, rules).valid).to.equal(true);
  });

  it('a document without the groups: all four SKIPPED', async () => {
    const { report } = await inspectNfeXml(
      buildNfe({ recipient: { cnpj: FILIAL.document }, items: [{ quantity: '1', unitPrice: '2' }] }).xml,
      FILIAL,
    );
    for (const c of ['IBSCBS_TOTAL', 'IS_TOTAL', 'ITEM_VALUE', 'INVOICE_TOTAL_WITH_TAXES'])
      expect(checkOf(report, c).outcome).to.equal('SKIPPED');
  });
});

describe('core/config: NFE_TAX_REFORM_RULES', () => {
  it('defaults to the 2026 rule (informative) before 2027 and the 2027 rule (charged, vItem with the taxes) from then on, until another is configured', () => {
    expect(loadTaxReformRules({})).to.equal(DEFAULT_TAX_REFORM_RULES);
    expect(taxReformRuleFor(2025)).to.include({ fromYear: 2026, charged: false, totalsBlock: false });
    expect(taxReformRuleFor(2026)).to.include({ fromYear: 2026, charged: false });
    expect(taxReformRuleFor(2027)).to.deep.equal({
      fromYear: 2027,
      charged: true,
      itemValueConventions: ['WITH_TAXES'],
      totalsBlock: false,
    });
    expect(taxReformRuleFor(2031)).to.include({ fromYear: 2027, charged: true });
  });

  it('reads a JSON array, sorted by year; the latest rule not after the year applies', () => {
    const rules = loadTaxReformRules({ NFE_TAX_REFORM_RULES: JSON.stringify([RULE_2027, DEFAULT_TAX_REFORM_RULES[0]]) });
    expect(rules.map((r) => r.fromYear)).to.deep.equal([2026, 2027]);
    expect(taxReformRuleFor(2026, rules).charged).to.equal(false);
    expect(taxReformRuleFor(2030, rules)).to.deep.equal(RULE_2027);
  });

  it('refuses what is not a list of complete rules, naming the variable', () => {
    for (const bad of [
      '{',
      '[]',
      JSON.stringify([{ fromYear: 2027, charged: true }]),
      JSON.stringify([{ ...RULE_2027, itemValueConventions: ['SOMETIMES'] }]),
      JSON.stringify([RULE_2027, RULE_2027]),
    ]) {
      expect(() => loadTaxReformRules({ NFE_TAX_REFORM_RULES: bad }), bad).to.throw(ConfigError, /NFE_TAX_REFORM_RULES/);
    }
  });
});

describe('nfe: the draft of a tax-reform invoice', () => {
  const draftOf = async (over: Partial<NfeSpec>, rules?: readonly TaxReformRule[]) => {
    const nfe = await parseNfe(buildNfe(spec(over)).xml);
    return { nfe, ...toDraftInput(nfe, { filialId: 1, origin: 'NFE_XML', matches: nfe.items.map(() => null), taxReformRules: rules }) };
  };

  it('2026: the taxes are kept per line and per document, not added to any amount', async () => {
    const { nfe, draft } = await draftOf({});
    expect(draft.expectedTotals!.total!.toFixed(2)).to.equal(nfe.totals.invoice.toFixed(2));
    expect(draft.items[0].otherExpenses!.toFixed(2)).to.equal('0.00');
    const line = draft.items[0].reformTaxes as any;
    expect(line.ibsCbs.general.cbs).to.deep.equal({
      rate: '0.9',
      deferral: { rate: '10', value: '0.01' },
      returnedValue: '0.01',
      reduction: { rate: '20', effectiveRate: '0.72' },
      value: '0.12',
    });
    expect(line.itemValue).to.equal('21.53');
    expect(draft.items[2].reformTaxes).to.deep.include({ referencedDocument: { accessKey: REFERENCED, lineNumber: 2 } });
    const doc = draft.reformTaxes as any;
    expect(doc.totals.invoiceWithTaxes).to.equal(nfe.totals.invoiceWithTaxes!.toFixed());
    expect(doc.itemTaxes).to.equal('30.53');
    expect(doc.rule).to.deep.equal({ year: 2026, fromYear: 2026, charged: false, itemValueConventions: ['WITHOUT_TAXES', 'WITH_TAXES'] });
    expect(doc.checks).to.deep.equal({
      ibsCbsTotal: 'PASS',
      selectiveTaxTotal: 'PASS',
      itemValues: 'PASS',
      invoiceWithTaxes: 'PASS',
      invoiceTotalConvention: 'WITH_TAXES',
    });
  });

  it("a charged rule adds each line's IBS + CBS + IS to its other expenses and expects vNFTot", async () => {
    const { nfe, draft } = await draftOf({ issuedAt: '2027-03-01T10:00:00-03:00' }, [...DEFAULT_TAX_REFORM_RULES, RULE_2027]);
    expect(draft.items.map((i) => i.otherExpenses!.toFixed(2))).to.deep.equal(['0.53', '30.00', '0.00']);
    expect(draft.expectedTotals!.total!.toFixed(2)).to.equal(nfe.totals.invoiceWithTaxes!.toFixed(2));
    expect(draft.expectedTotals!.otherExpenses!.toFixed(2)).to.equal('30.53');
  });

  it('a document without the groups has no block', async () => {
    const nfe = await parseNfe(buildNfe({ recipient: { cnpj: FILIAL.document }, items: [{ quantity: '1', unitPrice: '2' }] }).xml);
    const { draft } = toDraftInput(nfe, { filialId: 1, origin: 'NFE_XML', matches: [null] });
    expect(draft.reformTaxes).to.equal(null);
    expect(draft.items[0].reformTaxes).to.equal(null);
    expect(checkReformTotals(nfe).present).to.equal(false);
  });
});
