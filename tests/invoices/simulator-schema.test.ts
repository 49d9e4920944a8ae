import { expect } from 'chai';
import { NFE_NS } from '../../src/modules/authority/xml/xml-text';
import { IssuerAuthority, canCheckSchema } from '../../src/dev/sefaz-simulator/issuer-authority';
import { buildNfeXml } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { signerOf, signNfe } from '../../src/modules/authority/xml/xmldsig';
import { testCertificate } from '../support/test-certificate';
import { sampleDocument, XSD_DIR } from './conformance-support';

/*
 * The simulator's 225: with the PL_010 schemas and xmllint, the NFe is validated against nfe_v4.00.xsd
 * and the answer carries xmllint's message; without them the structural check stands. Skips where
 * xmllint or the fixtures are missing.
 */

const cert = testCertificate('11222333000181', 'MERCADO BOM PRECO LTDA');
const signer = signerOf(cert.privateKeyPem, cert.certificatePem);

function enviNFe(mutate: (nfe: string) => string = (x) => x): string {
  const built = buildNfeXml(sampleDocument(), {
    number: 77,
    series: 1,
    issuedAt: new Date(),
    emissionType: 1,
    contingency: null,
    randomCode: '12345670',
    tpAmb: '2',
    transport: { mode: 9, volumes: null },
    installments: [],
    paymentType: '01',
    additionalInfo: '',
  });
  const nfe = mutate(signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signer).xml);
  return `<enviNFe xmlns="${NFE_NS}" versao="4.00"><idLote>1</idLote><indSinc>1</indSinc>${nfe}</enviNFe>`;
}
const answer = (message: string | null) => ({
  cStat: /<cStat>(\d+)<\/cStat>/.exec(message ?? '')?.[1],
  xMotivo: /<xMotivo>([^<]*)<\/xMotivo>/.exec(message ?? '')?.[1] ?? '',
});

describe('Simulator: 225 against the PL_010 schemas (xmllint) where configured, structural otherwise', function () {
  this.timeout(30_000);
  before(function () {
    if (!canCheckSchema(XSD_DIR)) this.skip();
  });

  it('an NFe the schema refuses (NCM of 4 digits) is 225 with the xmllint message; a valid one passes on to the signature checks', () => {
    const withXsd = new IssuerAuthority({ now: Date.now, xsdDir: XSD_DIR });
    const bad = enviNFe((x) => x.replace(/<NCM>\d{8}<\/NCM>/, '<NCM>2203</NCM>'));
    const t0 = process.hrtime.bigint();
    const refused = answer(withXsd.authorize(bad, null, false).message);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    expect(refused.cStat).to.equal('225');
    expect(refused.xMotivo).to.match(/^Rejeicao: Falha no Schema XML do lote de NFe \[.*NCM.*\]$/);
    expect(refused.xMotivo.length).to.be.at.most(255);
    // The structural check alone does not see it: it goes on to the signature (changed after signing: 297).
    expect(answer(new IssuerAuthority({ now: Date.now }).authorize(bad, null, false).message).cStat).to.equal('297');
    // A valid NFe is not 225 (the test certificate is not the emitter's: 213).
    expect(answer(withXsd.authorize(enviNFe(), null, false).message).cStat).to.not.equal('225');
    console.log(`      (one xmllint validation: ${ms.toFixed(0)} ms)`);
  });

  it('a message that is not even structurally an enviNFe 4.00 is 225 either way', () => {
    for (const sim of [new IssuerAuthority({ now: Date.now }), new IssuerAuthority({ now: Date.now, xsdDir: XSD_DIR })]) {
      expect(answer(sim.authorize(enviNFe().replace('<indSinc>1</indSinc>', '<indSinc>0</indSinc>'), null, false).message).cStat).to.equal(
        '225',
      );
    }
  });
});
