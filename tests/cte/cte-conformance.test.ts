import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { api } from '../support/api';
import { buildCte } from '../support/cte-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant, setFilialOptions } from '../support/tenant';
import { setFilialDocument } from '../nfe/nfe-support';
import { CTE } from './cte-support';

/*
 * Conformance over the public CT-e samples of ../shared/fixtures/cte: every XML file there must parse
 * and stage as its facts in ../nfe/SOURCES.md (section 6) say — key, protocol, values, payer, the NF-e
 * it carried, and the signature outcome (a redacted sample's cannot verify, so staging refuses it with
 * 422 CTE_SIGNATURE_INVALID and that failure only). The CT-e test builder's output is checked against
 * the CT-e 4.00 XSDs there with xmllint. Skipped when the folder (or xmllint) is absent.
 */

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/cte');
const present = fs.existsSync(FIXTURES);
const hasXmllint = spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;

function xmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? xmlFiles(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.join(dir, e.name)] : []));
}

interface Facts {
  tpAmb: string;
  keyDv: string;
  cStat: string;
  signature: string;
  vTPrest: string;
  vRec: string;
  toma: string;
  nfeKey: string;
}

/** The rows of "CT-e verification facts" in ../nfe/SOURCES.md, by file name. */
function facts(): Map<string, Facts> {
  const sources = path.join(FIXTURES, '../nfe/SOURCES.md');
  const out = new Map<string, Facts>();
  if (!fs.existsSync(sources)) return out;
  const text = fs.readFileSync(sources, 'utf8');
  const start = text.indexOf('CT-e verification facts');
  const end = text.indexOf('###', start);
  for (const line of text
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('| `'))) {
    const c = line
      .split('|')
      .slice(1, -1)
      .map((x) => x.replace(/\*\*|`/g, '').trim());
    out.set(c[0], {
      tpAmb: c[2],
      keyDv: c[3],
      cStat: c[4].split('/')[0].trim(),
      signature: c[5],
      vTPrest: c[8],
      vRec: c[10],
      toma: /(\d)\s*$/.exec(c[12])?.[1] ?? '',
      nfeKey: /\d{44}/.exec(c[13])?.[0] ?? '',
    });
  }
  return out;
}

(present ? describe : describe.skip)('CT-e conformance (../shared/fixtures/cte)', () => {
  const table = present ? facts() : new Map<string, Facts>();
  const files = present ? xmlFiles(FIXTURES) : [];

  it('finds the samples', () => {
    expect(files.length).to.be.greaterThan(0);
  });

  for (const file of files) {
    const name = path.basename(file);
    it(`${name}: parses, and stages as its facts say`, async () => {
      const xml = fs.readFileSync(file, 'utf8');
      const t = await createTestTenant({ filiais: 1 });
      // Read it as the filial sees it first, then make the filial its payer in its environment.
      const first = await api().post(`${CTE}/preview`).set(t.headers()).send({ xml });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const doc = first.body.document;
      expect(doc.accessKey).to.match(/^\d{44}$/);
      await setFilialDocument(t, 0, doc.payer.document);
      await setFilialOptions(t, 0, { nfeEnvironment: doc.ide.environment === '2' ? 'HOMOLOGATION' : 'PRODUCTION' });
      const checked = await api().post(`${CTE}/preview`).set(t.headers()).send({ xml });
      const outcome = Object.fromEntries(checked.body.report.checks.map((c: { check: string; outcome: string }) => [c.check, c.outcome]));
      expect(outcome).to.deep.include({
        MODEL: 'PASS',
        ACCESS_KEY_FIELDS: 'PASS',
        PROTOCOL_KEY: 'PASS',
        PAYER: 'PASS',
        ENVIRONMENT: 'PASS',
      });

      const f = table.get(name);
      if (f) {
        expect(doc.ide.environment).to.equal(f.tpAmb);
        expect(outcome.ACCESS_KEY_CHECK_DIGIT).to.equal(f.keyDv === 'ok' ? 'PASS' : 'FAIL');
        expect(doc.protocol.status).to.equal(f.cStat);
        expect(doc.values.serviceTotal).to.equal(Number(f.vTPrest));
        expect(doc.values.receivable).to.equal(Number(f.vRec));
        expect(doc.ide.payerCode).to.equal(f.toma);
        if (f.nfeKey) expect(doc.nfeKeys).to.include(f.nfeKey);
        expect(outcome.SIGNATURE).to.equal(/cannot verify|invalid/i.test(f.signature) ? 'FAIL' : 'PASS');
      }

      const staged = await api().post(`${CTE}/stage-xml`).set(t.headers()).set('Content-Type', 'application/xml').send(xml);
      if (checked.body.report.valid) {
        expect(staged.status, JSON.stringify(staged.body)).to.equal(201);
        const detail = await api().get(`${CTE}/detail/${staged.body.cte.id}`).set(t.headers());
        expect(detail.body.document.accessKey).to.equal(doc.accessKey);
      } else {
        expectProblem(staged, 422, checked.body.report.blockingCodes[0]);
        expect(staged.body.blockingCodes).to.deep.equal(checked.body.report.blockingCodes);
      }
    });
  }

  it('the redacted production sample fails on its signature only (SignatureValue and certificate replaced upstream)', async function () {
    const redacted = files.find((f) => f.includes('assinatura-redigida'));
    if (!redacted) this.skip();
    const t = await createTestTenant({ filiais: 1 });
    const xml = fs.readFileSync(redacted!, 'utf8');
    await setFilialDocument(t, 0, '10656452006897');
    const res = await api().post(`${CTE}/preview`).set(t.headers()).send({ xml });
    expect(res.body.report.blockingCodes).to.deep.equal(['CTE_SIGNATURE_INVALID']);
    expect(res.body.document.values.components.map((c: { name: string; value: number }) => [c.name, c.value])).to.deep.equal([
      ['FRETE PESO', 5938.89],
      ['FRETE VALOR', 100],
      ['GRIS', 200],
    ]);
    expect(res.body.document.icms).to.deep.include({ group: 'ICMS45', cst: '40', value: null });
    expect(res.body.document.payer).to.deep.include({ role: 'SENDER', name: 'VOTORANTIM CIMENTOS NNE SA' });
    expect(res.body.document.cargo.quantities.map((q: { measure: string; quantity: number }) => [q.measure, q.quantity])).to.deep.equal([
      ['PESO BRUTO', 37800],
      ['VOLUMES', 1],
    ]);
  });

  (hasXmllint ? it : it.skip)("the test builder's CT-e are valid against the CT-e 4.00 XSDs (procCTe and the road modal)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cte-xsd-'));
    try {
      const variants = [
        buildCte({
          recipient: { cnpj: '11222333000181' },
          total: '100.00',
          icms: { cst: '00', rate: '12' },
          nfeKeys: ['35250312345678000195550010000010001000010009'],
          installments: [{ dueDate: '2025-04-10' }, { dueDate: '2025-05-10' }],
        }),
        buildCte({
          recipient: { cnpj: '11222333000181' },
          total: '250.10',
          icms: { cst: 'SN' },
          nfeKeys: [],
          payer: { other: { cnpj: '11222333000181' } },
          components: [
            { name: 'A', value: '200' },
            { name: 'B', value: '50.10' },
          ],
        }),
        buildCte({
          recipient: { cnpj: '11222333000181', uf: 'RJ' },
          total: '1.00',
          payer: '0',
          environment: '2',
          nfeKeys: ['35250312345678000195550010000010001000010009', '35250312345678000195550010000010011000010006'],
        }),
      ];
      variants.forEach((b, i) => {
        const file = path.join(dir, `cte-${i}.xml`);
        fs.writeFileSync(file, b.xml);
        const res = spawnSync('xmllint', ['--noout', '--schema', path.join(FIXTURES, 'xsd/procCTe_v4.00.xsd'), file], { encoding: 'utf8' });
        expect(res.status, res.stderr).to.equal(0);
        const rodo = /<rodo>.*<\/rodo>/.exec(b.xml)![0].replace('<rodo>', '<rodo xmlns="http://www.portalfiscal.inf.br/cte">');
        const modal = path.join(dir, `rodo-${i}.xml`);
        fs.writeFileSync(modal, rodo);
        const r2 = spawnSync('xmllint', ['--noout', '--schema', path.join(FIXTURES, 'xsd/cteModalRodoviario_v4.00.xsd'), modal], {
          encoding: 'utf8',
        });
        expect(r2.status, r2.stderr).to.equal(0);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
