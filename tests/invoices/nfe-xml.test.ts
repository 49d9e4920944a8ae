import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { hasValidCheckDigit } from '../../src/modules/fiscal-xml/access-key';
import { verifyNfeSignature } from '../../src/modules/fiscal-xml/signature';
import { buildNfeXml, fixed, NfeHeader } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { signerOf, signNfe } from '../../src/modules/authority/xml/xmldsig';
import { testCertificate } from '../support/test-certificate';
import { canValidateXsd, canVerifySignature, richItem, sampleDocument, sampleItem, xmlsecErrors, xsdErrors } from './conformance-support';

/*
 * The emitted NF-e against the official PL_010_V1.30 schemas (xmllint) and its signature against an
 * independent verifier (xmlsec1) and the service's own inbound verifier.
 */

const header = (over: Partial<NfeHeader> = {}): NfeHeader => ({
  number: 123,
  series: 1,
  issuedAt: new Date(),
  emissionType: 1,
  contingency: null,
  randomCode: '12345678',
  tpAmb: '2',
  transport: { mode: 9, volumes: null },
  installments: [],
  paymentType: '01',
  additionalInfo: 'Val Aprox Tributos R$ 6,30 (30,00%) Fonte: IBPT',
  ...over,
});

const cert = testCertificate('11222333000181', 'MERCADO BOM PRECO LTDA');
const signer = signerOf(cert.privateKeyPem, cert.certificatePem);

function signed(doc = sampleDocument(), h = header()) {
  const built = buildNfeXml(doc, h);
  return { ...built, signed: signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signer).xml };
}

describe('Outbound NF-e XML (build and sign)', () => {
  it('formats decimals exactly as decimal.js toFixed (the fast path pads, anything to round falls back)', () => {
    const values = [
      '0',
      '-0',
      '1',
      '-1',
      '0.5',
      '0.005',
      '0.015',
      '-0.005',
      '99.995',
      '-99.995',
      '123456789012345.678',
      '1e-12',
      '-1e-12',
      '0.0000001',
      '1e30',
      '12.3456789012345',
    ];
    for (let i = 0; i < 2000; i++) values.push(String((((i * 7919) % 1000) - 300) * 10 ** ((i % 16) - 8)));
    for (const v of values)
      for (const places of [2, 3, 4, 10]) expect(fixed(new Dec(v), places), `${v} to ${places}`).to.equal(new Dec(v).toFixed(places));
  });

  it('builds a key with a valid check digit and signs what the inbound verifier accepts', () => {
    const s = signed();
    expect(hasValidCheckDigit(s.accessKey)).to.equal(true);
    expect(s.accessKey.slice(20, 34)).to.equal('55001000000123');
    expect(verifyNfeSignature(s.signed, `NFe${s.accessKey}`).status).to.equal('VALID');
    expect(verifyNfeSignature(s.signed.replace('<vNF>', '<vNF>1'), `NFe${s.accessKey}`).status).to.not.equal('VALID');
  });

  (canValidateXsd ? describe : describe.skip)('xmllint against PL_010_V1.30', () => {
    it('a plain sale, a sale with every group (ST, FCP, IPI, DIFAL, IBS/CBS), installments, transport and contingency', () => {
      const docs = [
        signed(),
        signed(
          sampleDocument({ items: [richItem(1), sampleItem(2)] }),
          header({
            installments: [
              { number: '001', dueDate: '2099-01-10', amount: new Dec('60.00') },
              { number: '002', dueDate: '2099-02-10', amount: new Dec('85.20') },
            ],
            paymentType: '15',
            transport: { mode: 0, volumes: { quantity: 2, kind: 'CAIXA', grossWeight: new Dec('10.5'), netWeight: new Dec('10') } },
          }),
        ),
        signed(
          sampleDocument({
            items: [
              sampleItem(1, {
                icms: {
                  origin: 0,
                  cst: null,
                  csosn: '102',
                  modBC: null,
                  baseReduction: null,
                  base: new Dec(0),
                  rate: new Dec(0),
                  value: new Dec(0),
                  fcpBase: null,
                  fcpRate: null,
                  fcpValue: null,
                  st: null,
                  simplesCreditRate: null,
                  simplesCreditValue: null,
                },
                pis: { cst: '07', base: new Dec(0), rate: new Dec(0), value: new Dec(0) },
                cofins: { cst: '49', base: new Dec(0), rate: new Dec(0), value: new Dec(0) },
              }),
            ],
          }),
          header({ emissionType: 6, contingency: { at: new Date(), reason: 'SEFAZ de origem fora do ar (cStat 108)' } }),
        ),
      ];
      for (const s of docs) {
        expect(xsdErrors(s.signed, 'nfe_v4.00.xsd'), s.signed).to.equal(null);
      }
    });
  });

  (canVerifySignature ? describe : describe.skip)('xmlsec1', () => {
    it('verifies the signature and rejects a changed document', () => {
      const s = signed(sampleDocument({ items: [richItem(1)] }));
      expect(xmlsecErrors(s.signed)).to.equal(null);
      expect(xmlsecErrors(s.signed.replace('<vNF>', '<vNF>1'))).to.not.equal(null);
    });
  });
});
