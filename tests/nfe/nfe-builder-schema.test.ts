import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { buildNfe, NfeSpec, REFORM_ITEMS } from '../support/nfe-builder';

/*
 * What the test builder writes is what the layout allows: its documents with the tax-reform groups
 * (and an alphanumeric emitter, a signed protocol, finNFe 5/6) validate with xmllint against the
 * official PL_010_V1.30 XSDs in ../shared/fixtures/nfe/xsd. Skipped without the fixtures or xmllint.
 */

const XSD = path.resolve(__dirname, '../../../shared/fixtures/nfe/xsd/PL_010_V1.30');
const hasXmllint = spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
const RECIPIENT = { cnpj: '23765766000162' };
const ALPHANUMERIC = cnpjWithCheckDigits('12ABC34501DE');
const REFERENCED = '35250137241249000107550014231152171571688010';

function validate(schema: string, docs: string[]): { ok: boolean; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nfe-xsd-'));
  try {
    const files = docs.map((xml, i) => {
      const f = path.join(dir, `doc-${i}.xml`);
      fs.writeFileSync(f, xml);
      return f;
    });
    const res = spawnSync('xmllint', ['--noout', '--schema', path.join(XSD, schema), ...files], { encoding: 'utf8' });
    return { ok: res.status === 0, output: res.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

(fs.existsSync(XSD) && hasXmllint ? describe : describe.skip)('Test builder output against the PL_010_V1.30 XSDs (xmllint)', function () {
  this.timeout(60_000);
  const base: Omit<NfeSpec, 'items'> = { recipient: RECIPIENT, issuedAt: '2026-08-10T10:00:00-03:00' };

  it('nfeProc with every tax-reform group, vItem both ways, finNFe 5 and 6, an alphanumeric emitter and a signed protocol', () => {
    const docs = [
      buildNfe({ ...base, items: [{ quantity: '2', unitPrice: '10', pisRate: '1.65', cofinsRate: '7.60' }] }),
      buildNfe({ ...base, items: REFORM_ITEMS, protocolSigned: true, issuer: { cnpj: ALPHANUMERIC }, ibsCbsMunicipality: '3550308' }),
      buildNfe({ ...base, items: REFORM_ITEMS, itemValues: 'WITHOUT_TAXES', purpose: '6', debitNoteType: '04' }),
      buildNfe({
        ...base,
        items: REFORM_ITEMS.slice(0, 1),
        itemValues: 'NONE',
        purpose: '5',
        creditNoteType: '01',
        references: [REFERENCED],
      }),
      buildNfe({
        ...base,
        items: [{ quantity: '1', unitPrice: '99.90', selectiveTax: { rate: '10.0000' } }],
        installments: [{ dueDate: '2026-09-10' }],
      }),
    ].map((b) => b.xml);
    const r = validate('procNFe_v4.00.xsd', docs);
    expect(r.ok, r.output).to.equal(true);
  });

  it('a bare NFe with the groups validates against nfe_v4.00.xsd', () => {
    const r = validate('nfe_v4.00.xsd', [buildNfe({ ...base, items: REFORM_ITEMS, protocol: null }).xml]);
    expect(r.ok, r.output).to.equal(true);
  });

  it('the schema is really applied: a misplaced group fails', () => {
    const xml = buildNfe({ ...base, items: REFORM_ITEMS }).xml.replace(/(<IS>[\s\S]*?<\/IS>)(<IBSCBS>[\s\S]*?<\/IBSCBS>)/, '$2$1');
    expect(validate('procNFe_v4.00.xsd', [xml]).ok).to.equal(false);
  });
});
