import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { computeDocument } from '../../src/modules/entry-document/entry-document.calculator';
import type { ItemInput } from '../../src/modules/entry-document/entry-document.types';
import { defaultEntryCfop, entryOperation } from '../../src/modules/entry-document/fiscal/cfop-table';
import type { CfopRule, NfePurpose, OperationClass, TaxRegime } from '../../src/modules/entry-document/fiscal/fiscal.types';
import { computeLineCost, LineCostInput } from '../../src/modules/entry-document/fiscal/line-cost';
import { resolveLineFiscal } from '../../src/modules/entry-document/fiscal/line-fiscal';

/*
 * The fiscal rules as pure functions: the default CFOP table, the precedence of company rules and
 * choices, the operation class by entry CFOP and finNFe, and the net cost by tax regime — each against
 * values computed by hand in the test.
 */

const d = (v: string | number) => new Dec(v);
const Z = d(0);

describe('Entry CFOP, operation class and net cost (pure rules)', () => {
  describe('default entry CFOP of the issuer’s CFOP', () => {
    const cases: [string, string | null, OperationClass | null][] = [
      ['5101', '1102', 'PURCHASE_RESALE'],
      ['5102', '1102', 'PURCHASE_RESALE'],
      ['5401', '1403', 'PURCHASE_RESALE'],
      ['5403', '1403', 'PURCHASE_RESALE'],
      ['5405', '1403', 'PURCHASE_RESALE'],
      ['5910', '1910', 'BONUS'],
      ['5901', '1901', 'THIRD_PARTY_INBOUND'],
      ['5902', '1902', 'RETURN_OF_OURS'],
      ['5915', '1915', 'THIRD_PARTY_INBOUND'],
      ['5916', '1916', 'RETURN_OF_OURS'],
      ['5202', '1202', 'CUSTOMER_RETURN'],
      ['6102', '2102', 'PURCHASE_RESALE'],
      ['6107', '2102', 'PURCHASE_RESALE'],
      ['6401', '2403', 'PURCHASE_RESALE'],
      ['6910', '2910', 'BONUS'],
      ['5949', null, null],
    ];
    for (const [issuer, entry, cls] of cases) {
      it(`${issuer} → ${entry ?? 'none'} (${cls ?? 'no class'})`, () => {
        expect(defaultEntryCfop(issuer)).to.equal(entry);
        expect(entryOperation(entry)?.operationClass ?? null).to.equal(cls);
      });
    }
    it('an entry CFOP already (the company’s own entry note, e.g. an import 3101) is kept as declared', () => {
      const f = resolveLineFiscal({ cfop: '3101', ncm: null, productId: null }, '1', []);
      // A purchase from abroad is an IMPORT (issue 34; it was PURCHASE_INPUT before that class existed).
      expect(f).to.include({ entryCfop: '3101', entryCfopSource: 'DECLARED', operationClass: 'IMPORT', operationClassSource: 'CFOP' });
    });
    it('a line without any CFOP is a purchase for resale, as before; an unknown issuer CFOP resolves to nothing', () => {
      expect(resolveLineFiscal({ cfop: null, ncm: null, productId: null }, '1', [])).to.include({
        entryCfop: null,
        entryCfopSource: 'NONE',
        operationClass: 'PURCHASE_RESALE',
        operationClassSource: 'NO_CFOP',
      });
      expect(resolveLineFiscal({ cfop: '5949', ncm: null, productId: null }, '1', [])).to.include({
        entryCfop: null,
        entryCfopSource: 'NONE',
        operationClass: null,
        operationClassSource: 'NONE',
      });
    });
  });

  describe('company rules and choices on the draft', () => {
    const rule = (id: number, over: Partial<CfopRule>): CfopRule => ({
      id,
      issuerCfop: '5102',
      ncm: null,
      productId: null,
      entryCfop: '1102',
      operationClass: null,
      ...over,
    });
    const rules = [
      rule(1, { entryCfop: '1556' }),
      rule(2, { ncm: '22', entryCfop: '1101' }),
      rule(3, { ncm: '220210', entryCfop: '1551' }),
      rule(4, { productId: 77, entryCfop: '1407' }),
      rule(5, { issuerCfop: '5949', entryCfop: '1949', operationClass: 'THIRD_PARTY_INBOUND' }),
    ];
    const line = (over: Partial<Parameters<typeof resolveLineFiscal>[0]>) => ({ cfop: '5102', ncm: '22021000', productId: 1, ...over });

    it('the product rule beats any NCM rule, the longest NCM prefix beats a shorter one, the CFOP alone comes last', () => {
      expect(resolveLineFiscal(line({ productId: 77 }), '1', rules)).to.include({
        entryCfop: '1407',
        entryCfopSource: 'COMPANY_RULE',
        ruleId: 4,
        operationClass: 'PURCHASE_USE_CONSUMPTION',
      });
      expect(resolveLineFiscal(line({}), '1', rules)).to.include({ entryCfop: '1551', ruleId: 3, operationClass: 'PURCHASE_FIXED_ASSET' });
      expect(resolveLineFiscal(line({ ncm: '22030000' }), '1', rules)).to.include({
        entryCfop: '1101',
        ruleId: 2,
        operationClass: 'PURCHASE_INPUT',
      });
      expect(resolveLineFiscal(line({ ncm: '84149000' }), '1', rules)).to.include({ entryCfop: '1556', ruleId: 1 });
      expect(resolveLineFiscal(line({ cfop: '5101' }), '1', rules)).to.include({
        entryCfop: '1102',
        entryCfopSource: 'DEFAULT',
        ruleId: null,
      });
    });
    it('a rule gives the class an entry CFOP does not name (x949)', () => {
      expect(resolveLineFiscal(line({ cfop: '5949' }), '1', rules)).to.include({
        entryCfop: '1949',
        operationClass: 'THIRD_PARTY_INBOUND',
        operationClassSource: 'COMPANY_RULE',
      });
    });
    it('a choice on the draft wins; repeating what the rules give is not a choice', () => {
      expect(resolveLineFiscal(line({ ncm: '84149000', entryCfop: '1556' }), '1', rules)).to.include({ entryCfopSource: 'COMPANY_RULE' });
      expect(resolveLineFiscal(line({ ncm: '84149000', entryCfop: '1910' }), '1', rules)).to.include({
        entryCfop: '1910',
        entryCfopSource: 'MANUAL',
        operationClass: 'BONUS',
        operationClassSource: 'CFOP',
        ruleId: null,
      });
      expect(resolveLineFiscal(line({ ncm: '84149000', operationClass: 'PURCHASE_RESALE' }), '1', rules)).to.include({
        entryCfop: '1556',
        operationClass: 'PURCHASE_RESALE',
        operationClassSource: 'MANUAL',
      });
    });
    it('finNFe 4 books every line as a customer return and 2/3/5/6 as value adjustments, whatever was chosen', () => {
      expect(resolveLineFiscal(line({ cfop: '5202' }), '4', [])).to.include({
        entryCfop: '1202',
        operationClass: 'CUSTOMER_RETURN',
        operationClassSource: 'PURPOSE',
        refusedClass: null,
      });
      expect(resolveLineFiscal(line({ operationClass: 'PURCHASE_RESALE' }), '4', [])).to.include({
        operationClass: 'CUSTOMER_RETURN',
        refusedClass: 'PURCHASE_RESALE',
      });
      for (const p of ['2', '3', '5', '6'] as NfePurpose[])
        expect(resolveLineFiscal(line({}), p, [])).to.include({
          entryCfop: '1102',
          operationClass: 'VALUE_ADJUSTMENT',
          operationClassSource: 'PURPOSE',
        });
    });
  });

  describe('net landed cost by tax regime (values computed by hand)', () => {
    const base = (over: Partial<LineCostInput>): LineCostInput => ({
      total: Z,
      discount: Z,
      freight: Z,
      insurance: Z,
      otherExpenses: Z,
      ipi: Z,
      icmsSt: Z,
      landedTotal: Z,
      icms: Z,
      pisCst: '01',
      cofinsCst: '01',
      stockQuantity: d(1),
      entryCfop: '1102',
      operationClass: 'PURCHASE_RESALE',
      baseClass: 'PURCHASE_RESALE',
      purpose: '1',
      taxRegime: 'LUCRO_REAL',
      apportionedFreight: Z,
      ...over,
    });
    // 10 × 50.00 = 500.00, freight 10.00, IPI 5% 25.00, ICMS 18% of 510.00 = 91.80 → gross 535.00.
    const resale = base({
      total: d('500.00'),
      freight: d('10.00'),
      ipi: d('25.00'),
      icms: d('91.80'),
      landedTotal: d('535.00'),
      stockQuantity: d(10),
    });
    const costOf = (regime: TaxRegime, over: Partial<LineCostInput> = {}) => computeLineCost({ ...resale, taxRegime: regime, ...over });
    const plain = (c: ReturnType<typeof computeLineCost>) => ({
      icms: c.credits.icms.toFixed(2),
      pis: c.credits.pis.toFixed(2),
      cofins: c.credits.cofins.toFixed(2),
      ipi: c.credits.ipi.toFixed(2),
      base: c.creditBase.toFixed(2),
      cost: c.costTotal.toFixed(2),
      unit: c.unitCost.toFixed(10),
    });

    it('LUCRO_REAL resale: ICMS 91.80 out; PIS/COFINS on 500 + 10 − 91.80 = 418.20 → 6.90 and 31.78 out; IPI stays in → 404.52', () => {
      expect(plain(costOf('LUCRO_REAL'))).to.deep.equal({
        icms: '91.80',
        pis: '6.90',
        cofins: '31.78',
        ipi: '0.00',
        base: '418.20',
        cost: '404.52',
        unit: '40.4520000000',
      });
    });
    it('LUCRO_PRESUMIDO resale: only ICMS out (PIS/COFINS cumulative) → 443.20', () => {
      expect(plain(costOf('LUCRO_PRESUMIDO'))).to.deep.equal({
        icms: '91.80',
        pis: '0.00',
        cofins: '0.00',
        ipi: '0.00',
        base: '0.00',
        cost: '443.20',
        unit: '44.3200000000',
      });
    });
    it('SIMPLES_NACIONAL: no credit, today’s landed value 535.00', () => {
      expect(plain(costOf('SIMPLES_NACIONAL'))).to.deep.equal({
        icms: '0.00',
        pis: '0.00',
        cofins: '0.00',
        ipi: '0.00',
        base: '0.00',
        cost: '535.00',
        unit: '53.5000000000',
      });
    });
    it('goods under ICMS-ST for resale (1403): no ICMS credit; ST and FCP-ST stay in; PIS/COFINS base 300 − 54 = 246 → 4.06 and 18.70', () => {
      // 20 × 15.00 = 300.00, IPI 30.00, own ICMS 54.00, ICMS-ST 29.16 + FCP-ST 9.24 = 38.40 → gross 368.40.
      const c = costOf('LUCRO_REAL', {
        total: d('300.00'),
        freight: Z,
        ipi: d('30.00'),
        icms: d('54.00'),
        icmsSt: d('38.40'),
        landedTotal: d('368.40'),
        stockQuantity: d(20),
        entryCfop: '1403',
      });
      expect(plain(c)).to.deep.equal({
        icms: '0.00',
        pis: '4.06',
        cofins: '18.70',
        ipi: '0.00',
        base: '246.00',
        cost: '345.64',
        unit: '17.2820000000',
      });
    });
    it('an industrial input (1101) under LUCRO_REAL also credits its IPI: 220 − 24 − 20 − 2.90 − 13.38 = 159.72', () => {
      // 100 × 2.00 = 200.00, IPI 10% 20.00, ICMS 12% 24.00 → gross 220.00; PIS/COFINS base 200 − 24 = 176.00.
      const c = costOf('LUCRO_REAL', {
        total: d('200.00'),
        freight: Z,
        ipi: d('20.00'),
        icms: d('24.00'),
        landedTotal: d('220.00'),
        stockQuantity: d(100),
        entryCfop: '1101',
        operationClass: 'PURCHASE_INPUT',
        baseClass: 'PURCHASE_INPUT',
      });
      expect(plain(c)).to.deep.equal({
        icms: '24.00',
        pis: '2.90',
        cofins: '13.38',
        ipi: '20.00',
        base: '176.00',
        cost: '159.72',
        unit: '1.5972000000',
      });
    });
    it('a bonificação under LUCRO_REAL: ICMS credited, no PIS/COFINS (nothing was paid): 358.00 − 31.51 = 326.49', () => {
      const c = costOf('LUCRO_REAL', {
        total: d('340.95'),
        freight: Z,
        ipi: d('17.05'),
        icms: d('31.51'),
        landedTotal: d('358.00'),
        stockQuantity: d(2),
        entryCfop: '2910',
        operationClass: 'BONUS',
        baseClass: 'BONUS',
      });
      expect(plain(c)).to.deep.equal({
        icms: '31.51',
        pis: '0.00',
        cofins: '0.00',
        ipi: '0.00',
        base: '0.00',
        cost: '326.49',
        unit: '163.2450000000',
      });
    });
    it('monophasic goods (supplier CST 04) give no PIS/COFINS credit; use and consumption gives no credit at all', () => {
      expect(plain(costOf('LUCRO_REAL', { pisCst: '04', cofinsCst: '04' }))).to.include({
        pis: '0.00',
        cofins: '0.00',
        base: '0.00',
        cost: '443.20',
      });
      expect(
        plain(
          costOf('LUCRO_REAL', { entryCfop: '1556', operationClass: 'PURCHASE_USE_CONSUMPTION', baseClass: 'PURCHASE_USE_CONSUMPTION' }),
        ),
      ).to.include({
        icms: '0.00',
        pis: '0.00',
        cost: '535.00',
      });
    });
    it('freight apportioned later (CT-e) enters the cost: 404.52 + 12.34 = 416.86', () => {
      expect(plain(costOf('LUCRO_REAL', { apportionedFreight: d('12.34') }))).to.include({ cost: '416.86', unit: '41.6860000000' });
    });
    it('a complementary invoice (finNFe 2) credits as its entry CFOP’s class; a debit note (6) takes none', () => {
      expect(plain(costOf('LUCRO_REAL', { operationClass: 'VALUE_ADJUSTMENT', purpose: '2' }))).to.include({
        icms: '91.80',
        pis: '6.90',
        cost: '404.52',
      });
      expect(plain(costOf('LUCRO_REAL', { operationClass: 'VALUE_ADJUSTMENT', purpose: '6' }))).to.include({
        icms: '0.00',
        pis: '0.00',
        cost: '535.00',
      });
    });
  });

  describe('the document: payable total, installments, refused returns, value-only lines', () => {
    const item = (over: Partial<ItemInput>): ItemInput => ({
      description: 'X',
      unit: 'UN',
      quantity: d(1),
      unitPrice: d(10),
      productId: 1,
      ...over,
    });
    const compute = (items: ItemInput[], extra: Partial<Parameters<typeof computeDocument>[0]> = {}) =>
      computeDocument({ items, issueDate: '2026-03-02', entryDate: '2026-03-03', ...extra });

    it('a bonificação line is not owed: payable = the purchase lines only, and installments are checked against it', () => {
      // 3 × 20.00 = 60.00 bought (5102) + 2 × 15.00 = 30.00 given (5910): the supplier is owed 60.00 of 90.00.
      const doc = compute(
        [item({ cfop: '5102', quantity: d(3), unitPrice: d(20) }), item({ cfop: '5910', quantity: d(2), unitPrice: d(15) })],
        {
          installments: [{ dueDate: '2026-04-01', amount: d(60) }],
        },
      );
      expect(doc.totals.total.toFixed(2)).to.equal('90.00');
      expect(doc.payableTotal.toFixed(2)).to.equal('60.00');
      expect(doc.installmentCheck).to.include({ matches: true });
      expect(doc.checks.map((c) => c.code)).to.not.include('INSTALLMENTS_TOTAL_MISMATCH');
      const none = compute([item({ cfop: '5910' })]);
      expect(none.payables).to.deep.equal([]);
    });
    it('finNFe 4 blocks with the referenced document named; a value-only document (2) may have quantity 0 and no product', () => {
      const key = '35250312345678000195550010000012341000012345';
      const ret = compute([item({ cfop: '5202' })], { purpose: '4', referencedKeys: [key] });
      const refused = ret.checks.find((c) => c.code === 'CUSTOMER_RETURN_NOT_A_PURCHASE')!;
      expect(refused.blocksConfirmation).to.equal(true);
      expect(refused.message).to.contain('NF-e 1/1234 of 2025-03 issued by 12345678000195');
      expect(refused.details).to.deep.include({ instead: 'POST /api/returns/{filialId}' });
      const compl = compute([item({ cfop: '5102', quantity: d(0), unitPrice: d(0), productId: null, freight: d('12.50') })], {
        purpose: '2',
      });
      expect(compl.checks.filter((c) => c.blocksConfirmation).map((c) => c.code)).to.deep.equal([]);
      expect(compl.payables.map((p) => p.amount.toFixed(2))).to.deep.equal(['12.50']);
      expect(compl.items[0]).to.include({ operationClass: 'VALUE_ADJUSTMENT' });
    });
    it('an issuer CFOP no rule knows blocks until the line gets an entry CFOP (and a class where the CFOP names none)', () => {
      const codes = (doc: ReturnType<typeof compute>) => doc.checks.filter((c) => c.blocksConfirmation).map((c) => c.code);
      expect(codes(compute([item({ cfop: '5949' })]))).to.deep.equal(['ENTRY_CFOP_UNRESOLVED', 'OPERATION_CLASS_UNDETERMINED']);
      expect(codes(compute([item({ cfop: '5949', entryCfop: '1949' })]))).to.deep.equal(['OPERATION_CLASS_UNDETERMINED']);
      expect(codes(compute([item({ cfop: '5949', entryCfop: '1949', operationClass: 'PURCHASE_RESALE' })]))).to.deep.equal([]);
      const mismatch = compute([item({ cfop: '6102', entryCfop: '1102' })]);
      expect(mismatch.checks.map((c) => c.code)).to.include('ENTRY_CFOP_ORIGIN_MISMATCH');
    });
  });
});
