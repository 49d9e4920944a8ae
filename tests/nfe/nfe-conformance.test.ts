import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { normalizeDocument } from '../../src/core/br-documents';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, setFilialOptions } from '../support/tenant';
import { NFE, rowsOf, setFilialDocument } from './nfe-support';

/*
 * Conformance over every file of ../shared/fixtures/nfe: the NF-e documents (top-level procNFe-*.xml,
 * edge/ and the 2026 tax-reform documents of reforma/) must parse, and their validation report must
 * agree with SOURCES.md's expected tables row by row; the other documents (dfe/ events and summaries,
 * ws/ SOAP messages and WSDLs) are refused by preview as not an NF-e. Recipient match is checked
 * against a filial created with the sample's dest document; where the table says the totals
 * reconcile, the draft (imported when the document is importable, else the one preview-import would
 * create) must total vNF to the cent — for reforma/ without IBS/CBS, which are kept apart (2026).
 * Skipped when the folder is absent.
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
  const rows = text
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('| `'));
  const clean = (s: string) => s.replace(/\*\*/g, '').trim();
  return rows.map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
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

const checkOf = (report: { checks: { check: string; outcome: string; details?: Record<string, unknown> }[] }, name: string) =>
  report.checks.find((c) => c.check === name)!;
const SIG: Record<ExpectedRow['sig'], string> = { valid: 'VALID', invalid: 'INVALID', absent: 'ABSENT' };

(present ? describe : describe.skip)('NF-e conformance: the public samples against SOURCES.md', () => {
  const rows = present ? expectedTable() : [];

  it('the tables cover every NF-e of the folder (top level, edge/, reforma/), and nothing else is left out', () => {
    const files = [
      ...fs.readdirSync(FIXTURES).filter((f) => /^procNFe-.*\.xml$/.test(f)),
      ...fs
        .readdirSync(path.join(FIXTURES, 'edge'))
        .filter((f) => f.endsWith('.xml'))
        .map((f) => `edge/${f}`),
    ].sort();
    expect(rows.map((r) => r.file).sort()).to.deep.equal(files);
    expect(rows.length).to.be.greaterThanOrEqual(18);
    const reforma = fs
      .readdirSync(path.join(FIXTURES, 'reforma'))
      .filter((f) => f.endsWith('.xml'))
      .map((f) => `reforma/${f}`)
      .sort();
    expect(
      reformTable()
        .map((r) => r.file)
        .sort(),
    ).to.deep.equal(reforma);
    // Every other file of the folder is one of the non-NF-e documents checked below, a schema, or the notes.
    const top = fs.readdirSync(FIXTURES).filter((f) => !fs.statSync(path.join(FIXTURES, f)).isDirectory());
    expect(top.filter((f) => !/^procNFe-.*\.xml$/.test(f))).to.deep.equal(['SOURCES.md']);
    expect(
      fs
        .readdirSync(FIXTURES)
        .filter((f) => fs.statSync(path.join(FIXTURES, f)).isDirectory())
        .sort(),
    ).to.deep.equal(['dfe', 'edge', 'reforma', 'ws', 'xsd']);
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
        const blocks =
          row.mod !== '55' ||
          row.keyDv === 'bad' ||
          row.cStat !== '100' ||
          row.sig !== 'valid' ||
          !addressable ||
          checkOf(report, 'ACCESS_KEY_FIELDS').outcome === 'FAIL' ||
          checkOf(report, 'PROTOCOL_KEY').outcome === 'FAIL';
        expect(report.valid).to.equal(!blocks);
      });

      if (row.mod === '65') {
        it('an NFC-e is refused as a purchase invoice (422 NFCE_NOT_A_PURCHASE_INVOICE)', async () => {
          expectProblem(
            await api().post(`${NFE}/stage-xml`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml),
            422,
            'NFCE_NOT_A_PURCHASE_INVOICE',
          );
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

/* ---- reforma/: the 2026 tax-reform documents (SOURCES.md section 5) ---- */

interface ReformRow {
  file: string;
  tpAmb: string;
  finNFe: string;
  cStat: string | null;
  nProt: string | null;
  sig: 'valid' | 'absent';
  itemsTotal: 'ok' | 'no';
  vnfOk: 'ok' | 'no';
  vNF: string;
  cst: string | null;
  ibsCbsTotal: 'ok' | null;
  vIBS: string | null;
  vCBS: string | null;
  vNFTot: string | null;
  /** "= vNF" (taxes not added) or "= vNF+vIBS+vCBS". */
  convention: 'WITHOUT_TAXES' | 'WITH_TAXES' | null;
}

/** The rows of "Expected report per tax-reform document" (file names there may start with "…-": the suffix names the file). */
function reformTable(): ReformRow[] {
  const text = fs.readFileSync(path.join(FIXTURES, 'SOURCES.md'), 'utf8');
  const start = text.indexOf('### Expected report per tax-reform document');
  const end = text.indexOf('\n## ', start);
  const files = fs.readdirSync(path.join(FIXTURES, 'reforma'));
  const clean = (s: string) => s.replace(/\*\*/g, '').trim();
  const dash = (s: string) => (s === '–' || s === '-' ? null : s);
  return text
    .slice(start, end === -1 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((line) => {
      const c = line
        .split('|')
        .slice(1, -1)
        .map((x) => clean(x));
      const name = c[0].replace(/`/g, '');
      const file = name.startsWith('…') ? files.find((f) => f.endsWith(name.slice(1)))! : name;
      const [cStat, nProt] = c[3] === 'absent' ? [null, null] : c[3].split('/').map((x) => x.trim());
      const [vIBS, vCBS] = dash(c[11]) ? c[11].split('/').map((x) => x.trim()) : [null, null];
      const vNFTot = dash(c[12]);
      return {
        file: `reforma/${file}`,
        tpAmb: c[1],
        finNFe: c[2],
        cStat,
        nProt,
        sig: c[4] as ReformRow['sig'],
        itemsTotal: c[7].split(' ')[1] as ReformRow['itemsTotal'],
        vnfOk: c[8].split(' ')[1] as ReformRow['vnfOk'],
        vNF: c[8].split(' ')[0],
        cst: dash(c[9]),
        ibsCbsTotal: c[10].startsWith('ok') ? 'ok' : null,
        vIBS,
        vCBS,
        vNFTot: vNFTot ? vNFTot.split(' ')[0] : null,
        convention: !vNFTot ? null : /= vNF\+vIBS\+vCBS/.test(vNFTot) ? 'WITH_TAXES' : /= vNF\b/.test(vNFTot) ? 'WITHOUT_TAXES' : null,
      };
    });
}

(present ? describe : describe.skip)('NF-e conformance: the 2026 tax-reform documents (reforma/) against SOURCES.md', () => {
  const rows = present ? reformTable() : [];

  it('the table has the four real authorizations and the synthetic alphanumeric-CNPJ document', () => {
    expect(rows).to.have.length(5);
    expect(rows.filter((r) => r.sig === 'valid')).to.have.length(4);
  });

  for (const row of rows) {
    describe(row.file, () => {
      const xml = fs.readFileSync(path.join(FIXTURES, row.file), 'utf8');
      let tenant: Awaited<ReturnType<typeof createTestTenant>>;
      let preview: { status: number; body: any };

      before(async () => {
        tenant = await createTestTenant({ filiais: 1, environment: row.tpAmb === '2' ? 'HOMOLOGATION' : 'PRODUCTION' });
        // The filial the document is addressed to: its dest, read by a first preview.
        const first = await api().post(`${NFE}/preview`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
        expect(first.status, JSON.stringify(first.body).slice(0, 500)).to.equal(200);
        await setFilialDocument(tenant, 0, first.body.invoice.recipient.document);
        preview = await api().post(`${NFE}/preview`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
      });

      it('parses every group, and the report agrees with the table row', () => {
        expect(preview.status).to.equal(200);
        const { invoice, report } = preview.body;
        expect(invoice.ide.environment, 'tpAmb').to.equal(row.tpAmb);
        expect(invoice.ide.purpose, 'finNFe').to.equal(row.finNFe);
        expect(invoice.protocol?.status ?? null, 'cStat').to.equal(row.cStat);
        expect(invoice.protocol?.protocolNumber ?? null, 'nProt').to.equal(row.nProt);
        expect(checkOf(report, 'SIGNATURE').details!.status, 'sig').to.equal(SIG[row.sig]);
        expect(checkOf(report, 'PROTOCOL_SIGNATURE').outcome).to.equal('SKIPPED');
        expect(checkOf(report, 'ACCESS_KEY_CHECK_DIGIT').outcome, 'key DV').to.equal('PASS');
        expect(checkOf(report, 'ITEMS_TOTAL').outcome, 'ΣvProd').to.equal(row.itemsTotal === 'ok' ? 'PASS' : 'FAIL');
        expect(checkOf(report, 'INVOICE_TOTAL').outcome, 'vNF').to.equal(row.vnfOk === 'ok' ? 'PASS' : 'FAIL');
        expect(invoice.totals.invoice, 'vNF').to.equal(Number(row.vNF));
        expect(
          invoice.items.map((i: any) => i.taxes.ibsCbs?.cst ?? null),
          'IBSCBS CST',
        ).to.deep.equal(invoice.items.map(() => row.cst));
        expect(checkOf(report, 'IBSCBS_TOTAL').outcome, 'IBSCBSTot = Σ items').to.equal(row.ibsCbsTotal === 'ok' ? 'PASS' : 'SKIPPED');
        expect(invoice.totals.ibsCbs?.ibs?.value ?? null, 'vIBS').to.equal(row.vIBS === null ? null : Number(row.vIBS));
        expect(invoice.totals.ibsCbs?.cbs?.value ?? null, 'vCBS').to.equal(row.vCBS === null ? null : Number(row.vCBS));
        expect(invoice.totals.invoiceWithTaxes, 'vNFTot').to.equal(row.vNFTot === null ? null : Number(row.vNFTot));
        const withTaxes = checkOf(report, 'INVOICE_TOTAL_WITH_TAXES');
        expect(withTaxes.outcome, 'vNFTot check').to.equal(row.vNFTot === null ? 'SKIPPED' : 'PASS');
        if (row.convention) expect(withTaxes.details!.convention, 'vNFTot convention').to.equal(row.convention);
        // Every real 2026 document carries vItem per item following the same convention.
        expect(checkOf(report, 'ITEM_VALUE').outcome).to.equal(row.vNFTot === null ? 'SKIPPED' : 'PASS');
        // Only the signer is warned about: a self-signed test certificate ("SEM VALIDADE JURÍDICA") is
        // untrusted (refused at confirmation), a real ICP-Brasil one unverifiable without the operator's roots.
        if (row.sig === 'valid') {
          expect(report.warnings, 'no warnings on a real authorization but its signer').to.have.length(1);
          expect(['NFE_SIGNER_UNTRUSTED', 'NFE_SIGNER_CHAIN_NOT_VERIFIABLE']).to.include(report.warnings[0]);
        }
        expect(report.valid, 'importable').to.equal(row.sig === 'valid' && row.cStat === '100');
      });

      if (row.sig !== 'valid') {
        it('the synthetic document: an alphanumeric emitter CNPJ read as a valid CNPJ; its key still carries the numeric one', () => {
          const { invoice, report } = preview.body;
          expect(invoice.issuer).to.include({ documentKind: 'CNPJ', document: 'XT9CDVWJ000172' });
          expect(normalizeDocument(invoice.issuer.document)).to.equal('XT9CDVWJ000172');
          expect(checkOf(report, 'ACCESS_KEY_FIELDS').details!.mismatches).to.include('emitter document');
          expect(report.blockingCodes).to.include.members(['NFE_ACCESS_KEY_INVALID', 'NFE_PROTOCOL_MISSING', 'NFE_SIGNATURE_MISSING']);
        });
        return;
      }

      it('imports: IBS/CBS kept per item and per document, the draft and its payables total vNF', async () => {
        const res = await api().post(`${NFE}/importar-xml`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml);
        expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
        const doc = res.body.entryDocument;
        expect(doc.totals.total).to.equal(Number(row.vNF));
        expect(doc.reformTaxes.totals.invoiceWithTaxes).to.equal(Number(row.vNFTot));
        expect(doc.reformTaxes.checks).to.deep.include({
          ibsCbsTotal: 'PASS',
          invoiceWithTaxes: 'PASS',
          invoiceTotalConvention: row.convention,
        });
        const [stored] = await rowsOf('entry_document', tenant.companyId);
        const block = typeof stored.reform_taxes === 'string' ? JSON.parse(stored.reform_taxes) : stored.reform_taxes;
        // Stored as the exact decimal string of the XML.
        expect(block.totals.invoiceWithTaxes).to.be.a('string');
        expect(Number(block.totals.invoiceWithTaxes)).to.equal(Number(row.vNFTot));
        const items = await rowsOf('entry_document_item', tenant.companyId, '', [], 'line_number');
        expect(items).to.have.length(preview.body.invoice.items.length);
        for (const [i, item] of items.entries()) {
          const line = JSON.parse(String(item.reform_taxes));
          expect(line.ibsCbs.cst).to.equal(row.cst);
          expect(Number(line.itemValue)).to.equal(preview.body.invoice.items[i].itemValue);
          // Exact decimal strings: the stored IBS/CBS are the XML's.
          if (line.ibsCbs.general)
            expect(Number(line.ibsCbs.general.cbs.value)).to.equal(preview.body.invoice.items[i].taxes.ibsCbs.general.cbs.value);
        }
        const detail = await api().get(`/api/entry-document/detail/${doc.id}`).set(tenant.headers());
        expect(detail.body.items[0].reformTaxes.ibsCbs.cst).to.equal(row.cst);
        expect(detail.body.reformTaxes.rule).to.deep.include({ year: 2026, charged: false });
        const installments = preview.body.invoice.billing?.installments ?? [];
        const confirm = await api().get(`/api/entry-document/confirm-preview/${doc.id}`).set(tenant.headers());
        expect(confirm.body.blockingProblems.map((p: { code: string }) => p.code)).to.not.include('TOTALS_DIFFER_FROM_XML');
        // What is owed follows the lines' operation classes (issue 17): a remessa or a retorno owes nothing.
        const owesSupplier = !/remessa|retorno/.test(row.file);
        const payableCents = confirm.body.payables.reduce((s: number, p: { amount: number }) => s + Math.round(p.amount * 100), 0);
        expect(payableCents).to.equal(owesSupplier ? Math.round(Number(row.vNF) * 100) : 0);
        expect(confirm.body.payables.length).to.equal(owesSupplier ? Math.max(installments.length, 1) : 0);
      });
    });
  }
});

(present ? describe : describe.skip)('NF-e conformance: the other documents of the folder are not NF-e', () => {
  const others = present
    ? ['dfe', 'ws'].flatMap((dir) =>
        fs
          .readdirSync(path.join(FIXTURES, dir))
          .filter((f) => f.endsWith('.xml'))
          .map((f) => `${dir}/${f}`),
      )
    : [];
  let tenant: Awaited<ReturnType<typeof createTestTenant>>;
  before(async () => {
    tenant = await createTestTenant({ filiais: 1 });
  });

  it('every event, summary, SOAP message and WSDL is refused by preview (400 NFE_UNSUPPORTED_DOCUMENT), nothing written', async () => {
    expect(others.length).to.be.greaterThanOrEqual(20);
    for (const file of others) {
      const xml = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
      expectProblem(
        await api().post(`${NFE}/preview`).set(tenant.headers()).set('Content-Type', 'application/xml').send(xml),
        400,
        'NFE_UNSUPPORTED_DOCUMENT',
      );
    }
    expect(await rowsOf('nfe_inbound', tenant.companyId)).to.have.length(0);
  });
});
