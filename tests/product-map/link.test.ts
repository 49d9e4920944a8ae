import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { NotFoundError } from '../../src/core/errors';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { ProductMapEntry } from '../../src/modules/product-map/entities/product-map-entry.entity';
import { linkSupplierItem, recordMapUse } from '../../src/modules/product-map/product-map.service';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { BASE, makeEntry, punctuatedCnpj } from './support';

describe('Product map: POST /link', () => {
  let t: TestTenant;
  let other: TestTenant;
  const link = (tenant: TestTenant, body: object, headers: Record<string, string> = tenant.headers()) =>
    api().post(`${BASE}/link`).set(headers).send(body);
  const entriesOf = (tenant: TestTenant, supplierDocument: string) =>
    dataSource.manager.find(ProductMapEntry, { where: { companyId: tenant.companyId, supplierDocument }, order: { id: 'ASC' } });
  const auditOf = (tenant: TestTenant, entityId: number) =>
    dataSource.manager.find(AuditLog, {
      where: { companyId: tenant.companyId, entity: 'product-map-entry', entityId },
      order: { id: 'ASC' },
    });

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  it('creates the entry (201), then updates it in place (200, version + 1); audited with the changed fields; event published', async () => {
    const supplier = randomCnpj();
    const p1 = await makeProduct(t, { name: 'Leite Integral 1L', unit: 'UN' });
    const p2 = await makeProduct(t, { name: 'Leite Desnatado 1L', unit: 'UN' });
    const created = await link(t, {
      supplierDocument: punctuatedCnpj(supplier),
      supplierProductCode: ' LT-1000 ',
      productId: p1.hash,
      conversionFactor: '12',
      supplierUnit: 'cx',
      supplierDescription: 'LEITE INTEGRAL CX C/12',
      gtin: 'SEM GTIN',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.deep.include({
      supplierDocument: supplier,
      supplierProductCode: 'LT-1000',
      supplierUnit: 'CX',
      supplierDescription: 'LEITE INTEGRAL CX C/12',
      gtin: null,
      productId: p1.hash,
      conversionFactor: 12,
      useCount: 0,
      lastUsedAt: null,
      version: 1,
    });
    expect(Object.keys(created.body)).to.have.members([
      'id',
      'supplierDocument',
      'supplierProductCode',
      'supplierUnit',
      'supplierDescription',
      'gtin',
      'productId',
      'conversionFactor',
      'lastUsedAt',
      'useCount',
      'version',
      'createdAt',
      'updatedAt',
    ]);

    const updated = await link(t, {
      supplierDocument: supplier,
      supplierProductCode: 'LT-1000',
      productId: p2.hash,
      conversionFactor: 6.5,
      supplierUnit: 'CX',
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.deep.include({
      id: created.body.id,
      productId: p2.hash,
      conversionFactor: 6.5,
      version: 2,
      supplierDescription: 'LEITE INTEGRAL CX C/12',
    });

    const same = await link(t, {
      supplierDocument: supplier,
      supplierProductCode: 'LT-1000',
      productId: p2.hash,
      conversionFactor: '6.500000',
      supplierUnit: 'CX',
    });
    expect(same.status).to.equal(200);
    expect(same.body.version).to.equal(2);

    const rows = await entriesOf(t, supplier);
    expect(rows).to.have.length(1);
    expect(rows[0].conversionFactor.toFixed(6)).to.equal('6.500000');
    expect(rows[0].productId).to.equal(p2.id);
    const audit = await auditOf(t, rows[0].id);
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
    expect(audit[1].changes).to.deep.equal({ productId: [p1.id, p2.id], conversionFactor: ['12', '6.5'] });
    const events = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, type: 'product-map.linked', aggregateId: rows[0].id },
      order: { id: 'ASC' },
    });
    expect(events.map((e) => e.data.created)).to.deep.equal([true, false]);
    expect(events[1].data).to.deep.include({
      id: created.body.id,
      productId: p2.hash,
      supplierProductCode: 'LT-1000',
      conversionFactor: 6.5,
    });
  });

  it('bad input → 400 with field paths and nothing written', async () => {
    const supplier = randomCnpj();
    const p = await makeProduct(t);
    const cases: [object, string[]][] = [
      [{ supplierDocument: '11.111.111/1111-11', supplierProductCode: 'A', productId: p.hash, supplierUnit: 'UN' }, ['supplierDocument']],
      [
        { supplierDocument: supplier, supplierProductCode: 'A', productId: p.hash, supplierUnit: 'UN', conversionFactor: 0 },
        ['conversionFactor'],
      ],
      [
        { supplierDocument: supplier, supplierProductCode: 'A', productId: p.hash, supplierUnit: 'UN', conversionFactor: '-2' },
        ['conversionFactor'],
      ],
      [
        { supplierDocument: supplier, supplierProductCode: 'A', productId: p.hash, supplierUnit: 'UN', conversionFactor: '1.0000001' },
        ['conversionFactor'],
      ],
      [{ supplierDocument: supplier, supplierProductCode: 'A', productId: p.hash, supplierUnit: 'UN', gtin: '7891000100104' }, ['gtin']],
      [
        { supplierDocument: supplier, supplierProductCode: 'x'.repeat(61), productId: p.hash, supplierUnit: 'UNIDADE' },
        ['supplierProductCode', 'supplierUnit'],
      ],
      [{ supplierDocument: supplier }, ['supplierProductCode', 'productId', 'supplierUnit']],
    ];
    for (const [body, paths] of cases) {
      const res = await link(t, body);
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).to.have.members(paths);
    }
    expectProblem(
      await link(t, { supplierDocument: supplier, supplierProductCode: 'A', productId: '!!', supplierUnit: 'UN' }),
      400,
      'INVALID_ID',
    );
    expect(await entriesOf(t, supplier)).to.deep.equal([]);
  });

  it('a product of another company → 404, nothing written (also through the service)', async () => {
    const supplier = randomCnpj();
    const foreign = await makeProduct(other, { name: 'Produto da outra empresa' });
    expectProblem(
      await link(t, { supplierDocument: supplier, supplierProductCode: 'F1', productId: foreign.hash, supplierUnit: 'UN' }),
      404,
      'PRODUCT_NOT_FOUND',
    );
    let thrown: unknown;
    try {
      await inTransaction(NO_UNIT, (em) =>
        linkSupplierItem(em, t.ctx, { supplierDocument: supplier, supplierProductCode: 'F1', productId: foreign.id, supplierUnit: 'UN' }),
      );
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(NotFoundError);
    expect(await entriesOf(t, supplier)).to.deep.equal([]);
    expect(await entriesOf(other, supplier)).to.deep.equal([]);
  });

  it('an inactive product → 422 PRODUCT_INACTIVE', async () => {
    const p = await makeProduct(t, { active: false });
    expectProblem(
      await link(t, { supplierDocument: randomCnpj(), supplierProductCode: 'I1', productId: p.hash, supplierUnit: 'UN' }),
      422,
      'PRODUCT_INACTIVE',
    );
  });

  it('10 concurrent links of one supplier code → one entry; every change audited once; the entry names the last writer', async () => {
    const supplier = randomCnpj();
    const products = [];
    for (let i = 0; i < 10; i++) products.push(await makeProduct(t, { name: `Concorrente ${i}` }));
    const results = await Promise.all(
      products.map((p, i) =>
        link(t, {
          supplierDocument: supplier,
          supplierProductCode: 'RACE',
          productId: p.hash,
          conversionFactor: i + 1,
          supplierUnit: 'UN',
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const rows = await entriesOf(t, supplier);
    expect(rows).to.have.length(1);
    const audit = await auditOf(t, rows[0].id);
    expect(audit.filter((a) => a.action === 'CREATED')).to.have.length(1);
    expect(audit.length).to.equal(rows[0].version);
    const last = audit[audit.length - 1];
    const lastProduct = last.action === 'CREATED' ? undefined : (last.changes!.productId?.[1] as number | undefined);
    if (lastProduct !== undefined) expect(rows[0].productId).to.equal(lastProduct);
  });

  it('an Idempotency-Key retry replays the first answer', async () => {
    const p = await makeProduct(t);
    const body = { supplierDocument: randomCnpj(), supplierProductCode: 'IDEM', productId: p.hash, supplierUnit: 'UN' };
    const first = await link(t, body, { ...t.headers(), 'Idempotency-Key': 'pm-link-1' });
    const again = await link(t, body, { ...t.headers(), 'Idempotency-Key': 'pm-link-1' });
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
  });

  it('needs product-map:write; an x-filial-id the token does not grant → 403', async () => {
    const p = await makeProduct(t);
    const body = { supplierDocument: randomCnpj(), supplierProductCode: 'S1', productId: p.hash, supplierUnit: 'UN' };
    expectProblem(await link(t, body, t.headersWith({ scope: 'entry-document:read entry-document:write' })), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await link(t, body, t.headersWith({ filiais: [t.filialHashes[0]] }, 1)), 403, 'FILIAL_NOT_GRANTED');
    expect(await entriesOf(t, body.supplierDocument)).to.deep.equal([]);
  });

  it("linkSupplierItem joins the caller's transaction (rolled back with it) and can count a use; recordMapUse counts uses", async () => {
    const supplier = randomCnpj();
    const p = await makeProduct(t);
    try {
      await inTransaction(NO_UNIT, async (em) => {
        await linkSupplierItem(em, t.ctx, { supplierDocument: supplier, supplierProductCode: 'TX', productId: p.id, supplierUnit: 'UN' });
        throw new Error('import failed later');
      });
    } catch {
      /* expected */
    }
    expect(await entriesOf(t, supplier)).to.deep.equal([]);

    const { entry, created } = await inTransaction(NO_UNIT, (em) =>
      linkSupplierItem(em, t.ctx, {
        supplierDocument: supplier,
        supplierProductCode: 'TX',
        productId: p.id,
        supplierUnit: 'UN',
        conversionFactor: '2',
        countUse: true,
      }),
    );
    expect(created).to.equal(true);
    expect(entry.useCount).to.equal(1);
    expect(entry.lastUsedAt).to.be.instanceOf(Date);
    await makeEntry(t, { supplierDocument: supplier, supplierProductCode: 'TY', productId: p.id });
    const counted = await inTransaction(NO_UNIT, (em) => recordMapUse(em, t.ctx, supplier, ['TX', 'TY', 'NOT-MAPPED']));
    expect(counted).to.equal(2);
    const rows = await entriesOf(t, supplier);
    expect(rows.map((r) => [r.supplierProductCode, r.useCount, r.version])).to.deep.equal([
      ['TX', 2, 1],
      ['TY', 1, 1],
    ]);
  });
});
