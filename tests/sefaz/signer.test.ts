import { expect } from 'chai';
import { SignedXml } from 'xml-crypto';
import { Dec } from '../../src/core/decimal';
import {
  buildInutNFe,
  canonicalInfInut,
  canonicalText,
  extractElementText,
  IssuerEvent,
  issuerEventFields,
  NFE_NS,
  signatureFor,
  signedEvento,
  signerOf,
  signNfe,
  verifyEnvelopedSignatures,
  voidId,
} from '../../src/modules/authority';
import { buildSignedEnvEvento } from '../../src/modules/authority/xml/events';
import { verifyNfeSignature } from '../../src/modules/fiscal-xml';
import { buildNfeXml } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { buildSignedNfce } from '../../src/modules/nfce/nfce-xml';
import { generateNfe, SAMPLE_ITEMS } from '../../src/dev/sefaz-simulator/nfe-generator';
import { canVerifySignature, sampleDocument, xmlsecErrors } from '../invoices/conformance-support';
import { testCertificate } from '../support/test-certificate';

/*
 * Issue 49: one signer (authority/xml/xmldsig.ts) signs every document the service and the simulator
 * send, over the canonical text each builder writes. Its output must be what an independent
 * implementation computes: xmlsec1 (libxml2's C14N) and xml-crypto verify every document type, the
 * project's verifiers accept it, and a changed byte is refused by all of them.
 */

const ISSUER = { cnpj: '11222333000181', name: 'MERCADO "BOM" PRECO & CIA LTDA', uf: 'SP', stateRegistration: '123456789110' };
const cert = testCertificate(ISSUER.cnpj, 'MERCADO BOM PRECO LTDA');
const credentials = { keyPem: cert.privateKeyPem, certPem: cert.certificatePem };
const signer = signerOf(cert.privateKeyPem, cert.certificatePem);
const KEY = '35261211222333000181550010000001231123456780';
// Text with every character C14N treats specially in content (& < > escaped, quotes kept).
const TRICKY = `Devolucao "parcial" d'agua & <outros> itens`;

/** xml-crypto's verdict on the one Signature over `idElement`, independent of the project's verifiers. */
function xmlCryptoVerdict(xml: string): boolean {
  const signature = /<Signature[\s\S]*?<\/Signature>/.exec(xml)![0];
  const v = new SignedXml({ publicCert: cert.certificatePem });
  v.loadSignature(signature);
  try {
    return v.checkSignature(xml);
  } catch {
    return false;
  }
}

const issuerEvent = (over: Partial<IssuerEvent>): IssuerEvent => ({
  tpEvento: '110111',
  cOrgao: '35',
  tpAmb: '2',
  cnpj: ISSUER.cnpj,
  accessKey: KEY,
  at: '2026-12-03T10:00:00-03:00',
  sequence: 1,
  protocol: '135260000000001',
  text: TRICKY,
  ...over,
});

const issuerEvento = (e: IssuerEvent): string => signedEvento(issuerEventFields(e), signer);

const QR = {
  version: 2 as const,
  cscId: 1,
  cscToken: 'TOKEN-CSC-TESTE',
  qrCodeUrl: 'https://qr.example/nfce?x=1&y=2',
  consultUrl: 'https://consulta.example/nfce',
};

/** Every document type, signed by the one signer: [label, text, signed element]. */
const documents: [string, string, 'infNFe' | 'infEvento' | 'infInut'][] = [];
{
  const built = buildNfeXml(sampleDocument(), {
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
    additionalInfo: TRICKY,
  });
  documents.push(['NF-e (buildNfeXml + signNfe)', signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signer).xml, 'infNFe']);
  const nfce = buildSignedNfce(
    sampleDocument(),
    {
      number: 7,
      series: 1,
      issuedAt: new Date(),
      emissionType: 1,
      contingency: null,
      randomCode: '87654321',
      tpAmb: '2',
      payments: [{ tPag: '01', amount: sampleDocument().totals.vNF }],
      change: new Dec(0),
      additionalInfo: TRICKY,
    },
    QR,
    signer,
    null,
  );
  documents.push(['NFC-e (buildSignedNfce)', nfce.signedXml, 'infNFe']);
  documents.push(['issuer cancellation 110111', issuerEvento(issuerEvent({})), 'infEvento']);
  documents.push(['issuer correction letter 110110', issuerEvento(issuerEvent({ tpEvento: '110110', protocol: undefined })), 'infEvento']);
  documents.push([
    'substitution 110112',
    issuerEvento(issuerEvent({ tpEvento: '110112', referencedKey: KEY.replace(/0$/, '1'), appVersion: 'PDV & 1.0' })),
    'infEvento',
  ]);
  const inut = { tpAmb: '2', cUF: '35', year: '26', cnpj: ISSUER.cnpj, model: 55, series: 1, first: 10, last: 12, justification: TRICKY };
  const canonicalInut = canonicalInfInut(inut);
  documents.push(['inutilização', buildInutNFe(canonicalInut, signatureFor(voidId(inut), canonicalInut, signer).signature), 'infInut']);
  for (const event of ['CIENCIA', 'NAO_REALIZADA'] as const) {
    const lot = buildSignedEnvEvento(
      { event, accessKey: KEY, tpAmb: '2', recipientDocument: ISSUER.cnpj, justification: TRICKY },
      credentials,
      '1',
    );
    documents.push([`manifestation ${event} (buildSignedEnvEvento)`, lot.evento, 'infEvento']);
  }
  const note = generateNfe(
    {
      issuer: ISSUER,
      recipient: { cnpj: '60746948000112', name: `DEST ${TRICKY}`, uf: 'SP' },
      items: SAMPLE_ITEMS.slice(0, 2),
      tpAmb: '1',
      number: 9,
      signer: credentials,
    },
    9,
  );
  documents.push(["the simulator's NF-e (generateNfe)", note.xml, 'infNFe']);
  documents.push([
    "the simulator's issuer cancellation (signedEvento)",
    signedEvento(
      {
        tpEvento: '110111',
        accessKey: KEY,
        sequence: 1,
        cOrgao: '35',
        tpAmb: '1',
        author: '12345678909',
        at: '2026-12-03T10:00:00-03:00',
        detail: `<descEvento>Cancelamento</descEvento><xJust>${canonicalText(TRICKY)}</xJust>`,
      },
      signer,
    ),
    'infEvento',
  ]);
}

/** A byte of the signed element's text changed (its tpAmb, every document type has one). */
const tampered = (xml: string) => xml.replace(/<tpAmb>(\d)<\/tpAmb>/, (_m, d: string) => `<tpAmb>${d === '1' ? '2' : '1'}</tpAmb>`);

describe('One signer for every document: xmlsec1 and xml-crypto verify what it signs', function () {
  this.timeout(60_000);

  for (const [label, xml, signed] of documents) {
    it(`${label}: xml-crypto and the project's verifiers accept it; a changed byte is refused`, () => {
      // Right after the signed element (an NFC-e's infNFeSupl sits between, as the layout puts it).
      expect(xml).to.match(new RegExp(`</(${signed}|infNFeSupl)><Signature xmlns="http://www.w3.org/2000/09/xmldsig#">`));
      expect(xmlCryptoVerdict(xml), 'xml-crypto').to.equal(true);
      const standalone = signed === 'infNFe' ? /<NFe[\s\S]*<\/NFe>/.exec(xml)![0] : xml;
      expect(verifyEnvelopedSignatures(standalone, signed).map((c) => c.valid)).to.deep.equal([true]);
      expect(verifyEnvelopedSignatures(standalone, signed, { direct: true }).map((c) => c.valid)).to.deep.equal([true]);
      if (signed === 'infNFe') expect(verifyNfeSignature(xml, /Id="(NFe\d{44})"/.exec(xml)![1]).status).to.equal('VALID');
      expect(tampered(xml)).to.not.equal(xml);
      expect(xmlCryptoVerdict(tampered(xml)), 'xml-crypto, tampered').to.equal(false);
      expect(verifyEnvelopedSignatures(tampered(standalone), signed, { direct: true })[0].valid).to.equal(false);
    });
  }

  it('the signed text is canonical: the event inside its lot is the standalone text the signature covers', () => {
    const lot = buildSignedEnvEvento({ event: 'CIENCIA', accessKey: KEY, tpAmb: '2', recipientDocument: ISSUER.cnpj }, credentials, '1');
    expect(extractElementText(lot.envEvento, 'evento')).to.equal(lot.evento);
    expect(lot.evento.startsWith(`<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="ID210210${KEY}01">`)).to.equal(true);
  });

  (canVerifySignature ? describe : describe.skip)('xmlsec1 (libxml2, independent of xml-crypto)', () => {
    for (const [label, xml, signed] of documents) {
      it(`${label}: xmlsec1 --verify passes, and fails on a changed byte`, () => {
        expect(xmlsecErrors(xml, signed)).to.equal(null);
        expect(xmlsecErrors(tampered(xml), signed)).to.not.equal(null);
      });
    }
  });
});
