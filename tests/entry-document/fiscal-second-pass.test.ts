import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { Dec } from '../../src/core/decimal';
import { computeDocument } from '../../src/modules/entry-document/entry-document.calculator';
import type { ItemInput } from '../../src/modules/entry-document/entry-document.types';
import { defaultEntryCfop, entryOperation } from '../../src/modules/entry-document/fiscal/cfop-table';
import type { FiscalContext, OperationClass } from '../../src/modules/entry-document/fiscal/fiscal.types';
import { computeLineCost, LineCostInput } from '../../src/modules/entry-document/fiscal/line-cost';
import { lineEffect } from '../../src/modules/entry-document/fiscal/line-effect';
import { resolveLineFiscal } from '../../src/modules/entry-document/fiscal/line-fiscal';
import { ruleSetFor } from '../../src/modules/entry-document/fiscal/rule-sets';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { CTE, cteTenant, CteTenant, importNfe, stage } from '../cte/cte-support';
import { NFE } from '../nfe/nfe-support';
import { creditsOf, setTaxRegime, thirdPartyBalance } from './fiscal-support';
import { draftBody, item, payablesOf } from './support';

/*
 * The inbound booking's second pass (issue 34), each rule against figures computed by hand, its legal
 * basis beside it (docs/decisions.md, "Inbound booking, second pass").
 */

const d = (v: string | number) => new Dec(v);
const Z = d(0);
const ED = '/api/entry-document';

describe('Inbound booking, second pass (pure rules)', () => {
  describe('default entry CFOPs: transfers, returns, consignment, entrega futura, venda à ordem, industrialization', () => {
    const cases: [string, string, OperationClass | null][] = [
      // Transfers between filiais (CFOP 1.150/1.400 of the SINIEF table).
      ['5151', '1151', 'TRANSFER'],
      ['5152', '1152', 'TRANSFER'],
      ['6152', '2152', 'TRANSFER'],
      ['5408', '1408', 'TRANSFER'],
      ['6409', '2409', 'TRANSFER'],
      ['5209', '1209', 'TRANSFER'],
      // An industry customer's return of a purchase (5201/5410) is, for a retailer, 1202/1411.
      ['5201', '1202', 'CUSTOMER_RETURN'],
      ['5410', '1411', 'CUSTOMER_RETURN'],
      // The gaps: consignment sale, entrega futura, venda à ordem, industrialization by another company.
      ['5114', '1113', 'PURCHASE_RESALE'],
      ['5117', '1117', 'PURCHASE_RESALE'],
      ['5922', '1922', 'VALUE_ADJUSTMENT'],
      ['5120', '1121', 'PURCHASE_RESALE'],
      ['5923', '1923', 'PURCHASE_RESALE'],
      ['5119', '1118', 'PURCHASE_RESALE'],
      ['5124', '1124', 'PURCHASE_INPUT'],
    ];
    for (const [issuer, entry, cls] of cases) {
      it(`${issuer} → ${entry} (${cls})`, () => {
        expect(defaultEntryCfop(issuer)).to.equal(entry);
        expect(entryOperation(entry)?.operationClass ?? null).to.equal(cls);
      });
    }
    it('what each split operation posts: the delivery billed before is not owed, the billing posts no stock, venda à ordem posts the goods once, consigned goods leave third-party stock', () => {
      const post = (entry: string) => {
        const e = lineEffect(entryOperation(entry)!.operationClass, entry, '1')!;
        return [e.stock, e.payable, e.credits.icms, e.fromThirdParty];
      };
      expect(post('1117')).to.deep.equal(['OWN', false, true, false]);
      expect(post('1922')).to.deep.equal(['NONE', true, false, false]);
      expect(post('1121')).to.deep.equal(['OWN', true, true, false]);
      expect(post('1923')).to.deep.equal(['NONE', false, false, false]);
      expect(post('1118')).to.deep.equal(['NONE', true, true, false]);
      expect(post('1124')).to.deep.equal(['NONE', true, true, false]);
      expect(post('1113')).to.deep.equal(['OWN', true, true, true]);
      expect(post('1152')).to.deep.equal(['OWN', false, true, false]);
      // x409: goods under ST for resale, no credit of their own ICMS (LC 87/1996 art. 20 §3º II), as x403.
      expect(entryOperation('1409')!.icmsCredit).to.equal(false);
    });
  });

  describe('finNFe 4: our own goods coming back are not a customer return', () => {
    it('5918/5919/5921 → RETURN_OF_OURS by the entry CFOP, 5209 → TRANSFER; 5202 stays a refused customer return', () => {
      const f = (cfop: string) => resolveLineFiscal({ cfop, ncm: null, productId: null }, '4', []);
      expect(f('5918')).to.include({ entryCfop: '1918', operationClass: 'RETURN_OF_OURS', operationClassSource: 'CFOP' });
      expect(f('6919')).to.include({ entryCfop: '2919', operationClass: 'RETURN_OF_OURS', operationClassSource: 'CFOP' });
      expect(f('5921')).to.include({ entryCfop: '1921', operationClass: 'RETURN_OF_OURS' });
      expect(f('5209')).to.include({ entryCfop: '1209', operationClass: 'TRANSFER' });
      expect(f('5202')).to.include({ operationClass: 'CUSTOMER_RETURN', operationClassSource: 'PURPOSE' });
    });
  });

  describe('net cost: Simples credit, rule set by date, transfers', () => {
    const base = (over: Partial<LineCostInput>): LineCostInput => ({
      total: d('1000.00'),
      discount: Z,
      freight: Z,
      insurance: Z,
      otherExpenses: Z,
      ipi: Z,
      icmsSt: Z,
      landedTotal: d('1000.00'),
      icms: Z,
      pisCst: '01',
      cofinsCst: '01',
      stockQuantity: d(100),
      entryCfop: '1102',
      operationClass: 'PURCHASE_RESALE',
      baseClass: 'PURCHASE_RESALE',
      purpose: '1',
      taxRegime: 'LUCRO_PRESUMIDO',
      apportionedFreight: Z,
      ...over,
    });
    const plain = (c: ReturnType<typeof computeLineCost>) =>
      [c.credits.icms, c.credits.pis, c.credits.cofins, c.credits.cbs, c.credits.ibs, c.costTotal].map((v) => v.toFixed(2));

    it('a Simples supplier’s vCredICMSSN (CSOSN 101, 2.56 % of 1,000.00 = 25.60) is credited by a Lucro Presumido buyer (LC 123/2006 art. 23 §1º)', () => {
      const sn = { icmsCst: '101', snCredit: d('25.60') };
      expect(plain(computeLineCost(base(sn)))).to.deep.equal(['25.60', '0.00', '0.00', '0.00', '0.00', '974.40']);
      // Lucro Real: PIS/COFINS on the whole 1,000.00 (the Simples credit is not ICMS of the operation): 16.50 + 76.00.
      expect(plain(computeLineCost(base({ ...sn, taxRegime: 'LUCRO_REAL' })))).to.deep.equal([
        '25.60',
        '16.50',
        '76.00',
        '0.00',
        '0.00',
        '881.90',
      ]);
      // A Simples Nacional buyer credits nothing; a CSOSN without the credit (102) gives none.
      expect(plain(computeLineCost(base({ ...sn, taxRegime: 'SIMPLES_NACIONAL' })))).to.deep.equal([
        '0.00',
        '0.00',
        '0.00',
        '0.00',
        '0.00',
        '1000.00',
      ]);
      expect(plain(computeLineCost(base({ icmsCst: '102', snCredit: d('25.60') })))[0]).to.equal('0.00');
    });

    it('the rule set follows the document’s date: 2026-12-31 credits PIS/COFINS, 2027-02-01 does not (EC 132/2023, LC 214/2025)', () => {
      expect(ruleSetFor('2026-12-31').id).to.equal('PRE_REFORM');
      expect(ruleSetFor('2027-02-01T10:00:00-03:00').id).to.equal('CBS_2027');
      const real = { taxRegime: 'LUCRO_REAL' as const, icms: d('180.00') };
      // 2026: base 1,000 − 180 = 820 → PIS 13.53, COFINS 62.32 → 1,000 − 180 − 75.85 = 744.15.
      expect(plain(computeLineCost(base({ ...real, issueDate: '2026-12-31' })))).to.deep.equal([
        '180.00',
        '13.53',
        '62.32',
        '0.00',
        '0.00',
        '744.15',
      ]);
      // 2027: no PIS/COFINS; the CBS 88.00 and IBS 1.00 the invoice charges (in other expenses: gross 1,089.00) are credited.
      const charged = {
        ...real,
        issueDate: '2027-02-01',
        otherExpenses: d('89.00'),
        landedTotal: d('1089.00'),
        chargedCbs: d('88.00'),
        chargedIbs: d('1.00'),
      };
      expect(plain(computeLineCost(base(charged)))).to.deep.equal(['180.00', '0.00', '0.00', '88.00', '1.00', '820.00']);
      // Use and consumption: no ICMS credit, but the CBS/IBS credit is broad (LC 214/2025 art. 47).
      expect(
        plain(
          computeLineCost(
            base({ ...charged, entryCfop: '1556', operationClass: 'PURCHASE_USE_CONSUMPTION', baseClass: 'PURCHASE_USE_CONSUMPTION' }),
          ),
        ),
      ).to.deep.equal(['0.00', '0.00', '0.00', '88.00', '1.00', '1000.00']);
    });

    const fiscal = (over: Partial<FiscalContext> = {}): FiscalContext => ({
      taxRegime: 'LUCRO_REAL',
      rules: [],
      filialDocument: cnpjWithCheckDigits('112233440001'),
      companyDocuments: [],
      ...over,
    });
    const line = (over: Partial<ItemInput>): ItemInput => ({
      description: 'X',
      unit: 'UN',
      quantity: d(10),
      unitPrice: d(50),
      productId: 1,
      ...over,
    });
    const compute = (items: ItemInput[], extra: Partial<Parameters<typeof computeDocument>[0]> = {}) =>
      computeDocument({ items, issueDate: '2026-03-02', entryDate: '2026-03-03', fiscal: fiscal(), ...extra });

    it('a 2027 NF-e whose CBS/IBS the configured rule charges: credited per line; one whose rule keeps them informative: a warning, no credit', () => {
      const reform = { ibsCbs: { general: { cbs: { value: '44.00' }, ibsValue: '0.50' } } };
      const it = line({
        cfop: '5102',
        otherExpenses: d('44.50'),
        taxes: { icms: { cst: '00', value: d('90.00') }, pis: { cst: '01' }, cofins: { cst: '01' } },
        reformTaxes: reform,
      });
      const doc = compute([it], { issueDate: '2027-02-01', reformTaxes: { rule: { charged: true } } });
      // 500 + 44.50 = 544.50 gross − ICMS 90 − CBS 44 − IBS 0.50 = 410.00; no PIS/COFINS.
      expect(
        [doc.items[0].creditPis, doc.items[0].creditCofins, doc.items[0].creditCbs, doc.items[0].creditIbs, doc.items[0].costTotal].map(
          (v) => v.toFixed(2),
        ),
      ).to.deep.equal(['0.00', '0.00', '44.00', '0.50', '410.00']);
      const informative = compute([{ ...it, otherExpenses: null }], { issueDate: '2027-02-01', reformTaxes: { rule: { charged: false } } });
      expect(informative.items[0].creditCbs.toFixed(2)).to.equal('0.00');
      expect(informative.items[0].creditPis.toFixed(2)).to.equal('0.00');
      expect(informative.checks.map((c) => c.code)).to.include('REFORM_TAXES_NOT_CHARGED');
    });

    it('an import (3101, the sample’s line 1): duty, customs taxes and expenses to cost, credits by regime, only the goods owed to the foreign supplier', () => {
      // 700 × 55.7455 = 39,021.85; vOutro 89.06; IPI 10 % 4,526.53; II 6,243.50; ICMS 17 % 7,695.11; PIS-Imp 819.46,
      // COFINS-Imp 3,765.61 (Lei 10.865/2004), paid at customs by the importer.
      const imported = line({
        cfop: '3101',
        quantity: d(700),
        unitPrice: d('55.7455'),
        declared: { total: d('39021.85') },
        otherExpenses: d('89.06'),
        importDuty: d('6243.50'),
        customsExpenses: d('12.34'),
        taxes: {
          icms: { cst: '00', base: d('45265.35'), rate: d(17), value: d('7695.11') },
          ipi: { cst: '00', base: d('45265.35'), rate: d(10), value: d('4526.53') },
          pis: { cst: '02', base: d('39021.85'), rate: d('2.1'), value: d('819.46') },
          cofins: { cst: '02', base: d('39021.85'), rate: d('9.65'), value: d('3765.61') },
        },
      });
      const at = (taxRegime: FiscalContext['taxRegime']) => compute([imported], { fiscal: fiscal({ taxRegime }) });
      const real = at('LUCRO_REAL');
      const it0 = real.items[0];
      expect(it0).to.include({ entryCfop: '3101', operationClass: 'IMPORT' });
      // Invoice total (vNF, with the duty): 39,021.85 + 89.06 + 4,526.53 + 6,243.50 = 49,880.94; owed to the supplier: 39,021.85.
      expect([real.totals.total, it0.landedTotal, real.payableTotal].map((v) => v.toFixed(2))).to.deep.equal([
        '49880.94',
        '49880.94',
        '39021.85',
      ]);
      // Lucro Real: + customs 12.34 + ICMS/PIS/COFINS paid 12,280.18 − credits ICMS 7,695.11, IPI 4,526.53 (importer equiparado
      // a industrial, RIPI art. 9 I), PIS 819.46, COFINS 3,765.61 (amounts paid, art. 15) = 39,021.85 + 89.06 + 6,243.50 + 12.34 = 45,366.75.
      expect([it0.creditIcms, it0.creditIpi, it0.creditPis, it0.creditCofins, it0.costTotal].map((v) => v.toFixed(2))).to.deep.equal([
        '7695.11',
        '4526.53',
        '819.46',
        '3765.61',
        '45366.75',
      ]);
      expect(it0.unitCost.toFixed(10)).to.equal('64.8096428571');
      // Lucro Presumido: PIS/COFINS-Imp stay in cost: 45,366.75 + 4,585.07 = 49,951.82. Simples: nothing credited: 62,173.46.
      expect(at('LUCRO_PRESUMIDO').items[0].costTotal.toFixed(2)).to.equal('49951.82');
      expect(at('SIMPLES_NACIONAL').items[0].costTotal.toFixed(2)).to.equal('62173.46');
    });

    it('a transfer (5152) from a filial of the same company: no payable, ICMS credited, no PIS/COFINS; from another company it blocks', () => {
      const it = line({ cfop: '5152', taxes: { icms: { cst: '00', value: d('90.00') }, pis: { cst: '01' }, cofins: { cst: '01' } } });
      const same = compute([it], { supplierDocument: cnpjWithCheckDigits('112233440002') });
      expect(same.items[0]).to.include({ entryCfop: '1152', operationClass: 'TRANSFER' });
      // 10 × 50.00 = 500.00 − ICMS 90.00 = 410.00 (41.00 a unit); nothing owed.
      expect(
        [same.items[0].creditIcms, same.items[0].creditPis, same.items[0].creditCofins, same.items[0].costTotal, same.payableTotal].map(
          (v) => v.toFixed(2),
        ),
      ).to.deep.equal(['90.00', '0.00', '0.00', '410.00', '0.00']);
      expect(same.payables).to.deep.equal([]);
      expect(same.checks.filter((c) => c.blocksConfirmation)).to.deep.equal([]);
      // A filial of the company under another CNPJ root is still the company.
      const listed = cnpjWithCheckDigits('998877660001');
      expect(
        compute([it], { supplierDocument: listed, fiscal: fiscal({ companyDocuments: [listed] }) }).checks.filter(
          (c) => c.blocksConfirmation,
        ),
      ).to.deep.equal([]);
      const foreign = compute([it], { supplierDocument: cnpjWithCheckDigits('556677880001') });
      expect(foreign.checks.filter((c) => c.blocksConfirmation).map((c) => c.code)).to.deep.equal(['TRANSFER_FROM_ANOTHER_COMPANY']);
    });
  });
});

describe('Inbound booking, second pass (API)', () => {
  let t: CteTenant;
  before(async () => {
    t = await cteTenant();
  });

  it('CT-e freight under Lucro Real credits PIS/COFINS on the freight net of its ICMS: NF-e 60 × 10.00 (ICMS 18 %) + CT-e 30.00 (ICMS 12 %) → average 7.8407', async () => {
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    try {
      const p = await makeProduct(t);
      // Goods: 600.00 − ICMS 108.00 − PIS 1.65 % of 492.00 (8.12) − COFINS 7.6 % of 492.00 (37.39) = 446.49.
      const doc = await importNfe(t, [
        {
          code: 'P60',
          quantity: '60',
          unitPrice: '10.00',
          productId: p.hash,
          icms: { cst: '00', rate: '18' },
          pisRate: '1.65',
          cofinsRate: '7.6',
        },
      ]);
      // Freight: 30.00 − ICMS 3.60 = 26.40 → PIS 0.4356 = 0.44, COFINS 2.0064 = 2.01 (Leis 10.637/2002 and 10.833/2003
      // art. 3; base without the ICMS, Lei 14.592/2023) → 26.40 − 2.45 = 23.95 onto the line.
      const cteId = await stage(t, t.cte({ total: '30.00', icms: { cst: '00', rate: '12' }, nfeKeys: [doc.accessKey] }));
      const applied = await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({});
      expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
      expect(applied.body.freight).to.deep.equal({
        serviceTotal: 30,
        icms: 3.6,
        recoverableIcms: 3.6,
        pisCredit: 0.44,
        cofinsCredit: 2.01,
        amount: 23.95,
      });
      const confirmed = await api().post(`${ED}/confirm/${doc.id}`).set(t.headers());
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      // (446.49 + 23.95) / 60 = 7.8406666667 → 7.8407 (7.8815 before: 446.49 + 26.40).
      const stock = await stockOf(t, 0, p.id);
      expect(stock).to.deep.equal({ quantity: '60.0000', averageCost: '7.8406666667' });
      expect(Number(stock.averageCost).toFixed(4)).to.equal('7.8407');
      const cte = (await api().get(`${CTE}/detail/${cteId}`).set(t.headers())).body;
      expect(cte.apportionment).to.deep.include({ amount: 23.95, recoverableIcms: 3.6, pisCredit: 0.44, cofinsCredit: 2.01 });
      expect(await stockMismatches(t)).to.deep.equal([]);
    } finally {
      await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
    }
  });

  it('a Simples supplier’s NF-e (CSOSN 101, pCredSN 2.56 %) gives a Lucro Presumido buyer its ICMS credit, recorded on confirmation', async () => {
    await setTaxRegime(t, 0, 'LUCRO_PRESUMIDO');
    try {
      const p = await makeProduct(t);
      const doc = await importNfe(
        t,
        [{ code: 'SN1', quantity: '40', unitPrice: '25.00', productId: p.hash, icms: { csosn: '101', creditRate: '2.56' } }],
        { issuer: { crt: '1' } },
      );
      const detail = (await api().get(`${ED}/detail/${doc.id}`).set(t.headers())).body;
      expect(detail.items[0].taxes.icms).to.deep.include({ cst: '101', snCreditRate: 2.56, snCreditValue: 25.6 });
      // 1,000.00 − 25.60 = 974.40 → 24.36 a unit.
      expect(detail.items[0].cost).to.deep.include({
        credits: { icms: 25.6, pis: 0, cofins: 0, ipi: 0 },
        costTotal: 974.4,
        unitCost: 24.36,
      });
      const confirmed = await api().post(`${ED}/confirm/${doc.id}`).set(t.headers());
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      expect((await creditsOf(t, doc.id)).map((c) => [c.tax, c.amount.toFixed(2), c.status])).to.deep.equal([
        ['ICMS', '25.60', 'RECORDED'],
      ]);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '40.0000', averageCost: '24.3600000000' });
    } finally {
      await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
    }
  });

  it('preview-manual dated 2027-02-01 under Lucro Real credits no PIS/COFINS; the same document dated 2026-12-31 does', async () => {
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    try {
      const body = (issueDate: string) =>
        draftBody({
          issueDate,
          entryDate: issueDate,
          items: [
            item({
              cfop: '5102',
              quantity: 10,
              unitPrice: '100.00',
              taxes: { icms: { cst: '00', base: '1000.00', rate: 18, value: '180.00' }, pis: { cst: '01' }, cofins: { cst: '01' } },
            }),
          ],
        });
      const in2027 = await api().post(`${ED}/preview-manual`).set(t.headers()).send(body('2027-02-01'));
      expect(in2027.status, JSON.stringify(in2027.body)).to.equal(200);
      expect(in2027.body.items[0].cost).to.deep.include({
        credits: { icms: 180, pis: 0, cofins: 0, ipi: 0 },
        pisCofinsCreditBase: 0,
        costTotal: 820,
      });
      const in2026 = await api().post(`${ED}/preview-manual`).set(t.headers()).send(body('2026-12-31'));
      // 1,000 − 180 = 820 → PIS 13.53, COFINS 62.32.
      expect(in2026.body.items[0].cost).to.deep.include({ credits: { icms: 180, pis: 13.53, cofins: 62.32, ipi: 0 }, costTotal: 744.15 });
    } finally {
      await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
    }
  });

  it('a 2027 NF-e under the default rules: its CBS/IBS charged on top (vNFTot) and credited by date, not left in the cost (LC 214/2025 art. 47; NT 2025.002 VB01-10)', async () => {
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    try {
      const p = await makeProduct(t);
      // 10 × 100.00 = 1,000.00, ICMS 18 % = 180.00 (inside vNF); CBS 8.8 % = 88.00 and IBS-UF 0.1 % = 1.00 on the 1,000.00 base, charged
      // on top: vNFTot 1,089.00 (vItem with the taxes, the 2027 convention). No PIS/COFINS in 2027 (EC 132/2023).
      const doc = await importNfe(
        t,
        [
          {
            code: 'R27',
            quantity: '10',
            unitPrice: '100.00',
            productId: p.hash,
            icms: { cst: '00', rate: '18' },
            ibsCbs: { cbsRate: '8.8000', ibsStateRate: '0.1000', ibsMunicipalRate: '0.0000' },
          },
        ],
        { issuedAt: '2027-02-01T10:00:00-03:00' },
      );
      const detail = (await api().get(`${ED}/detail/${doc.id}`).set(t.headers())).body;
      // Cost: 1,089.00 − ICMS 180.00 − CBS 88.00 − IBS 1.00 = 820.00 → 82.00 a unit (before: the CBS/IBS left in it, 909.00).
      expect(detail.items[0].otherExpenses).to.equal(89);
      expect(detail.items[0].cost).to.deep.include({
        credits: { icms: 180, pis: 0, cofins: 0, ipi: 0 },
        reformCredits: { cbs: 88, ibs: 1 },
        costTotal: 820,
        unitCost: 82,
      });
      expect(detail.totals.total).to.equal(1089);
      expect((detail.checks ?? []).map((c: { code: string }) => c.code)).to.not.include('REFORM_TAXES_NOT_CHARGED');
      const confirmed = await api().post(`${ED}/confirm/${doc.id}`).set(t.headers());
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      expect((await creditsOf(t, doc.id)).map((c) => [c.tax, c.amount.toFixed(2)])).to.deep.equal([
        ['ICMS', '180.00'],
        ['CBS', '88.00'],
        ['IBS', '1.00'],
      ]);
      expect((await payablesOf(t, doc.id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['1089.00']);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '82.0000000000' });
      expect(await stockMismatches(t)).to.deep.equal([]);
    } finally {
      await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
    }
  });

  it('an alphanumeric supplier’s NF-e and the CT-e that carries it import, list by its key and apportion', async () => {
    const p = await makeProduct(t);
    const issuer = cnpjWithCheckDigits('12ABC34501DE');
    const doc = await importNfe(t, [{ code: 'AN1', quantity: '5', unitPrice: '20.00', productId: p.hash }], { issuer: { cnpj: issuer } });
    expect(doc.accessKey.slice(6, 20)).to.equal(issuer);
    const cteId = await stage(t, t.cte({ total: '10.00', nfeKeys: [doc.accessKey] }));
    const listed = await api().get(`${CTE}/list/${t.filialHashes[0]}`).query({ nfeKey: doc.accessKey }).set(t.headers());
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    expect(listed.body.data.map((c: any) => c.id)).to.deep.equal([cteId]);
    const applied = await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({});
    expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
    const detail = (await api().get(`${ED}/detail/${doc.id}`).set(t.headers())).body;
    // 100.00 of goods + 10.00 of freight (Simples Nacional: no credit) → 22.00 a unit.
    expect(detail.items[0]).to.deep.include({ apportionedFreight: 10, unitCost: 22 });
  });

  it('a transfer from a filial of the company (5152): own stock in at the transfer value net of its ICMS, no payable, ICMS credit, no PIS/COFINS', async () => {
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    try {
      const p = await makeProduct(t);
      const sibling = cnpjWithCheckDigits(`${t.document.slice(0, 8)}0099`);
      // 8 × 25.00 = 200.00, ICMS 12 % 24.00 → 176.00 → 22.00 a unit.
      const doc = await importNfe(
        t,
        [
          {
            code: 'TR1',
            quantity: '8',
            unitPrice: '25.00',
            cfop: '6152',
            productId: p.hash,
            icms: { cst: '00', rate: '12' },
            pisRate: '1.65',
            cofinsRate: '7.6',
          },
        ],
        {
          issuer: { cnpj: sibling },
        },
      );
      const pre = await api().get(`${ED}/confirm-preview/${doc.id}`).set(t.headers());
      expect(pre.status, JSON.stringify(pre.body)).to.equal(200);
      expect(pre.body.blockingProblems).to.deep.equal([]);
      expect(pre.body.lines[0]).to.deep.include({ entryCfop: '2152', operationClass: 'TRANSFER', posts: { stock: 'OWN', payable: false } });
      expect(pre.body.payables).to.deep.equal([]);
      const confirmed = await api().post(`${ED}/confirm/${doc.id}`).set(t.headers());
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '8.0000', averageCost: '22.0000000000' });
      expect(await payablesOf(t, doc.id)).to.deep.equal([]);
      expect((await creditsOf(t, doc.id)).map((c) => [c.tax, c.amount.toFixed(2)])).to.deep.equal([['ICMS', '24.00']]);
    } finally {
      await setTaxRegime(t, 0, 'SIMPLES_NACIONAL');
    }
  });

  it('finNFe 4 with 5918 (our consigned goods returned) is confirmable and posts nothing; with 5209 (a transfer returned) it enters own stock', async () => {
    const p = await makeProduct(t);
    const sibling = cnpjWithCheckDigits(`${t.document.slice(0, 8)}0098`);
    const consigned = await importNfe(t, [{ code: 'CS1', quantity: '3', unitPrice: '10.00', cfop: '5918', productId: p.hash }], {
      purpose: '4',
    });
    const pre = await api().get(`${ED}/confirm-preview/${consigned.id}`).set(t.headers());
    expect(pre.body.blockingProblems).to.deep.equal([]);
    expect(pre.body.lines[0]).to.deep.include({
      entryCfop: '1918',
      operationClass: 'RETURN_OF_OURS',
      posts: { stock: 'NONE', payable: false },
    });
    expect((await api().post(`${ED}/confirm/${consigned.id}`).set(t.headers())).status).to.equal(200);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '0.0000', averageCost: '0.0000000000' });

    const back = await importNfe(t, [{ code: 'TB1', quantity: '4', unitPrice: '12.50', cfop: '5209', productId: p.hash }], {
      purpose: '4',
      issuer: { cnpj: sibling },
    });
    expect((await api().post(`${ED}/confirm/${back.id}`).set(t.headers())).status).to.equal(200);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '4.0000', averageCost: '12.5000000000' });
    expect(await payablesOf(t, back.id)).to.deep.equal([]);
  });

  it('goods held in consignment (5917 → 1917, third-party stock) then sold to us (5114 → 1113): they leave third-party stock and enter own stock, owed', async () => {
    const p = await makeProduct(t);
    const consignor = cnpjWithCheckDigits('443322110001');
    const remessa = await importNfe(t, [{ code: 'CG1', quantity: '6', unitPrice: '15.00', cfop: '5917', productId: p.hash }], {
      issuer: { cnpj: consignor },
    });
    expect((await api().post(`${ED}/confirm/${remessa.id}`).set(t.headers())).status).to.equal(200);
    expect(Number((await thirdPartyBalance(t, 0, p.id))!.quantity.toFixed(4))).to.equal(6);
    const sale = await importNfe(t, [{ code: 'CG1', quantity: '6', unitPrice: '15.00', cfop: '5114', productId: p.hash }], {
      issuer: { cnpj: consignor },
    });
    const pre = await api().get(`${ED}/confirm-preview/${sale.id}`).set(t.headers());
    expect(pre.body.lines[0]).to.deep.include({
      entryCfop: '1113',
      operationClass: 'PURCHASE_RESALE',
      posts: { stock: 'OWN', payable: true },
    });
    const confirmed = await api().post(`${ED}/confirm/${sale.id}`).set(t.headers());
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect(Number((await thirdPartyBalance(t, 0, p.id))!.quantity.toFixed(4))).to.equal(0);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '6.0000', averageCost: '15.0000000000' });
    expect((await payablesOf(t, sale.id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['90.00']);
    // Cancelling the purchase puts the goods back where they were.
    expect((await api().post(`${ED}/cancel/${sale.id}`).set(t.headers()).send({ reason: 'teste' })).status).to.equal(200);
    expect(Number((await thirdPartyBalance(t, 0, p.id))!.quantity.toFixed(4))).to.equal(6);
    expect((await stockOf(t, 0, p.id)).quantity).to.equal('0.0000');
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('the NF-e preview reads the Simples credit of the invoice', async () => {
    const built = await t.nfe({
      issuer: { crt: '1' },
      items: [{ code: 'S', quantity: '2', unitPrice: '50.00', icms: { csosn: '101', creditRate: '1.25' } }],
    });
    const res = await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: built.xml });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.report.valid).to.equal(true);
  });
});
