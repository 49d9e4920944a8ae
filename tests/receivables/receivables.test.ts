import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { decodeId, encodeId } from '../../src/core/hashids';
import { CustomerCredit } from '../../src/modules/receivables/entities/customer-credit.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { ReceivableReceipt } from '../../src/modules/receivables/entities/receivable-receipt.entity';
import { attachFiscalDocument, cancelForFiscalDocument, fulfillmentInstallments } from '../../src/modules/receivables';
import { listReceivables } from '../../src/modules/receivables/receivables.service';
import { isMysql } from '../../src/core/db/engine';
import { api } from '../support/api';
import { recordStatements, shapeOf } from '../support/statements';
import { makeProduct, addStock } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import {
  addCalendarDays,
  auditOf,
  BASE,
  billedOrder,
  configureCounter,
  detail,
  eventsOf,
  list,
  quickSale,
  receiptRows,
  receivableRow,
  receive,
  reverse,
  rowsOfOrder,
  salesSetup,
} from './support';

/*
 * Receivables (SPEC §13) through the API: born with the fulfilment (payment terms, remainder cent on
 * the last installment) and the counter sale (cash and Pix received at once, cards from the acquirer
 * net of its fee), receipts and reversals, a return's credit, the NF-e emission's seam, tenancy.
 */
describe('Receivables: billing, receipts, reversals, returns (SPEC §13)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let customer: { hash: string; id: number };
  let product: { hash: string; id: number };
  const today = businessToday();

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    ({ customer, product } = await salesSetup(t));
    await salesSetup(other);
    await configureCounter(t, customer.hash);
  });

  it('an order billed in 3 installments (30/60/90): 33.33, 33.33 and the remainder cent on the last, audited and published at birth', async () => {
    const { order, receivables } = await billedOrder(t, customer.hash, product.hash, 1, { installmentDays: [30, 60, 90] });
    expect(order.paymentTerms).to.deep.equal({ installmentDays: [30, 60, 90] });
    expect(
      receivables.map((r) => [r.installmentNumber, r.installmentCount, r.amount, r.dueDate, r.status, r.debtorType, r.origin]),
    ).to.deep.equal([
      [1, 3, 33.33, addCalendarDays(today, 30), 'OPEN', 'CUSTOMER', 'FULFILLMENT'],
      [2, 3, 33.33, addCalendarDays(today, 60), 'OPEN', 'CUSTOMER', 'FULFILLMENT'],
      [3, 3, 33.34, addCalendarDays(today, 90), 'OPEN', 'CUSTOMER', 'FULFILLMENT'],
    ]);
    expect(receivables[0]).to.deep.include({
      customerId: customer.hash,
      salesOrderId: order.id,
      salesOrderCode: order.code,
      issueDate: today,
      receivedAmount: 0,
      openAmount: 33.33,
      overdue: false,
      version: 1,
    });
    const rows = await rowsOfOrder(t, order.id);
    expect(rows.map((r) => [r.amount.toFixed(2), r.grossAmount.toFixed(2), r.feeAmount.toFixed(2), r.status])).to.deep.equal([
      ['33.33', '33.33', '0.00', 'OPEN'],
      ['33.33', '33.33', '0.00', 'OPEN'],
      ['33.34', '33.34', '0.00', 'OPEN'],
    ]);
    for (const r of rows) {
      const audit = await auditOf(t, 'receivable', r.id);
      expect(audit.map((a) => a.action)).to.deep.equal(['CREATED']);
      expect(audit[0].changes).to.deep.include({
        amount: [null, Number(r.amount.toFixed(2))],
        status: [null, 'OPEN'],
        installmentNumber: [null, r.installmentNumber],
      });
      const events = await eventsOf(t, r.id);
      expect(events.map((e) => e.type)).to.deep.equal(['receivable.created']);
      expect(events[0].data).to.deep.include({
        amount: Number(r.amount.toFixed(2)),
        dueDate: r.dueDate,
        salesOrderId: order.id,
        status: 'OPEN',
      });
    }
    // The audit trail over HTTP, creation included.
    const trail = await api().get(`${BASE}/audit/${receivables[2].id}`).set(t.headers());
    expect(trail.status, JSON.stringify(trail.body)).to.equal(200);
    expect(trail.body.entries.map((e: { action: string }) => e.action)).to.deep.equal(['CREATED']);
  });

  it('without payment terms: one installment due on the billing date; two deliveries bill the order to the cent (freight with the first)', async () => {
    const created = await api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({ customerId: customer.hash, freight: '10.00', discount: '0.01', items: [{ productId: product.hash, quantity: 3 }] });
    expect(created.status).to.equal(201);
    const itemId = created.body.items[0].salesOrderItemId;
    expect(
      (
        await api()
          .post(`/api/sales-order/${created.body.id}/fulfill`)
          .set(t.headers())
          .send({ items: [{ salesOrderItemId: itemId, quantity: 1 }] })
      ).status,
    ).to.equal(201);
    expect(
      (
        await api()
          .post(`/api/sales-order/${created.body.id}/fulfill`)
          .set(t.headers())
          .send({ items: [{ salesOrderItemId: itemId, quantity: 2 }] })
      ).status,
    ).to.equal(201);
    const rows = await rowsOfOrder(t, created.body.id);
    expect(rows.map((r) => [r.installmentNumber, r.installmentCount, r.dueDate])).to.deep.equal([
      [1, 1, today],
      [1, 1, today],
    ]);
    expect(rows[0].fulfillmentId).to.not.equal(rows[1].fulfillmentId);
    // 300.00 − 0.01 + 10.00: the first delivery 99.99… + freight, the second the rest.
    expect(rows.map((r) => r.amount.toFixed(2))).to.deep.equal(['110.00', '199.99']);
    expect(rows[0].amount.plus(rows[1].amount).toFixed(2)).to.equal(created.body.totals.total.toFixed(2));
  });

  it("a grouped order keeps the sources' common terms and bills them when fulfilled", async () => {
    const mk = async () => {
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          customerId: customer.hash,
          paymentTerms: { installmentDays: [28, 56] },
          items: [{ productId: product.hash, quantity: 1 }],
        });
      expect(res.status).to.equal(201);
      return res.body.id as string;
    };
    const grouped = await api()
      .post('/api/sales-order/group')
      .set(t.headers())
      .send({ salesOrderIds: [await mk(), await mk()] });
    expect(grouped.status, JSON.stringify(grouped.body)).to.equal(201);
    expect(grouped.body.paymentTerms).to.deep.equal({ installmentDays: [28, 56] });
    const merged = grouped.body;
    const res = await api()
      .post(`/api/sales-order/${merged.id}/fulfill`)
      .set(t.headers())
      .send({
        items: merged.items.map((i: { salesOrderItemId: string; quantity: number }) => ({
          salesOrderItemId: i.salesOrderItemId,
          quantity: i.quantity,
        })),
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect((await rowsOfOrder(t, merged.id)).map((r) => [r.installmentNumber, r.amount.toFixed(2), r.dueDate])).to.deep.equal([
      [1, '100.00', addCalendarDays(today, 28)],
      [2, '100.00', addCalendarDays(today, 56)],
    ]);
  });

  it("payment methods carry their settlement: given, or the kind's default; bad values → 400", async () => {
    const card = await api()
      .post('/api/catalog/payment-methods')
      .set(t.headers())
      .send({ code: 'ELO_CREDITO', name: 'Elo crédito', kind: 'CREDIT_CARD', settlementDays: 28, feePercent: '3.49' });
    expect(card.status, JSON.stringify(card.body)).to.equal(201);
    expect(card.body).to.deep.include({ settlement: 'ACQUIRER', settlementDays: 28, feePercent: 3.49 });
    const boleto = await api()
      .post('/api/catalog/payment-methods')
      .set(t.headers())
      .send({ code: 'BOLETO_ITAU', name: 'Boleto Itaú', kind: 'BANK_SLIP' });
    expect(boleto.body).to.deep.include({ settlement: 'ON_CREDIT', settlementDays: 30, feePercent: 0 });
    const listed = await api().get('/api/catalog/payment-methods').set(t.headers());
    expect(listed.body.data.find((m: { code: string }) => m.code === 'PIX')).to.deep.include({ settlement: 'AT_ONCE', settlementDays: 0 });
    expectProblem(
      await api().post('/api/catalog/payment-methods').set(t.headers()).send({ code: 'X1', name: 'X', kind: 'OTHER', settlement: 'LATER' }),
      400,
    );
    expectProblem(
      await api().post('/api/catalog/payment-methods').set(t.headers()).send({ code: 'X2', name: 'X', kind: 'OTHER', feePercent: 101 }),
      400,
    );
    expectProblem(
      await api().post('/api/catalog/payment-methods').set(t.headers()).send({ code: 'X3', name: 'X', kind: 'OTHER', settlementDays: -1 }),
      400,
    );
  });

  it('a card sale at 2.99 % and D+30: the acquirer owes the net, due in 30 days', async () => {
    const res = await quickSale(t, product.hash, 1, [{ method: 'CREDITO', amount: 100 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const rows = await rowsOfOrder(t, res.body.id);
    expect(rows).to.have.length(1);
    expect([
      rows[0].debtorType,
      rows[0].paymentMethodCode,
      rows[0].grossAmount.toFixed(2),
      rows[0].feePercent.toFixed(4),
      rows[0].feeAmount.toFixed(2),
      rows[0].amount.toFixed(2),
      rows[0].dueDate,
      rows[0].status,
      rows[0].originType,
    ]).to.deep.equal(['ACQUIRER', 'CREDITO', '100.00', '2.9900', '2.99', '97.01', addCalendarDays(today, 30), 'OPEN', 'QUICK_SALE']);
    const d = await detail(t, encodeId('receivable', rows[0].id));
    expect(d.status).to.equal(200);
    expect(d.body).to.deep.include({
      debtorType: 'ACQUIRER',
      grossAmount: 100,
      feePercent: 2.99,
      feeAmount: 2.99,
      amount: 97.01,
      openAmount: 97.01,
      paymentMethod: 'CREDITO',
      receipts: [],
    });
    expect(await receiptRows(rows[0].id)).to.have.length(0);
  });

  it('a mixed cash + card counter sale: the cash (less its change) born RECEIVED with its receipt, the card from the acquirer', async () => {
    const res = await quickSale(t, product.hash, 1, [
      { method: 'CREDITO', amount: 20 },
      { method: 'DINHEIRO', amount: 90 },
    ]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const rows = await rowsOfOrder(t, res.body.id);
    expect(
      rows.map((r) => [
        r.installmentNumber,
        r.debtorType,
        r.paymentMethodCode,
        r.grossAmount.toFixed(2),
        r.feeAmount.toFixed(2),
        r.amount.toFixed(2),
        r.receivedAmount.toFixed(2),
        r.status,
        r.dueDate,
      ]),
    ).to.deep.equal([
      [1, 'ACQUIRER', 'CREDITO', '20.00', '0.60', '19.40', '0.00', 'OPEN', addCalendarDays(today, 30)],
      [2, 'CUSTOMER', 'DINHEIRO', '80.00', '0.00', '80.00', '80.00', 'RECEIVED', today],
    ]);
    const receipts = await receiptRows(rows[1].id);
    expect(
      receipts.map((p) => [p.status, p.amount.toFixed(2), p.total.toFixed(2), p.paymentMethodCode, p.receiptDate, p.createdBy]),
    ).to.deep.equal([['ACTIVE', '80.00', '80.00', 'DINHEIRO', today, 'test-user']]);
    for (const r of rows) expect((await auditOf(t, 'receivable', r.id)).map((a) => a.action)).to.deep.equal(['CREATED']);
    // A receivable born RECEIVED takes no further receipt.
    expectProblem(
      await receive(t, encodeId('receivable', rows[1].id), { amount: 1, receiptDate: today, method: 'PIX' }),
      409,
      'RECEIVABLE_ALREADY_RECEIVED',
    );
  });

  it("an a prazo counter sale follows the order terms, else the method's days", async () => {
    const res = await quickSale(t, product.hash, 1, [{ method: 'BOLETO', amount: 100 }], {
      customerId: customer.hash,
      paymentTerms: { installmentDays: [15, 45] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const rows = await rowsOfOrder(t, res.body.id);
    expect(rows.map((r) => [r.debtorType, r.amount.toFixed(2), r.dueDate, r.status])).to.deep.equal([
      ['CUSTOMER', '50.00', addCalendarDays(today, 15), 'OPEN'],
      ['CUSTOMER', '50.00', addCalendarDays(today, 45), 'OPEN'],
    ]);
    const plain = await quickSale(t, product.hash, 1, [{ method: 'BOLETO', amount: 100 }], { customerId: customer.hash });
    expect((await rowsOfOrder(t, plain.body.id)).map((r) => [r.amount.toFixed(2), r.dueDate])).to.deep.equal([
      ['100.00', addCalendarDays(today, 30)],
    ]);
  });

  it('a partial receipt with interest, then its reversal: received amount, status, receipts, audit and events follow', async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, { installmentDays: [0, 30] });
    const id = receivables[0].id;
    const first = await receive(t, id, {
      amount: 20,
      receiptDate: today,
      method: 'PIX',
      interest: '1.50',
      fine: 1,
      discount: '0.50',
      note: 'Pago com atraso',
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.receipt).to.deep.include({
      status: 'ACTIVE',
      amount: 20,
      interest: 1.5,
      fine: 1,
      discount: 0.5,
      total: 22,
      method: 'PIX',
      note: 'Pago com atraso',
    });
    expect(first.body.receivable).to.deep.include({
      id,
      amount: 50,
      receivedAmount: 20,
      openAmount: 30,
      status: 'PARTIALLY_RECEIVED',
      version: 2,
    });
    let row = await receivableRow(id);
    expect([row.receivedAmount.toFixed(2), row.status]).to.deep.equal(['20.00', 'PARTIALLY_RECEIVED']);

    const rev = await reverse(t, first.body.receipt.id, { reason: 'Pix devolvido pelo banco' });
    expect(rev.status, JSON.stringify(rev.body)).to.equal(200);
    expect(rev.body.receipt).to.deep.include({ status: 'REVERSED', reversalReason: 'Pix devolvido pelo banco', reversedBy: 'test-user' });
    expect(rev.body.receivable).to.deep.include({ receivedAmount: 0, openAmount: 50, status: 'OPEN', version: 3 });
    expect(rev.body.receivable.receiptTotals).to.deep.equal({ amount: 0, interest: 0, fine: 0, discount: 0, total: 0 });
    row = await receivableRow(id);
    expect([row.receivedAmount.toFixed(2), row.status, row.version]).to.deep.equal(['0.00', 'OPEN', 3]);
    expectProblem(await reverse(t, first.body.receipt.id, { reason: 'de novo' }), 409, 'RECEIPT_ALREADY_REVERSED');

    const rid = decodeId('receivable', id);
    expect((await auditOf(t, 'receivable', rid)).map((a) => a.action)).to.deep.equal(['CREATED', 'RECEIPT_REGISTERED', 'RECEIPT_REVERSED']);
    expect((await eventsOf(t, rid)).map((e) => e.type)).to.deep.equal([
      'receivable.created',
      'receivable.received',
      'receivable.receipt-reversed',
    ]);
    const received = (await eventsOf(t, rid))[1];
    expect(received.data).to.deep.include({ id, receivedAmount: 20, status: 'PARTIALLY_RECEIVED' });
    const trail = await api().get(`${BASE}/audit/${id}`).set(t.headers());
    expect(trail.body.entries.map((e: { entity: string; action: string }) => `${e.entity}:${e.action}`)).to.deep.equal([
      'receivable:CREATED',
      'receivable-receipt:CREATED',
      'receivable:RECEIPT_REGISTERED',
      'receivable-receipt:REVERSED',
      'receivable:RECEIPT_REVERSED',
    ]);
  });

  it('never above what is owed; bad input → 400 and a future date → 422, nothing written', async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
    const id = receivables[0].id;
    const before = await dataSource.manager.countBy(ReceivableReceipt, { companyId: t.companyId });
    const over = await receive(t, id, { amount: '100.01', receiptDate: today, method: 'PIX' });
    expectProblem(over, 422, 'RECEIPT_EXCEEDS_BALANCE');
    expect(over.body.openAmount).to.equal(100);
    expectProblem(
      await receive(t, id, { amount: 1, receiptDate: addCalendarDays(today, 1), method: 'PIX' }),
      422,
      'RECEIPT_DATE_IN_FUTURE',
    );
    expectProblem(await receive(t, id, { amount: 0, receiptDate: today, method: 'PIX' }), 400);
    expectProblem(await receive(t, id, { amount: '1.001', receiptDate: today, method: 'PIX' }), 400);
    expectProblem(await receive(t, id, { amount: 1, receiptDate: '2024-02-30', method: 'PIX' }), 400);
    expectProblem(await receive(t, id, { amount: 1, receiptDate: today, method: 'PIX', extra: 1 }), 400);
    expectProblem(await receive(t, id, { amount: 1, receiptDate: today, method: 'PIX', discount: 2 }), 400);
    expectProblem(await receive(t, id, { amount: 1, receiptDate: today, method: 'NOPE' }), 422, 'PAYMENT_METHOD_NOT_FOUND');
    expect(await dataSource.manager.countBy(ReceivableReceipt, { companyId: t.companyId })).to.equal(before);
    expect((await receivableRow(id)).version).to.equal(1);
  });

  it('Idempotency-Key: a retry replays the first receipt; the same key with another body → 409', async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
    const key = `rcv-${Date.now()}`;
    const body = { amount: 10, receiptDate: today, method: 'PIX' };
    const first = await receive(t, receivables[0].id, body, { ...t.headers(), 'Idempotency-Key': key });
    const retry = await receive(t, receivables[0].id, body, { ...t.headers(), 'Idempotency-Key': key });
    expect([first.status, retry.status]).to.deep.equal([201, 201]);
    expect(retry.body.receipt.id).to.equal(first.body.receipt.id);
    expect(await receiptRows(decodeId('receivable', receivables[0].id))).to.have.length(1);
    expectProblem(await receive(t, receivables[0].id, { ...body, amount: 11 }, { ...t.headers(), 'Idempotency-Key': key }), 409);
  });

  it('two receipts racing for the last amount: exactly one wins', async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
    const id = receivables[0].id;
    expect((await receive(t, id, { amount: 60, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    const results = await Promise.all([
      receive(t, id, { amount: 40, receiptDate: today, method: 'PIX' }),
      receive(t, id, { amount: 40, receiptDate: today, method: 'DINHEIRO' }),
    ]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409]);
    expectProblem(
      results.find((r) => r.status === 409)!,
      409,
      'RECEIVABLE_ALREADY_RECEIVED',
    );
    const receipts = await receiptRows(decodeId('receivable', id));
    expect(receipts.map((p) => p.amount.toFixed(2))).to.deep.equal(['60.00', '40.00']);
    const row = await receivableRow(id);
    expect([row.receivedAmount.toFixed(2), row.status]).to.deep.equal(['100.00', 'RECEIVED']);
  });

  it('a return after a partial receipt: the open installments are credited last first, the rest becomes a customer credit', async () => {
    const { order, receivables } = await billedOrder(t, customer.hash, product.hash, 2, { installmentDays: [30, 60] });
    expect(receivables.map((r) => r.amount)).to.deep.equal([100, 100]);
    expect((await receive(t, receivables[0].id, { amount: 30, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    const itemId = order.items[0].salesOrderItemId;

    // One unit back (100.00): the last installment, untouched, is credited in full → CANCELLED.
    const one = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: customer.hash,
        reason: 'Defeito',
        refundMethod: 'VALE',
        items: [{ salesOrderItemId: itemId, quantity: 1, restock: true }],
      });
    expect(one.status, JSON.stringify(one.body)).to.equal(201);
    let rows = await rowsOfOrder(t, order.id);
    expect(rows.map((r) => [r.receivedAmount.toFixed(2), r.creditedAmount.toFixed(2), r.status])).to.deep.equal([
      ['30.00', '0.00', 'PARTIALLY_RECEIVED'],
      ['0.00', '100.00', 'CANCELLED'],
    ]);
    expect(await dataSource.manager.countBy(CustomerCredit, { companyId: t.companyId, customerId: customer.id })).to.equal(0);

    // The other unit (100.00): 70.00 still open on the first → RECEIVED (30 received + 70 credited); 30.00 left as store credit.
    const two = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: customer.hash,
        reason: 'Defeito',
        refundMethod: 'VALE',
        items: [{ salesOrderItemId: itemId, quantity: 1, restock: true }],
      });
    expect(two.status, JSON.stringify(two.body)).to.equal(201);
    rows = await rowsOfOrder(t, order.id);
    expect(rows.map((r) => [r.receivedAmount.toFixed(2), r.creditedAmount.toFixed(2), r.status])).to.deep.equal([
      ['30.00', '70.00', 'RECEIVED'],
      ['0.00', '100.00', 'CANCELLED'],
    ]);
    const credits = await dataSource.manager.find(CustomerCredit, {
      where: { companyId: t.companyId, customerId: customer.id },
      order: { id: 'ASC' },
    });
    expect(credits.map((c) => [c.kind, c.amount.toFixed(2), c.methodCode, c.salesOrderId])).to.deep.equal([
      ['CREDIT', '30.00', 'VALE', decodeId('sales-order', order.id)],
    ]);
    expect((await eventsOf(t, rows[0].id)).map((e) => e.type)).to.deep.equal([
      'receivable.created',
      'receivable.received',
      'receivable.credited',
    ]);
    expect((await auditOf(t, 'receivable', rows[1].id)).map((a) => a.action)).to.deep.equal(['CREATED', 'CREDITED']);

    // The statement shows them, with the credit the returns left.
    const st = await api()
      .get(`${BASE}/statement/${t.filialHashes[0]}`)
      .query({ customerId: customer.hash, salesOrderId: undefined })
      .set(t.headers());
    expect(st.status, JSON.stringify(st.body)).to.equal(200);
    expect(st.body.customer).to.deep.include({ id: customer.hash, name: 'Maria da Silva' });
    expect(st.body.credits.map((c: { kind: string; amount: number }) => [c.kind, c.amount])).to.deep.equal([['CREDIT', 30]]);
    const mine = st.body.data.filter((r: { salesOrderId: string }) => r.salesOrderId === order.id);
    expect(mine.map((r: { status: string; receipts: unknown[] }) => [r.status, r.receipts.length])).to.deep.equal([
      ['RECEIVED', 1],
      ['CANCELLED', 0],
    ]);
    expect(st.body.data.every((r: { debtorType: string }) => r.debtorType === 'CUSTOMER')).to.equal(true);
  });

  it('a return paid back by another method leaves a refund owed to the customer', async () => {
    const sale = await quickSale(t, product.hash, 1, [{ method: 'PIX', amount: 100 }], { customerId: customer.hash });
    expect(sale.status).to.equal(201);
    const ret = await api()
      .post(`/api/returns/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        customerId: customer.hash,
        reason: 'Arrependimento',
        refundMethod: 'PIX',
        items: [{ salesOrderItemId: sale.body.items[0].salesOrderItemId, quantity: 1, restock: true }],
      });
    expect(ret.status, JSON.stringify(ret.body)).to.equal(201);
    const credits = await dataSource.manager.find(CustomerCredit, {
      where: { companyId: t.companyId, returnId: decodeId('return', ret.body.id) },
    });
    expect(credits.map((c) => [c.kind, c.amount.toFixed(2), c.methodCode])).to.deep.equal([['REFUND', '100.00', 'PIX']]);
    // The Pix itself stays received.
    expect((await rowsOfOrder(t, sale.body.id)).map((r) => r.status)).to.deep.equal(['RECEIVED']);
  });

  it("the NF-e emission's seam: duplicatas, the authorized document as origin, cancellation refused while a receipt stands", async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, { installmentDays: [30, 60, 90] });
    const rows = await dataSource.manager.find(Receivable, { where: { id: decodeId('receivable', receivables[0].id) } });
    const fulfillmentId = rows[0].fulfillmentId;
    const ctx = { ...t.ctx, grantedFiliais: '*' as const, scopes: ['*'] };
    const dups = await fulfillmentInstallments(ctx, fulfillmentId);
    expect(dups.map((d) => [d.number, d.dueDate, d.amount.toFixed(2)])).to.deep.equal([
      [1, addCalendarDays(today, 30), '33.33'],
      [2, addCalendarDays(today, 60), '33.33'],
      [3, addCalendarDays(today, 90), '33.34'],
    ]);
    const key = '35260112345678000195550010000012341000012345';
    await inTransaction(NO_UNIT, (em) => attachFiscalDocument(em, ctx, { fulfillmentId, fiscalDocumentId: 77, accessKey: key }));
    const d = await detail(t, receivables[0].id);
    expect(d.body).to.deep.include({ origin: 'FISCAL_DOCUMENT', accessKey: key });
    expect((await list(t, { origin: 'FISCAL_DOCUMENT', salesOrderId: receivables[0].salesOrderId })).body.data).to.have.length(3);

    expect((await receive(t, receivables[1].id, { amount: 1, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    let refused: unknown;
    await inTransaction(NO_UNIT, (em) => cancelForFiscalDocument(em, ctx, { fulfillmentId, reason: 'NF-e cancelada' })).catch(
      (e) => (refused = e),
    );
    expect((refused as { code?: string }).code).to.equal('RECEIVABLE_HAS_RECEIPTS');
    expect((await dataSource.manager.findBy(Receivable, { fulfillmentId })).map((r) => r.status).sort()).to.deep.equal([
      'OPEN',
      'OPEN',
      'PARTIALLY_RECEIVED',
    ]);

    const receiptId = (await receiptRows(decodeId('receivable', receivables[1].id)))[0].id;
    expect((await reverse(t, encodeId('receivable-receipt', receiptId), { reason: 'Estorno antes do cancelamento' })).status).to.equal(200);
    await inTransaction(NO_UNIT, (em) => cancelForFiscalDocument(em, ctx, { fulfillmentId, reason: 'NF-e cancelada' }));
    const after = await dataSource.manager.find(Receivable, { where: { fulfillmentId }, order: { installmentNumber: 'ASC' } });
    expect(after.map((r) => [r.status, r.cancelReason])).to.deep.equal([
      ['CANCELLED', 'NF-e cancelada'],
      ['CANCELLED', 'NF-e cancelada'],
      ['CANCELLED', 'NF-e cancelada'],
    ]);
    expect((await eventsOf(t, after[0].id)).map((e) => e.type)).to.deep.equal(['receivable.created', 'receivable.cancelled']);
    expect(await fulfillmentInstallments(ctx, fulfillmentId)).to.deep.equal([]);
    expectProblem(await receive(t, receivables[0].id, { amount: 1, receiptDate: today, method: 'PIX' }), 409, 'RECEIVABLE_CANCELLED');
  });

  it("another tenant's ids → 404; malformed → 400; a filial not granted → 403; missing scope → 403", async () => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
    const id = receivables[0].id;
    const paid = await receive(t, id, { amount: 5, receiptDate: today, method: 'PIX' });
    expect(paid.status).to.equal(201);
    expectProblem(await detail(other, id), 404, 'RECEIVABLE_NOT_FOUND');
    expectProblem(await receive(other, id, { amount: 1, receiptDate: today, method: 'PIX' }), 404, 'RECEIVABLE_NOT_FOUND');
    expectProblem(await reverse(other, paid.body.receipt.id, { reason: 'alheio' }), 404, 'RECEIPT_NOT_FOUND');
    expectProblem(await api().get(`${BASE}/audit/${id}`).set(other.headers()), 404, 'RECEIVABLE_NOT_FOUND');
    expectProblem(
      await api().get(`${BASE}/statement/${other.filialHashes[0]}`).query({ customerId: customer.hash }).set(other.headers()),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectProblem(await list(t, {}, 0, other.headers()), 403);
    expectProblem(await detail(t, 'x!'), 400);
    const onlySecond = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
    expectProblem(await detail(t, id, onlySecond), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await receive(t, id, { amount: 1, receiptDate: today, method: 'PIX' }, onlySecond), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await reverse(t, paid.body.receipt.id, { reason: 'abc' }, onlySecond), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await list(t, {}, 0, t.headersWith({ filiais: [t.filialHashes[1]] }, 0)), 403);
    expectProblem(
      await receive(t, id, { amount: 1, receiptDate: today, method: 'PIX' }, t.headersWith({ scope: 'receivables:read' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect((await receiptRows(decodeId('receivable', id))).map((p) => p.status)).to.deep.equal(['ACTIVE']);
  });
});

describe('Receivables lists: filters, totals, aging, statement, CSV (SPEC §13)', () => {
  let t: TestTenant;
  const today = businessToday();
  let customer: { hash: string; id: number };
  let orders: string[];

  before(async () => {
    t = await createTestTenant();
    const s = await salesSetup(t);
    customer = s.customer;
    const cheap = await makeProduct(t, { name: 'Parafuso', price: '10.00' as never });
    await addStock(t, 0, cheap.id, 100, '1.00');
    orders = [];
    // Five OPEN receivables of 10.00, then due dates moved into each aging bucket.
    for (const _ of [0, 1, 2, 3, 4]) orders.push((await billedOrder(t, customer.hash, cheap.hash, 1, null)).order.id);
    const shifts = [5, -10, -45, -75, -120];
    for (let i = 0; i < 5; i++) {
      await dataSource.manager.update(
        Receivable,
        { companyId: t.companyId, salesOrderId: decodeId('sales-order', orders[i]) },
        { dueDate: addCalendarDays(today, shifts[i]) },
      );
    }
    // One of them half received, a card sale from the acquirer.
    const [half] = (await list(t, { salesOrderId: orders[1] })).body.data;
    expect((await receive(t, half.id, { amount: 5, receiptDate: today, method: 'PIX' })).status).to.equal(201);
    await configureCounter(t, customer.hash);
    expect((await quickSale(t, s.product.hash, 1, [{ method: 'CREDITO', amount: 100 }])).status).to.equal(201);
  });

  it('totals and aging over every row the filters select (current, 1–30, 31–60, 61–90, > 90)', async () => {
    const res = await list(t, { debtorType: 'CUSTOMER', pageSize: 2 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.have.length(2);
    expect(res.body.pagination).to.deep.include({ total: 5, hasMore: true });
    expect(res.body.summary).to.deep.include({
      capped: false,
      count: 5,
      amount: 50,
      receivedAmount: 5,
      openAmount: 45,
      overdueCount: 4,
      overdueAmount: 35,
    });
    expect(res.body.summary.aging).to.deep.equal({
      current: { count: 1, openAmount: 10 },
      overdue1To30Days: { count: 1, openAmount: 5 },
      overdue31To60Days: { count: 1, openAmount: 10 },
      overdue61To90Days: { count: 1, openAmount: 10 },
      overdueOver90Days: { count: 1, openAmount: 10 },
    });
    expect(res.body.summary.byStatus.PARTIALLY_RECEIVED).to.deep.equal({ count: 1, amount: 10, receivedAmount: 5 });
    // Deep pages by cursor.
    const next = await list(t, { debtorType: 'CUSTOMER', pageSize: 2, cursor: res.body.pagination.nextCursor });
    expect(next.body.data.map((r: { id: string }) => r.id)).to.not.include.members(res.body.data.map((r: { id: string }) => r.id));
  });

  it('the summary of a big list reads its first rows only, flagged capped (lower bounds); exactSummary=true reads them all', async () => {
    const ctx = { companyId: t.companyId, actor: 'test', grantedFiliais: '*' as const, scopes: ['*'], filialId: t.filialIds[0] };
    const query = { page: 1, pageSize: 2, debtorType: 'CUSTOMER' as const, sort: 'dueDate' as const };
    // A cap of 3 over the 5 CUSTOMER receivables: the first 3 by due date (−120, −75, −45 days), 10.00 each, all open.
    for (const includeTotal of [true, false]) {
      const { summary, pagination } = await listReceivables(ctx, t.filialIds[0], { ...query, includeTotal }, { summaryCap: 3 });
      expect(summary.capped).to.equal(true);
      expect([summary.count, summary.amount.toFixed(2), summary.openAmount.toFixed(2), summary.overdueCount]).to.deep.equal([
        3,
        '30.00',
        '30.00',
        3,
      ]);
      expect(Object.entries(summary.aging).map(([k, v]) => [k, v.count])).to.deep.equal([
        ['CURRENT', 0],
        ['OVERDUE_1_30', 0],
        ['OVERDUE_31_60', 1],
        ['OVERDUE_61_90', 1],
        ['OVERDUE_91_PLUS', 1],
      ]);
      // The total is the summary's bounded count (one read, docs/decisions/bounded-list-totals.md): the cap, flagged.
      expect([pagination.total, pagination.totalCapped, pagination.totalPages, pagination.hasMore]).to.deep.equal(
        includeTotal ? [3, true, 2, true] : [null, undefined, null, true],
      );
    }
    // Newest first: the first 3 are +5, −10 (half received) and −45 days.
    const newest = (await listReceivables(ctx, t.filialIds[0], { ...query, sort: '-dueDate' }, { summaryCap: 3 })).summary;
    expect([
      newest.capped,
      newest.count,
      newest.receivedAmount.toFixed(2),
      newest.openAmount.toFixed(2),
      newest.aging.CURRENT.count,
    ]).to.deep.equal([true, 3, '5.00', '25.00', 1]);
    // Exactly as many as the cap: not capped; exactSummary: every row whatever the cap.
    expect((await listReceivables(ctx, t.filialIds[0], { ...query, includeTotal: false }, { summaryCap: 5 })).summary).to.deep.include({
      capped: false,
      count: 5,
    });
    const exactly = (await listReceivables(ctx, t.filialIds[0], query, { summaryCap: 5 })).pagination;
    expect([exactly.total, exactly.totalCapped, exactly.totalPages]).to.deep.equal([5, undefined, 3]);
    expect((await listReceivables(ctx, t.filialIds[0], { ...query, exactSummary: true }, { summaryCap: 3 })).summary).to.deep.include({
      capped: false,
      count: 5,
    });
    // Through the API (cap 10,000): exact, and says so; exactSummary is accepted on the list and the statement.
    expect((await list(t, { debtorType: 'CUSTOMER' })).body.summary).to.deep.include({ capped: false, count: 5, amount: 50 });
    expect((await list(t, { debtorType: 'CUSTOMER', exactSummary: true })).body.summary).to.deep.include({
      capped: false,
      count: 5,
      amount: 50,
    });
    const st = await api()
      .get(`${BASE}/statement/${t.filialHashes[0]}`)
      .query({ customerId: customer.hash, exactSummary: true })
      .set(t.headers());
    expect(st.status, JSON.stringify(st.body)).to.equal(200);
    expect(st.body.summary).to.deep.include({ capped: false, count: 5 });
    expectProblem(await list(t, { exactSummary: 'maybe' }), 400);
  });

  it('overdue=true merges its two statuses (one due-ordered range each) for the page, cursors, summary and total', async () => {
    const ctx = { companyId: t.companyId, actor: 'test', grantedFiliais: '*' as const, scopes: ['*'], filialId: t.filialIds[0] };
    // Overdue: −120, −75, −45 (OPEN) and −10 (PARTIALLY_RECEIVED, half received).
    for (const sort of ['dueDate', '-dueDate']) {
      const walked: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await list(t, { overdue: true, sort, pageSize: 1, ...(cursor ? { cursor } : {}) });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.pagination).to.deep.include({ total: 4 });
        walked.push(...res.body.data.map((r: { salesOrderId: string }) => r.salesOrderId));
        cursor = res.body.pagination.nextCursor ?? undefined;
      } while (cursor);
      const due = [orders[4], orders[3], orders[2], orders[1]];
      expect(walked).to.deep.equal(sort === 'dueDate' ? due : [...due].reverse());
      // Page 2 by number: the same rows.
      expect(
        (await list(t, { overdue: true, sort, pageSize: 2, page: 2 })).body.data.map((r: { salesOrderId: string }) => r.salesOrderId),
      ).to.deep.equal(sort === 'dueDate' ? [orders[2], orders[1]] : [orders[3], orders[4]]);
    }
    // The bounded summary takes the first rows of the merged order.
    const oldest = await listReceivables(ctx, t.filialIds[0], { page: 1, pageSize: 2, overdue: true, sort: 'dueDate' }, { summaryCap: 3 });
    expect([
      oldest.summary.capped,
      oldest.summary.count,
      oldest.summary.byStatus.PARTIALLY_RECEIVED.count,
      oldest.summary.overdueAmount.toFixed(2),
    ]).to.deep.equal([true, 3, 0, '30.00']);
    expect([oldest.pagination.total, oldest.pagination.totalCapped]).to.deep.equal([3, true]);
    const newest = await listReceivables(ctx, t.filialIds[0], { page: 1, pageSize: 2, overdue: true, sort: '-dueDate' }, { summaryCap: 3 });
    expect([
      newest.summary.count,
      newest.summary.byStatus.PARTIALLY_RECEIVED.count,
      newest.summary.receivedAmount.toFixed(2),
      newest.summary.overdueAmount.toFixed(2),
    ]).to.deep.equal([3, 1, '5.00', '25.00']);
    const all = await listReceivables(ctx, t.filialIds[0], { page: 1, pageSize: 2, overdue: true, sort: 'dueDate' }, { summaryCap: 4 });
    expect([all.summary.capped, all.summary.count, all.pagination.total, all.pagination.totalCapped]).to.deep.equal([
      false,
      4,
      4,
      undefined,
    ]);
    const exact = await listReceivables(
      ctx,
      t.filialIds[0],
      { page: 1, pageSize: 2, overdue: true, sort: 'dueDate', exactSummary: true },
      { summaryCap: 3 },
    );
    expect([exact.summary.capped, exact.summary.count, exact.summary.overdueAmount.toFixed(2)]).to.deep.equal([false, 4, '35.00']);
    // With a status it stays one list.
    expect(
      (await list(t, { overdue: true, status: 'PARTIALLY_RECEIVED' })).body.data.map((r: { salesOrderId: string }) => r.salesOrderId),
    ).to.deep.equal([orders[1]]);
  });

  it('a list page is one round trip for the page, the summary and its bounded count, then one for the rows (MySQL)', async function () {
    if (!isMysql) this.skip();
    for (const query of [
      { debtorType: 'CUSTOMER', pageSize: 2 },
      { overdue: true, pageSize: 2 },
    ]) {
      const { result: res, roundTrips } = await recordStatements(() => list(t, query));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // The x-filial-id filial, then the page's sort values, the summary and the count of at most cap + 1 rows, then the page's rows.
      expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
        ['SELECT filial'],
        ['SELECT receivable', 'SELECT receivable', 'SELECT receivable'],
        ['SELECT receivable'],
      ]);
    }
  });

  it('filters: status, due range, customer, origin, overdue, debtor', async () => {
    const ids = async (q: Record<string, unknown>) =>
      ((await list(t, q)).body.data as { salesOrderId: string; debtorType: string }[]).map((r) => r.salesOrderId);
    expect(await ids({ overdue: true })).to.deep.equal([orders[4], orders[3], orders[2], orders[1]]);
    expect(await ids({ status: 'PARTIALLY_RECEIVED' })).to.deep.equal([orders[1]]);
    expect(await ids({ dueFrom: addCalendarDays(today, -50), dueTo: addCalendarDays(today, -1) })).to.deep.equal([orders[2], orders[1]]);
    expect(await ids({ customerId: customer.hash, origin: 'FULFILLMENT', sort: '-dueDate' })).to.deep.equal([
      orders[0],
      orders[1],
      orders[2],
      orders[3],
      orders[4],
    ]);
    const acquirer = (await list(t, { debtorType: 'ACQUIRER' })).body;
    expect(acquirer.data.map((r: { amount: number; origin: string }) => [r.amount, r.origin])).to.deep.equal([[97.01, 'QUICK_SALE']]);
    expectProblem(await list(t, { status: 'PAID' }), 400);
    expectProblem(await list(t, { dueFrom: '2024-13-01' }), 400);
  });

  it('the CSV export: the same filters, every row, exact amounts', async () => {
    const res = await api().get(`${BASE}/export/${t.filialHashes[0]}`).query({ overdue: true }).set(t.headers());
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/csv/);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0].split(',').slice(0, 3)).to.deep.equal(['id', 'filialId', 'debtorType']);
    expect(lines).to.have.length(5);
    const header = lines[0].split(',');
    const cols = (line: string) => Object.fromEntries(line.split(',').map((v, i) => [header[i], v]));
    expect(lines.slice(1).map((l) => [cols(l).amount, cols(l).openAmount, cols(l).overdue])).to.deep.equal([
      ['10.00', '10.00', 'true'],
      ['10.00', '10.00', 'true'],
      ['10.00', '10.00', 'true'],
      ['10.00', '5.00', 'true'],
    ]);
    expectProblem(await api().get(`${BASE}/export/${t.filialHashes[0]}`).query({ page: 2 }).set(t.headers()), 400);
  });
});
