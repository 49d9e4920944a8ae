import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createDraft, draftBody, item } from '../entry-document/support';
import { approvedOrder, orderBody, PURCHASE } from '../purchase/support';

/*
 * Audit trails over HTTP (issue 35): every payable is created with its audit row, and the trails of
 * payables and purchase orders are readable (oldest first, paginated), 404 for another tenant's ids,
 * 403 for a filial not granted, 400 for a malformed id.
 */
const BASE = '/api/entry-document/contas-pagar';

describe('Audit trails: GET /entry-document/contas-pagar/audit/:id, GET /purchase/audit/:id', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
  });

  async function confirmedPayables(tenant: TestTenant, filialIndex = 0): Promise<string[]> {
    const installments = [
      { dueDate: '2030-01-10', amount: 60 },
      { dueDate: '2030-02-10', amount: 40 },
    ];
    const d = await createDraft(
      tenant,
      draftBody({ issueDate: '2020-01-01', entryDate: '2020-01-02', items: [item({ ignored: true, unitPrice: 100 })], installments }),
      filialIndex,
    );
    const res = await api().post(`/api/entry-document/confirm/${d.id}`).set(tenant.headers(filialIndex));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return ((await api().get(`${BASE}/documento/${d.id}`).set(tenant.headers(filialIndex))).body.data as { id: string }[]).map((p) => p.id);
  }

  it("a confirmed document's payables are created with their audit rows; payments follow in the trail", async () => {
    const [first, second] = await confirmedPayables(t);
    const rows = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'payable', entityId: decodeId('payable', first) },
      order: { id: 'ASC' },
    });
    expect(rows.map((r) => [r.action, r.actor])).to.deep.equal([['CREATED', 'test-user']]);
    expect(rows[0].requestId).to.be.a('string');
    expect(rows[0].changes).to.deep.include({
      status: [null, 'OPEN'],
      sourceType: [null, 'ENTRY_DOCUMENT'],
      installmentNumber: [null, 1],
      dueDate: [null, '2030-01-10'],
      amount: [null, 60],
    });

    const paid = await api().post(`${BASE}/pay/${first}`).set(t.headers()).send({ amount: 25, paymentDate: '2020-01-05', method: 'PIX' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const trail = await api().get(`${BASE}/audit/${first}`).set(t.headers());
    expect(trail.status, JSON.stringify(trail.body)).to.equal(200);
    expect(trail.body.data.map((a: { action: string }) => a.action)).to.deep.equal(['CREATED', 'PAYMENT_REGISTERED']);
    expect(trail.body.data[1].changes.paidAmount).to.be.an('array');
    expect(trail.body.data[0]).to.include({ actor: 'test-user' });
    // Paginated like every list.
    const page1 = await api().get(`${BASE}/audit/${first}?pageSize=1`).set(t.headers());
    expect(page1.body.data).to.have.length(1);
    expect(page1.body.pagination.hasMore).to.equal(true);
    const page2 = await api()
      .get(`${BASE}/audit/${first}?pageSize=1&cursor=${encodeURIComponent(page1.body.pagination.nextCursor)}`)
      .set(t.headers());
    expect(page2.body.data.map((a: { action: string }) => a.action)).to.deep.equal(['PAYMENT_REGISTERED']);
    expect((await api().get(`${BASE}/audit/${second}`).set(t.headers())).body.data.map((a: { action: string }) => a.action)).to.deep.equal([
      'CREATED',
    ]);
  });

  it("payable trail: another tenant's id → 404, a filial not granted → 403, a malformed id → 400", async () => {
    const [mine] = await confirmedPayables(t, 1);
    const [theirs] = await confirmedPayables(other);
    expectProblem(await api().get(`${BASE}/audit/${theirs}`).set(t.headers()), 404, 'PAYABLE_NOT_FOUND');
    expectProblem(
      await api()
        .get(`${BASE}/audit/${mine}`)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(await api().get(`${BASE}/audit/not-an-id`).set(t.headers()), 400, 'INVALID_ID');
  });

  it('purchase order trail: created then approved, with actor and diffs; 404 / 403 / 400', async () => {
    const supplier = await makeSupplier(t);
    const product = await makeProduct(t);
    const order = await approvedOrder(t, orderBody({ id: supplier.hash }, [{ productId: product.hash, quantity: 3, unitPrice: 10 }]));
    const trail = await api().get(`${PURCHASE}/audit/${order.id}`).set(t.headers());
    expect(trail.status, JSON.stringify(trail.body)).to.equal(200);
    expect(trail.body.data.map((a: { action: string; actor: string }) => [a.action, a.actor])).to.deep.equal([
      ['CREATED', 'test-user'],
      ['APPROVED', 'test-user'],
    ]);
    expect(trail.body.data[1].changes).to.deep.include({ status: ['DRAFT', 'APPROVED'] });

    const otherSupplier = await makeSupplier(other);
    const otherProduct = await makeProduct(other);
    const theirs = await approvedOrder(
      other,
      orderBody({ id: otherSupplier.hash }, [{ productId: otherProduct.hash, quantity: 1, unitPrice: 1 }]),
    );
    expectProblem(await api().get(`${PURCHASE}/audit/${theirs.id}`).set(t.headers()), 404, 'PURCHASE_ORDER_NOT_FOUND');
    const inFilial2 = await approvedOrder(t, orderBody({ id: supplier.hash }, [{ productId: product.hash, quantity: 1, unitPrice: 1 }]), 1);
    expectProblem(
      await api()
        .get(`${PURCHASE}/audit/${inFilial2.id}`)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(await api().get(`${PURCHASE}/audit/x`).set(t.headers()), 400, 'INVALID_ID');
  });
});
