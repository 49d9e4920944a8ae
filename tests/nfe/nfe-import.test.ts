import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { encodeId } from '../../src/core/hashids';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { releaseImportedInbound } from '../../src/modules/inbound-nfe/nfe-inbound.service';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { buildNfe } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { countOf, NFE, nfeTenant, NfeTenant, rowsOf } from './nfe-support';

const importXml = (t: NfeTenant, body: Record<string, unknown>, filialIndex = 0) =>
  api().post(`${NFE}/importar-xml`).set(t.headers(filialIndex)).send(body);
const importStaged = (t: NfeTenant, body: Record<string, unknown>, filialIndex = 0) =>
  api().post(`${NFE}/importar`).set(t.headers(filialIndex)).send(body);
const stage = (t: NfeTenant, xml: string) => api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml });
const inboundIdOf = async (t: NfeTenant, key: string) =>
  encodeId('nfe-inbound', Number((await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [key]))[0].id));
const num = (v: unknown) => Number(v);
/** A DATE column read raw: mysql2 gives a Date (UTC midnight), SQLite the stored text. */
const dateOf = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

describe('NF-e import (importar-xml, importar)', () => {
  let t: NfeTenant;
  let other: NfeTenant;
  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
  });

  describe('POST importar-xml', () => {
    it('a line value (vProd) a cent off quantity × unit price is taken as invoiced: the draft still adds up to vNF', async () => {
      // 3 × 3.3333333333 = 9.9999999999 → 10.00 computed; the issuer truncated to 9.99 (the authority tolerates ±0.01).
      const built = await t.nfe({
        number: 8090,
        items: [{ code: 'TR-1', description: 'ITEM TRUNCADO', quantity: '3', unitPrice: '3.3333333333', lineTotal: '9.99' }],
      });
      const res = await importXml(t, { xml: built.xml });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.entryDocument.totals.products).to.equal(9.99);
      expect(res.body.entryDocument.totals.total).to.equal(num(built.totals.vNF));
      const preview = await api().get(`/api/entry-document/confirm-preview/${res.body.entryDocument.id}`).set(t.headers());
      const codes = [...preview.body.blockingProblems, ...preview.body.warnings].map((p: { code: string }) => p.code);
      expect(codes).to.not.include('TOTALS_DIFFER_FROM_XML');
    });

    it('201: creates the DRAFT (origin NFE_XML) with supplier, items, charges, taxes and installments; the record is IMPORTED', async () => {
      const built = await t.nfe({
        number: 8001,
        issuer: { cnpj: '11444777000161', name: 'ALFA DISTRIBUIDORA LTDA', uf: 'SP', stateRegistration: '123456789012' },
        items: [
          {
            code: 'CF-500',
            description: 'CAFE TORRADO 500G',
            unit: 'CX',
            quantity: '2',
            unitPrice: '120.00',
            discount: '4.00',
            freight: '6.00',
            icms: { cst: '10', rate: '18', stMva: '40', stRate: '18', fcpStRate: '2' },
            ipiRate: '5',
            pisRate: '1.65',
            cofinsRate: '7.6',
          },
          { code: 'AC-1', description: 'ACUCAR 1KG', quantity: '10', unitPrice: '4.5', icms: { cst: '40', relief: '2.70' } },
        ],
        installments: [{ dueDate: '2025-04-09' }, { dueDate: '2025-05-09' }, { dueDate: '2025-06-08' }],
        additionalInfo: 'PEDIDO 4521',
      });
      const res = await importXml(t, { xml: built.xml, entryDate: '2025-03-12' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const doc = res.body.entryDocument;
      expect(doc).to.include({
        status: 'DRAFT',
        origin: 'NFE_XML',
        model: '55',
        series: '1',
        number: '8001',
        accessKey: built.accessKey,
        issueDate: '2025-03-10',
        entryDate: '2025-03-12',
        operationNature: 'VENDA DE MERCADORIA',
        notes: 'PEDIDO 4521',
        itemCount: 2,
        pendingItemCount: 2,
      });
      expect(doc.supplier).to.include({
        document: '11444777000161',
        name: 'ALFA DISTRIBUIDORA LTDA',
        stateRegistration: '123456789012',
        uf: 'SP',
      });
      // The draft's total is vNF to the cent, with FCP-ST in the ST and the ICMS relief as a discount.
      expect(doc.totals.total).to.equal(num(built.totals.vNF));
      expect(doc.totals.icmsSt).to.equal(num(built.totals.vST) + num(built.totals.vFCPST));
      expect(doc.totals.discount).to.equal(4 + 2.7);
      expect(doc.totals.ipi).to.equal(num(built.totals.vIPI));
      expect(doc.expectedTotals.total).to.equal(num(built.totals.vNF));
      expect(res.body.inbound).to.include({
        accessKey: built.accessKey,
        importStatus: 'IMPORTED',
        entryDocumentId: doc.id,
        source: 'UPLOAD',
      });
      expect(res.body.items.map((i: { reviewStatus: string }) => i.reviewStatus)).to.deep.equal(['PENDING', 'PENDING']);
      expect(res.body.report.valid).to.equal(true);

      // Database: supplier created, items with the charges and taxes, installments from cobr/dup.
      const [supplier] = await rowsOf('supplier', t.companyId, 'document = ?', ['11444777000161']);
      expect(supplier.name).to.equal('ALFA DISTRIBUIDORA LTDA');
      const [entry] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(encodeId('entry-document', Number(entry.id))).to.equal(doc.id);
      expect(Number(entry.supplier_id)).to.equal(Number(supplier.id));
      const items = await rowsOf('entry_document_item', t.companyId, 'entry_document_id = ?', [entry.id], 'line_number');
      expect(
        items.map((i) => [
          i.supplier_product_code,
          i.unit,
          num(i.quantity),
          num(i.unit_price),
          num(i.discount),
          num(i.freight),
          i.review_status,
        ]),
      ).to.deep.equal([
        ['CF-500', 'CX', 2, 120, 4, 6, 'PENDING'],
        ['AC-1', 'UN', 10, 4.5, 2.7, 0, 'PENDING'],
      ]);
      const installments = await rowsOf('entry_document_installment', t.companyId, 'entry_document_id = ?', [entry.id], 'number');
      expect(installments.map((i) => [Number(i.number), dateOf(i.due_date), num(i.amount)])).to.deep.equal(
        built.installments.map((d, i) => [i + 1, d.dueDate, num(d.amount)]),
      );
      const [inbound] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect([inbound.import_status, Number(inbound.entry_document_id)]).to.deep.equal(['IMPORTED', Number(entry.id)]);
      const events = await rowsOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [inbound.id]);
      expect(events.map((e) => e.type)).to.deep.equal(['STAGED', 'IMPORTED']);
      expect(await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.imported' AND aggregate_id = ?", [inbound.id])).to.equal(1);
      expect(await countOf('outbox_event', t.companyId, "type = 'entry-document.created' AND aggregate_id = ?", [entry.id])).to.equal(1);
      expect(
        await countOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND entity_id = ? AND action = 'IMPORTED'", [inbound.id]),
      ).to.equal(1);

      // The entry document's own detail shows the taxes per item.
      const detail = await api().get(`/api/entry-document/detail/${doc.id}`).set(t.headers());
      expect(detail.status).to.equal(200);
      const first = detail.body.items[0];
      expect(first.taxes.icms).to.include({ cst: '10', rate: 18 });
      expect(first.taxes.ipi.value).to.equal(12);
      expect(first.taxes.pis).to.include({ cst: '01', rate: 1.65 });
      expect(first.declared).to.include({ code: 'CF-500', description: 'CAFE TORRADO 500G', unit: 'CX', quantity: 2, unitPrice: 120 });
    });

    it('an existing supplier is used, not duplicated; items not mapped stay PENDING and the confirm preview names them', async () => {
      await makeSupplier(t, { document: '45997418000153', name: 'BETA ALIMENTOS' });
      const built = await t.nfe({ number: 8002, issuer: { cnpj: '45997418000153', name: 'BETA ALIMENTOS S.A.' } });
      const res = await importXml(t, { xml: built.xml });
      expect(res.status).to.equal(201);
      expect(await countOf('supplier', t.companyId, 'document = ?', ['45997418000153'])).to.equal(1);
      // The document keeps the name the invoice gives.
      expect(res.body.entryDocument.supplier.name).to.equal('BETA ALIMENTOS S.A.');
      const preview = await api().get(`/api/entry-document/confirm-preview/${res.body.entryDocument.id}`).set(t.headers());
      expect(preview.status).to.equal(200);
      const blocking = preview.body.blockingProblems.find((p: { code: string }) => p.code === 'ITEM_WITHOUT_PRODUCT');
      expect(blocking).to.include({ lineNumber: 1 });
    });

    it('no cobr/dup: no installments; confirmation would create one payable at the entry date for vNF', async () => {
      const built = await t.nfe({ number: 8003 });
      const res = await importXml(t, { xml: built.xml, entryDate: '2025-03-11' });
      expect(res.status).to.equal(201);
      const [entry] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(await countOf('entry_document_installment', t.companyId, 'entry_document_id = ?', [entry.id])).to.equal(0);
      const preview = await api().get(`/api/entry-document/confirm-preview/${res.body.entryDocument.id}`).set(t.headers());
      expect(preview.body.payables).to.deep.equal([{ number: 1, dueDate: '2025-03-11', amount: num(built.totals.vNF) }]);
    });

    it('request items win: product, conversion factor, ignored lines; saveMapping writes the map and the next invoice resolves by MAP', async () => {
      const box = await makeProduct(t, { name: 'LEITE INTEGRAL 1L', unit: 'UN' });
      const spec = {
        issuer: { cnpj: '06990590000123', name: 'GAMA LATICINIOS' },
        items: [
          { code: 'LT-12', description: 'LEITE INTEGRAL CX 12X1L', unit: 'CX', quantity: '5', unitPrice: '60.00' },
          { code: 'BRINDE', description: 'DISPLAY PROMOCIONAL', quantity: '1', unitPrice: '0.01' },
        ],
      };
      const first = await t.nfe({ ...spec, number: 8004 });
      const res = await importXml(t, {
        xml: first.xml,
        items: [
          { lineNumber: 1, productId: box.hash, conversionFactor: 12, saveMapping: true },
          { lineNumber: 2, ignored: true },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.items[0]).to.include({
        productId: box.hash,
        conversionFactor: 12,
        source: 'REQUEST',
        reviewStatus: 'MATCHED',
        mappingSaved: true,
      });
      expect(res.body.items[1]).to.include({ reviewStatus: 'IGNORED' });
      const [entry] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [first.accessKey]);
      const items = await rowsOf('entry_document_item', t.companyId, 'entry_document_id = ?', [entry.id], 'line_number');
      expect(
        items.map((i) => [
          Number(i.product_id) || null,
          num(i.conversion_factor),
          num(i.stock_quantity),
          num(i.unit_cost),
          i.review_status,
        ]),
      ).to.deep.equal([
        [box.id, 12, 60, 5, 'MATCHED'],
        [null, 1, 1, 0.01, 'IGNORED'],
      ]);
      const [entryMap] = await rowsOf('product_map_entry', t.companyId, 'supplier_document = ? AND supplier_product_code = ?', [
        '06990590000123',
        'LT-12',
      ]);
      expect([Number(entryMap.product_id), num(entryMap.conversion_factor)]).to.deep.equal([box.id, 12]);

      const second = await t.nfe({ ...spec, number: 8005 });
      const again = await importXml(t, { xml: second.xml });
      expect(again.status).to.equal(201);
      expect(again.body.items[0]).to.include({ productId: box.hash, conversionFactor: 12, source: 'MAP', reviewStatus: 'MATCHED' });
      const [used] = await rowsOf('product_map_entry', t.companyId, 'supplier_document = ? AND supplier_product_code = ?', [
        '06990590000123',
        'LT-12',
      ]);
      expect(Number(used.use_count)).to.be.greaterThan(Number(entryMap.use_count));
    });

    it('409 NFE_ALREADY_IMPORTED naming the entry document; nothing else written', async () => {
      const built = await t.nfe({ number: 8006 });
      const first = await importXml(t, { xml: built.xml });
      expect(first.status).to.equal(201);
      const second = await importXml(t, { xml: built.xml });
      expectProblem(second, 409, 'NFE_ALREADY_IMPORTED');
      expect(second.body.entryDocumentId).to.equal(first.body.entryDocument.id);
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
      const [inbound] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(await countOf('nfe_inbound_event', t.companyId, "inbound_id = ? AND type = 'IMPORTED'", [inbound.id])).to.equal(1);
    });

    it('two imports of one key at once: one 201, one 409 naming the winner; one document', async () => {
      const built = await t.nfe({
        number: 8007,
        items: [
          { code: 'A1', quantity: '1', unitPrice: '9.99' },
          { code: 'A2', quantity: '2', unitPrice: '1.5' },
        ],
      });
      const [a, b] = await Promise.all([importXml(t, { xml: built.xml }), importXml(t, { xml: built.xml })]);
      const statuses = [a.status, b.status].sort();
      expect(statuses, JSON.stringify([a.body, b.body])).to.deep.equal([201, 409]);
      const winner = a.status === 201 ? a : b;
      const loser = a.status === 201 ? b : a;
      expectProblem(loser, 409, 'NFE_ALREADY_IMPORTED');
      expect(loser.body.entryDocumentId).to.equal(winner.body.entryDocument.id);
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
      const [entry] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(await countOf('entry_document_item', t.companyId, 'entry_document_id = ?', [entry.id])).to.equal(2);
    });

    it('a tampered invoice → 422 with the report; nothing written (no record, no supplier, no draft)', async () => {
      const built = await t.nfe({ number: 8008, issuer: { cnpj: '29380734000101', name: 'DELTA' } });
      const res = await importXml(t, { xml: built.xml.replace('<qCom>10.0000</qCom>', '<qCom>11.0000</qCom>') });
      expectProblem(res, 422, 'NFE_SIGNATURE_INVALID');
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(0);
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(0);
      expect(await countOf('supplier', t.companyId, 'document = ?', ['29380734000101'])).to.equal(0);
    });

    it('bad input: 400 with field paths; an unknown product 404 and nothing written', async () => {
      const built = await t.nfe({ number: 8009 });
      const bad = await importXml(t, { xml: built.xml, entryDate: '12/03/2025', items: [{ lineNumber: 0, conversionFactor: -1 }] });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal([
        'entryDate',
        'items[0].conversionFactor',
        'items[0].lineNumber',
      ]);
      const foreign = await makeProduct(other);
      expectProblem(await importXml(t, { xml: built.xml, items: [{ lineNumber: 1, productId: foreign.hash }] }), 404, 'PRODUCT_NOT_FOUND');
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(0);
    });
  });

  describe('POST importar (a staged record)', () => {
    it('by inboundId or by accessKey: 201, origin NFE_XML for an upload and NFE_SEFAZ for a record from the tax authority', async () => {
      const uploaded = await t.nfe({ number: 8101 });
      expect((await stage(t, uploaded.xml)).status).to.equal(201);
      const byId = await importStaged(t, { inboundId: await inboundIdOf(t, uploaded.accessKey) });
      expect(byId.status, JSON.stringify(byId.body)).to.equal(201);
      expect(byId.body.entryDocument).to.include({ origin: 'NFE_XML', accessKey: uploaded.accessKey, status: 'DRAFT' });
      expect(byId.body.inbound.importStatus).to.equal('IMPORTED');

      const fromSefaz = await t.nfe({ number: 8102 });
      expect((await stage(t, fromSefaz.xml)).status).to.equal(201);
      await dataSource.manager.update(
        NfeInbound,
        { companyId: t.companyId, accessKey: fromSefaz.accessKey },
        { source: 'SEFAZ', nsu: '000000000000777' },
      );
      const byKey = await importStaged(t, { accessKey: fromSefaz.accessKey });
      expect(byKey.status).to.equal(201);
      expect(byKey.body.entryDocument.origin).to.equal('NFE_SEFAZ');
      expect(byKey.body.entryDocument.totals.total).to.equal(num(fromSefaz.totals.vNF));
    });

    it('two imports of one staged record at once: one 201, one 409', async () => {
      const built = await t.nfe({ number: 8103 });
      expect((await stage(t, built.xml)).status).to.equal(201);
      const id = await inboundIdOf(t, built.accessKey);
      const [a, b] = await Promise.all([importStaged(t, { inboundId: id }), importStaged(t, { inboundId: id })]);
      expect([a.status, b.status].sort()).to.deep.equal([201, 409]);
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
    });

    it('a record without XML → 422 NFE_XML_NOT_AVAILABLE; cancelled by the issuer → 422 NFE_CANCELLED', async () => {
      const built = await t.nfe({ number: 8104 });
      expect((await stage(t, built.xml)).status).to.equal(201);
      await dataSource.manager.update(NfeInbound, { companyId: t.companyId, accessKey: built.accessKey }, { authorityStatus: 'CANCELLED' });
      expectProblem(await importStaged(t, { accessKey: built.accessKey }), 422, 'NFE_CANCELLED');
      await dataSource.manager.update(
        NfeInbound,
        { companyId: t.companyId, accessKey: built.accessKey },
        { authorityStatus: 'AUTHORIZED', hasXml: false, xmlGzip: null, kind: 'SUMMARY' },
      );
      expectProblem(await importStaged(t, { accessKey: built.accessKey }), 422, 'NFE_XML_NOT_AVAILABLE');
      expect(await countOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(0);
    });

    it("another company's record → 404; a record of a filial the token does not grant → 403; bad body → 400", async () => {
      const built = await other.nfe({ number: 8105 });
      expect((await stage(other, built.xml)).status).to.equal(201);
      const foreignId = await inboundIdOf(other, built.accessKey);
      expectProblem(await importStaged(t, { inboundId: foreignId }), 404, 'NFE_INBOUND_NOT_FOUND');
      expectProblem(await importStaged(t, { accessKey: built.accessKey }), 404, 'NFE_INBOUND_NOT_FOUND');

      const f1 = buildNfe({
        number: 8106,
        recipient: { cnpj: (await rowsOf('filial', t.companyId, 'id = ?', [t.filialIds[1]]))[0].cnpj as string },
        items: [{ quantity: '1', unitPrice: '2' }],
      });
      expect((await api().post(`${NFE}/stage-xml`).set(t.headers(1)).send({ xml: f1.xml })).status).to.equal(201);
      const res = await api()
        .post(`${NFE}/importar`)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }))
        .send({ inboundId: await inboundIdOf(t, f1.accessKey) });
      expectProblem(res, 403, 'FILIAL_NOT_GRANTED');

      expectProblem(await importStaged(t, {}), 400, 'VALIDATION_ERROR');
      expectProblem(await importStaged(t, { inboundId: '!!' }), 400, 'INVALID_ID');
    });

    it("releaseImportedInbound (for the draft's DELETE): the record is PENDING again, with an event", async () => {
      const built = await t.nfe({ number: 8108 });
      const first = await importXml(t, { xml: built.xml });
      expect(first.status).to.equal(201);
      const [entry] = await rowsOf('entry_document', t.companyId, 'access_key = ?', [built.accessKey]);
      const released = await inTransaction(NO_UNIT, (em) => releaseImportedInbound(em, t.ctx, Number(entry.id)));
      expect(released).to.equal(1);
      const [inbound] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect([inbound.import_status, inbound.entry_document_id]).to.deep.equal(['PENDING', null]);
      const events = await rowsOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [inbound.id]);
      expect(events.map((e) => e.type)).to.deep.equal(['STAGED', 'IMPORTED', 'IMPORT_RELEASED']);
      expect(
        await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.import-released' AND aggregate_id = ?", [inbound.id]),
      ).to.equal(1);
      const pending = await api().get(`${NFE}/inbound/pendentes/${t.filialHashes[0]}?pageSize=100`).set(t.headers());
      expect(pending.body.data.map((r: { accessKey: string }) => r.accessKey)).to.include(built.accessKey);
      // A manual draft was not imported from anything.
      expect(await inTransaction(NO_UNIT, (em) => releaseImportedInbound(em, t.ctx, 999999))).to.equal(0);
    });

    it('a deleted draft frees the key: the record can be imported again', async () => {
      const built = await t.nfe({ number: 8107 });
      const first = await importXml(t, { xml: built.xml });
      expect(first.status).to.equal(201);
      expect((await api().delete(`/api/entry-document/${first.body.entryDocument.id}`).set(t.headers())).status).to.equal(204);
      const [inbound] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect([inbound.import_status, inbound.entry_document_id]).to.deep.equal(['PENDING', null]);
      const pending = await api().get(`${NFE}/inbound/pendentes/${t.filialHashes[0]}?pageSize=100`).set(t.headers());
      expect(pending.body.data.map((r: { accessKey: string }) => r.accessKey)).to.include(built.accessKey);
      const again = await importStaged(t, { accessKey: built.accessKey });
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect(again.body.entryDocument.id).to.not.equal(first.body.entryDocument.id);
      expect(again.body.inbound.entryDocumentId).to.equal(again.body.entryDocument.id);
    });
  });
});
