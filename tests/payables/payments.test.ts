import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId, encodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { businessToday } from '../../src/core/business-date';
import { PayablePayment } from '../../src/modules/payables/entities/payable-payment.entity';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { cancel, confirm, createDraft, draftBody, footprint, item } from '../entry-document/support';

/*
 * Payments of payables through the API: register (partial, full), reverse, the payable's paid amount,
 * status and overdue following, the entry document's cancellation blocked while a payment stands,
 * concurrency of the last balance, idempotency, and the aging summary of the list.
 */

const BASE = '/api/entry-document/contas-pagar';
const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe('Payments of payables: POST /entry-document/contas-pagar/pay/:id, reverse-payment/:paymentId, GET detail/:id', () => {
  let t: TestTenant;
  let other: TestTenant;
  const today = businessToday();

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
    await makePaymentMethod(t, 'BOLETO', 'BANK_SLIP');
    await makePaymentMethod(t, 'OLD', 'OTHER', { active: false });
    await makePaymentMethod(other, 'PIX', 'PIX');
  });

  /** A confirmed document with one payable per installment (stock-free: the line is IGNORED). */
  async function confirmedDoc(
    tenant: TestTenant,
    installments: { dueDate: string; amount: number }[],
    filialIndex = 0,
    total = installments.reduce((a, i) => a + i.amount, 0),
  ) {
    const d = await createDraft(
      tenant,
      draftBody({ issueDate: '2020-01-01', entryDate: '2020-01-02', items: [item({ ignored: true, unitPrice: total })], installments }),
      filialIndex,
    );
    const res = await api().post(`/api/entry-document/confirm/${d.id}`).set(tenant.headers(filialIndex));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const payables = (await api().get(`${BASE}/documento/${d.id}`).set(tenant.headers(filialIndex))).body.data as { id: string }[];
    return { doc: d.id as string, payables: payables.map((p) => p.id) };
  }

  const pay = (payableId: string, body: Record<string, unknown>, headers = t.headers()) =>
    api().post(`${BASE}/pay/${payableId}`).set(headers).send(body);
  const reverse = (paymentId: string, body: Record<string, unknown>, headers = t.headers()) =>
    api().post(`${BASE}/reverse-payment/${paymentId}`).set(headers).send(body);
  const detail = (payableId: string, headers = t.headers()) => api().get(`${BASE}/detail/${payableId}`).set(headers);
  const payableRow = (hash: string) => dataSource.manager.findOneByOrFail(Payable, { id: decodeId('payable', hash) });
  const paymentRows = (payableHash: string) =>
    dataSource.manager.find(PayablePayment, { where: { payableId: decodeId('payable', payableHash) }, order: { id: 'ASC' } });
  const auditOf = (entity: string, id: number) =>
    dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity, entityId: id }, order: { id: 'ASC' } });
  const eventsOf = (payableHash: string) =>
    dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, aggregateType: 'payable', aggregateId: decodeId('payable', payableHash) },
      order: { id: 'ASC' },
    });
  const paymentCount = () => dataSource.manager.countBy(PayablePayment, { companyId: t.companyId });

  it('pays 40 % then 60 %, reverses the second payment; cancel is blocked while any payment stands and passes once none does', async () => {
    const { doc, payables } = await confirmedDoc(t, [{ dueDate: '2020-03-10', amount: 250 }]);
    const [payable] = payables;

    const first = await pay(payable, {
      amount: 100,
      paymentDate: '2024-05-10',
      method: 'PIX',
      interest: '2.50',
      fine: 5,
      discount: '0.50',
      note: 'Parcela com atraso',
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.payment).to.deep.include({
      status: 'ACTIVE',
      paymentDate: '2024-05-10',
      method: 'PIX',
      amount: 100,
      interest: 2.5,
      fine: 5,
      discount: 0.5,
      total: 107,
      note: 'Parcela com atraso',
      createdBy: 'test-user',
      reversedAt: null,
    });
    expect(first.body.payable).to.deep.include({
      id: payable,
      amount: 250,
      paidAmount: 100,
      openAmount: 150,
      status: 'PARTIALLY_PAID',
      overdue: true,
      version: 2,
    });
    expect(first.body.payable.payments.map((p: { id: string }) => p.id)).to.deep.equal([first.body.payment.id]);
    let row = await payableRow(payable);
    expect([row.paidAmount.toFixed(2), row.status, row.version]).to.deep.equal(['100.00', 'PARTIALLY_PAID', 2]);

    const second = await pay(payable, { amount: '150.00', paymentDate: today, method: 'BOLETO' });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    expect(second.body.payment).to.deep.include({
      amount: 150,
      interest: 0,
      fine: 0,
      discount: 0,
      total: 150,
      method: 'BOLETO',
      note: null,
    });
    expect(second.body.payable).to.deep.include({ paidAmount: 250, openAmount: 0, status: 'PAID', overdue: false });
    expect(second.body.payable.paymentTotals).to.deep.equal({ amount: 250, interest: 2.5, fine: 5, discount: 0.5, total: 257 });
    row = await payableRow(payable);
    expect([row.paidAmount.toFixed(2), row.status]).to.deep.equal(['250.00', 'PAID']);

    // Nothing more to pay: 409, nothing written.
    let before = await footprint(t);
    expectProblem(await pay(payable, { amount: '0.01', paymentDate: today, method: 'PIX' }), 409, 'PAYABLE_ALREADY_PAID');
    expect(await footprint(t)).to.deep.equal(before);

    // The entry document cannot be cancelled while payments stand: preview and execution, through the API.
    const preview = await api().get(`/api/entry-document/cancel-preview/${doc}`).set(t.headers());
    expect(preview.status).to.equal(200);
    expect(preview.body.blockingProblems.map((b: { code: string }) => b.code)).to.deep.equal(['PAYABLE_PAID']);
    expect(preview.body.blockingProblems[0].details).to.deep.include({ payableId: payable, paidAmount: 250 });
    before = await footprint(t);
    const blocked = await cancel(t, doc, { reason: 'devolução' });
    expectProblem(blocked, 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');
    expect(blocked.body.problems.map((p: { code: string }) => p.code)).to.deep.equal(['PAYABLE_PAID']);
    expect(await footprint(t)).to.deep.equal(before);

    // Reverse the second payment: back to PARTIALLY_PAID with 100 paid.
    const reversed = await reverse(second.body.payment.id, { reason: 'Boleto devolvido pelo banco' });
    expect(reversed.status, JSON.stringify(reversed.body)).to.equal(200);
    expect(reversed.body.payment).to.deep.include({
      id: second.body.payment.id,
      status: 'REVERSED',
      reversedBy: 'test-user',
      reversalReason: 'Boleto devolvido pelo banco',
    });
    expect(reversed.body.payable).to.deep.include({ paidAmount: 100, openAmount: 150, status: 'PARTIALLY_PAID', overdue: true });
    expect(reversed.body.payable.paymentTotals.amount).to.equal(100);
    expect((await paymentRows(payable)).map((p) => p.status)).to.deep.equal(['ACTIVE', 'REVERSED']);
    expectProblem(await reverse(second.body.payment.id, { reason: 'de novo' }), 409, 'PAYMENT_ALREADY_REVERSED');

    // Still a payment standing: still blocked.
    expect(
      (await api().get(`/api/entry-document/cancel-preview/${doc}`).set(t.headers())).body.blockingProblems.map(
        (b: { code: string }) => b.code,
      ),
    ).to.deep.equal(['PAYABLE_PAID']);
    expectProblem(await cancel(t, doc), 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');

    // Reverse the first: OPEN again, and the document cancels.
    const back = await reverse(first.body.payment.id, { reason: 'Lançado na nota errada' });
    expect(back.body.payable).to.deep.include({ paidAmount: 0, openAmount: 250, status: 'OPEN' });
    expect((await api().get(`/api/entry-document/cancel-preview/${doc}`).set(t.headers())).body.blockingProblems).to.deep.equal([]);
    expect((await cancel(t, doc, { reason: 'devolução' })).status).to.equal(200);
    expect((await payableRow(payable)).status).to.equal('CANCELLED');

    // A payable of a cancelled document takes no payment.
    before = await footprint(t);
    const late = await pay(payable, { amount: 10, paymentDate: today, method: 'PIX' });
    expectProblem(late, 409, 'PAYABLE_CANCELLED');
    expect(late.body.currentStatus).to.equal('CANCELLED');
    expect(await footprint(t)).to.deep.equal(before);

    // The detail keeps every payment, reversed ones included.
    const d = await detail(payable);
    expect(d.status).to.equal(200);
    expect(d.body).to.deep.include({ status: 'CANCELLED', paidAmount: 0 });
    expect(d.body.payments.map((p: { amount: number; status: string }) => [p.amount, p.status])).to.deep.equal([
      [100, 'REVERSED'],
      [150, 'REVERSED'],
    ]);

    // Audit and events, in order.
    const payableId = decodeId('payable', payable);
    const trail = await auditOf('payable', payableId);
    expect(trail.map((a) => a.action)).to.deep.equal([
      'CREATED',
      'PAYMENT_REGISTERED',
      'PAYMENT_REGISTERED',
      'PAYMENT_REVERSED',
      'PAYMENT_REVERSED',
    ]);
    trail.shift();
    expect(trail[0].changes).to.deep.equal({
      paidAmount: ['0.00', '100.00'],
      status: ['OPEN', 'PARTIALLY_PAID'],
      paymentId: [null, first.body.payment.id],
    });
    expect(trail[2].changes).to.deep.equal({
      paidAmount: ['250.00', '100.00'],
      status: ['PAID', 'PARTIALLY_PAID'],
      reversedPaymentId: [null, second.body.payment.id],
    });
    const paymentTrail = await auditOf('payable-payment', decodeId('payable-payment', second.body.payment.id));
    expect(paymentTrail.map((a) => [a.action, a.actor])).to.deep.equal([
      ['CREATED', 'test-user'],
      ['REVERSED', 'test-user'],
    ]);
    expect(paymentTrail[1].changes).to.deep.equal({
      status: ['ACTIVE', 'REVERSED'],
      reversalReason: [null, 'Boleto devolvido pelo banco'],
    });
    const events = await eventsOf(payable);
    expect(events.map((e) => e.type)).to.deep.equal([
      'payable.partially-paid',
      'payable.paid',
      'payable.payment-reversed',
      'payable.payment-reversed',
    ]);
    expect(events[1].data).to.deep.include({ id: payable, entryDocumentId: doc, status: 'PAID', paidAmount: 250, openAmount: 0 });
    expect((events[1].data as { payment: unknown }).payment).to.deep.include({ id: second.body.payment.id, amount: 150, method: 'BOLETO' });
  });

  it('never above what is owed: 422 PAYMENT_EXCEEDS_BALANCE naming the open amount, nothing written', async () => {
    const { payables } = await confirmedDoc(t, [{ dueDate: '2099-01-10', amount: 80 }]);
    expect((await pay(payables[0], { amount: 30, paymentDate: today, method: 'PIX' })).status).to.equal(201);
    const before = await footprint(t);
    const payments = await paymentCount();
    const res = await pay(payables[0], { amount: '50.01', paymentDate: today, method: 'PIX', discount: 1 });
    expectProblem(res, 422, 'PAYMENT_EXCEEDS_BALANCE');
    expect(res.body).to.deep.include({ openAmount: 50, amount: 50.01 });
    expect(await footprint(t)).to.deep.equal(before);
    expect(await paymentCount()).to.equal(payments);
    // Interest and fine are on top of the balance: paying the rest with them is fine.
    const rest = await pay(payables[0], { amount: 50, paymentDate: today, method: 'PIX', interest: 3, fine: 1 });
    expect(rest.body.payable).to.deep.include({ status: 'PAID', overdue: false });
    expect(rest.body.payment.total).to.equal(54);
  });

  it('bad input → 400 with paths; unknown or inactive method and a future date → 422; nothing written', async () => {
    const { payables } = await confirmedDoc(t, [{ dueDate: '2099-01-10', amount: 10 }]);
    const before = await footprint(t);
    const payments = await paymentCount();
    const bad = await pay(payables[0], { amount: 0, paymentDate: '2025-02-30', interest: -1, fine: '1.234', discount: 'x' });
    expectProblem(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members([
      'amount',
      'paymentDate',
      'method',
      'interest',
      'fine',
      'discount',
    ]);
    expectProblem(await pay(payables[0], { amount: 5, paymentDate: today, method: 'PIX', discount: '5.01' }), 400, 'VALIDATION_ERROR');
    expectProblem(await pay(payables[0], {}), 400, 'VALIDATION_ERROR');
    expectProblem(await pay(payables[0], { amount: 5, paymentDate: addDays(today, 1), method: 'PIX' }), 422, 'PAYMENT_DATE_IN_FUTURE');
    expectProblem(await pay(payables[0], { amount: 5, paymentDate: today, method: 'CHEQUE' }), 422, 'PAYMENT_METHOD_NOT_FOUND');
    expectProblem(await pay(payables[0], { amount: 5, paymentDate: today, method: 'OLD' }), 422, 'PAYMENT_METHOD_INACTIVE');
    const paid = await pay(payables[0], { amount: 5, paymentDate: today, method: 'PIX' });
    expect(paid.status).to.equal(201);
    const afterPay = await footprint(t);
    expectProblem(await reverse(paid.body.payment.id, {}), 400, 'VALIDATION_ERROR');
    expectProblem(await reverse(paid.body.payment.id, { reason: 'x' }), 400, 'VALIDATION_ERROR');
    expect(await footprint(t)).to.deep.equal(afterPay);
    expect(await paymentCount()).to.equal(payments + 1);
    expect(afterPay.audit).to.be.greaterThan(before.audit);
  });

  it("another tenant's payable and payment → 404; malformed ids → 400; a filial not granted → 403; missing scope → 403", async () => {
    const mine = await confirmedDoc(t, [{ dueDate: '2099-01-10', amount: 10 }], 1);
    const foreign = await confirmedDoc(other, [{ dueDate: '2099-01-10', amount: 10 }]);
    const foreignPayment = await pay(foreign.payables[0], { amount: 1, paymentDate: today, method: 'PIX' }, other.headers());
    expect(foreignPayment.status).to.equal(201);
    const minePayment = await pay(mine.payables[0], { amount: 1, paymentDate: today, method: 'PIX' }, t.headers(1));
    expect(minePayment.status).to.equal(201);
    const before = await footprint(t);
    expectProblem(await pay(foreign.payables[0], { amount: 1, paymentDate: today, method: 'PIX' }), 404, 'PAYABLE_NOT_FOUND');
    expectProblem(await detail(foreign.payables[0]), 404, 'PAYABLE_NOT_FOUND');
    expectProblem(await reverse(foreignPayment.body.payment.id, { reason: 'não é meu' }), 404, 'PAYMENT_NOT_FOUND');
    expectProblem(await pay(encodeId('payable', 99_999_999), { amount: 1, paymentDate: today, method: 'PIX' }), 404, 'PAYABLE_NOT_FOUND');
    expectProblem(await pay('!!', { amount: 1, paymentDate: today, method: 'PIX' }), 400, 'INVALID_ID');
    expectProblem(await reverse('!!', { reason: 'abc' }), 400, 'INVALID_ID');
    const onlyFirst = t.headersWith({ filiais: [t.filialHashes[0]] });
    expectProblem(await pay(mine.payables[0], { amount: 1, paymentDate: today, method: 'PIX' }, onlyFirst), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await reverse(minePayment.body.payment.id, { reason: 'abc' }, onlyFirst), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await detail(mine.payables[0], onlyFirst), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(
      await pay(mine.payables[0], { amount: 1, paymentDate: today, method: 'PIX' }, t.headersWith({ scope: 'payables:read' }, 1)),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect(await footprint(t)).to.deep.equal(before);
    // The other tenant's payment stands untouched.
    expect((await detail(foreign.payables[0], other.headers())).body.paidAmount).to.equal(1);
  });

  it('Idempotency-Key: a retry replays the first payment; the same key with another body → 409', async () => {
    const { payables } = await confirmedDoc(t, [{ dueDate: '2099-01-10', amount: 60 }]);
    const key = `pay-${payables[0]}`;
    const body = { amount: 20, paymentDate: today, method: 'PIX' };
    const first = await pay(payables[0], body, { ...t.headers(), 'Idempotency-Key': key });
    const retry = await pay(payables[0], body, { ...t.headers(), 'Idempotency-Key': key });
    expect(first.status).to.equal(201);
    expect(retry.status).to.equal(201);
    expect(retry.body).to.deep.equal(first.body);
    expect((await paymentRows(payables[0])).length).to.equal(1);
    expect((await pay(payables[0], { ...body, amount: 21 }, { ...t.headers(), 'Idempotency-Key': key })).status).to.equal(409);
    expect((await payableRow(payables[0])).paidAmount.toFixed(2)).to.equal('20.00');
  });

  it('two concurrent payments of the last balance: exactly one wins, the other → 409; one payment row', async () => {
    const { payables } = await confirmedDoc(t, [{ dueDate: '2099-01-10', amount: 90 }]);
    expect((await pay(payables[0], { amount: 50, paymentDate: today, method: 'PIX' })).status).to.equal(201);
    const results = await Promise.all([
      pay(payables[0], { amount: 40, paymentDate: today, method: 'PIX' }),
      pay(payables[0], { amount: 40, paymentDate: today, method: 'BOLETO' }),
    ]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409]);
    expectProblem(
      results.find((r) => r.status === 409)!,
      409,
      'PAYABLE_ALREADY_PAID',
    );
    const rows = await paymentRows(payables[0]);
    expect(rows.map((r) => r.amount.toFixed(2))).to.deep.equal(['50.00', '40.00']);
    const row = await payableRow(payables[0]);
    expect([row.paidAmount.toFixed(2), row.status]).to.deep.equal(['90.00', 'PAID']);
  });

  it('a payment racing the entry document cancel: one of them wins, never both', async () => {
    const p = await makeProduct(t);
    const d = await createDraft(
      t,
      draftBody({
        issueDate: '2020-01-01',
        entryDate: '2020-01-02',
        items: [item({ productId: p.hash, quantity: 2, unitPrice: 15 })],
        installments: [{ dueDate: '2099-01-10', amount: 30 }],
      }),
    );
    expect((await confirm(t, d.id)).status).to.equal(200);
    const [payable] = (await api().get(`${BASE}/documento/${d.id}`).set(t.headers())).body.data as { id: string }[];
    const [paid, cancelled] = await Promise.all([pay(payable.id, { amount: 10, paymentDate: today, method: 'PIX' }), cancel(t, d.id)]);
    expect(`${paid.status}/${cancelled.status}`).to.be.oneOf(['201/422', '409/200']);
    const row = await payableRow(payable.id);
    const payments = await paymentRows(payable.id);
    if (paid.status === 201) {
      expect([row.status, payments.length]).to.deep.equal(['PARTIALLY_PAID', 1]);
    } else {
      expect([row.status, payments.length]).to.deep.equal(['CANCELLED', 0]);
    }
  });

  it('the list has an aging summary of what is still open: due in 0–7, 8–30, 31+ days, overdue 1–30, 31–60, 61+', async () => {
    const aged = await createTestTenant();
    await makePaymentMethod(aged, 'PIX', 'PIX');
    const { payables } = await confirmedDoc(aged, [
      { dueDate: today, amount: 10 },
      { dueDate: addDays(today, 7), amount: 11 },
      { dueDate: addDays(today, 8), amount: 12 },
      { dueDate: addDays(today, 30), amount: 13 },
      { dueDate: addDays(today, 31), amount: 14 },
      { dueDate: addDays(today, -1), amount: 15 },
      { dueDate: addDays(today, -30), amount: 16 },
      { dueDate: addDays(today, -31), amount: 17 },
      { dueDate: addDays(today, -60), amount: 18 },
      { dueDate: addDays(today, -61), amount: 19 },
      { dueDate: addDays(today, 3), amount: 20 },
    ]);
    // A partial payment counts with what is still open; a paid one leaves the aging.
    expect((await pay(payables[10], { amount: 5, paymentDate: today, method: 'PIX' }, aged.headers())).status).to.equal(201);
    expect((await pay(payables[9], { amount: 19, paymentDate: today, method: 'PIX' }, aged.headers())).status).to.equal(201);
    const res = await api().get(`${BASE}/${aged.filialHashes[0]}`).set(aged.headers());
    expect(res.status).to.equal(200);
    expect(res.body.summary.aging).to.deep.equal({
      dueIn0To7Days: { count: 3, openAmount: 36 },
      dueIn8To30Days: { count: 2, openAmount: 25 },
      dueIn31PlusDays: { count: 1, openAmount: 14 },
      overdue1To30Days: { count: 2, openAmount: 31 },
      overdue31To60Days: { count: 2, openAmount: 35 },
      overdue61PlusDays: { count: 0, openAmount: 0 },
    });
    // The summary follows the filter.
    const overdue = await api().get(`${BASE}/${aged.filialHashes[0]}`).query({ overdue: true }).set(aged.headers());
    expect(overdue.body.summary.aging.dueIn0To7Days).to.deep.equal({ count: 0, openAmount: 0 });
    expect(overdue.body.summary.aging.overdue31To60Days).to.deep.equal({ count: 2, openAmount: 35 });
  });
});
