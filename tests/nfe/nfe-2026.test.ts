import { expect } from 'chai';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { NfeSpec, REFORM_ITEMS } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { countOf, NFE, nfeTenant, NfeTenant, rowsOf, setFilialDocument } from './nfe-support';

/*
 * The NF-e of late 2026 through the API: a protocol signed by the authority, the tax-reform groups
 * kept per item and per document and shown in every view, the totals checks as warnings, and
 * suppliers, filiais, keys, searches and map entries with alphanumeric CNPJs.
 */

const ISSUER = cnpjWithCheckDigits('12ABC34501DE'); // 12ABC34501DE35
const REFORM: Partial<NfeSpec> = {
  issuer: { cnpj: ISSUER, name: 'BEBIDAS ALFANUMERICA LTDA', uf: 'SP' },
  issuedAt: '2026-08-10T10:00:00-03:00',
  items: REFORM_ITEMS,
};
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as any;
const checkOf = (report: { checks: { check: string }[] }, name: string) => report.checks.find((c) => c.check === name) as any;

describe('NF-e of 2026: signed protocols, tax-reform groups, alphanumeric CNPJ (API)', function () {
  this.timeout(30_000);
  let t: NfeTenant;
  let other: NfeTenant;
  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
  });
  const importXml = (xml: string, tenant = t) => api().post(`${NFE}/importar-xml`).set(tenant.headers()).send({ xml });

  describe('a protocol signed by the authority', () => {
    it('imports (201); the report shows the protocol signature apart', async () => {
      const built = await t.nfe({ number: 26001, protocolSigned: true });
      const res = await importXml(built.xml);
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(201);
      expect(checkOf(res.body.report, 'SIGNATURE').outcome).to.equal('PASS');
      expect(checkOf(res.body.report, 'PROTOCOL_SIGNATURE')).to.deep.include({ outcome: 'PASS', blocking: false });
      expect(checkOf(res.body.report, 'PROTOCOL_SIGNATURE').details.certificate.subject).to.contain('SEFAZ AUTORIZADORA TESTE');
      expect(res.body.report.warnings).to.deep.equal([]);
    });

    it('a protocol signature that no longer verifies is a warning; the invoice still imports', async () => {
      const built = await t.nfe({ number: 26002, protocolSigned: true });
      const xml = built.xml.replace('<xMotivo>Autorizado o uso da NF-e</xMotivo>', '<xMotivo>Autorizado o uso da NF-e.</xMotivo>');
      const res = await importXml(xml);
      expect(res.status).to.equal(201);
      expect(checkOf(res.body.report, 'PROTOCOL_SIGNATURE')).to.deep.include({
        outcome: 'FAIL',
        blocking: false,
        code: 'NFE_PROTOCOL_SIGNATURE_INVALID',
      });
      expect(res.body.report.warnings).to.deep.equal(['NFE_PROTOCOL_SIGNATURE_INVALID']);
    });

    it('a signature wrapping attempt is refused (422 NFE_SIGNATURE_INVALID), nothing written', async () => {
      const built = await t.nfe({ number: 26003, protocolSigned: true });
      const own = /<Signature [\s\S]*?<\/Signature>/.exec(built.xml)![0];
      const before = [await countOf('nfe_inbound', t.companyId), await countOf('entry_document', t.companyId)];
      const res = await importXml(built.xml.replace('<infAdic>', `<infAdic>${own}`));
      expectProblem(res, 422, 'NFE_SIGNATURE_INVALID');
      expect([await countOf('nfe_inbound', t.companyId), await countOf('entry_document', t.companyId)]).to.deep.equal(before);
    });
  });

  describe('the tax-reform groups from an alphanumeric-CNPJ supplier', () => {
    let built: Awaited<ReturnType<NfeTenant['nfe']>>;
    let imported: any;

    before(async () => {
      built = await t.nfe({ ...REFORM, number: 26101, installments: [{ dueDate: '2026-09-10' }, { dueDate: '2026-10-10' }] });
    });

    it('preview: every group as JSON numbers at their scale, the PL_010 checks PASS', async () => {
      const res = await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: built.xml });
      expect(res.status).to.equal(200);
      const { invoice, report } = res.body;
      expect(invoice.issuer).to.include({ documentKind: 'CNPJ', document: ISSUER });
      expect(invoice.accessKey.slice(6, 20)).to.equal(ISSUER);
      const g = invoice.items[0].taxes.ibsCbs.general;
      expect(g.cbs).to.deep.equal({
        rate: 0.9,
        deferral: { rate: 10, value: 0.01 },
        returnedValue: 0.01,
        reduction: { rate: 20, effectiveRate: 0.72 },
        value: 0.12,
      });
      expect(invoice.items[1].taxes.ibsCbs.singlePhase.standard).to.deep.equal({
        baseQuantity: 100,
        ibsAdRemRate: 0.1,
        ibsValue: 10,
        cbsAdRemRate: 0.2,
        cbsValue: 20,
      });
      expect(invoice.items[0].itemValue).to.equal(21.53);
      expect(invoice.items[2].referencedDocument.lineNumber).to.equal(2);
      expect(invoice.totals.invoiceWithTaxes).to.equal(Number(built.totals.vNFTot));
      for (const c of ['ACCESS_KEY_CHECK_DIGIT', 'ACCESS_KEY_FIELDS', 'IBSCBS_TOTAL', 'IS_TOTAL', 'ITEM_VALUE', 'INVOICE_TOTAL_WITH_TAXES'])
        expect(checkOf(report, c).outcome, c).to.equal('PASS');
      expect(report.valid).to.equal(true);
    });

    it('preview-import: the draft keeps the blocks and totals vNF, without IBS/CBS/IS', async () => {
      const res = await api().post(`${NFE}/preview-import`).set(t.headers()).send({ xml: built.xml });
      expect(res.status).to.equal(200);
      const { draft } = res.body;
      expect(draft.supplier).to.include({ document: ISSUER, registered: false });
      expect(draft.totals.total).to.equal(Number(built.totals.vNF));
      expect(draft.items[0].reformTaxes.ibsCbs.general.ibsValue).to.equal(0.01);
      expect(draft.items[0].reformTaxes.selectiveTax).to.include({ cst: '000', rate: 2, value: 0.4 });
      expect(draft.reformTaxes).to.deep.include({ purpose: '1', itemTaxes: 30.53 });
      expect(draft.reformTaxes.checks).to.deep.equal({
        ibsCbsTotal: 'PASS',
        selectiveTaxTotal: 'PASS',
        itemValues: 'PASS',
        invoiceWithTaxes: 'PASS',
        invoiceTotalConvention: 'WITH_TAXES',
      });
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(0);
    });

    it('importar-xml: supplier registered with its alphanumeric CNPJ; blocks stored as exact decimals; payables and landed cost without IBS/CBS/IS', async () => {
      const res = await importXml(built.xml);
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(201);
      imported = res.body.entryDocument;
      expect(imported.supplier).to.include({ document: ISSUER });
      expect(imported.totals.total).to.equal(Number(built.totals.vNF));
      expect(imported.reformTaxes.totals.ibsCbs.cbs.value).to.equal(0.12);

      const [supplier] = await rowsOf('supplier', t.companyId, 'document = ?', [ISSUER]);
      expect(supplier).to.include({ name: 'BEBIDAS ALFANUMERICA LTDA' });
      const [doc] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(doc.supplier_document).to.equal(ISSUER);
      const block = json(doc.reform_taxes);
      expect(block.totals.ibsCbs.base).to.equal('20');
      expect(block.totals.invoiceWithTaxes).to.be.a('string');
      expect(Number(block.totals.invoiceWithTaxes)).to.equal(Number(built.totals.vNFTot));
      expect(block.rule).to.deep.equal({
        year: 2026,
        fromYear: 2026,
        charged: false,
        itemValueConventions: ['WITHOUT_TAXES', 'WITH_TAXES'],
      });
      const items = await rowsOf('entry_document_item', t.companyId, 'entry_document_id = ?', [doc.id], 'line_number');
      expect(json(items[0].reform_taxes).ibsCbs.general.cbs.reduction).to.deep.equal({ rate: '20', effectiveRate: '0.72' });
      expect(json(items[1].reform_taxes).ibsCbs.singlePhase.cbsTotal).to.equal('20');
      // Landed cost: vProd + IPI only (20.00 + 1.00), the 0.53 of IBS/CBS/IS is not in it.
      expect(Number(items[0].landed_total)).to.equal(21);
      expect(Number(items[0].other_expenses)).to.equal(0);

      const confirm = await api().get(`/api/entry-document/confirm-preview/${imported.id}`).set(t.headers());
      const payables = confirm.body.payables.map((p: { amount: number }) => p.amount);
      expect(Math.round(payables.reduce((s: number, a: number) => s + a, 0) * 100)).to.equal(Math.round(Number(built.totals.vNF) * 100));
      expect(confirm.body.blockingProblems.map((p: { code: string }) => p.code)).to.not.include('TOTALS_DIFFER_FROM_XML');
    });

    it('the draft detail and the inbound detail show them; an edit of the draft keeps them', async () => {
      const detail = await api().get(`/api/entry-document/detail/${imported.id}`).set(t.headers());
      expect(detail.status).to.equal(200);
      expect(detail.body.items.map((i: any) => i.reformTaxes.ibsCbs.cst)).to.deep.equal(['000', '000', '410']);
      expect(detail.body.reformTaxes.totals.selectiveTax).to.equal(0.4);
      const patched = await api()
        .patch(`/api/entry-document/${imported.id}`)
        .set(t.headers())
        .send({ version: detail.body.version, notes: 'conferido' });
      expect(patched.status, JSON.stringify(patched.body).slice(0, 300)).to.equal(200);
      expect(patched.body.reformTaxes.checks.ibsCbsTotal).to.equal('PASS');
      expect(patched.body.items[0].reformTaxes.itemValue).to.equal(21.53);

      const inbound = await api().get(`${NFE}/inbound/${t.filialHashes[0]}?accessKey=${built.accessKey}`).set(t.headers());
      const shown = await api().get(`${NFE}/inbound/detail/${inbound.body.data[0].id}/${t.filialHashes[0]}`).set(t.headers());
      expect(shown.status).to.equal(200);
      expect(shown.body.invoice.totals.ibsCbs.ibs.value).to.equal(0.01);
      expect(checkOf(shown.body.report, 'INVOICE_TOTAL_WITH_TAXES').outcome).to.equal('PASS');
      // Another tenant does not see the record.
      expectProblem(await api().get(`${NFE}/inbound/detail/${inbound.body.data[0].id}/${other.filialHashes[0]}`).set(other.headers()), 404);
    });

    it('searches find the supplier by the start of its alphanumeric CNPJ, punctuated or in lower case', async () => {
      const suppliers = await api().get('/api/catalog/suppliers?search=12.abc.345').set(t.headers());
      expect(suppliers.body.data.map((s: { document: string }) => s.document)).to.include(ISSUER);
      const docs = await api().get(`/api/entry-document/list/${t.filialHashes[0]}?search=12ABC345`).set(t.headers());
      expect(docs.body.data.map((d: { id: string }) => d.id)).to.deep.equal([imported.id]);
      const byKey = await api()
        .get(`/api/entry-document/list/${t.filialHashes[0]}?search=${built.accessKey.toLowerCase()}`)
        .set(t.headers());
      expect(byKey.body.data.map((d: { id: string }) => d.id)).to.deep.equal([imported.id]);
      const inbound = await api().get(`${NFE}/inbound/${t.filialHashes[0]}?issuer=12abc`).set(t.headers());
      expect(inbound.body.data.map((n: { accessKey: string }) => n.accessKey)).to.deep.equal([built.accessKey]);
      const none = await api().get('/api/catalog/suppliers?search=12ABD').set(t.headers());
      expect(none.body.data.map((s: { document: string }) => s.document)).to.not.include(ISSUER);
    });

    it('a product-map entry for the alphanumeric supplier resolves the next invoice; an invalid one is 400', async () => {
      const product = await makeProduct(t, { code: 'BEB-2L' });
      const link = await api().post('/api/entry-document/product-map/link').set(t.headers()).send({
        supplierDocument: '12.abc.345/01de-35',
        supplierProductCode: 'RT-1',
        productId: product.hash,
        conversionFactor: 6,
        supplierUnit: 'UN',
      });
      expect(link.status, JSON.stringify(link.body)).to.equal(201);
      const [entry] = await rowsOf('product_map_entry', t.companyId, 'supplier_product_code = ?', ['RT-1']);
      expect(entry.supplier_document).to.equal(ISSUER);
      const bad = await api()
        .post('/api/entry-document/product-map/link')
        .set(t.headers())
        .send({ supplierDocument: '12ABC34501DE36', supplierProductCode: 'RT-1', productId: product.hash, supplierUnit: 'UN' });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      const next = await t.nfe({ ...REFORM, number: 26102 });
      const preview = await api().post(`${NFE}/preview-import`).set(t.headers()).send({ xml: next.xml });
      expect(preview.body.items[0]).to.include({ source: 'MAP', productId: product.hash, conversionFactor: 6 });
    });
  });

  describe('totals that disagree are warnings, never a block', () => {
    it('IBSCBSTot and vNFTot off the items: 201, the warnings in the report and in the stored checks; nothing blocks confirmation', async () => {
      const built = await t.nfe({
        ...REFORM,
        number: 26201,
        beforeSigning: (x) =>
          x
            .replace(/<vBCIBSCBS>[^<]*<\/vBCIBSCBS>/, '<vBCIBSCBS>25.00</vBCIBSCBS>')
            .replace(/<vNFTot>[^<]*<\/vNFTot>/, '<vNFTot>999.99</vNFTot>'),
      });
      const res = await importXml(built.xml);
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(201);
      expect(res.body.report.warnings).to.have.members(['NFE_IBSCBS_TOTAL_MISMATCH', 'NFE_INVOICE_TOTAL_WITH_TAXES_MISMATCH']);
      expect(res.body.entryDocument.reformTaxes.checks).to.deep.include({
        ibsCbsTotal: 'FAIL',
        invoiceWithTaxes: 'FAIL',
        invoiceTotalConvention: null,
      });
      expect(res.body.entryDocument.totals.total).to.equal(Number(built.totals.vNF));
      const confirm = await api().get(`/api/entry-document/confirm-preview/${res.body.entryDocument.id}`).set(t.headers());
      expect(confirm.body.blockingProblems.map((p: { code: string }) => p.code)).to.not.include('TOTALS_DIFFER_FROM_XML');
    });
  });

  describe('a filial with an alphanumeric CNPJ', () => {
    let alnum: NfeTenant;
    const FILIAL = cnpjWithCheckDigits('AB12CD34EF56');
    before(async () => {
      alnum = await nfeTenant({ filiais: 2 });
      await setFilialDocument(alnum, 1, FILIAL);
    });

    it('receives an invoice addressed to it (201) and refuses one addressed to its numeric sibling (422)', async () => {
      const built = await alnum.nfe({ ...REFORM, number: 26301, recipient: { cnpj: FILIAL } }, 1);
      const res = await api().post(`${NFE}/importar-xml`).set(alnum.headers(1)).send({ xml: built.xml });
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(201);
      expect(checkOf(res.body.report, 'RECIPIENT').details).to.include({ recipientDocument: FILIAL, filialDocument: FILIAL });
      const wrong = await api().post(`${NFE}/importar-xml`).set(alnum.headers(0)).send({ xml: built.xml });
      expectProblem(wrong, 422, 'NFE_RECIPIENT_MISMATCH');
      // A filial not granted by the token: 403.
      const limited = alnum.headersWith({ filiais: [alnum.filialHashes[0]] }, 1);
      expectProblem(await api().post(`${NFE}/importar-xml`).set(limited).send({ xml: built.xml }), 403);
    });

    it('two concurrent imports of the same key: one draft, the other 409 NFE_ALREADY_IMPORTED', async () => {
      const built = await alnum.nfe({ ...REFORM, number: 26302, recipient: { cnpj: FILIAL } }, 1);
      const results = await Promise.all([0, 1].map(() => api().post(`${NFE}/importar-xml`).set(alnum.headers(1)).send({ xml: built.xml })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).to.equal('NFE_ALREADY_IMPORTED');
      expect(await countOf('entry_document', alnum.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
    });
  });
});
