import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { api } from '../support/api';
import { makeCustomer } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * Issue 44: outbound NF-e are found by issue day range, série, number, key, customer, sale and status;
 * a sales order's detail links the fiscal documents that bill it.
 */
describe('Invoice list filters and the order’s fiscal documents', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  const issued: { id: string; number: number; accessKey: string; orderId: string }[] = [];
  const list = (query: Record<string, unknown> = {}) => api().get(`/api/invoices/list/${t.filialHashes[0]}`).set(t.headers()).query(query);
  const numbers = async (query: Record<string, unknown>) => {
    const res = await list(query);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.map((d: any) => d.number);
  };

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    for (let i = 0; i < 3; i++) {
      const { fulfillmentId, orderId } = await fulfilledOrder(t);
      const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      issued.push({ id: res.body.id, number: res.body.number, accessKey: res.body.accessKey, orderId });
    }
    // The first one was issued two days ago (São Paulo calendar).
    await dataSource.manager.update(
      OutboundNfe,
      { companyId: t.companyId, accessKey: issued[0].accessKey },
      { issuedAt: new Date(Date.now() - 60 * 3600_000) },
    );
  });

  it('filters by issue day range, série, number, key, customer, sale and status', async () => {
    const today = businessToday();
    expect(await numbers({})).to.deep.equal([3, 2, 1]);
    expect(await numbers({ issuedFrom: today })).to.deep.equal([3, 2]);
    expect(await numbers({ issuedTo: today, issuedFrom: '2000-01-01' })).to.deep.equal([3, 2, 1]);
    expect(await numbers({ issuedFrom: '2000-01-01', issuedTo: '2000-01-31' })).to.deep.equal([]);
    expect(await numbers({ series: 1, status: 'AUTHORIZED' })).to.deep.equal([3, 2, 1]);
    expect(await numbers({ series: 2 })).to.deep.equal([]);
    expect(await numbers({ status: 'CANCELLED' })).to.deep.equal([]);
    expect(await numbers({ number: 2 })).to.deep.equal([2]);
    expect(await numbers({ accessKey: issued[2].accessKey })).to.deep.equal([3]);
    expect(await numbers({ customerId: t.customer.hash })).to.deep.equal([3, 2, 1]);
    const stranger = await makeCustomer(t, { name: 'Outro Cliente Ltda' });
    expect(await numbers({ customerId: stranger.hash })).to.deep.equal([]);
    expect(await numbers({ salesOrderId: issued[1].orderId })).to.deep.equal([2]);
    // The filters bind the cursor.
    const first = await list({ pageSize: 1, customerId: t.customer.hash });
    const next = await list({ pageSize: 1, customerId: t.customer.hash, cursor: first.body.pagination.nextCursor });
    expect(next.body.data.map((d: any) => d.number)).to.deep.equal([2]);
    expectProblem(await list({ pageSize: 1, cursor: first.body.pagination.nextCursor }), 400, 'INVALID_CURSOR');
  });

  it('bad filters are 400; another tenant’s customer finds nothing', async () => {
    expectProblem(await list({ issuedFrom: '2026-13-01' }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ accessKey: '35' }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ series: -1 }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ customerId: 'not-an-id!' }), 400);
    const theirs = await makeCustomer(other, { name: 'Cliente Alheio' });
    expect(await numbers({ customerId: theirs.hash })).to.deep.equal([]);
  });

  it('the sales order’s detail links its NF-e (and only its own)', async () => {
    const res = await api().get(`/api/sales-order/detail/${issued[1].orderId}`).set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.fiscalDocuments).to.have.length(1);
    const [doc] = res.body.fiscalDocuments;
    expect(doc).to.include({
      model: 55,
      id: issued[1].id,
      purpose: 'SALE',
      series: 1,
      number: 2,
      accessKey: issued[1].accessKey,
      status: 'AUTHORIZED',
      href: `/api/invoices/detail/${issued[1].id}`,
    });
    const followed = await api()
      .get(doc.href.replace(/^\/api/, '/api'))
      .set(t.headers());
    expect(followed.status).to.equal(200);
    expect(followed.body).to.include({ id: issued[1].id, salesOrderId: issued[1].orderId, total: doc.total });
    expectProblem(await api().get(`/api/sales-order/detail/${issued[1].orderId}`).set(other.headers()), 404);
    // An order not billed yet has none.
    const { orderId } = await fulfilledOrder(t);
    expect((await api().get(`/api/sales-order/detail/${orderId}`).set(t.headers())).body.fiscalDocuments).to.deep.equal([]);
  });
});
