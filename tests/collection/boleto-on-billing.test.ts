import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { decodeBoleto } from '../../src/modules/collection/banks/barcode';
import { parseRemessa240 } from '../../src/modules/collection/cnab/cnab240';
import { BoletoInstruction } from '../../src/modules/collection/entities/boleto-instruction.entity';
import { Boleto } from '../../src/modules/collection/entities/boleto.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { Fulfillment } from '../../src/modules/sales-order/entities/fulfillment.entity';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object itself (its exports are swapped for one call), not an interop copy
import shared = require('../../src/modules/sales-order/services/shared');
import { StockBalance } from '../../src/modules/stock/entities/stock-balance.entity';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { configureCounter, quickSale } from '../receivables/support';
import { auditRows, collectionSetup, createAccount, remit, remittanceFile, SAMPLE_ACCOUNTS } from './support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';
import { In } from 'typeorm';

/*
 * Boleto on billing (issue 46, docs/decisions/collection-boleto.md "Boleto on billing"): a sales order
 * names `boletoBankAccountId`; each fulfilment's billing issues one boleto per customer installment in
 * its own transaction (and a quick sale per a-prazo receivable). Through HTTP, both engines (DB_URL).
 */
describe('Collection: boletos issued on billing', function () {
  this.timeout(90_000);
  let t: TestTenant;
  let other: TestTenant;
  let customerHash: string;
  let productHash: string;
  let productId: number;
  const accounts: Record<string, string> = {};
  let otherTenantAccount: string;

  type Body = Record<string, unknown>;
  const createOrder = (body: Body) =>
    api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({ customerId: customerHash, items: [{ productId: productHash, quantity: 1 }], ...body });
  const fulfil = (order: { id: string; items: { salesOrderItemId: string }[] }, quantity = 1) =>
    api()
      .post(`/api/sales-order/${order.id}/fulfill`)
      .set(t.headers())
      .send({ items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity }] });
  const boletosOfAccount = (hash: string) =>
    dataSource.manager.find(Boleto, {
      where: { companyId: t.companyId, bankAccountId: decodeId('bank-account', hash) },
      order: { id: 'ASC' },
    });
  const orderRows = () => dataSource.manager.countBy(SalesOrder, { companyId: t.companyId });
  const stockNow = async () =>
    (
      await dataSource.manager.findOneByOrFail(StockBalance, { companyId: t.companyId, filialId: t.filialIds[0], productId })
    ).quantity.toFixed(4);

  /** Nothing of a refused fulfilment stands: no fulfilment, receivable or boleto, the order still OPEN, the stock untouched. */
  async function expectNothingBilled(orderHash: string, stockBefore: string) {
    const salesOrderId = decodeId('sales-order', orderHash);
    expect(await dataSource.manager.countBy(Fulfillment, { companyId: t.companyId, salesOrderId })).to.equal(0);
    const receivables = await dataSource.manager.findBy(Receivable, { companyId: t.companyId, salesOrderId });
    expect(receivables).to.have.length(0);
    const order = await api().get(`/api/sales-order/detail/${orderHash}`).set(t.headers());
    expect(order.body.status).to.equal('OPEN');
    expect(order.body.items[0].fulfilledQuantity).to.equal(0);
    expect(await stockNow()).to.equal(stockBefore);
  }

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    const setup = await collectionSetup(t);
    customerHash = setup.customer.hash;
    productHash = setup.product.hash;
    productId = setup.product.id;
    for (const code of ['341', '237', '001', '756', '104']) {
      const res = await createAccount(t, { ...SAMPLE_ACCOUNTS[code], finePercent: 2, interestPerDayPercent: '0.0333' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      accounts[code] = res.body.id;
    }
    // An account of the second filial: the orders of the first cannot collect on it.
    const second = await createAccount(t, { ...SAMPLE_ACCOUNTS['033'], filialId: t.filialHashes[1] });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    accounts.secondFilial = second.body.id;
    await makePaymentMethod(other, 'BOLETO', 'BANK_SLIP');
    const foreign = await createAccount(other, SAMPLE_ACCOUNTS['341'], other.headers());
    expect(foreign.status, JSON.stringify(foreign.body)).to.equal(201);
    otherTenantAccount = foreign.body.id;
  });

  it('an order naming the account, in 3 installments: its fulfilment answers 3 boletos PENDING_REGISTRATION with distinct nosso números, the receivables to the cent, barcode and linha that decode; a remessa picks them up', async () => {
    const created = await createOrder({ paymentTerms: { installmentDays: [30, 60, 90] }, boletoBankAccountId: accounts['341'] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.boletoBankAccountId).to.equal(accounts['341']);
    const [audit] = await auditRows(t, 'sales-order', decodeId('sales-order', created.body.id));
    expect(audit.changes).to.deep.include({ boletoBankAccountId: [null, accounts['341']] });
    const detail = await api().get(`/api/sales-order/detail/${created.body.id}`).set(t.headers());
    expect(detail.body.boletoBankAccountId).to.equal(accounts['341']);
    const listed = await api().get(`/api/sales-order/list/${t.filialHashes[0]}`).set(t.headers());
    expect(listed.body.data.find((o: Body) => o.id === created.body.id).boletoBankAccountId).to.equal(accounts['341']);

    const res = await fulfil(created.body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const boletos = res.body.boletos as Body[];
    expect(boletos).to.have.length(3);
    const receivables = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', created.body.id) },
      order: { installmentNumber: 'ASC' },
    });
    expect(receivables.map((r) => r.amount.toFixed(2))).to.deep.equal(['33.33', '33.33', '33.34']);
    expect(new Set(boletos.map((b) => b.nossoNumero)).size).to.equal(3);
    boletos.forEach((b, i) => {
      const r = receivables[i];
      expect(b).to.include({
        status: 'PENDING_REGISTRATION',
        bankCode: '341',
        bankAccountId: accounts['341'],
        dueDate: r.dueDate,
        amount: Number(r.amount.toFixed(2)),
        finePercent: 2,
      });
      expect(decodeId('receivable', b.receivableId as string)).to.equal(r.id);
      expect(b.pendingInstructions).to.deep.equal([{ kind: 'REGISTER', dueDate: null, amount: null }]);
      const line = decodeBoleto(b.digitableLine as string, businessToday());
      const bar = decodeBoleto(b.barcode as string, businessToday());
      expect(line.bankCode).to.equal('341');
      expect(line.amount.toFixed(2)).to.equal(r.amount.toFixed(2));
      expect(line.dueDate).to.equal(r.dueDate);
      expect(bar.campoLivre).to.equal(line.campoLivre);
    });
    // The same titles as GET /receivables/:id/boleto and GET /collection/boletos/:id show them.
    const one = await api()
      .get(`/api/collection/boletos/${String(boletos[2].id)}`)
      .set(t.headers());
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(boletos[2]);
    const ofReceivable = await api()
      .get(`/api/receivables/${String(boletos[0].receivableId)}/boleto`)
      .set(t.headers());
    expect(ofReceivable.body.data.map((b: Body) => b.id)).to.deep.equal([boletos[0].id]);
    // Issued in the billing: the audit row and event of each boleto, the sequence moved by 3.
    const account = await api().get(`/api/collection/bank-accounts/${accounts['341']}`).set(t.headers());
    expect(account.body.nextNossoNumero).to.equal(4);

    const file = await remit(t, accounts['341']);
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    expect(file.body).to.include({ instructionCount: 3, totalAmount: 100 });
    const titles = parseRemessa240(await remittanceFile(t, file.body.id)).titles;
    const rows = await boletosOfAccount(accounts['341']);
    expect(titles.map((x) => x.nossoNumero)).to.deep.equal(rows.map((b) => b.nossoNumero));
    expect(titles.map((x) => x.amount.toFixed(2))).to.deep.equal(['33.33', '33.33', '33.34']);
  });

  it('an order without the field bills no boleto; the field set by PATCH takes effect on the next billing', async () => {
    const before = (await boletosOfAccount(accounts['001'])).length;
    const plain = await createOrder({ paymentTerms: { installmentDays: [30, 60] } });
    expect(plain.body.boletoBankAccountId).to.equal(null);
    const res = await fulfil(plain.body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.boletos).to.deep.equal([]);
    const receivableIds = (
      await dataSource.manager.findBy(Receivable, { companyId: t.companyId, salesOrderId: decodeId('sales-order', plain.body.id) })
    ).map((r) => r.id);
    expect(receivableIds).to.have.length(2);
    expect(await dataSource.manager.countBy(Boleto, { companyId: t.companyId, receivableId: receivableIds[0] })).to.equal(0);

    const later = await createOrder({ items: [{ productId: productHash, quantity: 2 }], paymentTerms: { installmentDays: [15] } });
    const patched = await api()
      .patch(`/api/sales-order/${later.body.id}`)
      .set(t.headers())
      .send({ version: later.body.version, boletoBankAccountId: accounts['001'] });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.boletoBankAccountId).to.equal(accounts['001']);
    const billed = await fulfil(later.body, 1);
    expect(billed.status, JSON.stringify(billed.body)).to.equal(201);
    expect(billed.body.boletos.map((b: Body) => b.amount)).to.deep.equal([100]);
    // A second, partial fulfilment bills its own installment and boleto.
    const rest = await fulfil(later.body, 1);
    expect(rest.body.boletos).to.have.length(1);
    expect(rest.body.boletos[0].nossoNumero).not.to.equal(billed.body.boletos[0].nossoNumero);
    expect((await boletosOfAccount(accounts['001'])).length).to.equal(before + 2);
    // Taken off again: nothing more is issued.
    const off = await createOrder({ boletoBankAccountId: accounts['001'] });
    const cleared = await api()
      .patch(`/api/sales-order/${off.body.id}`)
      .set(t.headers())
      .send({ version: off.body.version, boletoBankAccountId: null });
    expect(cleared.body.boletoBankAccountId).to.equal(null);
    expect((await fulfil(off.body)).body.boletos).to.deep.equal([]);
  });

  it('a bad account is refused at order time and nothing is written: unknown or another tenant’s (404), another filial’s, inactive, a payer without CPF/CNPJ (422)', async () => {
    const count = await orderRows();
    expectProblem(await createOrder({ boletoBankAccountId: otherTenantAccount }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectProblem(await createOrder({ boletoBankAccountId: 'AAAAAAAA' }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectProblem(await createOrder({ boletoBankAccountId: accounts.secondFilial }), 422, 'BANK_ACCOUNT_OTHER_FILIAL');
    const noDocument = await makeCustomer(t, { name: 'Sem Documento' });
    expectProblem(await createOrder({ customerId: noDocument.hash, boletoBankAccountId: accounts['756'] }), 422, 'PAYER_DOCUMENT_MISSING');
    expect(await orderRows()).to.equal(count);

    // PATCH and assign-customer refuse the same way, leaving the order as it was.
    const order = await createOrder({ paymentTerms: { installmentDays: [30] } });
    for (const [id, status, code] of [
      [otherTenantAccount, 404, 'BANK_ACCOUNT_NOT_FOUND'],
      [accounts.secondFilial, 422, 'BANK_ACCOUNT_OTHER_FILIAL'],
    ] as const) {
      expectProblem(
        await api()
          .patch(`/api/sales-order/${order.body.id}`)
          .set(t.headers())
          .send({ version: order.body.version, boletoBankAccountId: id }),
        status,
        code,
      );
    }
    const withAccount = await api()
      .patch(`/api/sales-order/${order.body.id}`)
      .set(t.headers())
      .send({ version: order.body.version, boletoBankAccountId: accounts['756'] });
    expect(withAccount.status, JSON.stringify(withAccount.body)).to.equal(200);
    expectProblem(
      await api()
        .patch(`/api/sales-order/${order.body.id}`)
        .set(t.headers())
        .send({ version: withAccount.body.version, customerId: noDocument.hash }),
      422,
      'PAYER_DOCUMENT_MISSING',
    );
    expectProblem(
      await api().post(`/api/sales-order/${order.body.id}/assign-customer`).set(t.headers()).send({ customerId: noDocument.hash }),
      422,
      'PAYER_DOCUMENT_MISSING',
    );
    const unchanged = await api().get(`/api/sales-order/detail/${order.body.id}`).set(t.headers());
    expect(unchanged.body).to.include({
      version: withAccount.body.version,
      customerId: customerHash,
      boletoBankAccountId: accounts['756'],
    });

    // Inactive: refused at order time, and at billing when the account was deactivated after the order named it.
    const deactivated = await createOrder({ paymentTerms: { installmentDays: [30, 60] }, boletoBankAccountId: accounts['104'] });
    expect(deactivated.status).to.equal(201);
    const acc = await api().get(`/api/collection/bank-accounts/${accounts['104']}`).set(t.headers());
    const off = await api()
      .patch(`/api/collection/bank-accounts/${accounts['104']}`)
      .set(t.headers())
      .send({ version: acc.body.version, active: false });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expectProblem(await createOrder({ boletoBankAccountId: accounts['104'] }), 422, 'BANK_ACCOUNT_INACTIVE');
    const stock = await stockNow();
    expectProblem(await fulfil(deactivated.body), 422, 'BANK_ACCOUNT_INACTIVE');
    await expectNothingBilled(deactivated.body.id, stock);
    expect(await boletosOfAccount(accounts['104'])).to.have.length(0);

    // No customer yet: accepted on the order, refused at billing (the payer is known only then).
    const anonymous = await createOrder({
      customerId: null,
      paymentTerms: { installmentDays: [30] },
      boletoBankAccountId: accounts['756'],
    });
    expect(anonymous.status, JSON.stringify(anonymous.body)).to.equal(201);
    expectProblem(await fulfil(anonymous.body), 422, 'PAYER_DOCUMENT_MISSING');
    await expectNothingBilled(anonymous.body.id, stock);
    expect(await boletosOfAccount(accounts['756'])).to.have.length(0);
  });

  it('a billing that fails after its boletos were written rolls them back with it: no boleto, receivable or fulfilment stands, and no nosso número is handed out twice', async () => {
    const account = accounts['237'];
    const first = await createOrder({ paymentTerms: { installmentDays: [30, 60, 90] }, boletoBankAccountId: account });
    const done = await fulfil(first.body);
    expect(done.status, JSON.stringify(done.body)).to.equal(201);

    // The order's audit row, written after the boleto step, fails once.
    const failing = await createOrder({ paymentTerms: { installmentDays: [30, 60, 90] }, boletoBankAccountId: account });
    // fulfill.service.ts calls it through the module's exports object (CommonJS), which the test swaps for one call.
    const seam = shared as { auditOrder: typeof shared.auditOrder };
    const realAudit = seam.auditOrder;
    let boletosWhenFailing = -1;
    seam.auditOrder = async (em, ctx, order, action, changes) => {
      if (order.id === decodeId('sales-order', failing.body.id) && action === 'FULFILLED') {
        boletosWhenFailing = await em.countBy(Boleto, { companyId: t.companyId, bankAccountId: decodeId('bank-account', account) });
        throw new Error('injected failure after the boleto step');
      }
      return realAudit(em, ctx, order, action, changes);
    };
    const stock = await stockNow();
    try {
      const res = await fulfil(failing.body);
      expect(res.status).to.equal(500);
    } finally {
      seam.auditOrder = realAudit;
    }
    // The three boletos existed inside the transaction, and are gone with it.
    expect(boletosWhenFailing).to.equal(6);
    await expectNothingBilled(failing.body.id, stock);
    expect(await boletosOfAccount(account)).to.have.length(3);
    expect(
      await dataSource.manager.countBy(BoletoInstruction, { companyId: t.companyId, bankAccountId: decodeId('bank-account', account) }),
    ).to.equal(3);

    // Billed again: new boletos whose nosso números no standing title carries (MySQL: the rolled-back ones are a gap).
    const again = await fulfil(failing.body);
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    const rows = await boletosOfAccount(account);
    expect(rows).to.have.length(6);
    expect(new Set(rows.map((b) => b.nossoNumero)).size).to.equal(6);
    expect(rows.slice(3).map((b) => b.sequence)).to.deep.equal(isMysql ? [7, 8, 9] : [4, 5, 6]);

    // An account's last numbers (Sicoob: 7 digits): the third installment finds the range used up, and the two boletos before it roll back.
    const sicoob = accounts['756'];
    const acc = await api().get(`/api/collection/bank-accounts/${sicoob}`).set(t.headers());
    const near = await api()
      .patch(`/api/collection/bank-accounts/${sicoob}`)
      .set(t.headers())
      .send({ version: acc.body.version, nextNossoNumero: 9_999_998 });
    expect(near.status, JSON.stringify(near.body)).to.equal(200);
    const exhausted = await createOrder({ paymentTerms: { installmentDays: [30, 60, 90] }, boletoBankAccountId: sicoob });
    const stockBefore = await stockNow();
    expectProblem(await fulfil(exhausted.body), 422, 'NOSSO_NUMERO_EXHAUSTED');
    await expectNothingBilled(exhausted.body.id, stockBefore);
    expect(await boletosOfAccount(sicoob)).to.have.length(0);
  });

  it('two fulfilments of orders of one account at once take distinct nosso números', async () => {
    const account = accounts['001'];
    const orders = await Promise.all(
      [0, 1, 2].map(() => createOrder({ paymentTerms: { installmentDays: [10, 20, 30] }, boletoBankAccountId: account })),
    );
    const results = await Promise.all(orders.map((o) => fulfil(o.body)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const numbers = results.flatMap((r) => r.body.boletos.map((b: Body) => b.nossoNumero));
    expect(numbers).to.have.length(9);
    expect(new Set(numbers).size).to.equal(9);
    const rows = await boletosOfAccount(account);
    expect(new Set(rows.map((b) => b.sequence)).size).to.equal(rows.length);
    // One remessa carries every one of them, once.
    const file = await remit(t, account);
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    const carried = parseRemessa240(await remittanceFile(t, file.body.id)).titles.map((x) => x.nossoNumero);
    expect(new Set(carried).size).to.equal(carried.length);
    expect(carried).to.include.members(rows.slice(-9).map((b) => b.nossoNumero));
  });

  it('a quick sale naming the account: boletos for its a-prazo receivables only, none for cash', async () => {
    await makePaymentMethod(t, 'DINHEIRO', 'CASH');
    await makePaymentMethod(t, 'PIX', 'PIX');
    await makePaymentMethod(t, 'CREDITO', 'CREDIT_CARD', { settlement: 'ACQUIRER', settlementDays: 30, feePercent: '2.99' as never });
    await configureCounter(t, customerHash);
    const account = accounts['341'];
    const sale = await quickSale(
      t,
      productHash,
      1,
      [
        { method: 'DINHEIRO', amount: 40 },
        { method: 'BOLETO', amount: 60 },
      ],
      { customerId: customerHash, paymentTerms: { installmentDays: [30, 60] }, boletoBankAccountId: account },
    );
    expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
    expect(sale.body.boletoBankAccountId).to.equal(account);
    expect(sale.body.boletos.map((b: Body) => [b.amount, b.status])).to.deep.equal([
      [30, 'PENDING_REGISTRATION'],
      [30, 'PENDING_REGISTRATION'],
    ]);
    const receivables = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', sale.body.id) },
      order: { id: 'ASC' },
    });
    const open = receivables.filter((r) => r.status === 'OPEN').map((r) => r.id);
    expect(sale.body.boletos.map((b: Body) => decodeId('receivable', b.receivableId as string))).to.deep.equal(open);

    const cash = await quickSale(t, productHash, 1, [{ method: 'DINHEIRO', amount: 100 }], {
      customerId: customerHash,
      boletoBankAccountId: account,
    });
    expect(cash.status, JSON.stringify(cash.body)).to.equal(201);
    expect(cash.body.boletos).to.deep.equal([]);
    const count = await orderRows();
    expectProblem(
      await quickSale(t, productHash, 1, [{ method: 'DINHEIRO', amount: 100 }], {
        customerId: customerHash,
        boletoBankAccountId: otherTenantAccount,
      }),
      404,
      'BANK_ACCOUNT_NOT_FOUND',
    );
    expect(await orderRows()).to.equal(count);
  });
});

/*
 * The boletos follow their receivables when the NF-e of the billing re-makes them (its amount due and
 * installments, docs/decisions/receivables-equal-the-invoice.md) or cancels them with the document.
 */
describe('Collection: boletos of a billing follow its NF-e', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let account: string;

  const billed = async () => {
    const order = await api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({
        customerId: t.customer.hash,
        paymentTerms: { installmentDays: [30, 60] },
        boletoBankAccountId: account,
        items: t.products.map((p, i) => ({ productId: p.hash, quantity: [3, 2][i], unitPrice: i === 0 ? '10.50' : '19.90' })),
      });
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    const res = await api()
      .post(`/api/sales-order/${order.body.id}/fulfill`)
      .set(t.headers())
      .send({
        items: order.body.items.map((i: Record<string, unknown>) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.boletos.map((b: Record<string, unknown>) => b.amount)).to.deep.equal([35.65, 35.65]);
    return {
      orderId: order.body.id as string,
      fulfillmentId: res.body.fulfillment.id as string,
      boletos: res.body.boletos as Record<string, unknown>[],
    };
  };
  const issue = (fulfillmentId: string, installments?: { dueDate: string; amount: number }[]) =>
    api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({ fulfillmentId, ...(installments && { installments }) });
  const boletosOf = async (orderHash: string) => {
    const receivables = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', orderHash) },
      order: { id: 'ASC' },
    });
    const boletos = await dataSource.manager.find(Boleto, {
      where: { companyId: t.companyId, receivableId: In(receivables.map((r) => r.id)) },
      order: { id: 'ASC' },
    });
    return { receivables, boletos };
  };
  /** Every collectable receivable has exactly one standing boleto, of what it owes, due when it is. */
  const expectAligned = ({ receivables, boletos }: Awaited<ReturnType<typeof boletosOf>>) => {
    for (const r of receivables.filter((x) => x.status === 'OPEN')) {
      const standing = boletos.filter((b) => b.receivableId === r.id && b.status === 'PENDING_REGISTRATION');
      expect(standing, `receivable ${r.id}`).to.have.length(1);
      expect([standing[0].amount.toFixed(2), standing[0].dueDate]).to.deep.equal([r.amount.toFixed(2), r.dueDate]);
    }
  };
  const remade = [
    { dueDate: '2099-01-10', amount: 20 },
    { dueDate: '2099-02-10', amount: 30 },
    { dueDate: '2099-03-10', amount: 21.3 },
  ];

  before(async () => {
    t = await invoiceTenant();
    await makePaymentMethod(t, 'BOLETO', 'BANK_SLIP');
    const res = await createAccount(t, SAMPLE_ACCOUNTS['341']);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    account = res.body.id;
  });

  it('an NF-e that keeps the installments keeps the boletos; one that re-makes them cancels the unsent boletos and issues the new ones; its cancellation withdraws them', async () => {
    const same = await billed();
    const kept = await issue(same.fulfillmentId);
    expect(kept.status, JSON.stringify(kept.body)).to.equal(201);
    const after = await boletosOf(same.orderId);
    expect(after.boletos.map((b) => [b.id, b.status])).to.deep.equal(
      same.boletos.map((b) => [decodeId('boleto', b.id as string), 'PENDING_REGISTRATION']),
    );

    const changed = await billed();
    const doc = await issue(changed.fulfillmentId, remade);
    expect(doc.status, JSON.stringify(doc.body)).to.equal(201);
    const now = await boletosOf(changed.orderId);
    expect(now.boletos.filter((b) => b.status === 'CANCELLED').map((b) => b.id)).to.deep.equal(
      changed.boletos.map((b) => decodeId('boleto', b.id as string)),
    );
    const standing = now.boletos.filter((b) => b.status === 'PENDING_REGISTRATION');
    expect(standing.map((b) => [b.amount.toFixed(2), b.dueDate])).to.deep.equal(remade.map((d) => [d.amount.toFixed(2), d.dueDate]));
    expect(new Set(now.boletos.map((b) => b.nossoNumero)).size).to.equal(5);
    expectAligned(now);
    // The withdrawn titles never reach a remessa; the new ones do.
    const file = await remit(t, account);
    expect(file.status, JSON.stringify(file.body)).to.equal(201);
    const carried = parseRemessa240(await remittanceFile(t, file.body.id)).titles.map((x) => x.nossoNumero);
    expect(carried).to.include.members(standing.map((b) => b.nossoNumero));
    expect(carried).not.to.include.members(now.boletos.filter((b) => b.status === 'CANCELLED').map((b) => b.nossoNumero));

    // Cancelled with its NF-e: the receivables go, and so do their boletos (sent now: flagged for a person, never left silent).
    const cancelled = await api()
      .post(`/api/invoices/${doc.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const gone = await boletosOf(changed.orderId);
    expect(gone.receivables.every((r) => r.status === 'CANCELLED')).to.equal(true);
    const flagged = gone.boletos.filter((x) => x.status === 'PENDING_REGISTRATION');
    expect(flagged).to.have.length(3);
    for (const b of flagged) expect(b.reviewReason).to.match(/^Receivable changed after the boleto was sent \(now CANCELLED/);
  });

  it('an NF-e cancelled before any remessa withdraws its boletos; boletos already in a remessa are flagged when the NF-e re-makes their receivables', async () => {
    const order = await billed();
    const doc = await issue(order.fulfillmentId);
    expect(doc.status, JSON.stringify(doc.body)).to.equal(201);
    const cancelled = await api()
      .post(`/api/invoices/${doc.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const { boletos } = await boletosOf(order.orderId);
    expect(boletos.map((b) => b.status)).to.deep.equal(['CANCELLED', 'CANCELLED']);
    expect(
      await dataSource.manager.countBy(BoletoInstruction, { companyId: t.companyId, boletoId: In(boletos.map((b) => b.id)) }),
    ).to.equal(0);

    const sent = await billed();
    expect((await remit(t, account)).status).to.equal(201);
    const remadeDoc = await issue(sent.fulfillmentId, remade);
    expect(remadeDoc.status, JSON.stringify(remadeDoc.body)).to.equal(201);
    const now = await boletosOf(sent.orderId);
    const old = now.boletos.filter((b) => same(b.id, sent.boletos));
    expect(old.map((b) => b.status)).to.deep.equal(['PENDING_REGISTRATION', 'PENDING_REGISTRATION']);
    for (const b of old) expect(b.reviewReason).to.match(/^Receivable changed after the boleto was sent \(now OPEN/);
    // The third installment is new: its boleto is issued.
    const third = now.receivables.find((r) => r.installmentNumber === 3)!;
    expect(now.boletos.filter((b) => b.receivableId === third.id).map((b) => [b.amount.toFixed(2), b.dueDate, b.status])).to.deep.equal([
      ['21.30', '2099-03-10', 'PENDING_REGISTRATION'],
    ]);
  });

  const same = (id: number, list: Record<string, unknown>[]) => list.some((b) => decodeId('boleto', b.id as string) === id);
});
