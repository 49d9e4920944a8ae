import { expect } from 'chai';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { Boleto } from '../../src/modules/collection/entities/boleto.entity';
import { PixCharge } from '../../src/modules/collection/entities/pix-charge.entity';
import { PixPayment } from '../../src/modules/collection/entities/pix-payment.entity';
import { PixPspConnection } from '../../src/modules/collection/entities/pix-psp-connection.entity';
import { BankSimulator } from '../../src/dev/bank-simulator';
import type { PspSimulator } from '../../src/dev/psp-simulator';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { billedOrder, receiptRows, receivableRow, receive, salesSetup } from '../receivables/support';
import { parseBrCode } from './support/emv-reader';
import {
  auditRows,
  createAccount,
  eventRows,
  issueBoleto,
  remit,
  remittanceFile,
  SAMPLE_ACCOUNTS,
  simulatorAccount,
  uploadReturn,
} from './support';
import {
  chargeOf,
  chargeRow,
  createCharge,
  listen,
  paymentsOf,
  PIX_KEY,
  pixAccount,
  putConnection,
  refund,
  refundsOf,
  startPspSimulator,
  webhook,
  WEBHOOK_SECRET,
} from './pix-support';

/*
 * Pix collection on receivables (issue 46, SPEC §14) end to end through HTTP against the local PSP:
 * static BR Code, cob and cobv, the webhook as a trigger (re-read, each endToEndId once: repeated,
 * held, out-of-order and concurrent callbacks), review instead of a second receipt, devoluções,
 * the bolePix paid twice, tenancy and bad input. Both engines (DB_URL).
 */
describe('Collection: Pix charges, webhooks and refunds', function () {
  this.timeout(60_000);
  let t: TestTenant;
  let other: TestTenant;
  let sim: PspSimulator;
  let server: { url: string; close: () => Promise<void> };
  let account: { id: string };
  let customer: { hash: string };
  let product: { hash: string };

  const receivable = async (terms: { installmentDays: number[] } | null = { installmentDays: [30] }, quantity = 1) => {
    const { receivables } = await billedOrder(t, customer.hash, product.hash, quantity, terms);
    return receivables[0].id;
  };
  const settled = async () => {
    await sim.settled();
  };

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    ({ product } = await salesSetup(t, '100.00'));
    customer = await makeCustomer(t, { name: 'Maria da Silva', document: '12345678909' });
    await makePaymentMethod(other, 'PIX', 'PIX');
    await makePaymentMethod(other, 'BOLETO', 'BANK_SLIP');
    sim = await startPspSimulator();
    server = await listen();
    account = await pixAccount(t, sim, server.url);
  });
  after(async () => {
    await sim.close();
    await server.close();
  });

  it('keeps the PSP connection: secrets sealed and never answered, the webhook registered for the key, audited', async () => {
    const id = decodeId('bank-account', account.id);
    const row = await dataSource.manager.findOneByOrFail(PixPspConnection, { companyId: t.companyId, bankAccountId: id });
    expect(row.clientSecretSealed).to.not.include(sim.clientSecret);
    expect(row.webhookSecretHash).to.have.length(64).and.not.include(WEBHOOK_SECRET);
    expect(sim.webhookOf(PIX_KEY)).to.equal(`${server.url}/webhooks/pix/${account.id}`);
    const got = await api().get(`/api/collection/pix/connections/${account.id}`).set(t.headers());
    expect(got.status).to.equal(200);
    expect(got.body).to.include({
      pixKey: PIX_KEY,
      clientSecretSet: true,
      paymentMethod: 'PIX',
      webhookUrl: `${server.url}/webhooks/pix/${account.id}`,
    });
    expect(got.body.webhookRegisteredAt).to.be.a('string');
    expect(JSON.stringify(got.body)).to.not.include(sim.clientSecret);
    const again = await putConnection(t, account.id, { baseUrl: sim.apiUrl, clientId: sim.clientId, webhookBaseUrl: server.url });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect((await auditRows(t, 'pix-psp-connection', row.id)).map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
  });

  it('refuses a connection without secrets (400), of an account without key (422) or of another company (404), writing nothing', async () => {
    const bare = await createAccount(t, { ...SAMPLE_ACCOUNTS['237'] });
    expect(bare.status).to.equal(201);
    const before = await dataSource.manager.countBy(PixPspConnection, { companyId: t.companyId });
    expectProblem(
      await putConnection(t, bare.body.id, { baseUrl: sim.apiUrl, clientId: 'x', clientSecret: 'y', webhookSecret: WEBHOOK_SECRET }),
      422,
      'PIX_KEY_REQUIRED',
    );
    const keyed = await createAccount(t, { ...SAMPLE_ACCOUNTS['001'], pixKey: '+5511999998888' });
    expectProblem(await putConnection(t, keyed.body.id, { baseUrl: sim.apiUrl, clientId: 'x' }), 400, 'VALIDATION_ERROR');
    expectProblem(
      await putConnection(t, keyed.body.id, { baseUrl: 'ftp://x', clientId: 'x', clientSecret: 'y', webhookSecret: WEBHOOK_SECRET }),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await putConnection(other, account.id, { baseUrl: sim.apiUrl, clientId: 'x', clientSecret: 'y', webhookSecret: WEBHOOK_SECRET }),
      404,
      'BANK_ACCOUNT_NOT_FOUND',
    );
    expect(await dataSource.manager.countBy(PixPspConnection, { companyId: t.companyId })).to.equal(before);
  });

  it('a static BR Code for the open balance parses and CRC-checks; the Pix of its txid becomes one receipt', async () => {
    const rid = await receivable();
    const res = await createCharge(t, rid, { kind: 'STATIC', bankAccountId: account.id, description: 'Pedido à prazo' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ kind: 'STATIC', status: 'ACTIVE', amount: 100, pixKey: PIX_KEY });
    expect(res.body.txid).to.match(/^[A-Za-z0-9]{25}$/);
    const code = parseBrCode(res.body.brCode);
    expect(code.crcOk).to.equal(true);
    expect(code.account).to.include({ '00': 'br.gov.bcb.pix', '01': PIX_KEY });
    expect(code.fields).to.include({ '54': '100.00', '59': 'Mercearia Boa Vista', '60': 'Sao Paulo', '61': '01304001' });
    expect(code.additional['05']).to.equal(res.body.txid);
    const paid = sim.pay({ chave: PIX_KEY, txid: res.body.txid, valor: '100.00' });
    expect(paid).to.not.have.property('error');
    await settled();
    expect(sim.deliveries.at(-1)?.status).to.equal(200);
    const r = await receivableRow(rid);
    expect(r.status).to.equal('RECEIVED');
    const receipts = await receiptRows(r.id);
    expect(receipts.map((x) => [x.status, x.amount.toFixed(2), x.paymentMethodCode])).to.deep.equal([['ACTIVE', '100.00', 'PIX']]);
    expect((await chargeRow(res.body.id)).status).to.equal('COMPLETED');
    const detail = await chargeOf(t, res.body.id);
    expect(detail.status).to.equal(200);
    expect(detail.body.payments).to.have.length(1);
    expect(detail.body.payments[0]).to.include({
      status: 'APPLIED',
      amount: 100,
      receiptId: receipts[0] && detail.body.payments[0].receiptId,
    });
  });

  it('a cob: ACTIVE with its location and dynamic BR Code; a Pix delivered three times is one receipt', async () => {
    const rid = await receivable();
    const res = await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id, amount: 60, expiresInSeconds: 3600 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ kind: 'IMMEDIATE', status: 'ACTIVE', amount: 60, validity: 3600 });
    expect(res.body.txid).to.match(/^[A-Za-z0-9]{32}$/);
    const code = parseBrCode(res.body.brCode);
    expect(code.crcOk).to.equal(true);
    expect(code.fields['01']).to.equal('12');
    expect(code.account['25']).to.equal(res.body.location);
    expect(sim.chargeOf(res.body.txid)).to.deep.include({ chave: PIX_KEY, status: 'ATIVA' });
    const id = decodeId('pix-charge', res.body.id);
    expect((await eventRows(t, 'pix-charge', id)).map((e) => e.type)).to.deep.equal(['collection.pix.charge-created']);
    const before = sim.deliveries.length;
    sim.pay({ txid: res.body.txid, deliver: { repeat: 3, delayMs: 5 } });
    await settled();
    expect(sim.deliveries.slice(before).map((d) => d.status)).to.deep.equal([200, 200, 200]);
    const r = await receivableRow(rid);
    expect([r.status, r.receivedAmount.toFixed(2)]).to.deep.equal(['PARTIALLY_RECEIVED', '60.00']);
    expect((await receiptRows(r.id)).filter((x) => x.status === 'ACTIVE')).to.have.length(1);
    expect((await chargeRow(res.body.id)).status).to.equal('COMPLETED');
    const payments = (await paymentsOf(t)).filter((p) => p.chargeId === id);
    expect(payments).to.have.length(1);
    expect((await eventRows(t, 'pix-payment', payments[0].id)).map((e) => e.type)).to.deep.equal(['collection.pix.received']);
    expect((await auditRows(t, 'pix-payment', payments[0].id)).map((a) => a.action)).to.deep.equal(['APPLIED']);
  });

  it('a cobv with due date, fine, interest and discount: the PSP gets them; a late Pix is a receipt with its interest and fine', async () => {
    const rid = await receivable();
    const res = await createCharge(t, rid, { kind: 'DUE_DATE', bankAccountId: account.id, discountAmount: 5, daysAfterDue: 10 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const r0 = await receivableRow(rid);
    expect(res.body).to.include({
      kind: 'DUE_DATE',
      status: 'ACTIVE',
      dueDate: r0.dueDate,
      finePercent: 2,
      interestPerDayPercent: 0.0333,
      discountAmount: 5,
      validity: 10,
    });
    const atPsp = sim.chargeOf(res.body.txid) as {
      valor: Record<string, unknown>;
      calendario: Record<string, unknown>;
      devedor: Record<string, unknown>;
    };
    expect(atPsp.calendario).to.include({ dataDeVencimento: r0.dueDate, validadeAposVencimento: 10 });
    expect(atPsp.devedor).to.include({ cpf: '12345678909', nome: 'Maria da Silva' });
    expect(atPsp.valor).to.deep.include({
      original: '100.00',
      multa: { modalidade: 2, valorPerc: '2.00' },
      juros: { modalidade: 3, valorPerc: '1.00' },
    });
    expect((atPsp.valor.desconto as { descontoDataFixa: unknown[] }).descontoDataFixa).to.deep.equal([
      { data: r0.dueDate, valorPerc: '5.00' },
    ]);
    sim.pay({
      txid: res.body.txid,
      valor: '103.50',
      componentesValor: { original: { valor: '100.00' }, juros: { valor: '1.50' }, multa: { valor: '2.00' } },
    });
    await settled();
    const receipts = await receiptRows(r0.id);
    expect(receipts.map((x) => [x.amount.toFixed(2), x.interest.toFixed(2), x.fine.toFixed(2), x.total.toFixed(2)])).to.deep.equal([
      ['100.00', '1.50', '2.00', '103.50'],
    ]);
    expect((await receivableRow(rid)).status).to.equal('RECEIVED');
  });

  it('a cobv paid late by a PSP that does not report the parts: the fine (its percent) and interest are what exceeds the value', async () => {
    const rid = await receivable();
    const res = await createCharge(t, rid, { kind: 'DUE_DATE', bankAccountId: account.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const late = `${addCalendarDays(res.body.dueDate, 2)}T15:00:00.000Z`;
    sim.pay({ txid: res.body.txid, valor: '103.00', horario: late });
    await settled();
    const r = await receivableRow(rid);
    const receipts = await receiptRows(r.id);
    expect(receipts.map((x) => [x.amount.toFixed(2), x.fine.toFixed(2), x.interest.toFixed(2), x.total.toFixed(2)])).to.deep.equal([
      ['100.00', '2.00', '1.00', '103.00'],
    ]);
    expect(r.status).to.equal('RECEIVED');
  });

  it('held callbacks released out of order, and a second Pix after the receivable is settled: kept for review, never a second receipt', async () => {
    const a = await receivable();
    const b = await receivable();
    const ca = (await createCharge(t, a, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    const cb = (await createCharge(t, b, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    sim.pay({ txid: ca.txid, deliver: { hold: true, repeat: 2 } });
    sim.pay({ txid: cb.txid, deliver: { hold: true } });
    // The payer pays the settled charge again (several Pix may pay one txid).
    sim.pay({ txid: ca.txid, allowConcluded: true, deliver: { hold: true } });
    expect(sim.release('reverse')).to.equal(4);
    await settled();
    for (const [hash, id] of [
      [a, ca.id],
      [b, cb.id],
    ]) {
      const r = await receivableRow(hash);
      expect(r.status).to.equal('RECEIVED');
      expect((await receiptRows(r.id)).filter((x) => x.status === 'ACTIVE').map((x) => x.amount.toFixed(2))).to.deep.equal(['100.00']);
      expect((await chargeRow(id)).status).to.equal('COMPLETED');
    }
    const ofA = (await paymentsOf(t)).filter((p) => p.chargeId === decodeId('pix-charge', ca.id));
    expect(ofA.map((p) => [p.status, p.reviewReason]).sort()).to.deep.equal([
      ['APPLIED', null],
      ['REVIEW', 'RECEIVABLE_SETTLED'],
    ]);
    const review = ofA.find((p) => p.status === 'REVIEW')!;
    expect(review.receiptId).to.equal(null);
    expect((await eventRows(t, 'pix-payment', review.id)).map((e) => e.type)).to.deep.equal(['collection.pix.review']);
    const seen = await api()
      .get(`/api/collection/pix/payments/${encodeURIComponent(detailHash(review.id))}`)
      .set(t.headers());
    expect(seen.status).to.equal(200);
    expect(seen.body).to.include({ status: 'REVIEW', reviewReason: 'RECEIVABLE_SETTLED', receiptId: null });
  });

  it('lists the Pix kept for review of a filial, paginated (and none of another company)', async () => {
    const res = await api()
      .get(`/api/collection/pix/payments/list/${t.filialHashes[0]}`)
      .query({ status: 'REVIEW', pageSize: 1 })
      .set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.have.length(1);
    expect(res.body.data[0]).to.include({ status: 'REVIEW', reviewReason: 'RECEIVABLE_SETTLED', receiptId: null });
    const all = await api().get(`/api/collection/pix/payments/list/${t.filialHashes[0]}`).set(t.headers());
    expect(all.body.data.length).to.be.greaterThan(1);
    expect(all.body.data.every((p: { filialId: string }) => p.filialId === t.filialHashes[0])).to.equal(true);
    const theirs = await api().get(`/api/collection/pix/payments/list/${other.filialHashes[0]}`).set(other.headers());
    expect(theirs.status).to.equal(200);
    expect(theirs.body.data).to.deep.equal([]);
    expectProblem(
      await api().get(`/api/collection/pix/payments/list/${t.filialHashes[0]}`).query({ status: 'PAID' }).set(t.headers()),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('the same webhook twice at once: one receipt (concurrency)', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    const pix = sim.pay({ txid: c.txid, deliver: { hold: true } }) as { endToEndId: string };
    sim.release(); // the simulator's own callback races with the two below
    const body = [{ endToEndId: pix.endToEndId, txid: c.txid, valor: '100.00', horario: new Date().toISOString() }];
    const [x, y] = await Promise.all([webhook(account.id, body), webhook(account.id, body)]);
    await settled();
    expect([x.status, y.status]).to.deep.equal([200, 200]);
    const r = await receivableRow(rid);
    expect((await receiptRows(r.id)).filter((z) => z.status === 'ACTIVE')).to.have.length(1);
    expect(r.receivedAmount.toFixed(2)).to.equal('100.00');
    expect(await dataSource.manager.countBy(PixPayment, { companyId: t.companyId, endToEndId: pix.endToEndId })).to.equal(1);
    const applied = x.body.summary.applied + y.body.summary.applied;
    expect(applied).to.be.at.most(1);
  });

  it('a Pix to the key with no charge of ours, delivered twice at once: one payment kept for review (UNKNOWN_TXID), no receipt', async () => {
    const pix = sim.pay({ chave: PIX_KEY, valor: '7.50', infoPagador: 'sem cobrança', deliver: { hold: true } }) as { endToEndId: string };
    const body = [{ endToEndId: pix.endToEndId, valor: '7.50' }];
    const [x, y] = await Promise.all([webhook(account.id, body), webhook(account.id, body)]);
    expect([x.status, y.status], JSON.stringify([x.body, y.body])).to.deep.equal([200, 200]);
    expect([x.body.summary.review + y.body.summary.review, x.body.summary.duplicates + y.body.summary.duplicates]).to.deep.equal([1, 1]);
    const rows = await dataSource.manager.findBy(PixPayment, { companyId: t.companyId, endToEndId: pix.endToEndId });
    expect(rows.map((p) => [p.status, p.reviewReason, p.receivableId, p.receiptId, p.payerInfo])).to.deep.equal([
      ['REVIEW', 'UNKNOWN_TXID', null, null, 'sem cobrança'],
    ]);
    sim.release();
    await settled();
  });

  it('a webhook is only a trigger: its body is not believed (the PSP is read again), and a wrong secret is refused', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    const before = (await paymentsOf(t)).length;
    // A forged callback naming the charge with no Pix at the PSP: nothing applied.
    const forged = await webhook(account.id, [{ endToEndId: 'E99999008202612021200abcdefghijk', txid: c.txid, valor: '100.00' }]);
    expect(forged.status, JSON.stringify(forged.body)).to.equal(200);
    expect(forged.body.summary).to.deep.equal({ applied: 0, duplicates: 0, review: 0, refundsSettled: 0 });
    expectProblem(await webhook(account.id, [{ endToEndId: 'E1', txid: c.txid }], 'errado'), 403, 'PIX_WEBHOOK_SECRET_MISMATCH');
    expectProblem(await webhook(account.id, [{ endToEndId: 'E1', txid: c.txid }], null), 403, 'PIX_WEBHOOK_SECRET_MISMATCH');
    expectProblem(await webhook('not-a-hash!', [{ endToEndId: 'E1' }]), 400);
    expectProblem(await webhook(account.id, []), 400, 'VALIDATION_ERROR');
    expect((await paymentsOf(t)).length).to.equal(before);
    expect((await receivableRow(rid)).status).to.equal('OPEN');
  });

  it('refunds (devoluções): partial — the receipt replaced by one of what stays; the rest — the receivable open again; never above the Pix', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    sim.pay({ txid: c.txid });
    await settled();
    const payment = (await paymentsOf(t)).find((p) => p.chargeId === decodeId('pix-charge', c.id))!;
    const hash = detailHash(payment.id);
    const count = async () => (await refundsOf(payment.id)).length;
    expectProblem(await refund(t, hash, { amount: 100.01, reason: 'Devolução maior' }), 422, 'PIX_REFUND_EXCEEDS_PAYMENT');
    expectProblem(await refund(t, hash, { amount: 10 }), 400, 'VALIDATION_ERROR');
    expectProblem(await refund(other, hash, { amount: 10, reason: 'Outra empresa' }), 404, 'PIX_PAYMENT_NOT_FOUND');
    expect(await count()).to.equal(0);
    const part = await refund(t, hash, { amount: 30, reason: 'Produto devolvido em parte' });
    expect(part.status, JSON.stringify(part.body)).to.equal(201);
    expect(part.body.refund).to.include({ status: 'RETURNED', amount: 30 });
    expect(part.body.payment).to.include({ status: 'APPLIED', refundedAmount: 30 });
    let r = await receivableRow(rid);
    let receipts = await receiptRows(r.id);
    expect(receipts.map((x) => [x.status, x.amount.toFixed(2)])).to.deep.equal([
      ['REVERSED', '100.00'],
      ['ACTIVE', '70.00'],
    ]);
    expect([r.status, r.receivedAmount.toFixed(2)]).to.deep.equal(['PARTIALLY_RECEIVED', '70.00']);
    const rest = await refund(t, hash, { reason: 'Cancelamento da venda' });
    expect(rest.status, JSON.stringify(rest.body)).to.equal(201);
    expect(rest.body.payment).to.include({ status: 'REFUNDED', refundedAmount: 100, receiptId: null });
    r = await receivableRow(rid);
    receipts = await receiptRows(r.id);
    expect(receipts.map((x) => x.status)).to.deep.equal(['REVERSED', 'REVERSED']);
    expect([r.status, r.receivedAmount.toFixed(2)]).to.deep.equal(['OPEN', '0.00']);
    expectProblem(await refund(t, hash, { amount: 1, reason: 'De novo' }), 409, 'PIX_PAYMENT_REFUNDED');
    expect((await eventRows(t, 'pix-payment', payment.id)).map((e) => e.type)).to.deep.equal([
      'collection.pix.received',
      'collection.pix.refund-requested',
      'collection.pix.refunded',
      'collection.pix.refund-requested',
      'collection.pix.refunded',
    ]);
  });

  it('a refund the PSP does not carry out fails and keeps the receipt; one settled later arrives by webhook', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    sim.pay({ txid: c.txid });
    await settled();
    const payment = (await paymentsOf(t)).find((p) => p.chargeId === decodeId('pix-charge', c.id))!;
    sim.setRefundOutcome('NAO_REALIZADO');
    const failed = await refund(t, detailHash(payment.id), { amount: 10, reason: 'Tentativa' });
    expect(failed.status, JSON.stringify(failed.body)).to.equal(201);
    expect(failed.body.refund.status).to.equal('FAILED');
    expect((await receivableRow(rid)).receivedAmount.toFixed(2)).to.equal('100.00');
    sim.setRefundOutcome('DEVOLVIDO', 30);
    const later = await refund(t, detailHash(payment.id), { amount: 10, reason: 'Desconto concedido depois' });
    expect(later.body.refund.status).to.equal('REQUESTED');
    await new Promise((r) => setTimeout(r, 60));
    await settled();
    const rows = await refundsOf(payment.id);
    expect(rows.map((x) => x.status)).to.deep.equal(['FAILED', 'RETURNED']);
    expect((await receivableRow(rid)).receivedAmount.toFixed(2)).to.equal('90.00');
    sim.setRefundOutcome('DEVOLVIDO', 0);
  });

  it('a bolePix paid by its barcode first: its Pix is kept for review (BOLETO_PAID), never a second receipt', async () => {
    const rid = await receivable();
    const r = await receivableRow(rid);
    const c = (await createCharge(t, rid, { kind: 'DUE_DATE', bankAccountId: account.id })).body;
    await dataSource.manager.insert(Boleto, {
      companyId: t.companyId,
      filialId: r.filialId,
      bankAccountId: decodeId('bank-account', account.id),
      receivableId: r.id,
      bankCode: '341',
      // Far from the account's sequence, which the boletos issued by the API in this file take.
      sequence: 9999999,
      nossoNumero: '09999999',
      nossoNumeroDv: '0',
      nossoNumeroPrinted: '109/09999999-0',
      documentNumber: '1',
      amount: new Dec('100.00'),
      issueDate: r.issueDate,
      dueDate: r.dueDate,
      barcode: '3419'.padEnd(44, '0'),
      digitableLine: '3419'.padEnd(47, '0'),
      finePercent: new Dec(0),
      interestPerDayPercent: new Dec(0),
      discountAmount: new Dec(0),
      discountDate: null,
      protestDays: null,
      writeOffDays: null,
      status: 'PAID',
      refusalReason: null,
      reviewReason: null,
      paidAmount: new Dec('100.00'),
      registeredAt: new Date(),
      createdBy: 'test',
      version: 1,
    } as never);
    sim.pay({ txid: c.txid });
    await settled();
    const p = (await paymentsOf(t)).find((x) => x.chargeId === decodeId('pix-charge', c.id))!;
    expect([p.status, p.reviewReason, p.receiptId]).to.deep.equal(['REVIEW', 'BOLETO_PAID', null]);
    expect((await receiptRows(r.id)).length).to.equal(0);
  });

  it('a bolePix paid by its QR first, then by its barcode: one receipt; the retorno flags the liquidação for review', async () => {
    const rid = await receivable();
    const r = await receivableRow(rid);
    const issued = await issueBoleto(t, rid, { bankAccountId: account.id });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    const boleto = await dataSource.manager.findOneByOrFail(Boleto, { id: decodeId('boleto', issued.body.id) });
    const charge = await dataSource.manager.findOneByOrFail(PixCharge, { companyId: t.companyId, txid: `BOL341${boleto.nossoNumero}` });
    expect([charge.kind, charge.status, charge.receivableId]).to.deep.equal(['STATIC', 'ACTIVE', r.id]);
    // The payer scans the QR printed on the boleto.
    sim.pay({ chave: PIX_KEY, txid: charge.txid, valor: '100.00' });
    await settled();
    const p = (await paymentsOf(t)).find((x) => x.chargeId === charge.id)!;
    expect(p.status).to.equal('APPLIED');
    expect((await receiptRows(r.id)).length).to.equal(1);
    expect((await receivableRow(rid)).status).to.equal('RECEIVED');
    // ...and pays the barcode too: the bank's liquidação is flagged, never a second receipt.
    const bank = new BankSimulator(await simulatorAccount(t, account.id));
    bank.receiveRemessa(await remittanceFile(t, (await remit(t, account.id)).body.id), businessToday());
    bank.pay(boleto.nossoNumero, { date: businessToday() });
    const up = await uploadReturn(t, account.id, bank.retorno(new Date()));
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    expect(up.body.summary).to.include({ APPLIED: 1, FLAGGED: 1 });
    const after = await dataSource.manager.findOneByOrFail(Boleto, { id: boleto.id });
    expect(after.reviewReason).to.be.a('string').and.not.equal('');
    expect((await receiptRows(r.id)).length).to.equal(1);
    const row = await receivableRow(rid);
    expect([row.status, row.receivedAmount.toFixed(2)]).to.deep.equal(['RECEIVED', '100.00']);
  });

  it('refuses bad input (400), a settled receivable (409), too much (422) and another company (404), writing no charge', async () => {
    const rid = await receivable();
    const count = () => dataSource.manager.countBy(PixCharge, { companyId: t.companyId });
    const before = await count();
    expectProblem(await createCharge(t, rid, { kind: 'BOLETO', bankAccountId: account.id }), 400, 'VALIDATION_ERROR');
    expectProblem(await createCharge(t, rid, { kind: 'STATIC', bankAccountId: account.id, amount: 10, extra: 1 }), 400, 'UNKNOWN_FIELDS');
    expectProblem(
      await createCharge(t, rid, { kind: 'STATIC', bankAccountId: account.id, amount: 100.01 }),
      422,
      'PIX_AMOUNT_EXCEEDS_BALANCE',
    );
    expectProblem(
      await createCharge(t, rid, { kind: 'DUE_DATE', bankAccountId: account.id, dueDate: '2020-01-01' }),
      422,
      'PIX_DUE_DATE_PAST',
    );
    expectProblem(await createCharge(other, rid, { kind: 'STATIC', bankAccountId: account.id }), 404, 'RECEIVABLE_NOT_FOUND');
    const keyless = await createAccount(t, { ...SAMPLE_ACCOUNTS['033'] });
    expectProblem(await createCharge(t, rid, { kind: 'STATIC', bankAccountId: keyless.body.id }), 422, 'PIX_KEY_REQUIRED');
    const unconnected = await createAccount(t, { ...SAMPLE_ACCOUNTS['104'], pixKey: '11222333000181' });
    expectProblem(await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: unconnected.body.id }), 422, 'PIX_PSP_NOT_CONFIGURED');
    const paid = await receivable();
    expect(
      (await receive(t, paid, { amount: 100, receiptDate: (await receivableRow(paid)).issueDate, method: 'DINHEIRO' })).status,
    ).to.equal(201);
    expectProblem(await createCharge(t, paid, { kind: 'STATIC', bankAccountId: account.id }), 409, 'RECEIVABLE_ALREADY_RECEIVED');
    const notGranted = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
    expectProblem(await createCharge(t, rid, { kind: 'STATIC', bankAccountId: account.id }, notGranted), 403);
    expect(await count()).to.equal(before);
    const own = (await createCharge(t, rid, { kind: 'STATIC', bankAccountId: account.id })).body;
    expectProblem(await chargeOf(other, own.id), 404, 'PIX_CHARGE_NOT_FOUND');
    expectProblem(await chargeOf(t, own.id, notGranted), 403);
    expectProblem(await api().get(`/api/receivables/${rid}/pix`).set(other.headers()), 404, 'RECEIVABLE_NOT_FOUND');
    const listed = await api().get(`/api/receivables/${rid}/pix`).set(t.headers());
    expect(listed.status).to.equal(200);
    expect(listed.body.data.map((x: { id: string }) => x.id)).to.deep.equal([own.id]);
  });

  it('a PSP that refuses the credentials: 502, the charge stays PENDING and a sync settles it once the PSP takes it', async () => {
    const rid = await receivable();
    const accountId = decodeId('bank-account', account.id);
    const conn = await dataSource.manager.findOneByOrFail(PixPspConnection, { companyId: t.companyId, bankAccountId: accountId });
    expect((await putConnection(t, account.id, { baseUrl: sim.apiUrl, clientId: 'wrong-client' })).status).to.equal(200);
    const res = await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id });
    expectProblem(res, 502, 'PSP_AUTH_FAILED');
    const pending = await dataSource.manager.findOneByOrFail(PixCharge, {
      companyId: t.companyId,
      receivableId: decodeId('receivable', rid),
    });
    expect(pending.status).to.equal('PENDING');
    expect((await putConnection(t, account.id, { baseUrl: sim.apiUrl, clientId: conn.clientId })).status).to.equal(200);
    // Not at the PSP: a re-read answers the PSP's 404.
    expectProblem(
      await api()
        .post(`/api/collection/pix/charges/${chargeHash(pending.id)}/sync`)
        .set(t.headers()),
      502,
      'PSP_NOT_FOUND',
    );
  });

  it('a PSP unreachable while a webhook re-reads: 503, nothing applied; the PSP retry applies it once', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    const pix = sim.pay({ txid: c.txid, deliver: { hold: true } }) as { endToEndId: string };
    expect((await putConnection(t, account.id, { baseUrl: 'http://127.0.0.1:9/api/v2', clientId: sim.clientId })).status).to.equal(200);
    const body = [{ endToEndId: pix.endToEndId, txid: c.txid }];
    expectProblem(await webhook(account.id, body), 503, 'PSP_UNAVAILABLE');
    expect((await receiptRows((await receivableRow(rid)).id)).length).to.equal(0);
    expect((await putConnection(t, account.id, { baseUrl: sim.apiUrl, clientId: sim.clientId })).status).to.equal(200);
    const retried = await webhook(account.id, body);
    expect(retried.status).to.equal(200);
    expect(retried.body.summary).to.include({ applied: 1 });
    sim.release();
    await settled();
    expect((await receiptRows((await receivableRow(rid)).id)).filter((x) => x.status === 'ACTIVE')).to.have.length(1);
  });

  it('a sync by hand applies what a lost webhook would have', async () => {
    const rid = await receivable();
    const c = (await createCharge(t, rid, { kind: 'IMMEDIATE', bankAccountId: account.id })).body;
    sim.pay({ txid: c.txid, deliver: { hold: true } });
    const res = await api().post(`/api/collection/pix/charges/${c.id}/sync`).set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.summary).to.deep.equal({ applied: 1, duplicates: 0, review: 0, refundsSettled: 0 });
    expect(res.body.charge).to.include({ status: 'COMPLETED' });
    sim.release();
    await settled();
    expect((await receiptRows((await receivableRow(rid)).id)).filter((x) => x.status === 'ACTIVE')).to.have.length(1);
  });
});

import { encodeId } from '../../src/core/hashids';
const detailHash = (id: number) => encodeId('pix-payment', id);
const chargeHash = (id: number) => encodeId('pix-charge', id);
