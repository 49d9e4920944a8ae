import fs from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { expect } from 'chai';
import { SignedXml } from 'xml-crypto';
import { verifyNfeSignature } from '../../../src/modules/fiscal-xml/signature';
import {
  signatureWorkerRunning,
  stopSignatureWorker,
  verifyNfeSignatureOffThread,
} from '../../../src/modules/inbound-nfe/xml/signature-pool';
import { buildNfe, DEFAULT_ISSUER_CNPJ, signNfeXml } from '../../support/nfe-builder';
import { testCertificate } from '../../support/test-certificate';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/nfe');
const RECIPIENT = { cnpj: '23765766000162' };
const idOf = (xml: string) => /Id="(NFe\d+)"/.exec(xml)![1];

/** xml-crypto's own verdict (its checkSignature) on the `index`-th Signature, for a differential check of ours. */
function xmlCryptoVerdict(xml: string, index = 0): boolean | 'absent' {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const sig = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[index];
  if (!sig) return 'absent';
  const sx = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  sx.loadSignature(sig as never);
  try {
    return sx.checkSignature(xml);
  } catch {
    return false;
  }
}

describe('nfe/xml: XMLDSig signature', () => {
  const built = buildNfe({
    recipient: RECIPIENT,
    items: [
      { quantity: '2', unitPrice: '10.50' },
      { quantity: '1', unitPrice: '3' },
    ],
  });

  it('a document signed with the test certificate is VALID (digest and SignatureValue)', () => {
    const r = verifyNfeSignature(built.xml, idOf(built.xml));
    expect(r).to.include({ status: 'VALID', digestValid: true, signatureValid: true, reason: null });
    expect(r.signatureAlgorithm).to.equal('http://www.w3.org/2000/09/xmldsig#rsa-sha1');
    expect(r.digestAlgorithm).to.equal('http://www.w3.org/2000/09/xmldsig#sha1');
    expect(r.digestValue).to.equal(built.digestValue);
    // The builder signs as the issuer, with a certificate of the suite's test root.
    expect(r.certificate!.subject).to.contain('FORNECEDOR TESTE LTDA:');
    expect(r.certificate!.issuer).to.contain('AC Raiz de Teste');
  });

  it('a value changed after signing fails the digest; the SignatureValue still verifies', () => {
    const tampered = built.xml.replace('<vUnCom>10.5000000000</vUnCom>', '<vUnCom>1.5000000000</vUnCom>');
    expect(tampered).to.not.equal(built.xml);
    expect(verifyNfeSignature(tampered, idOf(tampered))).to.include({ status: 'INVALID', digestValid: false, signatureValid: true });
  });

  it('a changed DigestValue breaks both: digest mismatch and SignatureValue over the changed SignedInfo', () => {
    const tampered = built.xml.replace(/<DigestValue>[^<]+<\/DigestValue>/, '<DigestValue>AAAAAAAAAAAAAAAAAAAAAAAAAAA=</DigestValue>');
    expect(verifyNfeSignature(tampered, idOf(tampered))).to.include({ status: 'INVALID', digestValid: false, signatureValid: false });
  });

  it('a SignatureValue of another key fails the signature, not the digest', () => {
    const other = signNfeXml(/<NFe[\s\S]*<\/NFe>/.exec(built.xml)![0].replace(/<Signature[\s\S]*<\/Signature>/, ''), {
      cnpj: '99888777000166',
      name: 'OUTRA',
    });
    const foreignValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(other)![1];
    const tampered = built.xml.replace(/<SignatureValue>[^<]+<\/SignatureValue>/, `<SignatureValue>${foreignValue}</SignatureValue>`);
    expect(verifyNfeSignature(tampered, idOf(tampered))).to.include({ status: 'INVALID', digestValid: true, signatureValid: false });
  });

  it('re-signing with another certificate is VALID (trust is the embedded certificate, no chain)', () => {
    const nfe = /<NFe[\s\S]*<\/NFe>/.exec(built.xml)![0].replace(/<Signature[\s\S]*<\/Signature>/, '');
    const resigned = built.xml.replace(/<NFe[\s\S]*<\/NFe>/, signNfeXml(nfe, { cnpj: '99888777000166', name: 'OUTRA' }));
    const r = verifyNfeSignature(resigned, idOf(resigned));
    expect(r.status).to.equal('VALID');
    expect(r.certificate!.subject).to.contain('OUTRA:99888777000166');
  });

  it('no Signature → ABSENT', () => {
    const unsigned = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }], unsigned: true });
    expect(verifyNfeSignature(unsigned.xml, idOf(unsigned.xml)).status).to.equal('ABSENT');
  });

  it('a reference to another element, or a duplicated Id, is INVALID (no signature wrapping)', () => {
    const id = idOf(built.xml);
    expect(verifyNfeSignature(built.xml, 'NFe00000000000000000000000000000000000000000000').status).to.equal('INVALID');
    const dup = built.xml.replace('<infAdic>', `<infAdic><obsCont Id="${id}"/>`);
    const r = verifyNfeSignature(dup, id);
    expect(r.status).to.equal('INVALID');
    expect(r.reason).to.match(/exactly one infNFe/);
  });

  it('reads the embedded certificate the builder put in KeyInfo', () => {
    expect(built.xml).to.contain(testCertificate(DEFAULT_ISSUER_CNPJ, 'FORNECEDOR TESTE LTDA').certificateBase64);
  });

  it("agrees with xml-crypto's SignedXml.checkSignature (builder documents and tampered ones)", () => {
    const tampered = built.xml.replace('<qCom>1.0000</qCom>', '<qCom>2.0000</qCom>');
    for (const xml of [built.xml, tampered]) {
      expect(verifyNfeSignature(xml, idOf(xml)).status === 'VALID').to.equal(xmlCryptoVerdict(xml));
    }
  });

  (fs.existsSync(FIXTURES) ? it : it.skip)('agrees with xml-crypto on every fixture NF-e (real signatures)', () => {
    const files = [
      ...fs.readdirSync(FIXTURES).filter((f) => /^procNFe-.*\.xml$/.test(f)),
      ...fs.readdirSync(path.join(FIXTURES, 'edge')).map((f) => `edge/${f}`),
      ...fs.readdirSync(path.join(FIXTURES, 'reforma')).map((f) => `reforma/${f}`),
    ];
    expect(files.length).to.be.greaterThan(10);
    for (const f of files) {
      const xml = fs.readFileSync(path.join(FIXTURES, f), 'utf8');
      const ours = verifyNfeSignature(xml, idOf(xml)).status;
      const theirs = xmlCryptoVerdict(xml);
      expect(ours, f).to.equal(theirs === 'absent' ? 'ABSENT' : theirs ? 'VALID' : 'INVALID');
    }
  });
});

describe('nfe/xml: a protocol signed by the authority too (two Signature elements)', () => {
  const signed = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '3', unitPrice: '7.25' }], protocolSigned: true });
  const id = idOf(signed.xml);
  const protocolPart = (xml: string) => /<protNFe[\s\S]*<\/protNFe>/.exec(xml)![0];
  const inProtocol = (xml: string, from: string, to: string) => xml.replace(protocolPart(xml), protocolPart(xml).replace(from, to));

  it("the invoice's signature decides; the protocol's is verified and reported apart", () => {
    expect((signed.xml.match(/<Signature /g) ?? []).length).to.equal(2);
    const r = verifyNfeSignature(signed.xml, id);
    expect(r).to.include({ status: 'VALID', digestValid: true, signatureValid: true });
    expect(r.protocolSignature).to.include({ status: 'VALID', digestValid: true, signatureValid: true, reason: null });
    expect(r.protocolSignature!.certificate!.subject).to.contain('SEFAZ AUTORIZADORA TESTE');
    expect(r.certificate!.subject).to.not.contain('SEFAZ');
  });

  it('agrees with xml-crypto on both signatures', () => {
    expect(xmlCryptoVerdict(signed.xml, 0)).to.equal(true);
    expect(xmlCryptoVerdict(signed.xml, 1)).to.equal(true);
    const tampered = inProtocol(signed.xml, 'Autorizado o uso da NF-e', 'Autorizado o uso da NF-e!');
    expect(xmlCryptoVerdict(tampered, 1)).to.equal(false);
    expect(verifyNfeSignature(tampered, id).protocolSignature!.status).to.equal('INVALID');
  });

  it('a protocol changed after the authority signed it: the protocol signature fails, the invoice stays VALID', () => {
    const r = verifyNfeSignature(inProtocol(signed.xml, '<cStat>100</cStat>', '<cStat>150</cStat>'), id);
    expect(r.status).to.equal('VALID');
    expect(r.protocolSignature).to.include({ status: 'INVALID', digestValid: false });
    expect(r.protocolSignature!.reason).to.match(/digest of infProt/);
  });

  it("a protocol signature that references infNFe instead of infProt is not the protocol's", () => {
    const protId = /<infProt Id="([^"]+)"/.exec(signed.xml)![1];
    const r = verifyNfeSignature(inProtocol(signed.xml, `URI="#${protId}"`, `URI="#${id}"`), id);
    expect(r.status).to.equal('VALID');
    expect(r.protocolSignature!.status).to.equal('INVALID');
    expect(r.protocolSignature!.reason).to.match(/not #ID/);
  });

  it('only the protocol signed: the NF-e has no signature of its own (ABSENT)', () => {
    const unsigned = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }], unsigned: true, protocolSigned: true });
    const r = verifyNfeSignature(unsigned.xml, idOf(unsigned.xml));
    expect(r.status).to.equal('ABSENT');
    expect(r.reason).to.match(/only the protocol is signed/);
    expect(r.protocolSignature!.status).to.equal('VALID');
  });

  describe('signature wrapping is still refused', () => {
    const own = /<Signature [\s\S]*?<\/Signature>/.exec(signed.xml)![0];

    it('a copy of the signature inside infNFe', () => {
      const r = verifyNfeSignature(signed.xml.replace('<infAdic>', `<infAdic>${own}`), id);
      expect(r.status).to.equal('INVALID');
      expect(r.reason).to.match(/inside infAdic is not where the layout allows one/);
    });

    it('a second signature in NFe', () => {
      const r = verifyNfeSignature(signed.xml.replace('</NFe>', `${own}</NFe>`), id);
      expect(r).to.include({ status: 'INVALID', reason: 'More than one Signature in NFe' });
    });

    it('a signature beside NFe in nfeProc, or a second one in protNFe', () => {
      expect(verifyNfeSignature(signed.xml.replace('<protNFe', `${own}<protNFe`), id).status).to.equal('INVALID');
      const twice = signed.xml.replace('</protNFe>', `${own}</protNFe>`);
      const r = verifyNfeSignature(twice, id);
      expect(r.status).to.equal('VALID');
      expect(r.protocolSignature).to.include({ status: 'INVALID', reason: 'protNFe carries more than one Signature' });
    });

    it('the signed infNFe kept under its Id elsewhere while another infNFe is read', () => {
      const infNFe = /<infNFe[\s\S]*<\/infNFe>/.exec(signed.xml)![0];
      const wrapped = signed.xml
        .replace('</protNFe>', `</protNFe><Object>${infNFe}</Object>`)
        .replace('<qCom>3.0000</qCom>', '<qCom>30.0000</qCom>');
      const r = verifyNfeSignature(wrapped, id);
      expect(r.status).to.equal('INVALID');
      expect(r.reason).to.match(/exactly one infNFe/);
    });
  });
});

describe('nfe/xml: signature checks off the request thread', () => {
  after(() => stopSignatureWorker());

  it('the worker gives the same outcome as the in-process check (valid, tampered, absent)', async () => {
    const built = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '2', unitPrice: '10.50' }] });
    const tampered = built.xml.replace('<qCom>2.0000</qCom>', '<qCom>3.0000</qCom>');
    const unsigned = buildNfe({ recipient: RECIPIENT, items: [{ quantity: '1', unitPrice: '1' }], unsigned: true }).xml;
    for (const xml of [built.xml, tampered, unsigned]) {
      // minBytes 0 forces the worker even for a small document.
      expect(await verifyNfeSignatureOffThread(xml, idOf(xml), 0)).to.deep.equal(verifyNfeSignature(xml, idOf(xml)));
    }
    expect(signatureWorkerRunning()).to.equal(true);
  });

  it('concurrent checks each get their own answer', async () => {
    const docs = [1, 2, 3, 4].map(
      (n) => buildNfe({ recipient: RECIPIENT, number: 9000 + n, items: [{ quantity: String(n), unitPrice: '1' }] }).xml,
    );
    docs[2] = docs[2].replace('<qCom>3.0000</qCom>', '<qCom>9.0000</qCom>');
    const results = await Promise.all(docs.map((xml) => verifyNfeSignatureOffThread(xml, idOf(xml), 0)));
    expect(results.map((r) => r.status)).to.deep.equal(['VALID', 'VALID', 'INVALID', 'VALID']);
  });

  it('a DOCTYPE is never handed to the DOM parser', () => {
    const r = verifyNfeSignature('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 'NFe1');
    expect(r).to.include({ status: 'INVALID' });
  });
});
