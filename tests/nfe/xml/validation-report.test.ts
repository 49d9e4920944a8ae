import { expect } from 'chai';
import { inspectNfeXml } from '../../../src/modules/inbound-nfe/xml/inspect';
import type { RecipientContext, ValidationReport } from '../../../src/modules/inbound-nfe/xml/validation-report';
import { buildNfe, NfeSpec } from '../../support/nfe-builder';

const FILIAL: RecipientContext = { document: '23765766000162', environment: 'PRODUCTION' };
const base: NfeSpec = { recipient: { cnpj: FILIAL.document }, items: [{ quantity: '2', unitPrice: '10' }] };
const outcomes = (r: ValidationReport) => Object.fromEntries(r.checks.map((c) => [c.check, c.outcome]));
const failed = (r: ValidationReport) => r.checks.filter((c) => c.outcome === 'FAIL').map((c) => c.check);

describe('nfe/xml: validation report', () => {
  it('a valid document: every check listed, all PASS (the protocol signature and the PL_010 totals SKIPPED), no blocking codes', async () => {
    const { report } = await inspectNfeXml(buildNfe(base).xml, FILIAL);
    expect(report.checks.map((c) => c.check)).to.deep.equal([
      'ROOT',
      'LAYOUT_VERSION',
      'MODEL',
      'ACCESS_KEY_CHECK_DIGIT',
      'ACCESS_KEY_FIELDS',
      'PROTOCOL',
      'PROTOCOL_KEY',
      'PROTOCOL_DIGEST',
      'SIGNATURE',
      'SIGNER',
      'PROTOCOL_SIGNATURE',
      'RECIPIENT',
      'ENVIRONMENT',
      'ITEMS_TOTAL',
      'ITEM_CHARGES',
      'INVOICE_TOTAL',
      'IBSCBS_TOTAL',
      'IS_TOTAL',
      'ITEM_VALUE',
      'INVOICE_TOTAL_WITH_TAXES',
    ]);
    const skipped = ['PROTOCOL_SIGNATURE', 'IBSCBS_TOTAL', 'IS_TOTAL', 'ITEM_VALUE', 'INVOICE_TOTAL_WITH_TAXES'];
    expect(Object.entries(outcomes(report)).every(([c, o]) => o === (skipped.includes(c) ? 'SKIPPED' : 'PASS'))).to.equal(true);
    expect(report).to.include({ valid: true });
    expect(report.blockingCodes).to.deep.equal([]);
    expect(report.warnings).to.deep.equal([]);
  });

  const cases: [string, () => string, string[], string][] = [
    [
      'value changed after signing',
      () => buildNfe(base).xml.replace('<vUnCom>10.0000000000</vUnCom>', '<vUnCom>9.0000000000</vUnCom>'),
      ['SIGNATURE'],
      'NFE_SIGNATURE_INVALID',
    ],
    ['wrong check digit', () => buildNfe({ ...base, wrongCheckDigit: true }).xml, ['ACCESS_KEY_CHECK_DIGIT'], 'NFE_ACCESS_KEY_INVALID'],
    ['other recipient', () => buildNfe({ ...base, recipient: { cnpj: '11222333000181' } }).xml, ['RECIPIENT'], 'NFE_RECIPIENT_MISMATCH'],
    ['missing protocol (bare NFe)', () => buildNfe({ ...base, protocol: null }).xml, ['ROOT', 'PROTOCOL'], 'NFE_PROTOCOL_MISSING'],
    [
      'denied (cStat 302)',
      () => buildNfe({ ...base, protocol: { cStat: '302', xMotivo: 'Uso Denegado' } }).xml,
      ['PROTOCOL'],
      'NFE_NOT_AUTHORIZED',
    ],
    ['unsigned', () => buildNfe({ ...base, unsigned: true }).xml, ['SIGNATURE'], 'NFE_SIGNATURE_MISSING'],
    [
      'homologation document for a production filial',
      () => buildNfe({ ...base, environment: '2' }).xml,
      ['ENVIRONMENT'],
      'NFE_ENVIRONMENT_MISMATCH',
    ],
    ['NFC-e (model 65)', () => buildNfe({ ...base, model: '65' }).xml, ['MODEL'], 'NFCE_NOT_A_PURCHASE_INVOICE'],
  ];
  for (const [name, xml, checks, code] of cases) {
    it(`${name} → FAIL of ${checks.join(', ')}, blocking with ${code} first`, async () => {
      const { report } = await inspectNfeXml(xml(), FILIAL);
      expect(failed(report)).to.deep.equal(checks);
      expect(report.valid).to.equal(false);
      expect(report.blockingCodes[0]).to.equal(code);
    });
  }

  it('totals differences are warnings, not blocking', async () => {
    const built = buildNfe({ ...base, unsigned: true });
    const { report } = await inspectNfeXml(built.xml.replace('<vNF>20.00</vNF>', '<vNF>21.00</vNF>'), FILIAL);
    const total = report.checks.find((c) => c.check === 'INVOICE_TOTAL')!;
    expect(total).to.include({ outcome: 'FAIL', blocking: false, code: 'NFE_INVOICE_TOTAL_MISMATCH' });
    expect(total.details).to.deep.include({ vNF: 21, expected: 20 });
    expect(report.warnings).to.deep.equal(['NFE_INVOICE_TOTAL_MISMATCH']);
  });

  it('without a filial the recipient and environment checks are SKIPPED (not passed)', async () => {
    const { report } = await inspectNfeXml(buildNfe(base).xml, null);
    expect(outcomes(report)).to.include({ RECIPIENT: 'SKIPPED', ENVIRONMENT: 'SKIPPED' });
    expect(report.valid).to.equal(true);
  });

  it('a CPF filial matches a CPF recipient; a protocol for another key blocks', async () => {
    const cpf = '52998224725';
    const { report } = await inspectNfeXml(buildNfe({ ...base, recipient: { cpf } }).xml, { document: cpf, environment: 'PRODUCTION' });
    expect(report.valid).to.equal(true);
    const built = buildNfe(base);
    const other = await inspectNfeXml(built.xml.replace(`<chNFe>${built.accessKey}</chNFe>`, `<chNFe>${'1'.repeat(44)}</chNFe>`), FILIAL);
    expect(failed(other.report)).to.deep.equal(['PROTOCOL_KEY']);
    expect(other.report.blockingCodes).to.deep.equal(['NFE_PROTOCOL_MISMATCH']);
  });

  it('protNFe/digVal differing from DigestValue is a warning', async () => {
    const built = buildNfe(base);
    const { report } = await inspectNfeXml(built.xml.replace(`<digVal>${built.digestValue}</digVal>`, '<digVal>AAAA</digVal>'), FILIAL);
    expect(failed(report)).to.deep.equal(['PROTOCOL_DIGEST']);
    expect(report.valid).to.equal(true);
    expect(report.warnings).to.deep.equal(['NFE_PROTOCOL_DIGEST_MISMATCH']);
  });
});
