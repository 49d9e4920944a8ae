import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { Supplier } from '../../src/modules/catalog/entities/supplier.entity';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import {
  approve,
  approvedOrder,
  auditOf,
  createPurchaseOrder,
  detail,
  eventsOf,
  linesInDb,
  orderBody,
  orderInDb,
  PURCHASE,
  purchaseFootprint,
} from './support';

describe('Purchase orders: create, read, list, edit, delete, approve, cancel (API)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let p1: Awaited<ReturnType<typeof makeProduct>>;
  let p2: Awaited<ReturnType<typeof makeProduct>>;
  let supplier: Awaited<ReturnType<typeof makeSupplier>>;

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    p1 = await makeProduct(t, { name: 'Parafuso Sextavado 8mm', unit: 'UN' });
    p2 = await makeProduct(t, { name: 'Arruela Lisa 8mm', unit: 'CX' });
    supplier = await makeSupplier(t, { name: 'Metalurgica Alfa', document: randomCnpj() });
  });

  const twoLines = () => [
    { productId: p1.hash, quantity: 100, unitPrice: '1.25', discount: 5 },
    { productId: p2.hash, quantity: '2.5', unitPrice: 40, supplierProductCode: 'ARR-8', expectedDate: '2026-04-20' },
  ];

  describe('POST /purchase', () => {
    it('201: a DRAFT with a sequential code, the supplier registered by CNPJ, lines priced; audit and event written', async () => {
      const document = randomCnpj();
      const body = orderBody({ document, name: 'Fornecedor Novo SA' }, twoLines(), {
        expectedDate: '2026-04-15',
        paymentTerms: { installments: 3, days: 30 },
        freightTerms: 'CIF',
        notes: 'entregar pela manhã',
      });
      const a = await createPurchaseOrder(t, body);
      const b = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, [twoLines()[0]]));
      expect(b.code).to.be.greaterThan(a.code);
      expect(a).to.include({
        status: 'DRAFT',
        filialId: t.filialHashes[0],
        expectedDate: '2026-04-15',
        freightTerms: 'CIF',
        notes: 'entregar pela manhã',
        version: 1,
      });
      expect(a.paymentTerms).to.deep.equal({ installments: 3, days: 30 });
      expect(a.supplier).to.include({ document, name: 'Fornecedor Novo SA' });
      expect(a.totals).to.deep.equal({ products: 225, discount: 5, total: 220 });
      expect(
        a.items.map((i: any) => [
          i.lineNumber,
          i.productId,
          i.description,
          i.unit,
          i.quantity,
          i.unitPrice,
          i.discount,
          i.total,
          i.expectedDate,
          i.receivedQuantity,
          i.cancelledQuantity,
          i.openQuantity,
        ]),
      ).to.deep.equal([
        [1, p1.hash, 'Parafuso Sextavado 8mm', 'UN', 100, 1.25, 5, 120, '2026-04-15', 0, 0, 100],
        [2, p2.hash, 'Arruela Lisa 8mm', 'CX', 2.5, 40, 0, 100, '2026-04-20', 0, 0, 2.5],
      ]);
      expect(a.items[1].supplierProductCode).to.equal('ARR-8');
      expect(Object.keys(a).sort()).to.deep.equal(
        [
          'approvedAt',
          'approvedBy',
          'cancelReason',
          'cancelledAt',
          'closeReason',
          'closedAt',
          'code',
          'createdAt',
          'expectedDate',
          'filialId',
          'freightTerms',
          'id',
          'items',
          'notes',
          'paymentTerms',
          'status',
          'supplier',
          'totals',
          'updatedAt',
          'version',
        ].sort(),
      );
      // Database: the order, its lines, the supplier in the catalog, the trail and the event.
      const row = await orderInDb(t, a.id);
      expect([row.status, row.code, row.total.toFixed(2), row.supplierDocument]).to.deep.equal(['DRAFT', a.code, '220.00', document]);
      expect((await linesInDb(t, a.id)).map((l) => [l.quantity.toFixed(4), l.isOpen])).to.deep.equal([
        ['100.0000', true],
        ['2.5000', true],
      ]);
      expect(await dataSource.manager.countBy(Supplier, { companyId: t.companyId, document })).to.equal(1);
      expect((await auditOf(t, a.id)).map((r) => [r.action, r.changes?.status])).to.deep.equal([['CREATED', [null, 'DRAFT']]]);
      const events = await eventsOf(t, a.id);
      expect(events.map((e) => e.type)).to.deep.equal(['purchase-order.created']);
      expect(events[0].data).to.include({ purchaseOrderId: a.id, code: a.code, status: 'DRAFT', items: 2 });
    });

    it('filialId in the body: the order belongs to that filial; one the token does not grant → 403, nothing written', async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, [twoLines()[0]], { filialId: t.filialHashes[1] }));
      expect(o.filialId).to.equal(t.filialHashes[1]);
      const before = await purchaseFootprint(t);
      const res = await api()
        .post(PURCHASE)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }))
        .send(orderBody({ id: supplier.hash }, [twoLines()[0]], { filialId: t.filialHashes[1] }));
      expectProblem(res, 403, 'FILIAL_NOT_GRANTED');
      expect(await purchaseFootprint(t)).to.deep.equal(before);
    });

    it('the same Idempotency-Key answers the first order; another body with it → 409', async () => {
      const body = orderBody({ id: supplier.hash }, [twoLines()[0]]);
      const first = await api().post(PURCHASE).set(t.headers()).set('Idempotency-Key', 'po-create-1').send(body);
      const again = await api().post(PURCHASE).set(t.headers()).set('Idempotency-Key', 'po-create-1').send(body);
      expect([first.status, again.status]).to.deep.equal([201, 201]);
      expect(again.body.id).to.equal(first.body.id);
      const clash = await api()
        .post(PURCHASE)
        .set(t.headers())
        .set('Idempotency-Key', 'po-create-1')
        .send({ ...body, notes: 'outro' });
      expect(clash.status).to.equal(409);
    });

    it('bad input → 400 naming every field; nothing written', async () => {
      const before = await purchaseFootprint(t);
      const cases: [Record<string, unknown>, string[]][] = [
        [{ supplierId: supplier.hash, items: [] }, ['items']],
        [{ items: [{ productId: p1.hash, quantity: 1, unitPrice: 1 }] }, ['']],
        [
          {
            supplierId: supplier.hash,
            supplier: { document: randomCnpj(), name: 'X' },
            items: [{ productId: p1.hash, quantity: 1, unitPrice: 1 }],
          },
          [''],
        ],
        [
          { supplierId: supplier.hash, items: [{ productId: p1.hash, quantity: '1.23456', unitPrice: -1 }] },
          ['items[0].quantity', 'items[0].unitPrice'],
        ],
        [
          { supplierId: supplier.hash, expectedDate: '2026-02-30', items: [{ productId: p1.hash, quantity: 0, unitPrice: 1 }] },
          ['expectedDate', 'items[0].quantity'],
        ],
        [
          {
            supplier: { document: '11111111111111', name: 'X' },
            paymentTerms: { installments: 0, days: 30 },
            freightTerms: 'CASH',
            items: [{ productId: p1.hash, quantity: 1, unitPrice: 1 }],
          },
          ['supplier.document', 'paymentTerms.installments', 'freightTerms'],
        ],
      ];
      for (const [body, paths] of cases) {
        const res = await api().post(PURCHASE).set(t.headers()).send(body);
        expectProblem(res, 400);
        expect(
          res.body.errors.map((e: any) => e.path),
          JSON.stringify(res.body),
        ).to.include.members(paths);
      }
      const malformed = await api()
        .post(PURCHASE)
        .set(t.headers())
        .send({ supplierId: '!!', items: [{ productId: p1.hash, quantity: 1, unitPrice: 1 }] });
      expectProblem(malformed, 400, 'INVALID_ID');
      expect(await purchaseFootprint(t)).to.deep.equal(before);
    });

    it("another company's product or supplier → 404 naming the field; an inactive product or a discount above the line → 422; nothing written", async () => {
      const foreign = await makeProduct(other);
      const foreignSupplier = await makeSupplier(other);
      const inactive = await makeProduct(t, { active: false });
      const before = await purchaseFootprint(t);
      const p = await api()
        .post(PURCHASE)
        .set(t.headers())
        .send(orderBody({ id: supplier.hash }, [twoLines()[0], { productId: foreign.hash, quantity: 1, unitPrice: 1 }]));
      expectProblem(p, 404, 'PRODUCT_NOT_FOUND');
      expect(p.body.errors).to.deep.equal([{ path: 'items[1].productId', message: 'product not found' }]);
      expectProblem(
        await api()
          .post(PURCHASE)
          .set(t.headers())
          .send(orderBody({ id: foreignSupplier.hash }, [twoLines()[0]])),
        404,
        'SUPPLIER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post(PURCHASE)
          .set(t.headers())
          .send(orderBody({ id: supplier.hash }, [{ productId: inactive.hash, quantity: 1, unitPrice: 1 }])),
        422,
        'PRODUCT_INACTIVE',
      );
      expectProblem(
        await api()
          .post(PURCHASE)
          .set(t.headers())
          .send(orderBody({ id: supplier.hash }, [{ productId: p1.hash, quantity: 1, unitPrice: 1, discount: 2 }])),
        422,
        'DISCOUNT_ABOVE_LINE_VALUE',
      );
      expect(await purchaseFootprint(t)).to.deep.equal(before);
    });

    it('scopes: purchase:read cannot create (403); purchase:write can', async () => {
      const body = orderBody({ id: supplier.hash }, [twoLines()[0]]);
      expectProblem(
        await api()
          .post(PURCHASE)
          .set(t.headersWith({ scope: 'purchase:read' }))
          .send(body),
        403,
      );
      expect(
        (
          await api()
            .post(PURCHASE)
            .set(t.headersWith({ scope: 'purchase:write' }))
            .send(body)
        ).status,
      ).to.equal(201);
    });
  });

  describe('GET /purchase/detail/:id and /purchase/list/:filialId', () => {
    it('detail: the order as created; another company → 404; a filial not granted → 403; malformed → 400; another type → 404', async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      expect(await detail(t, o.id)).to.deep.equal(o);
      expectProblem(await api().get(`${PURCHASE}/detail/${o.id}`).set(other.headers()), 404, 'PURCHASE_ORDER_NOT_FOUND');
      const o2 = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()), 1);
      expectProblem(
        await api()
          .get(`${PURCHASE}/detail/${o2.id}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get(`${PURCHASE}/detail/x!`).set(t.headers()), 400, 'INVALID_ID');
      expectProblem(
        await api()
          .get(`${PURCHASE}/detail/${encodeId('sales-order', 1)}`)
          .set(t.headers()),
        404,
      );
      expectProblem(
        await api()
          .get(`${PURCHASE}/detail/${o.id}`)
          .set(t.headersWith({ scope: 'sales-order:read' })),
        403,
      );
    });

    it('list: filters (status, supplier, product, search by code or name), newest code first, two-phase pages with cursor', async () => {
      const lt = await createTestTenant();
      const a = await makeProduct(lt);
      const b = await makeProduct(lt);
      const s1 = await makeSupplier(lt, { name: 'Atacado Boa Vista', document: randomCnpj() });
      const s2 = await makeSupplier(lt, { name: 'Comercial Centro', document: randomCnpj() });
      const o1 = await createPurchaseOrder(lt, orderBody({ id: s1.hash }, [{ productId: a.hash, quantity: 1, unitPrice: 1 }]));
      const o2 = await approvedOrder(
        lt,
        orderBody({ id: s2.hash }, [{ productId: b.hash, quantity: 1, unitPrice: 1 }], { expectedDate: '2026-05-01' }),
      );
      const o3 = await createPurchaseOrder(lt, orderBody({ id: s1.hash }, [{ productId: b.hash, quantity: 1, unitPrice: 1 }]));
      await createPurchaseOrder(lt, orderBody({ id: s1.hash }, [{ productId: a.hash, quantity: 1, unitPrice: 1 }]), 1);
      const list = async (q: Record<string, unknown>) => {
        const res = await api().get(`${PURCHASE}/list/${lt.filialHashes[0]}`).query(q).set(lt.headers());
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body;
      };
      expect((await list({})).data.map((o: any) => o.id)).to.deep.equal([o3.id, o2.id, o1.id]);
      expect((await list({})).data[1].items).to.have.length(1);
      expect((await list({ status: 'APPROVED' })).data.map((o: any) => o.id)).to.deep.equal([o2.id]);
      expect((await list({ supplierId: s1.hash })).data.map((o: any) => o.id)).to.deep.equal([o3.id, o1.id]);
      expect((await list({ supplierDocument: s2.document })).data.map((o: any) => o.id)).to.deep.equal([o2.id]);
      expect((await list({ productId: b.hash, sort: 'code' })).data.map((o: any) => o.id)).to.deep.equal([o2.id, o3.id]);
      expect((await list({ search: String(o1.code) })).data.map((o: any) => o.id)).to.deep.equal([o1.id]);
      expect((await list({ search: 'boa vista' })).data.map((o: any) => o.id)).to.deep.equal([o3.id, o1.id]);
      expect((await list({ expectedFrom: '2026-05-01', expectedTo: '2026-05-31' })).data.map((o: any) => o.id)).to.deep.equal([o2.id]);
      const page1 = await list({ pageSize: 2 });
      expect(page1.pagination).to.include({ total: 3, totalPages: 2, hasMore: true });
      const page2 = await list({ pageSize: 2, cursor: page1.pagination.nextCursor });
      expect(page2.data.map((o: any) => o.id)).to.deep.equal([o1.id]);
      expectProblem(await api().get(`${PURCHASE}/list/${lt.filialHashes[0]}`).query({ status: 'OPEN' }).set(lt.headers()), 400);
      expectProblem(
        await api().get(`${PURCHASE}/list/${lt.filialHashes[0]}`).query({ cursor: 'zzz' }).set(lt.headers()),
        400,
        'INVALID_CURSOR',
      );
      expectProblem(
        await api()
          .get(`${PURCHASE}/list/${lt.filialHashes[1]}`)
          .set(lt.headersWith({ filiais: [lt.filialHashes[0]] })),
        403,
      );
      expectProblem(await api().get(`${PURCHASE}/list/${lt.filialHashes[0]}`).set(other.headers()), 403);
    });
  });

  describe('PATCH /purchase/:id', () => {
    it('edits a DRAFT at its version: header and lines (kept lines keep their ids), audited field by field, event', async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      const keep = o.items[0].purchaseOrderItemId;
      const res = await api()
        .patch(`${PURCHASE}/${o.id}`)
        .set(t.headers())
        .send({
          version: 1,
          notes: 'urgente',
          freightTerms: 'FOB',
          items: [
            { purchaseOrderItemId: keep, productId: p1.hash, quantity: 120, unitPrice: '1.25', discount: 5 },
            { productId: p2.hash, quantity: 1, unitPrice: 50 },
          ],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ version: 2, notes: 'urgente', freightTerms: 'FOB' });
      expect(res.body.items[0].purchaseOrderItemId).to.equal(keep);
      expect(res.body.items[1].purchaseOrderItemId).not.to.equal(o.items[1].purchaseOrderItemId);
      expect(res.body.totals).to.deep.equal({ products: 200, discount: 5, total: 195 });
      expect(await linesInDb(t, o.id)).to.have.length(2);
      const [, updated] = await auditOf(t, o.id);
      expect(updated.action).to.equal('UPDATED');
      expect(updated.changes).to.deep.include({
        notes: [null, 'urgente'],
        freightTerms: [null, 'FOB'],
        'items[1].quantity': ['100.0000', '120.0000'],
        total: ['220', '195'],
      });
      expect(updated.changes).to.deep.include({
        'items[2].quantity': ['2.5000', '1.0000'],
        'items[2].unitPrice': ['40.0000000000', '50.0000000000'],
        'items[2].expectedDate': ['2026-04-20', null],
      });
      expect((await eventsOf(t, o.id)).map((e) => e.type)).to.deep.equal(['purchase-order.created', 'purchase-order.updated']);
    });

    it("a stale version → 409 STALE_VERSION; an APPROVED order → 409 naming it; another order's line → 422, another company's → 404; version missing → 400; nothing written", async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      const before = await purchaseFootprint(t);
      expectProblem(await api().patch(`${PURCHASE}/${o.id}`).set(t.headers()).send({ version: 7, notes: 'x' }), 409, 'STALE_VERSION');
      expectProblem(await api().patch(`${PURCHASE}/${o.id}`).set(t.headers()).send({ notes: 'x' }), 400);
      const foreign = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      const afterForeign = await purchaseFootprint(t);
      const res = await api()
        .patch(`${PURCHASE}/${o.id}`)
        .set(t.headers())
        .send({
          version: 1,
          items: [{ purchaseOrderItemId: foreign.items[0].purchaseOrderItemId, productId: p1.hash, quantity: 1, unitPrice: 1 }],
        });
      expectProblem(res, 422, 'ITEM_NOT_IN_ORDER');
      expect(await purchaseFootprint(t)).to.deep.equal(afterForeign);
      expect(afterForeign.orders).to.equal(before.orders + 1);
      await approve(t, o.id);
      const approved = await api().patch(`${PURCHASE}/${o.id}`).set(t.headers()).send({ version: 2, notes: 'x' });
      expectProblem(approved, 409, 'INVALID_STATUS_TRANSITION');
      expect(approved.body.currentStatus).to.equal('APPROVED');
      expectProblem(await api().patch(`${PURCHASE}/${o.id}`).set(other.headers()).send({ version: 2, notes: 'x' }), 404);
      // Another company's line id in the body is unknown here: 404 naming it.
      const theirs = await createPurchaseOrder(
        other,
        orderBody({ document: randomCnpj() }, [{ productId: (await makeProduct(other)).hash, quantity: 1, unitPrice: 1 }]),
      );
      const draft = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      const res404 = await api()
        .patch(`${PURCHASE}/${draft.id}`)
        .set(t.headers())
        .send({
          version: 1,
          items: [{ purchaseOrderItemId: theirs.items[0].purchaseOrderItemId, productId: p1.hash, quantity: 1, unitPrice: 1 }],
        });
      expectProblem(res404, 404, 'PURCHASE_ORDER_ITEM_NOT_FOUND');
      expect(res404.body.errors).to.deep.equal([{ path: 'items[0].purchaseOrderItemId', message: 'purchase-order line not found' }]);
    });
  });

  describe('DELETE /purchase/:id', () => {
    it('removes a DRAFT and its lines (the trail stays); an APPROVED one → 409; another company → 404', async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      expect((await api().delete(`${PURCHASE}/${o.id}`).set(t.headers())).status).to.equal(204);
      expect(await linesInDb(t, o.id)).to.deep.equal([]);
      expect((await auditOf(t, o.id)).map((a) => a.action)).to.deep.equal(['CREATED', 'DELETED']);
      expect((await eventsOf(t, o.id)).map((e) => e.type)).to.deep.equal(['purchase-order.created', 'purchase-order.deleted']);
      expectProblem(await api().get(`${PURCHASE}/detail/${o.id}`).set(t.headers()), 404);
      const a = await approvedOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      expectProblem(await api().delete(`${PURCHASE}/${a.id}`).set(t.headers()), 409, 'INVALID_STATUS_TRANSITION');
      expectProblem(await api().delete(`${PURCHASE}/${a.id}`).set(other.headers()), 404);
      expect((await orderInDb(t, a.id)).status).to.equal('APPROVED');
    });
  });

  describe('POST /purchase/:id/approve', () => {
    it('needs purchase:approve (purchase:write alone → 403); DRAFT → APPROVED with who and when; again → 409', async () => {
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      expectProblem(
        await api()
          .post(`${PURCHASE}/${o.id}/approve`)
          .set(t.headersWith({ scope: 'purchase:read purchase:write' })),
        403,
      );
      const res = await api()
        .post(`${PURCHASE}/${o.id}/approve`)
        .set(t.headersWith({ scope: 'purchase:approve', sub: 'gerente' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'APPROVED', approvedBy: 'gerente', version: 2 });
      expect(res.body.approvedAt).to.be.a('string');
      expect((await orderInDb(t, o.id)).status).to.equal('APPROVED');
      expect((await auditOf(t, o.id)).map((a) => [a.action, a.actor])).to.deep.equal([
        ['CREATED', 'test-user'],
        ['APPROVED', 'gerente'],
      ]);
      expect((await eventsOf(t, o.id)).map((e) => e.type)).to.deep.equal(['purchase-order.created', 'purchase-order.approved']);
      const again = await approve(t, o.id);
      expectProblem(again, 409, 'INVALID_STATUS_TRANSITION');
      expect(again.body.currentStatus).to.equal('APPROVED');
    });

    it('an inactive product → 422 naming the line; two approvals at once: one 200, one 409', async () => {
      const p = await makeProduct(t);
      const o = await createPurchaseOrder(t, orderBody({ id: supplier.hash }, [{ productId: p.hash, quantity: 1, unitPrice: 1 }]));
      await dataSource.manager.update(Product, { id: p.id }, { active: false });
      const refused = await approve(t, o.id);
      expectProblem(refused, 422, 'PURCHASE_ORDER_NOT_APPROVABLE');
      expect(refused.body.errors).to.deep.equal([{ path: 'items[0].productId', message: 'line 1: the product is inactive' }]);
      await dataSource.manager.update(Product, { id: p.id }, { active: true });
      const results = await Promise.all([approve(t, o.id), approve(t, o.id)]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect((await eventsOf(t, o.id)).filter((e) => e.type === 'purchase-order.approved')).to.have.length(1);
    });
  });

  describe('POST /purchase/:id/cancel', () => {
    it('DRAFT or APPROVED → CANCELLED: what was open is cancelled, nothing stays open; reason audited; again → 409', async () => {
      for (const make of [createPurchaseOrder, approvedOrder]) {
        const o = await make(t, orderBody({ id: supplier.hash }, twoLines()));
        const res = await api().post(`${PURCHASE}/${o.id}/cancel`).set(t.headers()).send({ reason: 'fornecedor sem estoque' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ status: 'CANCELLED', cancelReason: 'fornecedor sem estoque' });
        expect(res.body.items.map((i: any) => [i.cancelledQuantity, i.openQuantity])).to.deep.equal([
          [100, 0],
          [2.5, 0],
        ]);
        expect((await linesInDb(t, o.id)).map((l) => l.isOpen)).to.deep.equal([false, false]);
        const last = (await auditOf(t, o.id)).pop()!;
        expect(last.action).to.equal('CANCELLED');
        expect(last.changes).to.deep.include({
          status: [o.status, 'CANCELLED'],
          cancelReason: [null, 'fornecedor sem estoque'],
          'items[1].cancelledQuantity': ['0.0000', '100.0000'],
        });
        expect((await eventsOf(t, o.id)).pop()!.type).to.equal('purchase-order.cancelled');
        expectProblem(await api().post(`${PURCHASE}/${o.id}/cancel`).set(t.headers()).send({}), 409, 'INVALID_STATUS_TRANSITION');
      }
    });

    it('close of an APPROVED order → 409 (cancel it); bad reason → 400; another company → 404; a filial not granted → 403', async () => {
      const o = await approvedOrder(t, orderBody({ id: supplier.hash }, twoLines()));
      const close = await api().post(`${PURCHASE}/${o.id}/close`).set(t.headers()).send({});
      expectProblem(close, 409, 'INVALID_STATUS_TRANSITION');
      expect(close.body.currentStatus).to.equal('APPROVED');
      expectProblem(await api().post(`${PURCHASE}/${o.id}/cancel`).set(t.headers()).send({ reason: 'x' }), 400);
      expectProblem(await api().post(`${PURCHASE}/${o.id}/cancel`).set(other.headers()).send({}), 404);
      expectProblem(
        await api()
          .post(`${PURCHASE}/${o.id}/cancel`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
          .send({}),
        403,
      );
      expect((await orderInDb(t, o.id)).status).to.equal('APPROVED');
    });
  });

  describe('GET /purchase/open-items/:filialId', () => {
    it("open lines of the filial's APPROVED orders, oldest first, by supplier and product; drafts and cancelled orders are not there", async () => {
      const ot = await createTestTenant();
      const a = await makeProduct(ot);
      const b = await makeProduct(ot);
      const s1 = await makeSupplier(ot, { document: randomCnpj() });
      const s2 = await makeSupplier(ot, { document: randomCnpj() });
      const o1 = await approvedOrder(
        ot,
        orderBody({ id: s1.hash }, [
          { productId: a.hash, quantity: 5, unitPrice: 2 },
          { productId: b.hash, quantity: 1, unitPrice: 3 },
        ]),
      );
      const o2 = await approvedOrder(ot, orderBody({ id: s2.hash }, [{ productId: a.hash, quantity: 7, unitPrice: 2 }]));
      await createPurchaseOrder(ot, orderBody({ id: s1.hash }, [{ productId: a.hash, quantity: 1, unitPrice: 1 }]));
      const cancelled = await approvedOrder(ot, orderBody({ id: s1.hash }, [{ productId: a.hash, quantity: 1, unitPrice: 1 }]));
      await api().post(`${PURCHASE}/${cancelled.id}/cancel`).set(ot.headers()).send({});
      await approvedOrder(ot, orderBody({ id: s1.hash }, [{ productId: a.hash, quantity: 1, unitPrice: 1 }]), 1);
      const open = async (q: Record<string, unknown>) => {
        const res = await api().get(`${PURCHASE}/open-items/${ot.filialHashes[0]}`).query(q).set(ot.headers());
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body;
      };
      expect((await open({})).data.map((i: any) => [i.purchaseOrderCode, i.lineNumber])).to.deep.equal([
        [o1.code, 1],
        [o1.code, 2],
        [o2.code, 1],
      ]);
      const all = await open({ productId: a.hash });
      expect(all.data.map((i: any) => i.purchaseOrderId)).to.deep.equal([o1.id, o2.id]);
      expect(all.data[0]).to.include({
        purchaseOrderItemId: o1.items[0].purchaseOrderItemId,
        productId: a.hash,
        quantity: 5,
        receivedQuantity: 0,
        openQuantity: 5,
        unitPrice: 2,
        netUnitPrice: 2,
        purchaseOrderStatus: 'APPROVED',
      });
      expect(all.data[0].supplier.document).to.equal(s1.document);
      expect((await open({ supplierDocument: s2.document })).data.map((i: any) => i.purchaseOrderId)).to.deep.equal([o2.id]);
      expect((await open({ pageSize: 1 })).pagination).to.include({ total: 3, hasMore: true });
      expectProblem(
        await api().get(`${PURCHASE}/open-items/${ot.filialHashes[0]}`).query({ supplierDocument: '123' }).set(ot.headers()),
        400,
      );
      expectProblem(await api().get(`${PURCHASE}/open-items/${ot.filialHashes[0]}`).set(other.headers()), 403);
    });
  });

  it('the OpenAPI document lists the eleven routes with their scopes and the Idempotency-Key on every POST', async () => {
    const doc = (await api().get('/api/openapi.json')).body;
    const routes = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/purchase'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(
          ([method, op]) =>
            `${method.toUpperCase()} ${path} ${op['x-required-scope']}${op.parameters.some((p: any) => p.name === 'Idempotency-Key') ? ' idempotent' : ''}`,
        ),
      );
    expect(routes.sort()).to.deep.equal(
      [
        'POST /api/purchase purchase:write idempotent',
        'GET /api/purchase/list/{filialId} purchase:read',
        'GET /api/purchase/audit/{id} purchase:read',
        'GET /api/purchase/detail/{id} purchase:read',
        'GET /api/purchase/open-items/{filialId} purchase:read',
        'GET /api/purchase/{id}/receipts purchase:read',
        'POST /api/purchase/{id}/approve purchase:approve idempotent',
        'POST /api/purchase/{id}/cancel purchase:write idempotent',
        'POST /api/purchase/{id}/close purchase:write idempotent',
        'PATCH /api/purchase/{id} purchase:write',
        'DELETE /api/purchase/{id} purchase:write',
      ].sort(),
    );
    expect(
      doc.paths['/api/entry-document'].post.requestBody.content['application/json'].schema.properties.items.items.properties,
    ).to.have.property('purchaseOrderItemId');
  });
});
