import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { CustomerCredit } from '../../src/modules/receivables/entities/customer-credit.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { billedOrder, receive, rowsOfOrder, salesSetup } from '../receivables/support';

/*
 * Issue 44: a return's answer says where its refund went — which of the sale's receivables it reduced
 * (by how much) and which store credit or refund it left — on registration, detail and list alike.
 */
describe("A return's answer: where the refund went", () => {
  let t: TestTenant;
  let other: TestTenant;
  let customer: { hash: string; id: number };
  let product: { hash: string };
  const today = businessToday();
  const returnOf = (itemId: string, quantity: number, refundMethod = 'VALE') =>
    api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({ customerId: customer.hash, reason: 'Defeito', refundMethod, items: [{ salesOrderItemId: itemId, quantity, restock: true }] });

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    ({ customer, product } = await salesSetup(t));
  });

  it('a return reducing the last installment, then one leaving a store credit: each answer names them', async () => {
    const { order, receivables } = await billedOrder(t, customer.hash, product.hash, 2, { installmentDays: [30, 60] });
    expect((await receive(t, receivables[0].id, { amount: 30, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    const itemId = order.items[0].salesOrderItemId;

    const one = await returnOf(itemId, 1);
    expect(one.status, JSON.stringify(one.body)).to.equal(201);
    expect(one.body.refund).to.deep.equal({
      receivables: [{ receivableId: receivables[1].id, salesOrderId: order.id, amount: 100 }],
      customerCredits: [],
    });

    const two = await returnOf(itemId, 1);
    expect(two.status, JSON.stringify(two.body)).to.equal(201);
    const [credit] = await dataSource.manager.find(CustomerCredit, { where: { companyId: t.companyId, customerId: customer.id } });
    expect(two.body.refund).to.deep.equal({
      receivables: [{ receivableId: receivables[0].id, salesOrderId: order.id, amount: 70 }],
      customerCredits: [{ id: encodeId('customer-credit', credit.id), kind: 'CREDIT', method: 'VALE', salesOrderId: order.id, amount: 30 }],
    });
    // The rows agree with the answer.
    const rows = await rowsOfOrder(t, order.id);
    expect(rows.map((r) => r.creditedAmount.toFixed(2))).to.deep.equal(['70.00', '100.00']);

    // The detail and the list read the same.
    const detail = await api().get(`/api/returns/detail/${two.body.id}`).set(t.headers());
    expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
    expect(detail.body.refund).to.deep.equal(two.body.refund);
    const listed = await api().get(`/api/returns/list/${t.filialHashes[0]}`).set(t.headers());
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    expect(listed.body.data.find((r: any) => r.id === one.body.id).refund).to.deep.equal(one.body.refund);
    expectProblem(await api().get(`/api/returns/detail/${two.body.id}`).set(other.headers()), 404);
  });

  it('a return of a sale paid at once leaves a refund owed by the refund method, no receivable reduced', async () => {
    const { order, receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
    expect((await receive(t, receivables[0].id, { amount: 100, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    const res = await returnOf(order.items[0].salesOrderItemId, 1, 'PIX');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.refund.receivables).to.deep.equal([]);
    expect(res.body.refund.customerCredits.map((c: any) => [c.kind, c.method, c.amount, c.salesOrderId])).to.deep.equal([
      ['REFUND', 'PIX', 100, order.id],
    ]);
  });
});
