import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId, encodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import { api } from '../support/api';
import { makeProduct, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { randomCnpj } from '../support/tenant';
import { NFE, nfeTenant, NfeTenant, uploadConsulted } from '../nfe/nfe-support';
import { createDraft, draftBody, footprint, item, payablesOf } from './support';

/*
 * Line review of drafts through the API: lines edited by id (product, conversion factor, review
 * state, saving the mapping), "apply the product map again", and the supplier's declared values of
 * an imported NF-e that no edit changes.
 */

interface Line {
  id: string;
  lineNumber: number;
  reviewStatus: string;
  productId: string | null;
  description: string;
  conversionFactor: number;
  stockQuantity: number;
  declared: Record<string, unknown>;
}

describe('Line review: PATCH /entry-document/lines/:id, POST /entry-document/apply-product-map/:id', () => {
  let t: NfeTenant;
  let other: NfeTenant;
  let number = 9200;
  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
  });

  /** An imported draft of three unmatched lines, from an issuer of its own (the product map is per supplier). */
  async function importedDraft(tenant = t) {
    const cnpj = randomCnpj();
    const built = await tenant.nfe({
      number: ++number,
      issuer: { cnpj, name: 'FORNECEDOR REVISAO LTDA', uf: 'SP' },
      items: [
        {
          code: 'RV-CX',
          description: 'REFRIGERANTE 2L CX C/6',
          unit: 'CX',
          quantity: '10',
          unitPrice: '30.00',
          ncm: '22021000',
          cfop: '5102',
        },
        { code: 'RV-UN', description: 'BISCOITO 200G', unit: 'UN', quantity: '24', unitPrice: '2.50', ncm: '19053100', cfop: '5102' },
        { code: 'RV-BR', description: 'DISPLAY DE BALCAO', unit: 'UN', quantity: '1', unitPrice: '5.00', ncm: '49111090', cfop: '5102' },
      ],
      installments: [{ dueDate: '2099-04-10' }],
    });
    const res = await uploadConsulted(tenant, await api().post(`${NFE}/importar-xml`).set(tenant.headers()).send({ xml: built.xml }));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.entryDocument.id as string;
    const doc = await api().get(`/api/entry-document/detail/${id}`).set(tenant.headers());
    return { id, lines: doc.body.items as Line[], supplier: cnpj, built };
  }

  const review = (id: string, body: Record<string, unknown>, headers = t.headers()) =>
    api().patch(`/api/entry-document/lines/${id}`).set(headers).send(body);
  const applyMap = (id: string, body: Record<string, unknown>, headers = t.headers()) =>
    api().post(`/api/entry-document/apply-product-map/${id}`).set(headers).send(body);
  const detail = (id: string) => api().get(`/api/entry-document/detail/${id}`).set(t.headers());
  const itemRows = (id: string) =>
    dataSource.manager.find(EntryDocumentItem, {
      where: { entryDocumentId: decodeId('entry-document', id) },
      order: { lineNumber: 'ASC' },
    });

  it('a draft with 3 unmatched lines fixed line by line, then confirmed; the declared values never change', async () => {
    const { id, lines, supplier } = await importedDraft();
    expect(lines.map((l) => l.reviewStatus)).to.deep.equal(['PENDING', 'PENDING', 'PENDING']);
    const declaredBefore = lines.map((l) => l.declared);
    expect(declaredBefore[0]).to.deep.equal({
      code: 'RV-CX',
      description: 'REFRIGERANTE 2L CX C/6',
      unit: 'CX',
      quantity: 10,
      unitPrice: 30,
      ncm: '22021000',
      cfop: '5102',
    });
    const soda = await makeProduct(t, { unit: 'UN' });
    const biscuit = await makeProduct(t);

    const first = await review(id, {
      version: 1,
      lines: [{ id: lines[0].id, productId: soda.hash, conversionFactor: 6, saveMapping: true }],
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.include({ version: 2, pendingItemCount: 2 });
    expect(first.body.items[0]).to.deep.include({
      id: lines[0].id,
      reviewStatus: 'MATCHED',
      productId: soda.hash,
      conversionFactor: 6,
      stockQuantity: 60,
    });
    // Only the booked side of the line changed: taxes and values as imported (the cost per stock unit follows the factor).
    const {
      reviewStatus: _r,
      productId: _p,
      product: _pr,
      conversionFactor: _c,
      stockQuantity: _s,
      unitCost: _u,
      cost,
      ...rest
    } = first.body.items[0];
    const {
      reviewStatus: _r0,
      productId: _p0,
      product: _pr0,
      conversionFactor: _c0,
      stockQuantity: _s0,
      unitCost: _u0,
      cost: cost0,
      ...rest0
    } = lines[0] as unknown as Record<string, any>;
    expect(rest).to.deep.equal(rest0);
    expect(cost).to.deep.include({ ...cost0, stockQuantity: 60, unitCost: 5 });
    // Line ids stay: the client keeps reviewing with the ids it has.
    expect(first.body.items.map((l: Line) => l.id)).to.deep.equal(lines.map((l) => l.id));
    const entry = await dataSource.manager.findOneByOrFail(ProductMapEntry, {
      companyId: t.companyId,
      supplierDocument: supplier,
      supplierProductCode: 'RV-CX',
    });
    expect([entry.productId, entry.conversionFactor.toFixed(6), entry.supplierUnit, entry.useCount]).to.deep.equal([
      soda.id,
      '6.000000',
      'CX',
      1,
    ]);

    const second = await review(id, { version: 2, lines: [{ id: lines[1].id, productId: biscuit.hash }] });
    expect(second.body.items[1]).to.deep.include({ reviewStatus: 'MATCHED', productId: biscuit.hash, conversionFactor: 1 });
    const stale = await review(id, { version: 2, lines: [{ id: lines[2].id, reviewStatus: 'IGNORED' }] });
    expectProblem(stale, 409, 'STALE_VERSION');
    const third = await review(id, { version: 3, lines: [{ id: lines[2].id, reviewStatus: 'IGNORED' }] });
    expect(third.body).to.deep.include({ version: 4, pendingItemCount: 0 });
    expect(third.body.items[2].reviewStatus).to.equal('IGNORED');
    expect((await itemRows(id)).map((r) => encodeId('entry-document-item', r.id))).to.deep.equal(lines.map((l) => l.id));

    const preview = await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers());
    expect(preview.body.blockingProblems).to.deep.equal([]);
    const confirmed = await api().post(`/api/entry-document/confirm/${id}`).set(t.headers());
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect((await stockOf(t, 0, soda.id)).quantity).to.match(/^60(\.0+)?$/);
    expect((await stockOf(t, 0, biscuit.id)).quantity).to.match(/^24(\.0+)?$/);
    // The ignored line stays in the payable.
    const [payable] = await payablesOf(t, id);
    expect(payable.amount.toFixed(2)).to.equal('365.00');

    const after = await detail(id);
    expect(after.body.items.map((l: Line) => l.declared)).to.deep.equal(declaredBefore);

    const trail = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'entry-document', entityId: decodeId('entry-document', id) },
      order: { id: 'ASC' },
    });
    expect(trail.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED', 'UPDATED', 'UPDATED', 'CONFIRMED']);
    expect(trail[1].changes).to.deep.include({
      'items[1].productId': [null, soda.hash],
      'items[1].reviewStatus': ['PENDING', 'MATCHED'],
      'items[1].conversionFactor': ['1.000000', '6.000000'],
      pendingItemCount: [3, 2],
    });
    expect(trail[3].changes).to.deep.include({ 'items[3].reviewStatus': ['PENDING', 'IGNORED'] });
    const events = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, aggregateType: 'entry-document', aggregateId: decodeId('entry-document', id) },
      order: { id: 'ASC' },
    });
    expect(events.map((e) => e.type)).to.deep.equal([
      'entry-document.created',
      'entry-document.updated',
      'entry-document.updated',
      'entry-document.updated',
      'entry-document.confirmed',
    ]);
  });

  it("PATCH /entry-document/:id resending an imported draft's items books its own values beside the declared ones", async () => {
    const { id, lines } = await importedDraft();
    const resent = lines.map((l, i) =>
      item({
        description: i === 0 ? 'Refrigerante cola 2L (fardo)' : l.description,
        unit: i === 0 ? 'FD' : (l.declared.unit as string),
        quantity: l.declared.quantity as number,
        unitPrice: l.declared.unitPrice as number,
      }),
    );
    const ok = await api().patch(`/api/entry-document/${id}`).set(t.headers()).send({ version: 1, items: resent });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.items[0]).to.deep.include({ description: 'Refrigerante cola 2L (fardo)', unit: 'FD', supplierProductCode: 'RV-CX' });
    expect(ok.body.items.map((l: Line) => l.declared)).to.deep.equal(lines.map((l) => l.declared));

    const before = await footprint(t);
    const declaredEdit = await api()
      .patch(`/api/entry-document/${id}`)
      .set(t.headers())
      .send({ version: 2, items: resent.map((r, i) => (i === 1 ? { ...r, declared: { description: 'OUTRO TEXTO', unit: 'UN' } } : r)) });
    expectProblem(declaredEdit, 422, 'ENTRY_DOCUMENT_FIELD_READ_ONLY');
    expect(declaredEdit.body.fields).to.deep.equal(['items[1].declared.description']);
    const codeEdit = await api()
      .patch(`/api/entry-document/${id}`)
      .set(t.headers())
      .send({ version: 2, items: resent.map((r, i) => (i === 2 ? { ...r, supplierProductCode: 'OUTRO' } : r)) });
    expectProblem(codeEdit, 422, 'ENTRY_DOCUMENT_FIELD_READ_ONLY');
    expect(codeEdit.body.fields).to.deep.equal(['items[2].supplierProductCode']);
    expectProblem(
      await api()
        .patch(`/api/entry-document/${id}`)
        .set(t.headers())
        .send({ version: 2, items: resent.slice(0, 2) }),
      422,
      'ENTRY_DOCUMENT_LINES_FIXED',
    );
    expect(await footprint(t)).to.deep.equal(before);
  });

  it('apply the product map again: PENDING lines resolve through entries linked or auto-created since the import', async () => {
    const { id, lines, supplier } = await importedDraft();
    const soda = await makeProduct(t);
    const link = await api()
      .post('/api/entry-document/product-map/link')
      .set(t.headers())
      .send({ supplierDocument: supplier, supplierProductCode: 'RV-CX', productId: soda.hash, conversionFactor: 6, supplierUnit: 'CX' });
    expect(link.status, JSON.stringify(link.body)).to.equal(201);
    const created = await api()
      .post('/api/entry-document/product-map/auto-create')
      .set(t.headers())
      .send({ supplierDocument: supplier, supplierProductCode: 'RV-UN', description: 'BISCOITO 200G', unit: 'UN' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // The draft does not change by itself.
    expect((await detail(id)).body.items.map((l: Line) => l.reviewStatus)).to.deep.equal(['PENDING', 'PENDING', 'PENDING']);

    expectProblem(await applyMap(id, {}), 400, 'VALIDATION_ERROR');
    expectProblem(await applyMap(id, { version: 9 }), 409, 'STALE_VERSION');
    const res = await applyMap(id, { version: 1 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.applied).to.deep.equal([
      { itemId: lines[0].id, lineNumber: 1, productId: soda.hash, conversionFactor: 6 },
      { itemId: lines[1].id, lineNumber: 2, productId: created.body.product.id, conversionFactor: 1 },
    ]);
    expect(res.body).to.deep.include({ version: 2, pendingItemCount: 1 });
    expect(res.body.items.map((l: Line) => [l.id, l.reviewStatus, l.stockQuantity])).to.deep.equal([
      [lines[0].id, 'MATCHED', 60],
      [lines[1].id, 'MATCHED', 24],
      [lines[2].id, 'PENDING', 1],
    ]);
    const entry = await dataSource.manager.findOneByOrFail(ProductMapEntry, {
      companyId: t.companyId,
      supplierDocument: supplier,
      supplierProductCode: 'RV-CX',
    });
    expect(entry.useCount).to.equal(1);

    // Nothing left to resolve: no change, no new version.
    const again = await applyMap(id, { version: 2 });
    expect(again.body).to.deep.include({ version: 2, applied: [] });
    const trail = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'entry-document', entityId: decodeId('entry-document', id) },
    });
    expect(trail.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
  });

  it('review states: MATCHED needs a product, PENDING clears it, IGNORED keeps it; mapping rules (422); nothing written on refusal', async () => {
    const { id, lines } = await importedDraft();
    const p = await makeProduct(t);
    const before = await footprint(t);
    expectProblem(await review(id, { version: 1, lines: [{ id: lines[0].id, reviewStatus: 'MATCHED' }] }), 422, 'LINE_PRODUCT_REQUIRED');
    expectProblem(await review(id, { version: 1, lines: [{ id: lines[0].id, saveMapping: true }] }), 422, 'LINE_MAPPING_NEEDS_PRODUCT');
    expectProblem(
      await review(id, { version: 1, lines: [{ id: lines[0].id, productId: p.hash, reviewStatus: 'PENDING' }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await footprint(t)).to.deep.equal(before);

    const ignored = await review(id, {
      version: 1,
      lines: [
        { id: lines[0].id, productId: p.hash, reviewStatus: 'IGNORED' },
        { id: lines[1].id, productId: p.hash, conversionFactor: '2.5' },
      ],
    });
    expect(ignored.body.items.slice(0, 2).map((l: Line) => [l.reviewStatus, l.productId, l.stockQuantity])).to.deep.equal([
      ['IGNORED', p.hash, 10],
      ['MATCHED', p.hash, 60],
    ]);
    // A product chosen again takes the line out of IGNORED; PENDING clears the product.
    const back = await review(id, {
      version: 2,
      lines: [
        { id: lines[0].id, productId: p.hash },
        { id: lines[1].id, reviewStatus: 'PENDING' },
      ],
    });
    expect(back.body.items.slice(0, 2).map((l: Line) => [l.reviewStatus, l.productId])).to.deep.equal([
      ['MATCHED', p.hash],
      ['PENDING', null],
    ]);
    expect(back.body.pendingItemCount).to.equal(2);

    // A manual line has no supplier code to map.
    const manual = await createDraft(t, draftBody({ items: [item()] }));
    const manualLine = manual.items[0].id;
    expectProblem(
      await review(manual.id, { version: 1, lines: [{ id: manualLine, productId: p.hash, saveMapping: true }] }),
      422,
      'LINE_HAS_NO_SUPPLIER_CODE',
    );
    expect((await review(manual.id, { version: 1, lines: [{ id: manualLine, productId: p.hash }] })).body.items[0].reviewStatus).to.equal(
      'MATCHED',
    );
  });

  it('bad input → 400 with paths; nothing written', async () => {
    const { id, lines } = await importedDraft();
    const before = await footprint(t);
    const bad = await review(id, { lines: [{ id: lines[0].id, conversionFactor: 0, reviewStatus: 'DONE' }, { productId: 'x' }] });
    expectProblem(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members([
      'version',
      'lines[0].conversionFactor',
      'lines[0].reviewStatus',
      'lines[1].id',
    ]);
    expectProblem(await review(id, { version: 1, lines: [] }), 400, 'VALIDATION_ERROR');
    expectProblem(await review(id, { version: 1, lines: [{ id: lines[0].id }] }), 400, 'VALIDATION_ERROR');
    expectProblem(await review(id, { version: 1, lines: [{ id: '!!', productId: null }] }), 400, 'INVALID_ID');
    expectProblem(
      await review(id, {
        version: 1,
        lines: [
          { id: lines[0].id, productId: null },
          { id: lines[0].id, conversionFactor: 2 },
        ],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(await footprint(t)).to.deep.equal(before);
  });

  it("another tenant's document, line or product → 404; a line of another document → 404; filial not granted → 403; not a draft → 409", async () => {
    const { id, lines } = await importedDraft();
    const foreign = await importedDraft(other);
    const sibling = await createDraft(t, draftBody());
    const foreignProduct = await makeProduct(other);
    const before = await footprint(t);
    expectProblem(
      await review(id, { version: 1, lines: [{ id: foreign.lines[0].id, productId: null }] }),
      404,
      'ENTRY_DOCUMENT_ITEM_NOT_FOUND',
    );
    expectProblem(
      await review(id, { version: 1, lines: [{ id: sibling.items[0].id, productId: null }] }),
      404,
      'ENTRY_DOCUMENT_ITEM_NOT_FOUND',
    );
    expectProblem(
      await review(id, { version: 1, lines: [{ id: encodeId('entry-document-item', 99_999_999), productId: null }] }),
      404,
      'ENTRY_DOCUMENT_ITEM_NOT_FOUND',
    );
    expectProblem(
      await review(foreign.id, { version: 1, lines: [{ id: foreign.lines[0].id, productId: null }] }),
      404,
      'ENTRY_DOCUMENT_NOT_FOUND',
    );
    expectProblem(await applyMap(foreign.id, { version: 1 }), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
    expectProblem(await review(id, { version: 1, lines: [{ id: lines[0].id, productId: foreignProduct.hash }] }), 404, 'PRODUCT_NOT_FOUND');
    const onlySecond = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
    expectProblem(await review(id, { version: 1, lines: [{ id: lines[0].id, productId: null }] }, onlySecond), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await applyMap(id, { version: 1 }, onlySecond), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(
      await review(id, { version: 1, lines: [{ id: lines[0].id, productId: null }] }, t.headersWith({ scope: 'entry-document:read' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect(await footprint(t)).to.deep.equal(before);

    const p = await makeProduct(t);
    const manual = await createDraft(t, draftBody({ items: [item({ productId: p.hash })] }));
    expect((await api().post(`/api/entry-document/confirm/${manual.id}`).set(t.headers())).status).to.equal(200);
    const notDraft = await review(manual.id, { version: 2, lines: [{ id: manual.items[0].id, conversionFactor: 2 }] });
    expectProblem(notDraft, 409, 'ENTRY_DOCUMENT_CONFIRMED');
    expect(notDraft.body.currentStatus).to.equal('CONFIRMED');
    expectProblem(await applyMap(manual.id, { version: 2 }), 409, 'ENTRY_DOCUMENT_CONFIRMED');
  });

  it("a line's entry CFOP and operation class are reviewed like PATCH items sets them: chosen, validated, audited, and given back to the rules with null", async () => {
    const p = await makeProduct(t);
    const d = await createDraft(t, draftBody({ items: [item({ productId: p.hash, cfop: '5102', quantity: 4, unitPrice: '25.00' })] }));
    const line = d.items[0].id;
    expect(d.items[0]).to.deep.include({
      entryCfop: '1102',
      entryCfopSource: 'DEFAULT',
      operationClass: 'PURCHASE_RESALE',
      operationClassSource: 'CFOP',
    });

    const office = await review(d.id, { version: 1, lines: [{ id: line, entryCfop: '1556' }] });
    expect(office.status, JSON.stringify(office.body)).to.equal(200);
    expect(office.body.items[0]).to.deep.include({
      cfop: '5102',
      entryCfop: '1556',
      entryCfopSource: 'MANUAL',
      operationClass: 'PURCHASE_USE_CONSUMPTION',
      operationClassSource: 'CFOP',
    });
    const row = async () => (await itemRows(d.id))[0];
    expect([(await row()).entryCfop, (await row()).entryCfopSource, (await row()).operationClass]).to.deep.equal([
      '1556',
      'MANUAL',
      'PURCHASE_USE_CONSUMPTION',
    ]);

    const bonus = await review(d.id, { version: 2, lines: [{ id: line, operationClass: 'BONUS' }] });
    expect(bonus.body.items[0]).to.deep.include({ entryCfop: '1556', operationClass: 'BONUS', operationClassSource: 'MANUAL' });
    const preview = await api().get(`/api/entry-document/confirm-preview/${d.id}`).set(t.headers());
    expect(preview.body.lines[0]).to.deep.include({ operationClass: 'BONUS', posts: { stock: 'OWN', payable: false } });
    expect(preview.body.payableTotal).to.equal(0);

    const back = await review(d.id, { version: 3, lines: [{ id: line, entryCfop: null, operationClass: null }] });
    expect(back.body.items[0]).to.deep.include({
      entryCfop: '1102',
      entryCfopSource: 'DEFAULT',
      operationClass: 'PURCHASE_RESALE',
      operationClassSource: 'CFOP',
    });
    const trail = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'entry-document', entityId: decodeId('entry-document', d.id), action: 'UPDATED' },
      order: { id: 'ASC' },
    });
    expect(trail).to.have.length(3);
    expect(trail[0].changes).to.deep.include({
      'items[1].entryCfop': ['1102', '1556'],
      'items[1].operationClass': ['PURCHASE_RESALE', 'PURCHASE_USE_CONSUMPTION'],
    });
    expect(trail[1].changes).to.deep.include({ 'items[1].operationClass': ['PURCHASE_USE_CONSUMPTION', 'BONUS'] });
    expect(trail[2].changes).to.deep.include({
      'items[1].entryCfop': ['1556', '1102'],
      'items[1].operationClass': ['BONUS', 'PURCHASE_RESALE'],
    });

    // The same validation as PATCH items: the field's rules (400), and finNFe's class that cannot be chosen away (400, the edit's path).
    const compl = await createDraft(
      t,
      draftBody({
        purpose: '2',
        items: [
          item({ productId: p.hash, cfop: '5102', quantity: 0, unitPrice: 0, otherExpenses: '12.50' }),
          item({ productId: p.hash, cfop: '5102', quantity: 0, unitPrice: 0, otherExpenses: '1.50' }),
        ],
      }),
    );
    const before = await footprint(t);
    for (const [field, value] of [
      ['entryCfop', '5102'],
      ['entryCfop', '11021'],
      ['operationClass', 'VALUE_ADJUSTMENT'],
      ['operationClass', 'SOMETHING'],
    ] as const) {
      const res = await review(d.id, { version: 4, lines: [{ id: line, [field]: value }] });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.include(`lines[0].${field}`);
    }
    const refused = await review(compl.id, { version: 1, lines: [{ id: compl.items[1].id, operationClass: 'PURCHASE_RESALE' }] });
    expectProblem(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.errors).to.have.length(1);
    expect(refused.body.errors[0].path).to.equal('lines[0].operationClass');
    expect(refused.body.errors[0].message).to.contain('lines[0].operationClass cannot be PURCHASE_RESALE');
    expect(await footprint(t)).to.deep.equal(before);
  });

  it('two concurrent reviews of one version: one applies, the other → 409 STALE_VERSION', async () => {
    const { id, lines } = await importedDraft();
    const p = await makeProduct(t);
    const results = await Promise.all([
      review(id, { version: 1, lines: [{ id: lines[0].id, productId: p.hash }] }),
      review(id, { version: 1, lines: [{ id: lines[1].id, productId: p.hash }] }),
    ]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    expectProblem(
      results.find((r) => r.status === 409)!,
      409,
      'STALE_VERSION',
    );
    const rows = await itemRows(id);
    expect(rows.filter((r) => r.reviewStatus === 'MATCHED')).to.have.length(1);
    expect((await detail(id)).body).to.deep.include({ version: 2, pendingItemCount: 2 });
  });
});
