import { expect } from 'chai';
import fc from 'fast-check';
import { Dec } from '../../src/core/decimal';
import { computeDocument, EngineInput, EngineRule } from '../../src/modules/fiscal/engine';
import type { FiscalDestination } from '../../src/modules/fiscal/fiscal-document';

/*
 * The engine computes a document in scaled integers when every figure is exact that way (cents.ts) and
 * with decimal.js otherwise (issue 51). The two must give the same document, Dec for Dec (deep equality:
 * the same digits, exponent and sign), over the cases the integer path takes: both regimes, CST 00 / 20
 * (base reduction) / 40 / 41 with ICMS desonerado, CSOSN 101 / 102, IPI, DIFAL on either base, PIS/COFINS
 * by regime, IBS/CBS, the Lei 12.741 table, header values apportioned, quantities with 4 places and unit
 * prices with up to 10, taxable units with a factor.
 */
describe('Tax engine: the integer path gives the decimal.js document', () => {
  const address = (uf: string, code: string) => ({
    street: 'Rua A',
    number: '1',
    complement: null,
    district: 'Centro',
    municipalityCode: code,
    municipalityName: 'X',
    uf,
    postalCode: null,
    countryCode: '1058',
    countryName: 'BRASIL',
    phone: null,
  });
  const amount = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2));
  const rate = fc.integer({ min: 0, max: 300_000 }).map((r) => new Dec(r).div(10_000));

  const scenario = fc.record({
    crt: fc.constantFrom<1 | 3>(1, 3),
    regime: fc.constantFrom('LUCRO_REAL', 'LUCRO_PRESUMIDO') as fc.Arbitrary<'LUCRO_REAL' | 'LUCRO_PRESUMIDO'>,
    industrial: fc.boolean(),
    uf: fc.constantFrom('SP', 'MG', 'RJ'),
    contributor: fc.boolean(),
    date: fc.constantFrom('2025-06-01', '2026-06-01', '2027-03-01'),
    cst: fc.constantFrom('00', '20', '40', '41'),
    csosn: fc.constantFrom('101', '102'),
    reduction: rate,
    relief: fc.constantFrom(null, 9),
    reliefDeducted: fc.boolean(),
    ownRate: fc.option(rate),
    ipiRate: fc.option(rate),
    pisRate: fc.option(rate),
    fcp: fc.integer({ min: 0, max: 40_000 }).map((r) => new Dec(r).div(10_000)),
    internal: fc.integer({ min: 70_000, max: 220_000 }).map((r) => new Dec(r).div(10_000)),
    doubleBase: fc.boolean(),
    factor: fc.constantFrom('0', '1', '12', '0.5', '2.345678'),
    approximate: fc.boolean(),
    finalConsumer: fc.option(fc.boolean()),
    items: fc.array(
      fc.record({
        q: fc.integer({ min: 1, max: 9_999_999 }).map((v) => new Dec(v).div(10_000).toFixed()),
        p: fc.oneof(
          amount(900_000),
          fc.integer({ min: 0, max: 9_999_999_999 }).map((v) => new Dec(v).div(1e8).toFixed()),
          fc.integer({ min: 1, max: 99_999_999 }).map((v) => new Dec(v).div(1e10).toFixed()),
        ),
        dPct: fc.integer({ min: 0, max: 100 }),
        imported: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    freight: amount(50_000),
    insurance: amount(5_000),
    other: amount(5_000),
    discountPct: fc.integer({ min: 0, max: 100 }),
  });
  type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

  const inputOf = (s: Scenario): EngineInput => {
    const rule = (destination: FiscalDestination, contributor: boolean): EngineRule => ({
      id: destination === 'INTERNAL' ? (contributor ? 1 : 2) : contributor ? 3 : 4,
      taxGroupId: 1,
      operation: 'SALE',
      destination,
      contributor,
      validFrom: '2000-01-01',
      validTo: null,
      cfop: destination === 'INTERNAL' ? '5102' : '6102',
      operationNature: null,
      icmsCst: s.cst,
      csosn: s.csosn,
      icmsBaseReduction: s.cst === '20' ? s.reduction : null,
      icmsRate: s.ownRate,
      stMode: 'NONE',
      stMva: null,
      stBaseReduction: null,
      pisCst: null,
      pisRate: s.pisRate,
      cofinsCst: null,
      cofinsRate: null,
      ipiCst: '50',
      ipiRate: s.ipiRate,
      ipiEnquadramento: '999',
      ibsCbsCst: null,
      ibsCbsClass: null,
      reliefReason: s.cst === '00' ? null : s.relief,
      reliefDeducted: s.reliefDeducted,
      active: true,
    });
    const items = s.items.map((r, i) => {
      const gross = new Dec(r.q).times(r.p).toDecimalPlaces(2);
      return {
        productId: i + 1,
        salesOrderItemId: null,
        quantity: i % 2 ? new Dec(r.q) : r.q,
        unitPrice: i % 3 ? r.p : new Dec(r.p),
        discount: gross.times(r.dPct).div(100).toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2),
      };
    });
    const net = items.reduce((acc, i) => acc.plus(new Dec(i.quantity).times(i.unitPrice).toDecimalPlaces(2)).minus(i.discount), new Dec(0));
    return {
      model: 55,
      operation: 'SALE',
      date: s.date,
      regime: s.crt === 1 ? 'SIMPLES_NACIONAL' : s.regime,
      simplesCreditRate: s.crt === 1 ? new Dec('1.25') : null,
      issuer: {
        filialId: 1,
        document: '11222333000181',
        name: 'Emitente',
        tradeName: null,
        stateRegistration: '110042490114',
        cnae: null,
        crt: s.crt,
        industrial: s.industrial,
        address: address('SP', '3550308'),
        ufCode: '35',
      },
      recipient: {
        customerId: 1,
        personType: s.contributor ? 'PJ' : 'PF',
        document: s.contributor ? '11222333000181' : '52998224725',
        name: 'Cliente',
        ieIndicator: s.contributor ? 1 : 9,
        stateRegistration: s.contributor ? '110042490114' : null,
        email: null,
        address: address(s.uf, s.uf === 'SP' ? '3550308' : '3106200'),
      },
      finalConsumer: s.contributor ? (s.finalConsumer ?? undefined) : undefined,
      items,
      freight: s.freight,
      insurance: s.insurance,
      otherExpenses: s.other,
      discount: net.times(s.discountPct).div(100).toDecimalPlaces(2, Dec.ROUND_DOWN).toFixed(2),
      products: new Map(
        s.items.map((r, i) => [
          i + 1,
          {
            id: i + 1,
            code: `P${i + 1}`,
            name: 'Produto',
            unit: 'UN',
            gtin: null,
            ncm: i === 2 ? '22030000' : '61091000',
            cest: null,
            origin: r.imported ? 1 : 0,
            taxableUnit: s.factor === '1' ? null : 'KG',
            taxableFactor: new Dec(s.factor),
            taxGroupId: 1,
          },
        ]),
      ),
      taxGroups: new Map([[1, { id: 1, code: 'G' }]]),
      rules: (['INTERNAL', 'INTERSTATE'] as const).flatMap((d) => [rule(d, true), rule(d, false)]),
      ufRates: ['SP', 'MG', 'RJ'].map((u) => ({
        companyId: 0,
        uf: u,
        taxGroupId: 0,
        validFrom: '2000-01-01',
        validTo: null,
        internalRate: u === 'SP' ? new Dec(18) : s.internal,
        fcpRate: u === 'SP' ? new Dec(s.cst === '41' ? 2 : 0) : s.fcp,
        difalDoubleBase: s.doubleBase,
        source: 's',
        sourceDate: '2026-01-01',
      })),
      ruleSet: {
        code: s.date.slice(0, 4),
        pisCofins: s.date < '2027-01-01',
        ibsCbs: s.date >= '2026-01-01',
        ibsCbsInformative: s.date < '2027-01-01',
        cbsRate: new Dec(s.date < '2027-01-01' ? '0.9' : '8.8'),
        ibsUfRate: new Dec('0.1'),
        ibsMunRate: new Dec(s.date < '2027-01-01' ? 0 : '0.05'),
        ibsCbsCst: '000',
        ibsCbsClass: '000001',
        source: 's',
      },
      approximateTaxes: s.approximate
        ? new Map([
            [
              '61091000',
              {
                federalNationalRate: new Dec('13.45'),
                federalImportedRate: new Dec('15.5'),
                stateRate: new Dec(18),
                municipalRate: new Dec('0.0001'),
                tableVersion: '26.1.A',
                tableKey: 'K',
                source: 'IBPT',
              },
            ],
          ])
        : null,
    };
  };

  const outcome = (fn: () => unknown) => {
    try {
      return { doc: fn() };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };

  it('the same document, Dec for Dec, or the same 422', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const input = inputOf(s);
        expect(outcome(() => computeDocument(input))).to.deep.equal(outcome(() => computeDocument(input, { inDecimals: true })));
      }),
      { numRuns: 400 },
    );
  });

  it('values with more places than their scale go to decimal.js, with the same figures', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 999 }), (s, extra) => {
        const input = inputOf(s);
        input.items[0] = { ...input.items[0], quantity: `${new Dec(input.items[0].quantity).toFixed(4)}${extra}` };
        expect(outcome(() => computeDocument(input))).to.deep.equal(outcome(() => computeDocument(input, { inDecimals: true })));
      }),
      { numRuns: 50 },
    );
  });
});
