import { expect } from 'chai';
import { Dec } from '../../../src/core/decimal';
import { parseNfe } from '../../../src/modules/fiscal-xml/nfe/nfe-parser';
import type { NfeTotals } from '../../../src/modules/fiscal-xml/nfe/nfe-types';
import { checkTotals, expectedInvoiceTotal, reliefDeducted } from '../../../src/modules/inbound-nfe/xml/totals';
import { buildNfe } from '../../support/nfe-builder';

const RECIPIENT = { cnpj: '23765766000162' };
const zeroTotals = (over: Partial<Record<keyof NfeTotals, string>>): NfeTotals => {
  const keys: (keyof NfeTotals)[] = [
    'icmsBase',
    'icms',
    'icmsRelief',
    'fcpUfDest',
    'icmsUfDest',
    'icmsUfRemet',
    'fcp',
    'icmsStBase',
    'icmsSt',
    'fcpSt',
    'fcpStRetained',
    'products',
    'freight',
    'insurance',
    'discount',
    'importTax',
    'ipi',
    'ipiReturned',
    'pis',
    'cofins',
    'otherExpenses',
    'invoice',
    'services',
  ];
  const t = Object.fromEntries(keys.map((k) => [k, new Dec(over[k] ?? 0)])) as unknown as NfeTotals;
  t.estimatedTaxes = null;
  return t;
};

describe('nfe/xml: totals', () => {
  it('vNF = vProd − vDesc − vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol', () => {
    const t = zeroTotals({
      products: '1000',
      discount: '10',
      icmsRelief: '5',
      icmsSt: '20',
      fcpSt: '2',
      freight: '30',
      insurance: '3',
      otherExpenses: '4',
      importTax: '50',
      ipi: '60',
      ipiReturned: '6',
    });
    expect(expectedInvoiceTotal(t, t.icmsRelief).toFixed(2)).to.equal('1160.00');
  });

  it('adds services (ISSQNtot/vServ) when present', () => {
    expect(expectedInvoiceTotal(zeroTotals({ products: '100', services: '50' }), new Dec(0)).toFixed(2)).to.equal('150.00');
  });

  it('a builder document reconciles: items sum to vProd and the formula gives vNF', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      items: [
        {
          quantity: '3',
          unitPrice: '19.99',
          discount: '0.97',
          freight: '1.50',
          insurance: '0.25',
          otherExpenses: '0.10',
          icms: { cst: '10', rate: '12', stMva: '35', stRate: '18' },
          ipiRate: '10',
        },
        { quantity: '1.5', unitPrice: '7.3333333333', icms: { cst: '00', rate: '18' } },
      ],
    });
    const nfe = await parseNfe(built.xml);
    const t = checkTotals(nfe);
    expect(t.productsMatch).to.equal(true);
    expect(t.chargeMismatches).to.deep.equal([]);
    expect(t.invoiceMatches).to.equal(true);
    expect(t.expectedInvoice.toFixed(2)).to.equal(built.totals.vNF);
  });

  it('reports an item total that does not reach ICMSTot/vProd, and a vNF off the formula', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      items: [
        { quantity: '1', unitPrice: '10' },
        { quantity: '1', unitPrice: '5' },
      ],
    });
    const nfe = await parseNfe(built.xml.replace('<vProd>15.00</vProd>', '<vProd>16.00</vProd>'));
    const t = checkTotals(nfe);
    expect(t.productsMatch).to.equal(false);
    expect(t.itemSums.products.toFixed(2)).to.equal('15.00');
    expect(t.invoiceMatches).to.equal(false);
    expect(t.expectedInvoice.toFixed(2)).to.equal('16.00');
  });

  it('items with indTot = 0 do not count in vProd', async () => {
    const built = buildNfe({
      recipient: RECIPIENT,
      items: [
        { quantity: '1', unitPrice: '10' },
        { quantity: '1', unitPrice: '5' },
      ],
    });
    const xml = built.xml.replace(/(<det nItem="2">[\s\S]*?)<indTot>1<\/indTot>/, '$1<indTot>0</indTot>');
    const nfe = await parseNfe(xml);
    expect(nfe.items[1].countsInTotal).to.equal(false);
    expect(checkTotals(nfe).itemSums.products.toFixed(2)).to.equal('10.00');
  });

  it('names the charges whose item sums differ from ICMSTot', async () => {
    const built = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '10', freight: '2.00' }] });
    const nfe = await parseNfe(built.xml.replace(/<vFrete>2.00<\/vFrete>(<vSeg>)/, '<vFrete>3.00</vFrete>$1'));
    expect(checkTotals(nfe).chargeMismatches.map((m) => m.field)).to.deep.equal(['freight']);
  });

  it('ICMS relief: indDeduzDeson on items decides what is deducted; without the flag the whole vICMSDeson is', async () => {
    const nfe = await parseNfe(
      buildNfe({
        recipient: RECIPIENT,
        items: [
          { quantity: '1', unitPrice: '100' },
          { quantity: '1', unitPrice: '100' },
        ],
      }).xml,
    );
    nfe.totals.icmsRelief = new Dec('12');
    expect(reliefDeducted(nfe.items, nfe.totals).toFixed(2)).to.equal('12.00');
    nfe.items[0].taxes.icms!.reliefValue = new Dec('7');
    nfe.items[0].taxes.icms!.reliefDeducted = true;
    nfe.items[1].taxes.icms!.reliefValue = new Dec('5');
    nfe.items[1].taxes.icms!.reliefDeducted = false;
    expect(reliefDeducted(nfe.items, nfe.totals).toFixed(2)).to.equal('7.00');
  });
});
