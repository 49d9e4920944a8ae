import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { addCalendarDays } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { ReceivableReceipt } from '../../src/modules/receivables/entities/receivable-receipt.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct } from '../support/catalog';
import type { TestTenant } from '../support/tenant';

export const BASE = '/api/receivables';
export { addCalendarDays };

export const receive = (t: TestTenant, id: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().post(`${BASE}/receive/${id}`).set(headers).send(body);
export const reverse = (t: TestTenant, receiptId: string, body: Record<string, unknown>, headers = t.headers()) =>
  api().post(`${BASE}/reverse-receipt/${receiptId}`).set(headers).send(body);
export const detail = (t: TestTenant, id: string, headers = t.headers()) => api().get(`${BASE}/detail/${id}`).set(headers);
export const list = (t: TestTenant, query: Record<string, unknown> = {}, filialIndex = 0, headers = t.headers(filialIndex)) =>
  api().get(`${BASE}/${t.filialHashes[filialIndex]}`).query(query).set(headers);

export const rowsOfOrder = (t: TestTenant, orderHash: string) =>
  dataSource.manager.find(Receivable, {
    where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', orderHash) },
    order: { installmentNumber: 'ASC', id: 'ASC' },
  });
export const receivableRow = (hash: string) => dataSource.manager.findOneByOrFail(Receivable, { id: decodeId('receivable', hash) });
export const receiptRows = (receivableId: number) =>
  dataSource.manager.find(ReceivableReceipt, { where: { receivableId }, order: { id: 'ASC' } });
export const auditOf = (t: TestTenant, entity: string, id: number) =>
  dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity, entityId: id }, order: { id: 'ASC' } });
export const eventsOf = (t: TestTenant, id: number) =>
  dataSource.manager.find(OutboxEvent, {
    where: { companyId: t.companyId, aggregateType: 'receivable', aggregateId: id },
    order: { id: 'ASC' },
  });

/** A customer, a product with stock, and the methods the tests pay with (a card of 2.99 % at D+30 among them). */
export async function salesSetup(t: TestTenant, price = '100.00') {
  const customer = await makeCustomer(t, { name: 'Maria da Silva' });
  const product = await makeProduct(t, { name: 'Furadeira', price: price as never });
  await addStock(t, 0, product.id, 1000, '40.00');
  await makePaymentMethod(t, 'DINHEIRO', 'CASH');
  await makePaymentMethod(t, 'PIX', 'PIX');
  await makePaymentMethod(t, 'CREDITO', 'CREDIT_CARD', { settlement: 'ACQUIRER', settlementDays: 30, feePercent: '2.99' as never });
  await makePaymentMethod(t, 'BOLETO', 'BANK_SLIP');
  await makePaymentMethod(t, 'VALE', 'STORE_CREDIT');
  return { customer, product };
}

/** An order of `quantity` units billed by one fulfilment of all of it: answers the order and its receivables (API). */
export async function billedOrder(
  t: TestTenant,
  customerHash: string,
  productHash: string,
  quantity: number,
  paymentTerms: { installmentDays: number[] } | null,
  extra: Record<string, unknown> = {},
) {
  const created = await api()
    .post('/api/sales-order')
    .set(t.headers())
    .send({ customerId: customerHash, paymentTerms, items: [{ productId: productHash, quantity }], ...extra });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const order = created.body;
  const res = await api()
    .post(`/api/sales-order/${order.id}/fulfill`)
    .set(t.headers())
    .send({ items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity }] });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const listed = await list(t, { salesOrderId: order.id });
  expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
  return { order, receivables: listed.body.data as Array<Record<string, unknown> & { id: string }> };
}

export async function configureCounter(t: TestTenant, defaultCustomerHash: string) {
  const res = await api()
    .put(`/api/quick-sale/configuration/${t.filialHashes[0]}`)
    .set(t.headers())
    .send({
      enabled: true,
      defaultCustomerId: defaultCustomerHash,
      paymentMethods: ['DINHEIRO', 'PIX', 'CREDITO', 'BOLETO'],
      defaultPaymentMethod: 'DINHEIRO',
    });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
}

export const quickSale = (
  t: TestTenant,
  productHash: string,
  quantity: number,
  payments: { method: string; amount: number | string }[],
  extra: Record<string, unknown> = {},
) =>
  api()
    .post('/api/sales-order')
    .set(t.headers())
    .send({ flowMode: 'QUICK_SALE', items: [{ productId: productHash, quantity }], payments, ...extra });
