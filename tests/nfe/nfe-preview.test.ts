import { expect } from 'chai';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { countOf, NFE, nfeTenant, NfeTenant } from './nfe-support';

describe('NF-e preview and preview-import (POST /entry-document/nfe/preview, /preview-import)', () => {
  let t: NfeTenant;
  let other: TestTenant;
  before(async () => {
    t = await nfeTenant();
    other = await createTestTenant();
  });

  describe('preview', () => {
    it('answers the parsed invoice and its validation report; JSON { xml } and an XML body behave the same', async () => {
      const built = await t.nfe({
        items: [{ code: 'X1', description: 'FEIJAO 1KG', quantity: '3', unitPrice: '7.4999', ipiRate: '5' }],
        installments: [{ dueDate: '2025-04-10' }],
      });
      const json = await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: built.xml });
      expect(json.status, JSON.stringify(json.body)).to.equal(200);
      expect(json.body.accessKey).to.equal(built.accessKey);
      expect(json.body.report.valid).to.equal(true);
      expect(json.body.report.checks).to.have.length(20);
      expect(json.body.invoice.issuer).to.include({ documentKind: 'CNPJ', name: 'FORNECEDOR TESTE LTDA' });
      expect(json.body.invoice.recipient.document).to.equal(t.document);
      expect(json.body.invoice.items[0]).to.include({ lineNumber: 1, code: 'X1', quantity: 3, unitPrice: 7.4999, total: 22.5 });
      expect(json.body.invoice.items[0].taxes.ipi).to.include({ rate: 5, value: 1.13 });
      expect(json.body.invoice.totals.invoice).to.equal(Number(built.totals.vNF));
      expect(json.body.invoice.billing.installments).to.deep.equal([
        { number: '001', dueDate: '2025-04-10', amount: Number(built.totals.vNF) },
      ]);
      expect(json.body.inbound).to.equal(null);
      expect(json.body.alreadyImported).to.equal(null);

      for (const type of ['application/xml', 'text/xml']) {
        const raw = await api().post(`${NFE}/preview`).set(t.headers()).set('Content-Type', type).send(built.xml);
        expect(raw.status).to.equal(200);
        expect(raw.body).to.deep.equal(json.body);
      }
      expect(await countOf('nfe_inbound', t.companyId)).to.equal(0);
    });

    it('reports blocking failures without refusing (preview is read-only)', async () => {
      const built = await t.nfe();
      const tampered = built.xml.replace('<vUnCom>21.9000000000</vUnCom>', '<vUnCom>2.1900000000</vUnCom>');
      const res = await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: tampered });
      expect(res.status).to.equal(200);
      expect(res.body.report).to.include({ valid: false });
      expect(res.body.report.blockingCodes).to.deep.equal(['NFE_SIGNATURE_INVALID']);
      const sig = res.body.report.checks.find((c: { check: string }) => c.check === 'SIGNATURE');
      expect(sig.details).to.include({ digestValid: false, signatureValid: true });
    });

    it('checks the recipient against the governing filial (x-filial-id)', async () => {
      const built = await t.nfe();
      const res = await api().post(`${NFE}/preview`).set(t.headers(1)).send({ xml: built.xml });
      expect(res.body.report.blockingCodes).to.deep.equal(['NFE_RECIPIENT_MISMATCH']);
    });

    it('400 MALFORMED_XML with line and column; nothing written', async () => {
      const res = await api()
        .post(`${NFE}/preview`)
        .set(t.headers())
        .set('Content-Type', 'application/xml')
        .send('<nfeProc>\n<NFe>\n</nfeProc>');
      expectProblem(res, 400, 'MALFORMED_XML');
      expect(res.body.line).to.equal(3);
      expect(res.body.column).to.be.a('number');
      expect(res.body.errors[0].path).to.equal('xml');
    });

    it('400 XML_DOCTYPE_FORBIDDEN for a DOCTYPE entity bomb (refused before parsing)', async () => {
      const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_v, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><nfeProc>&lol9;</nfeProc>`;
      const started = Date.now();
      expectProblem(
        await api().post(`${NFE}/preview`).set(t.headers()).set('Content-Type', 'text/xml').send(bomb),
        400,
        'XML_DOCTYPE_FORBIDDEN',
      );
      expect(Date.now() - started).to.be.lessThan(2000);
    });

    it('400 for a document that is not an NF-e, and for unreadable fields (with layout paths)', async () => {
      expectProblem(await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: '<cteProc/>' }), 400, 'NFE_UNSUPPORTED_DOCUMENT');
      const built = await t.nfe();
      const res = await api()
        .post(`${NFE}/preview`)
        .set(t.headers())
        .send({ xml: built.xml.replace('<qCom>10.0000</qCom>', '<qCom>dez</qCom>') });
      expectProblem(res, 400, 'NFE_INVALID_CONTENT');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.include('nfeProc/NFe/infNFe/det[1]/prod/qCom');
    });

    it('400 VALIDATION_ERROR with field paths: no xml, both xml and accessKey, a malformed key', async () => {
      const none = await api().post(`${NFE}/preview`).set(t.headers()).send({});
      expectProblem(none, 400, 'VALIDATION_ERROR');
      const both = await api()
        .post(`${NFE}/preview`)
        .set(t.headers())
        .send({ xml: '<a/>', accessKey: '1'.repeat(44) });
      expectProblem(both, 400, 'VALIDATION_ERROR');
      const badKey = await api().post(`${NFE}/preview`).set(t.headers()).send({ accessKey: '123' });
      expectProblem(badKey, 400, 'VALIDATION_ERROR');
      expect(badKey.body.errors[0].path).to.equal('accessKey');
    });

    it('413 for a body over 5 MB (JSON or XML), 415 for another content type', async () => {
      const huge = `<nfeProc>${' '.repeat(6 * 1024 * 1024)}</nfeProc>`;
      expectProblem(
        await api().post(`${NFE}/preview`).set(t.headers()).set('Content-Type', 'application/xml').send(huge),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      expectProblem(await api().post(`${NFE}/preview`).set(t.headers()).send({ xml: huge }), 413, 'PAYLOAD_TOO_LARGE');
      expectProblem(
        await api().post(`${NFE}/preview`).set(t.headers()).set('Content-Type', 'text/plain').send('<a/>'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it("{ accessKey }: previews the stored XML of the filial; unknown key → 404; another company's key → 404", async () => {
      const built = await t.nfe();
      expect((await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: built.xml })).status).to.equal(201);
      const res = await api().post(`${NFE}/preview`).set(t.headers()).send({ accessKey: built.accessKey });
      expect(res.status).to.equal(200);
      expect(res.body.report.valid).to.equal(true);
      expect(res.body.inbound).to.include({ accessKey: built.accessKey, importStatus: 'PENDING', hasXml: true });
      expectProblem(
        await api()
          .post(`${NFE}/preview`)
          .set(t.headers())
          .send({ accessKey: '3'.repeat(44) }),
        404,
        'NFE_INBOUND_NOT_FOUND',
      );
      expectProblem(
        await api().post(`${NFE}/preview`).set(other.headers()).send({ accessKey: built.accessKey }),
        404,
        'NFE_INBOUND_NOT_FOUND',
      );
    });

    it('403 without the nfe:read scope or for a filial the token does not grant', async () => {
      const built = await t.nfe();
      expectProblem(
        await api()
          .post(`${NFE}/preview`)
          .set(t.headersWith({ scope: 'entry-document:read' }))
          .send({ xml: built.xml }),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expectProblem(
        await api()
          .post(`${NFE}/preview`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 0))
          .send({ xml: built.xml }),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });
  });

  describe('preview-import', () => {
    it('resolves items through the product map (GTIN here), shows the draft and writes nothing', async () => {
      const gtinProduct = await makeProduct(t, { name: 'OLEO DE SOJA 900ML', gtin: '7891000100103', unit: 'UN' });
      const built = await t.nfe({
        items: [
          {
            code: 'OL-900',
            gtin: '7891000100103',
            description: 'OLEO SOJA 900ML',
            quantity: '12',
            unitPrice: '6.50',
            icms: { cst: '00', rate: '18' },
          },
          { code: 'ZZ-1', description: 'ITEM SEM CADASTRO XYZ', quantity: '1', unitPrice: '3.00' },
        ],
        installments: [{ dueDate: '2025-04-10' }, { dueDate: '2025-05-10' }],
      });
      const res = await api().post(`${NFE}/preview-import`).set(t.headers()).send({ xml: built.xml });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.report.valid).to.equal(true);
      expect(res.body.items[0]).to.deep.include({
        lineNumber: 1,
        productId: gtinProduct.hash,
        conversionFactor: 1,
        source: 'GTIN',
        reviewStatus: 'MATCHED',
      });
      expect(res.body.items[0].match).to.include({ status: 'MATCHED', source: 'GTIN' });
      expect(res.body.items[1]).to.include({ productId: null, reviewStatus: 'PENDING', source: null });
      const draft = res.body.draft;
      expect(draft).to.include({ id: null, status: 'DRAFT', origin: 'NFE_XML', accessKey: built.accessKey });
      expect(draft.supplier).to.include({ document: '12345678000195', registered: false });
      expect(draft.totals.total).to.equal(Number(built.totals.vNF));
      expect(draft.installments.map((i: { amount: number }) => i.amount).reduce((a: number, b: number) => a + b, 0)).to.be.closeTo(
        Number(built.totals.vNF),
        0.001,
      );
      expect(draft.items[1].reviewStatus).to.equal('PENDING');
      expect(draft.warnings.map((w: { code: string }) => w.code)).to.include('ITEM_WITHOUT_PRODUCT');
      expect(res.body.alreadyImported).to.equal(null);
      expect(await countOf('entry_document', t.companyId)).to.equal(0);
      expect(await countOf('supplier', t.companyId, 'document = ?', ['12345678000195'])).to.equal(0);
    });

    it("request overrides win over the map; an unknown line → 400; another tenant's product → 404", async () => {
      const p = await makeProduct(t, { name: 'CAIXA ARROZ 6X5KG' });
      const built = await t.nfe();
      const res = await api()
        .post(`${NFE}/preview-import`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 1, productId: p.hash, conversionFactor: 6 }] });
      expect(res.status).to.equal(200);
      expect(res.body.items[0]).to.include({ productId: p.hash, conversionFactor: 6, source: 'REQUEST', reviewStatus: 'MATCHED' });
      expect(res.body.draft.items[0]).to.include({ stockQuantity: 60, conversionFactor: 6 });
      const unknownLine = await api()
        .post(`${NFE}/preview-import`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 7, productId: p.hash }] });
      expectProblem(unknownLine, 400, 'VALIDATION_ERROR');
      expect(unknownLine.body.errors[0].path).to.equal('items[0].lineNumber');
      const foreign = await makeProduct(other);
      expectProblem(
        await api()
          .post(`${NFE}/preview-import`)
          .set(t.headers())
          .send({ xml: built.xml, items: [{ lineNumber: 1, productId: foreign.hash }] }),
        404,
        'PRODUCT_NOT_FOUND',
      );
    });

    it('names the entry document when the key was already imported', async () => {
      const built = await t.nfe();
      const imported = await api().post(`${NFE}/importar-xml`).set(t.headers()).send({ xml: built.xml });
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      const res = await api().post(`${NFE}/preview-import`).set(t.headers()).send({ accessKey: built.accessKey });
      expect(res.status).to.equal(200);
      expect(res.body.alreadyImported).to.include({ entryDocumentId: imported.body.entryDocument.id, status: 'DRAFT' });
      expect(res.body.inbound.importStatus).to.equal('IMPORTED');
    });
  });
});
