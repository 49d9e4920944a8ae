import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { normalizeDocument } from '../../src/core/br-documents';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, setFilialOptions } from '../support/tenant';
import { NFE, setFilialDocument } from './nfe-support';

/*
 * Conformance over the public NF-e samples of ../shared/fixtures/nfe (top-level procNFe-*.xml and
 * edge/): each must parse, and its validation report must agree with SOURCES.md's expected table row
 * by row. Recipient match is checked against a filial created with the sample's dest document; where
 * the table says the totals reconcile, the draft (imported when the document is importable, else the
 * one preview-import would create) must total vNF to the cent. Skipped when the folder is absent.
 */

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/nfe');
const present = fs.existsSync(path.join(FIXTURES, 'SOURCES.md'));

interface ExpectedRow {
  file: string;
  mod: string;
  tpAmb: string;
  keyDv: 'ok' | 'bad';
  cStat: string;
  sig: 'valid' | 'invalid' | 'absent';
  itemsTotal: 'ok' | 'no';
  vnfOk: 'ok' | 'no';
  /** "formula gives X" of a non-reconciling row. */
  formulaGives: string | null;
  vNF: string;
  dest: string;
}

/** The rows of "Expected report per NF-e document" in SOURCES.md. */
function expectedTable(): ExpectedRow[] {
  const text = fs.readFileSync(path.join(FIXTURES, 'SOURCES.md'), 'utf8');
  const start = text.indexOf('### Expected report per NF-e document');
  const end = text.indexOf('\n## ', start);
  const rows = text.slice(start, end === -1 ? undefined : end).split('\n').filter((l) => l.startsWith('| `'));
  const clean = (s: string) => s.replace(/\*\*/g, '').trim();
  return rows.map((line) => {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const vnfCell = clean(cells[7]);
    return {
      file: cells[0].replace(/`/g, ''),
      mod: clean(cells[1]),
      tpAmb: clean(cells[2]),
      keyDv: clean(cells[3]) as ExpectedRow['keyDv'],
      cStat: clean(cells[4]),
      sig: clean(cells[5]) as ExpectedRow['sig'],
      itemsTotal: clean(cells[6]) as ExpectedRow['itemsTotal'],
      vnfOk: vnfCell.split(' ')[0] as ExpectedRow['vnfOk'],
      formulaGives: /formula gives ([\d.]+)/.exec(vnfCell)?.[1] ?? null,
      vNF: clean(cells[8]),
      dest: clean(cells[9]),
    };
  });
}

const checkOf = (report: { checks: { check: string; outcome: string; details?: Record<string, unknown> }[] }, name: string) => report.checks.find((c) => c.check === name)!;
const SIG: Record<ExpectedRow['sig'], string> = { valid: 'VALID', invalid: 'INVALID', absent: 'ABSENT' };

(present ? describe : describe.skip)('NF-e conformance: the public samples against SOURCES.md', () => {
  const rows = present ? expectedTable() : [];

  it('the table covers every top-level procNFe-*.xml and every edge/ document', () => {
    const files = [
      ...fs.readdirSync(FIXTURES).filter((f) => /^procNFe-.*\.xml$/.test(f)),
      ...fs.readdirSync(path.join(FIXTURES, 'edge')).filter((f) => f.endsWith('.xml')).map((f) => `edge/${f}`),
    ].sort();
    expect(rows.map((r) => r.file).sort()).to.deep.equal(files);
    expect(rows.length).to.be.greaterThanOrEqual(18);
  });

  for (const row of rows) {
    describe(row.file, () => {
      const xml = fs.readFileSync(path.join(FIXTURES, row.file), 'utf8');
      const [destKind, destDoc] = row.dest.includes(':') ? row.dest.split(':') : ['FOREIGN', null];
      // The filial the sample is addressed to (when its dest is a valid CNPJ/CPF), in the sample's environment.
      const addressable = destDoc !== null && normalizeDocument(destDoc) !== null;
      let tenant: Awaited<ReturnType<typeof createTestTenant>>;
      let preview: { status: number; body: any };

      before(async () => {
        tenant = await createTestTenant({ filiais: 1, environment: row.tpAmb === '2' ? 'HOMOLOGATION' : 'PRODUCTION' });
        if (addressable) await setFilialDocument(tenant, 0, destDoc!);
        if (row.tpAmb === '2') await setFilialOptions(tenant, 0, { nfeEnvironment: 'HOMOLOGATION' });
        preview = await api().post(`${NFE}/preview`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
      });

      it('parses, and the report agrees with the table row', () => {
        expect(preview.status, JSON.stringify(preview.body).slice(0, 500)).to.equal(200);
        const { invoice, report } = preview.body;
        expect(invoice.ide.model, 'mod').to.equal(row.mod);
        expect(invoice.ide.environment, 'tpAmb').to.equal(row.tpAmb);
        expect(checkOf(report, 'ACCESS_KEY_CHECK_DIGIT').outcome, 'key DV').to.equal(row.keyDv === 'ok' ? 'PASS' : 'FAIL');
        expect(invoice.accessKey).to.have.length(44);
        expect(invoice.protocol.status, 'protNFe cStat').to.equal(row.cStat);
        expect(checkOf(report, 'PROTOCOL').outcome).to.equal(row.cStat === '100' ? 'PASS' : 'FAIL');
        expect(checkOf(report, 'SIGNATURE').details!.status, 'sig').to.equal(SIG[row.sig]);
        expect(checkOf(report, 'ITEMS_TOTAL').outcome, 'ΣvProd').to.equal(row.itemsTotal === 'ok' ? 'PASS' : 'FAIL');
        const invoiceTotal = checkOf(report, 'INVOICE_TOTAL');
        expect(invoiceTotal.outcome, 'vNF ok').to.equal(row.vnfOk === 'ok' ? 'PASS' : 'FAIL');
        if (row.formulaGives) expect(invoiceTotal.details!.expected, 'formula gives').to.equal(Number(row.formulaGives));
        expect(invoice.totals.invoice, 'vNF').to.equal(Number(row.vNF));
        expect(invoice.recipient.documentKind, 'dest kind').to.equal(destKind === 'idEstrangeiro' ? 'FOREIGN' : destKind);
        if (destDoc) expect(invoice.recipient.document, 'dest').to.equal(destDoc);
        expect(checkOf(report, 'RECIPIENT').outcome, 'recipient').to.equal(addressable ? 'PASS' : 'FAIL');
        expect(checkOf(report, 'ENVIRONMENT').outcome).to.equal('PASS');
        // Blocking exactly as SPEC §4 says: model, bad key, unauthorized, bad/absent signature, recipient.
        const blocks = row.mod !== '55' || row.keyDv === 'bad' || row.cStat !== '100' || row.sig !== 'valid' || !addressable || checkOf(report, 'ACCESS_KEY_FIELDS').outcome === 'FAIL' || checkOf(report, 'PROTOCOL_KEY').outcome === 'FAIL';
        expect(report.valid).to.equal(!blocks);
      });

      if (row.mod === '65') {
        it('an NFC-e is refused as a purchase invoice (422 NFCE_NOT_A_PURCHASE_INVOICE)', async () => {
          expectProblem(await api().post(`${NFE}/stage-xml`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml), 422, 'NFCE_NOT_A_PURCHASE_INVOICE');
          expectProblem(await api().post(`${NFE}/importar-xml`).set(tenant.headers()).send({ xml }), 422, 'NFCE_NOT_A_PURCHASE_INVOICE');
        });
        return;
      }

      if (row.vnfOk === 'ok' && row.itemsTotal === 'ok') {
        it('the draft totals equal vNF to the cent (imported when importable)', async () => {
          if (preview.body.report.valid) {
            const res = await api().post(`${NFE}/importar-xml`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
            expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
            expect(res.body.entryDocument.totals.total).to.equal(Number(row.vNF));
            expect(res.body.entryDocument.expectedTotals.total).to.equal(Number(row.vNF));
            expect(res.body.entryDocument.itemCount).to.equal(preview.body.invoice.items.length);
            const installments = preview.body.invoice.billing?.installments ?? [];
            const confirm = await api().get(`/api/entry-document/confirm-preview/${res.body.entryDocument.id}`).set(tenant.headers());
            expect(confirm.body.blockingProblems.map((p: { code: string }) => p.code)).to.not.include('TOTALS_DIFFER_FROM_XML');
            expect(confirm.body.payables.length).to.equal(Math.max(installments.length, 1));
          } else {
            const res = await api().post(`${NFE}/preview-import`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
            expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(200);
            expect(res.body.draft.totals.total).to.equal(Number(row.vNF));
            expect(res.body.draft.warnings.map((w: { code: string }) => w.code)).to.not.include('TOTALS_DIFFER_FROM_XML');
          }
        });
      }
    });
  }
});
