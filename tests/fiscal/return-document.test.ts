import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { buildReturnDocument, recipientFromParty, returnCfop } from '../../src/modules/fiscal';
import { buildNfeXml } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { signerOf, signNfe } from '../../src/modules/authority/xml/xmldsig';
import { parseNfe } from '../../src/modules/fiscal-xml/nfe/nfe-parser';
import { canValidateXsd, richItem, sampleDocument, sampleItem, xsdErrors } from '../invoices/conformance-support';
import { testCertificate } from '../support/test-certificate';

/*
 * The shared devolução builder (issue 33): from an original NF-e, the returned lines keep the original
 * values and taxes in proportion, cumulatively exact to the cent; CFOPs mapped; refNFe; the XML it
 * becomes validates against PL_010.
 */

const d = (v: string | number) => new Dec(v);
const SUPPLIER = '11222333000181';
const US = '23765766000162';
const header = (number: number) => ({
  number,
  series: 1,
  issuedAt: new Date(),
  emissionType: 1 as const,
  contingency: null,
  randomCode: String(20_000_000 + number),
  tpAmb: '2' as const,
  transport: { mode: 9 as const, volumes: null },
  installments: [],
  paymentType: '90',
  additionalInfo: 'Devolucao',
});

/** A supplier's NF-e to us (two lines: a plain one of 2 units, one with ST, FCP, IPI and IBS/CBS of 4 units), parsed. */
async function supplierNfe() {
  const doc = sampleDocument({ issuerCnpj: SUPPLIER, recipientCnpj: US, items: [sampleItem(1), richItem(2)] });
  const built = buildNfeXml(doc, { ...header(900), paymentType: '01' });
  const cert = testCertificate(SUPPLIER, 'FORNECEDOR LTDA');
  return parseNfe(signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signerOf(cert.privateKeyPem, cert.certificatePem)).xml);
}

describe('Devolução builder (fiscal buildReturnDocument)', () => {
  it('maps the CFOPs of sales and purchases', () => {
    expect(returnCfop('5102', 'SALE', 'INTERNAL')).to.equal('1202');
    expect(returnCfop('6102', 'SALE', 'INTERSTATE')).to.equal('2202');
    expect(returnCfop('5405', 'SALE', 'INTERNAL')).to.equal('1411');
    expect(returnCfop('6404', 'SALE', 'INTERSTATE')).to.equal('2411');
    expect(returnCfop('5102', 'SALE', 'INTERNAL', '60')).to.equal('1411');
    expect(returnCfop('1102', 'PURCHASE', 'INTERNAL')).to.equal('5202');
    expect(returnCfop('2102', 'PURCHASE', 'INTERSTATE')).to.equal('6202');
    expect(returnCfop('1403', 'PURCHASE', 'INTERNAL')).to.equal('5411');
    expect(returnCfop('2403', 'PURCHASE', 'INTERSTATE')).to.equal('6411');
    expect(returnCfop('1551', 'PURCHASE', 'INTERNAL')).to.equal('5553');
    expect(returnCfop('2551', 'PURCHASE', 'INTERSTATE')).to.equal('6553');
    expect(returnCfop('5405', 'PURCHASE', 'INTERNAL')).to.equal('5411');
    expect(returnCfop('5949', 'SALE', 'INTERNAL')).to.equal(null);
  });

  it('a return to the supplier: original values and taxes in proportion, cumulative to the cent; IPI in impostoDevol; refNFe; XSD-valid', async () => {
    const original = await supplierNfe();
    const issuer = { ...sampleDocument().issuer, document: US, name: 'Nossa Loja Ltda' };
    const recipient = recipientFromParty(original.issuer);
    const build = (quantity: number, alreadyReturned: number, entryCfop?: string) =>
      buildReturnDocument({
        original,
        side: 'PURCHASE',
        issuer,
        recipient,
        date: '2026-11-28',
        lines: [{ lineNumber: 2, quantity, alreadyReturned, productId: 7, entryCfop }],
      });
    const first = build(1, 0, '1403');
    expect(first).to.include({ direction: 1, purpose: 4, operation: 'RETURN' });
    expect(first.references).to.deep.equal([original.accessKey]);
    const [i1] = first.items;
    expect(i1.cfop).to.equal('5411');
    expect(i1.unitPrice.toNumber()).to.equal(25);
    expect(i1.grossTotal.toNumber()).to.equal(25);
    expect(i1.discount.toNumber()).to.equal(1.25);
    expect(i1.icms.value.toNumber()).to.equal(4.5);
    expect(i1.icms.st!.value.toNumber()).to.equal(1.8);
    expect(i1.ipi).to.equal(null);
    expect(i1.returnedIpi!.value.toNumber()).to.equal(1.25);
    expect(i1.returnedIpi!.percent.toNumber()).to.equal(25);
    expect(first.totals.vIPIDevol.toNumber()).to.equal(1.25);
    expect(first.totals.vNF.eq(i1.total)).to.equal(true);
    // 1 + 1 + 2 of 4: every value adds up to the original's.
    const parts = [first, build(1, 1), build(2, 2)].map((d) => d.items[0]);
    const o = original.items[1];
    const total = (f: (i: (typeof parts)[0]) => Dec) => parts.reduce((s, p) => s.plus(f(p)), new Dec(0)).toNumber();
    expect(total((p) => p.grossTotal)).to.equal(o.total.toNumber());
    expect(total((p) => p.icms.value)).to.equal(o.taxes.icms!.value!.toNumber());
    expect(total((p) => p.icms.st!.value)).to.equal(o.taxes.icms!.stValue!.toNumber());
    expect(total((p) => p.returnedIpi!.value)).to.equal(o.taxes.ipi!.value!.toNumber());
    expect(total((p) => p.pis.value)).to.equal(o.taxes.pis!.value!.toNumber());
    expect(() => build(3, 2)).to.throw(/exceed/);
    expect(() =>
      buildReturnDocument({
        original,
        side: 'SALE',
        issuer,
        recipient,
        date: '2026-11-28',
        lines: [{ lineNumber: 1, quantity: 1, productId: 1 }],
      }),
    ).to.throw(/not issued by this filial/);

    if (canValidateXsd) {
      const built = buildNfeXml(first, header(11));
      const cert = testCertificate(US, 'NOSSA LOJA LTDA');
      const signed = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signerOf(cert.privateKeyPem, cert.certificatePem)).xml;
      expect(xsdErrors(signed, 'nfe_v4.00.xsd'), signed).to.equal(null);
      const back = await parseNfe(signed);
      expect(back.ide.referencedKeys).to.deep.equal([original.accessKey]);
      expect(back.items[0].taxes.ipiReturned!.toNumber()).to.equal(1.25);
    }
  });

  it('a sale of goods with the ST retained earlier (CST 60) returned: the retained groups come back in proportion (MOC 7.0 N26–N27d); XSD-valid', async () => {
    // Our sale of 4 units declaring vBCSTRet 480.00, pST 20, vICMSSubstituto 48.00, vICMSSTRet 38.40, FCP-ST 480.00, 2, 9.60.
    const retained = {
      base: d('480.00'),
      rate: d(20),
      substituteValue: d('48.00'),
      value: d('38.40'),
      fcpBase: d('480.00'),
      fcpRate: d(2),
      fcpValue: d('9.60'),
      entryDocumentId: 1,
      source: 'test',
    };
    const item = sampleItem(1, {
      cfop: '5405',
      quantity: d(4),
      unitPrice: d(150),
      grossTotal: d(600),
      taxableQuantity: d(4),
      taxableUnitPrice: d(150),
      total: d(600),
      icms: { ...sampleItem(1).icms, cst: '60', modBC: null, base: d(0), rate: d(0), value: d(0), retained },
    });
    const doc = sampleDocument({ issuerCnpj: US, recipientCnpj: SUPPLIER, items: [item] });
    const built = buildNfeXml({ ...doc, totals: { ...doc.totals, vBC: d(0), vICMS: d(0), vFCPSTRet: d('9.60') } }, header(901));
    const cert = testCertificate(US, 'NOSSA LOJA LTDA');
    const signed = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signerOf(cert.privateKeyPem, cert.certificatePem)).xml;
    if (canValidateXsd) expect(xsdErrors(signed, 'nfe_v4.00.xsd'), signed).to.equal(null);
    const original = await parseNfe(signed);
    expect(original.items[0].taxes.icms).to.deep.include({
      stRetainedBase: d('480.00'),
      stRetainedRate: d('20.0000'),
      stRetainedSubstitute: d('48.00'),
      fcpStRetainedValue: d('9.60'),
    });
    const issuer = { ...doc.issuer, document: US };
    const back = buildReturnDocument({
      original,
      side: 'SALE',
      issuer,
      recipient: recipientFromParty(original.recipient!),
      date: '2026-11-28',
      lines: [{ lineNumber: 1, quantity: 1, productId: 1 }],
    });
    const [r] = back.items;
    // 1 of 4: 120.00, 20, 12.00, 9.60, 120.00, 2, 2.40; CFOP 1411 (devolução of goods with ST).
    expect([r.cfop, r.icms.cst]).to.deep.equal(['1411', '60']);
    const g = r.icms.retained!;
    expect([g.base, g.rate, g.substituteValue, g.value, g.fcpBase, g.fcpRate, g.fcpValue].map((v) => v!.toNumber())).to.deep.equal([
      120, 20, 12, 9.6, 120, 2, 2.4,
    ]);
    expect(back.totals.vFCPSTRet.toNumber()).to.equal(2.4);
    if (canValidateXsd) {
      const out = buildNfeXml(back, header(12));
      const resigned = signNfe(out.xml, out.accessKey, out.canonicalInfNFe, signerOf(cert.privateKeyPem, cert.certificatePem)).xml;
      expect(xsdErrors(resigned, 'nfe_v4.00.xsd'), resigned).to.equal(null);
      expect(resigned).to.contain(
        '<vBCSTRet>120.00</vBCSTRet><pST>20.0000</pST><vICMSSubstituto>12.00</vICMSSubstituto><vICMSSTRet>9.60</vICMSSTRet><vBCFCPSTRet>120.00</vBCFCPSTRet><pFCPSTRet>2.0000</pFCPSTRet><vFCPSTRet>2.40</vFCPSTRet>',
      );
    }
  });
});
