import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NFE_NS } from '../../src/modules/authority/xml/xml-text';
import { verifyEnvelopedSignatures } from '../../src/modules/authority/xml/xmldsig';
import { signEnveloped } from '../support/xml-crypto-signer';
import { buildConsSitNFe, buildEnviNFe } from '../../src/modules/authority';
import { AuthoritySimulator } from '../../src/dev/sefaz-simulator/simulator';
import { generateNfe, SAMPLE_ITEMS } from '../../src/dev/sefaz-simulator/nfe-generator';
import { testCertificate } from '../support/test-certificate';
import { soapMessage } from '../../src/dev/sefaz-simulator/request-tree';

/*
 * Issue 51: the simulator establishes a valid signature with node:crypto (verifyEnvelopedSignatures
 * with `direct`) and asks xml-crypto otherwise. Whatever the document, both ways must answer the
 * same — valid or not, and the same reason. And its state file, now written in the background, is
 * complete once stop() returns.
 */

const ISSUER = { cnpj: '11222333000181', name: 'MERCADO BOM PRECO LTDA', uf: 'SP', stateRegistration: '123456789110' };
const cert = testCertificate(ISSUER.cnpj, ISSUER.name);
const other = testCertificate('33000167000101', 'OUTRA EMPRESA LTDA');
const signer = { keyPem: cert.privateKeyPem, certPem: cert.certificatePem };

function signedNfe(n = 1001): string {
  const g = generateNfe(
    {
      issuer: ISSUER,
      recipient: { cnpj: '60746948000112', name: 'DEST', uf: 'SP' },
      items: SAMPLE_ITEMS.slice(0, 2),
      tpAmb: '2',
      number: n,
      signer,
    },
    n,
  );
  return /<NFe[\s\S]*<\/NFe>/.exec(g.xml)![0];
}

const same = (xml: string, name: 'infNFe' | 'infEvento' = 'infNFe') => {
  const a = verifyEnvelopedSignatures(xml, name, { direct: true });
  const b = verifyEnvelopedSignatures(xml, name);
  expect(a).to.deep.equal(b);
  return b.map((c) => c.valid);
};

describe('Simulator signature check: node:crypto for the plain valid case, xml-crypto otherwise, same answers', function () {
  this.timeout(60_000);
  const nfe = signedNfe();
  const key = /Id="NFe(\d{44})"/.exec(nfe)![1];

  it('a signed NF-e verifies, standalone and inside its lot', () => {
    expect(same(nfe)).to.deep.equal([true]);
    expect(same(buildEnviNFe(nfe, '1'))).to.deep.equal([true]);
  });

  it('a changed byte of infNFe, of SignatureValue, of DigestValue or of SignedInfo is refused with xml-crypto’s reason', () => {
    expect(same(nfe.replace('<natOp>VENDA DE MERCADORIA</natOp>', '<natOp>VENDA DE MERCADORIb</natOp>'))).to.deep.equal([false]);
    const sv = /<SignatureValue>([^<]+)</.exec(nfe)![1];
    expect(same(nfe.replace(sv, `${sv[0] === 'A' ? 'B' : 'A'}${sv.slice(1)}`))).to.deep.equal([false]);
    const dv = /<DigestValue>([^<]+)</.exec(nfe)![1];
    expect(same(nfe.replace(dv, `${dv[0] === 'A' ? 'B' : 'A'}${dv.slice(1)}`))).to.deep.equal([false]);
    expect(same(nfe.replace('<SignedInfo>', '<SignedInfo >').replace('</SignedInfo>', ' </SignedInfo>'))).to.deep.equal([false]);
  });

  it('another certificate in KeyInfo, the envelope’s namespaces around it, a second element with the Id: refused', () => {
    expect(same(nfe.replace(/<X509Certificate>[^<]+</, `<X509Certificate>${other.certificateBase64}<`))).to.deep.equal([false]);
    const soap = `<soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>${nfe.replace(`<NFe xmlns="${NFE_NS}">`, '<NFe>')}</soap12:Body></soap12:Envelope>`;
    expect(verifyEnvelopedSignatures(soap, 'infNFe', { direct: true })).to.deep.equal(verifyEnvelopedSignatures(soap, 'infNFe'));
    expect(same(nfe.replace('</NFe>', `<infAdic Id="NFe${key}"/></NFe>`))).to.deep.equal([false]);
    expect(same(nfe.replace('</NFe>', `<x id="NFe${key}"/></NFe>`))).to.deep.equal([false]);
    expect(same(nfe.replace('</NFe>', '<x Id="outro" ID="NFe"/></NFe>'))).to.deep.equal([true]);
  });

  it('what C14N or xml-crypto ignore is ignored both ways: a comment in infNFe, line breaks in SignatureValue, layout between the Signature parts', () => {
    expect(same(nfe.replace('<natOp>', '<!-- nota --><natOp>'))).to.deep.equal([true]);
    const sv = /<SignatureValue>([^<]+)</.exec(nfe)![1];
    expect(same(nfe.replace(sv, sv.match(/.{1,76}/g)!.join('\n')))).to.deep.equal([true]);
    expect(same(nfe.replace('</SignedInfo><SignatureValue>', '</SignedInfo>\n  <SignatureValue>'))).to.deep.equal([true]);
  });

  it('line endings, whitespace in attributes, character references, CDATA, a processing instruction: both parsers (xml-crypto has its own xmldom) agree', () => {
    const docs = [
      '<a>x\r\ny\rz</a>',
      '<a b="x\ty\nz\r\nw">x</a>',
      '<a b="&#9;&#10;&#13;">&#13;x&amp;&gt;</a>',
      '<a><![CDATA[x<y\r\n]]></a>',
      '<?pi x?><a>x</a>',
    ].map((inner) => signEnveloped(`<NFe xmlns="${NFE_NS}"><infNFe Id="NFe1" versao="4.00">${inner}</infNFe></NFe>`, 'infNFe', signer));
    for (const signed of docs) {
      for (const variant of [signed, signed.replace(/\r\n/g, '\n'), signed.replace(/\n/g, '\r\n'), signed.replace(/b="x y/, 'b="x\ty')]) {
        expect(same(variant)).to.deep.equal([true]);
      }
    }
  });

  it('two signatures, a Signature inside infNFe: xml-crypto decides', () => {
    const twice = `<lote xmlns="${NFE_NS}">${nfe.replace(`<NFe xmlns="${NFE_NS}">`, '<NFe>')}${signedNfe(1002).replace(`<NFe xmlns="${NFE_NS}">`, '<NFe>')}</lote>`;
    expect(verifyEnvelopedSignatures(twice, 'infNFe', { direct: true })).to.deep.equal(verifyEnvelopedSignatures(twice, 'infNFe'));
    const sig = /<Signature[\s\S]*<\/Signature>/.exec(nfe)![0];
    same(nfe.replace('</infNFe>', `${sig}</infNFe>`));
  });

  it('an event signed by the service’s signer verifies both ways, and a changed one is refused both ways', () => {
    const evento = signEnveloped(
      `<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="ID110111${key}01"><cOrgao>35</cOrgao><tpAmb>2</tpAmb><CNPJ>${ISSUER.cnpj}</CNPJ><chNFe>${key}</chNFe><dhEvento>2026-12-03T10:00:00-03:00</dhEvento><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>Cancelamento</descEvento><nProt>135260000000001</nProt><xJust>Venda cancelada pelo cliente</xJust></detEvento></infEvento></evento>`,
      'infEvento',
      signer,
    );
    expect(same(evento, 'infEvento')).to.deep.equal([true]);
    expect(same(evento.replace('<nSeqEvento>1<', '<nSeqEvento>2<'), 'infEvento')).to.deep.equal([false]);
  });
});

describe('Simulator state file: written in the background, complete when stop() returns', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-state-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('notes authorized right before stop() are in the file, and a simulator started on it knows them', async () => {
    const stateFile = path.join(dir, 'state.json');
    const sim = new AuthoritySimulator({ stateFile });
    await sim.start();
    const keys: string[] = [];
    for (let n = 2001; n <= 2005; n++) {
      const nfe = signedNfe(n);
      keys.push(/Id="NFe(\d{44})"/.exec(nfe)![1]);
      expect(
        /<infProt>[\s\S]*<cStat>(\d+)</.exec(sim.issuer.authorize(buildEnviNFe(nfe, String(n)), null, false).message ?? '')?.[1],
      ).to.equal('100');
    }
    await sim.stop();
    const saved = JSON.parse(fs.readFileSync(`${stateFile}.issuer.json`, 'utf8')) as { docs: Record<string, unknown> };
    expect(Object.keys(saved.docs)).to.include.members(keys);
    // The recipient's side (the DF-e stream fed by the authorization) is in its own file too.
    expect(
      Object.keys((JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { invoices: Record<string, unknown> }).invoices),
    ).to.include.members(keys);
    const again = new AuthoritySimulator({ stateFile });
    for (const k of keys)
      expect(/<cStat>(\d+)</.exec(again.issuer.situation(soapMessage(buildConsSitNFe('2', k), 'consSitNFe'), false))?.[1]).to.equal('100');
    await again.stop();
  });
});
