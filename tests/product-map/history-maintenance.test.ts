import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { encodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import { recordMapUse } from '../../src/modules/product-map/product-map.service';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { makePurchase } from './purchases';
import { BASE, makeEntry, punctuatedCnpj } from './support';

describe('Product map: history, PATCH conversion-factor, DELETE', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  describe('GET /history/:supplierDocument/:filialId', () => {
    let supplier: string;
    let beer: Awaited<ReturnType<typeof makeProduct>>;
    let rice: Awaited<ReturnType<typeof makeProduct>>;
    const history = (tenant: TestTenant, doc: string, filial: string, query: object = {}, headers = tenant.headers()) =>
      api()
        .get(`${BASE}/history/${encodeURIComponent(doc)}/${filial}`)
        .query(query)
        .set(headers);

    before(async () => {
      supplier = randomCnpj();
      await makeSupplier(t, { document: supplier, name: 'Distribuidora Teste Ltda' });
      beer = await makeProduct(t, { name: 'Cerveja Pilsen 350ml lata' });
      rice = await makeProduct(t, { name: 'Arroz Branco 5kg' });
      await makeEntry(t, {
        supplierDocument: supplier,
        supplierProductCode: 'B-350',
        productId: beer.id,
        conversionFactor: 12,
        supplierUnit: 'CX',
      });
      await makeEntry(t, { supplierDocument: supplier, supplierProductCode: 'A-5', productId: rice.id, supplierUnit: 'FD' });
      await makeEntry(t, { supplierDocument: randomCnpj(), supplierProductCode: 'B-350', productId: beer.id });
      await makeEntry(other, { supplierDocument: supplier, supplierProductCode: 'Z-OTHER', productId: (await makeProduct(other)).id });
      await inTransaction(NO_UNIT, (em) => recordMapUse(em, t.ctx, supplier, ['B-350', 'B-350', 'A-5']));
      await inTransaction(NO_UNIT, (em) => recordMapUse(em, t.ctx, supplier, ['B-350']));

      const line = (code: string, productId: number, quantity: string, unitPrice: string) => ({
        code,
        productId,
        quantity,
        unitPrice,
        conversionFactor: code === 'B-350' ? 12 : 1,
      });
      await makePurchase(t, {
        supplierDocument: supplier,
        entryDate: '2026-01-10',
        lines: [line('B-350', beer.id, '10', '45.5'), line('A-5', rice.id, '3', '110')],
      });
      await makePurchase(t, { supplierDocument: supplier, entryDate: '2026-02-10', lines: [line('B-350', beer.id, '20', '44.9')] });
      await makePurchase(t, { supplierDocument: supplier, entryDate: '2026-03-10', lines: [line('B-350', beer.id, '5', '46.123456789')] });
      // not purchases of this supplier at this filial: drafts, cancelled, another filial, another supplier
      await makePurchase(t, {
        supplierDocument: supplier,
        entryDate: '2026-04-01',
        status: 'DRAFT',
        lines: [line('B-350', beer.id, '99', '1')],
      });
      await makePurchase(t, {
        supplierDocument: supplier,
        entryDate: '2026-04-02',
        status: 'CANCELLED',
        lines: [line('B-350', beer.id, '98', '1')],
      });
      await makePurchase(t, {
        supplierDocument: supplier,
        entryDate: '2026-04-03',
        filialIndex: 1,
        lines: [line('B-350', beer.id, '97', '1')],
      });
      await makePurchase(t, { supplierDocument: randomCnpj(), entryDate: '2026-04-04', lines: [line('B-350', beer.id, '96', '1')] });
    });

    it("lists the supplier's entries with use counts and the last confirmed purchases at the filial, newest first", async () => {
      const res = await history(t, punctuatedCnpj(supplier), t.filialHashes[0], { purchases: 2 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.supplierDocument).to.equal(supplier);
      expect(res.body.supplier).to.deep.include({ name: 'Distribuidora Teste Ltda' });
      expect(res.body.pagination).to.deep.include({ total: 2, hasMore: false });
      const [a5, b350] = res.body.data;
      expect(a5).to.deep.include({ supplierProductCode: 'A-5', useCount: 1, productId: rice.hash, conversionFactor: 1 });
      expect(a5.product).to.deep.equal({ id: rice.hash, code: rice.code, name: rice.name, unit: 'UN', active: true });
      expect(a5.lastPurchases).to.have.length(1);
      expect(b350).to.deep.include({ supplierProductCode: 'B-350', useCount: 2, conversionFactor: 12 });
      expect(b350.lastUsedAt).to.be.a('string');
      expect(b350.lastPurchases.map((p: { entryDate: string }) => p.entryDate)).to.deep.equal(['2026-03-10', '2026-02-10']);
      expect(b350.lastPurchases[0]).to.deep.include({
        quantity: 5,
        unitPrice: 46.123456789,
        unit: 'CX',
        conversionFactor: 12,
        productId: beer.hash,
      });
      expect(b350.lastPurchases[0].entryDocumentId).to.be.a('string');
      expect(b350.lastPurchases[0]).to.include.keys('number', 'series', 'entryDocumentItemId');
    });

    it('pages the entries; sort by use count; purchases=0 leaves them out', async () => {
      const res = await history(t, supplier, t.filialHashes[0], { pageSize: 1, sort: '-useCount', purchases: 0 });
      expect(res.body.data.map((e: { supplierProductCode: string }) => e.supplierProductCode)).to.deep.equal(['B-350']);
      expect(res.body.data[0].lastPurchases).to.deep.equal([]);
      expect(res.body.pagination).to.deep.include({ total: 2, hasMore: true });
      const next = await history(t, supplier, t.filialHashes[0], {
        pageSize: 1,
        sort: '-useCount',
        cursor: res.body.pagination.nextCursor,
      });
      expect(next.body.data.map((e: { supplierProductCode: string }) => e.supplierProductCode)).to.deep.equal(['A-5']);
    });

    it('the other filial sees its own purchases only', async () => {
      const res = await history(t, supplier, t.filialHashes[1]);
      const b350 = res.body.data.find((e: { supplierProductCode: string }) => e.supplierProductCode === 'B-350');
      expect(b350.lastPurchases.map((p: { quantity: number }) => p.quantity)).to.deep.equal([97]);
    });

    it("another company's entries never show; its filial → 403; a filial not granted → 403; bad document → 400", async () => {
      const mine = await history(t, supplier, t.filialHashes[0]);
      expect(mine.body.data.map((e: { supplierProductCode: string }) => e.supplierProductCode)).to.not.include('Z-OTHER');
      const theirs = await history(other, supplier, other.filialHashes[0]);
      expect(theirs.body.data.map((e: { supplierProductCode: string }) => e.supplierProductCode)).to.deep.equal(['Z-OTHER']);
      expect(theirs.body.data[0].lastPurchases).to.deep.equal([]);
      expectProblem(await history(t, supplier, other.filialHashes[0]), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(
        await history(t, supplier, t.filialHashes[1], {}, t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      const bad = await history(t, '12345678901234', t.filialHashes[0]);
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['params.supplierDocument']);
    });
  });

  describe('PATCH /:id/conversion-factor', () => {
    const patch = (tenant: TestTenant, id: string, body: object) =>
      api().patch(`${BASE}/${id}/conversion-factor`).set(tenant.headers()).send(body);

    it('changes the factor for future imports only (a confirmed document keeps its own); audited; event', async () => {
      const supplier = randomCnpj();
      const p = await makeProduct(t, { name: 'Refrigerante Cola 2L' });
      const entry = await makeEntry(t, {
        supplierDocument: supplier,
        supplierProductCode: 'COLA-2L',
        productId: p.id,
        conversionFactor: 6,
        supplierUnit: 'FD',
      });
      const doc = await makePurchase(t, {
        supplierDocument: supplier,
        entryDate: '2026-05-01',
        lines: [{ code: 'COLA-2L', productId: p.id, quantity: 2, unitPrice: 50, conversionFactor: 6 }],
      });

      const res = await patch(t, entry.hash, { conversionFactor: '8.5', version: 1 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ id: entry.hash, conversionFactor: 8.5, version: 2 });

      const item = await dataSource.manager.findOneByOrFail(EntryDocumentItem, { companyId: t.companyId, entryDocumentId: doc.id });
      expect(item.conversionFactor.toFixed(6)).to.equal('6.000000');
      const matched = await api()
        .post(`${BASE}/match`)
        .set(t.headers())
        .send({ supplierDocument: supplier, items: [{ code: 'COLA-2L', description: '', unit: 'FD' }] });
      expect(matched.body.items[0].conversionFactor).to.equal(8.5);

      const audit = await dataSource.manager.find(AuditLog, {
        where: { companyId: t.companyId, entity: 'product-map-entry', entityId: entry.id },
      });
      expect(audit.map((a) => [a.action, a.changes])).to.deep.equal([['UPDATED', { conversionFactor: ['6', '8.5'] }]]);
      const events = await dataSource.manager.findBy(OutboxEvent, {
        companyId: t.companyId,
        type: 'product-map.conversion-factor-changed',
        aggregateId: entry.id,
      });
      expect(events.map((e) => e.data)).to.deep.equal([
        {
          id: entry.hash,
          supplierDocument: supplier,
          supplierProductCode: 'COLA-2L',
          productId: p.hash,
          conversionFactor: 8.5,
          previousConversionFactor: 6,
        },
      ]);

      // the same value changes nothing; without a version → 400 (every PATCH carries it)
      const again = await patch(t, entry.hash, { conversionFactor: 8.5, version: 2 });
      expect(again.body.version).to.equal(2);
      const unversioned = await patch(t, entry.hash, { conversionFactor: 9 });
      expectProblem(unversioned, 400, 'VALIDATION_ERROR');
      expect(unversioned.body.errors).to.deep.equal([{ path: 'version', message: 'version is required' }]);
    });

    it('stale version → 409; factor ≤ 0 or 7 decimals → 400; nothing written', async () => {
      const p = await makeProduct(t);
      const entry = await makeEntry(t, { supplierDocument: randomCnpj(), supplierProductCode: 'V', productId: p.id, conversionFactor: 3 });
      expectProblem(await patch(t, entry.hash, { conversionFactor: 4, version: 7 }), 409, 'STALE_VERSION');
      for (const conversionFactor of [0, -1, '0.0000001', 'abc']) {
        const res = await patch(t, entry.hash, { conversionFactor, version: 1 });
        expectProblem(res, 400, 'VALIDATION_ERROR');
        expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['conversionFactor']);
      }
      expectProblem(await patch(t, entry.hash, {}), 400, 'VALIDATION_ERROR');
      const row = await dataSource.manager.findOneByOrFail(ProductMapEntry, { id: entry.id });
      expect([row.conversionFactor.toFixed(6), row.version]).to.deep.equal(['3.000000', 1]);
    });

    it("another company's entry → 404 (nothing changed); malformed id → 400; unknown → 404", async () => {
      const foreign = await makeEntry(other, {
        supplierDocument: randomCnpj(),
        supplierProductCode: 'F',
        productId: (await makeProduct(other)).id,
        conversionFactor: 2,
      });
      expectProblem(await patch(t, foreign.hash, { conversionFactor: 5, version: 1 }), 404, 'PRODUCT_MAP_ENTRY_NOT_FOUND');
      expect((await dataSource.manager.findOneByOrFail(ProductMapEntry, { id: foreign.id })).conversionFactor.toFixed(6)).to.equal(
        '2.000000',
      );
      expectProblem(await patch(t, 'not-an-id!', { conversionFactor: 5, version: 1 }), 400, 'INVALID_ID');
      expectProblem(
        await patch(t, encodeId('product-map', 99_999_999), { conversionFactor: 5, version: 1 }),
        404,
        'PRODUCT_MAP_ENTRY_NOT_FOUND',
      );
    });
  });

  it('two concurrent PATCHes with the same version → one wins, the other 409; one audit row', async () => {
    const p = await makeProduct(t);
    const entry = await makeEntry(t, { supplierDocument: randomCnpj(), supplierProductCode: 'PAR', productId: p.id, conversionFactor: 1 });
    const results = await Promise.all(
      [6, 12].map((conversionFactor) =>
        api().patch(`${BASE}/${entry.hash}/conversion-factor`).set(t.headers()).send({ conversionFactor, version: 1 }),
      ),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const row = await dataSource.manager.findOneByOrFail(ProductMapEntry, { id: entry.id });
    expect([Number(row.conversionFactor.toFixed(6)), row.version]).to.deep.equal([winner.body.conversionFactor, 2]);
    expect(
      await dataSource.manager.countBy(AuditLog, { companyId: t.companyId, entity: 'product-map-entry', entityId: entry.id }),
    ).to.equal(1);
  });

  it('every route refuses an x-filial-id the token does not grant (403), nothing written', async () => {
    const p = await makeProduct(t);
    const entry = await makeEntry(t, {
      supplierDocument: randomCnpj(),
      supplierProductCode: 'GRANT',
      productId: p.id,
      conversionFactor: 3,
    });
    const headers = t.headersWith({ filiais: [t.filialHashes[0]] }, 1);
    const supplier = randomCnpj();
    const calls = [
      api()
        .post(`${BASE}/match`)
        .set(headers)
        .send({ supplierDocument: supplier, items: [{ code: 'X', description: 'X', unit: 'UN' }] }),
      api()
        .post(`${BASE}/link`)
        .set(headers)
        .send({ supplierDocument: supplier, supplierProductCode: 'X', productId: p.hash, supplierUnit: 'UN' }),
      api()
        .post(`${BASE}/auto-create`)
        .set(headers)
        .send({ supplierDocument: supplier, supplierProductCode: 'Y', description: 'Novo', unit: 'UN' }),
      api().get(`${BASE}/search`).query({ q: 'x' }).set(headers),
      api().get(`${BASE}/next-code`).set(headers),
      api().get(`${BASE}/history/${supplier}/${t.filialHashes[0]}`).set(headers),
      api().patch(`${BASE}/${entry.hash}/conversion-factor`).set(headers).send({ conversionFactor: 4, version: 1 }),
      api().delete(`${BASE}/${entry.hash}`).set(headers),
    ];
    for (const res of await Promise.all(calls)) expectProblem(res, 403, 'FILIAL_NOT_GRANTED');
    expect(await dataSource.manager.countBy(ProductMapEntry, { companyId: t.companyId, supplierDocument: supplier })).to.equal(0);
    const row = await dataSource.manager.findOneByOrFail(ProductMapEntry, { id: entry.id });
    expect([row.conversionFactor.toFixed(6), row.version]).to.deep.equal(['3.000000', 1]);
  });

  describe('DELETE /:id', () => {
    const remove = (tenant: TestTenant, id: string, headers = tenant.headers()) => api().delete(`${BASE}/${id}`).set(headers);

    it('removes the entry (204); audited with its last values; event; the code is unmatched again; a second delete → 404', async () => {
      const supplier = randomCnpj();
      const p = await makeProduct(t, { name: 'Sabão em Pó 1kg' });
      const entry = await makeEntry(t, {
        supplierDocument: supplier,
        supplierProductCode: 'SAB-1',
        productId: p.id,
        conversionFactor: 10,
        supplierUnit: 'CX',
      });
      const res = await remove(t, entry.hash);
      expect(res.status).to.equal(204);
      expect(await dataSource.manager.countBy(ProductMapEntry, { id: entry.id })).to.equal(0);
      const audit = await dataSource.manager.findOneByOrFail(AuditLog, {
        companyId: t.companyId,
        entity: 'product-map-entry',
        entityId: entry.id,
        action: 'DELETED',
      });
      expect(audit.changes).to.deep.include({
        supplierProductCode: ['SAB-1', null],
        productId: [p.id, null],
        conversionFactor: ['10', null],
      });
      expect(
        await dataSource.manager.countBy(OutboxEvent, { companyId: t.companyId, type: 'product-map.deleted', aggregateId: entry.id }),
      ).to.equal(1);
      const matched = await api()
        .post(`${BASE}/match`)
        .set(t.headers())
        .send({ supplierDocument: supplier, items: [{ code: 'SAB-1', description: 'XPTO', unit: 'CX' }] });
      expect(matched.body.items[0].status).to.equal('UNMATCHED');
      expectProblem(await remove(t, entry.hash), 404, 'PRODUCT_MAP_ENTRY_NOT_FOUND');
    });

    it("another company's entry → 404 and it stays; needs product-map:write", async () => {
      const foreign = await makeEntry(other, {
        supplierDocument: randomCnpj(),
        supplierProductCode: 'KEEP',
        productId: (await makeProduct(other)).id,
      });
      expectProblem(await remove(t, foreign.hash), 404, 'PRODUCT_MAP_ENTRY_NOT_FOUND');
      expectProblem(await remove(other, foreign.hash, other.headersWith({ scope: 'entry-document:write' })), 403, 'INSUFFICIENT_SCOPE');
      expect(await dataSource.manager.countBy(ProductMapEntry, { id: foreign.id })).to.equal(1);
    });

    it('two concurrent deletes → one 204, one 404; one audit row', async () => {
      const entry = await makeEntry(t, {
        supplierDocument: randomCnpj(),
        supplierProductCode: 'TWICE',
        productId: (await makeProduct(t)).id,
      });
      const results = await Promise.all([remove(t, entry.hash), remove(t, entry.hash)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([204, 404]);
      expect(
        await dataSource.manager.countBy(AuditLog, {
          companyId: t.companyId,
          entity: 'product-map-entry',
          entityId: entry.id,
          action: 'DELETED',
        }),
      ).to.equal(1);
    });
  });
});
