import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { decodeId, encodeId } from '../../src/core/hashids';
import { authorizeReturn, cancelReturn, settleReturnWithoutPosting } from '../../src/modules/supplier-returns/postings';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { approvedOrder, linesInDb, orderBody, orderInDb } from '../purchase/support';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { cancel } from '../entry-document/support';
import {
  creditsOfReturn,
  deductionsOf,
  documentPayables,
  issueReturn,
  purchaseScenario,
  returnAudit,
  returnEvents,
  returnItems,
  returnMovements,
  returnRow,
} from './support';

/*
 * The postings of a return to the supplier at the service level (issue 33 part B), in the
 * transactions the NF-e's lifecycle runs them in: issue (reserve), authorization (stock out at the
 * entry cost, credits reversed, payables abated or a supplier credit, purchase-order receipts),
 * cancellation (all reversed), rejection / voiding (nothing posted, quantities freed).
 */
describe('Supplier returns: postings in the NF-e transactions', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
  });

  it('5 of 60 bought at 7.4415 after the average moved to 8.03: stock leaves at 7.4415, credits and payable to the cent; cancel reverses it all', async () => {
    const { product, docHash, itemHash } = await purchaseScenario(t);
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '100.0000', averageCost: '8.0300000000' });
    const id = await issueReturn(t, docHash, [{ itemHash, quantity: 5 }]);
    // Issued: reserved, nothing posted.
    expect((await returnRow(t, id)).status).to.equal('ISSUED');
    expect(await returnMovements(t, id)).to.have.length(0);
    expect((await documentPayables(t, docHash)).map((p) => p.amount.toFixed(2))).to.deep.equal(['600.00']);

    const ret = await returnRow(t, id);
    // NF-e values: 50.00 of goods, ICMS 18% 9.00 on 50.00; credits back: ICMS 9.00, PIS 8.12 × 5/60 = 0.68, COFINS 37.39 × 5/60 = 3.12.
    expect(
      [ret.productsValue, ret.icms, ret.total, ret.stockValue, ret.creditIcms, ret.creditPis, ret.creditCofins].map((d) => d.toFixed(2)),
    ).to.deep.equal(['50.00', '9.00', '50.00', '37.21', '9.00', '0.68', '3.12']);
    const [line] = await returnItems(t, id);
    expect(line.cfop).to.equal('5202');
    expect(line.entryUnitCost!.toFixed(4)).to.equal('7.4415');

    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, id));
    const authorized = await returnRow(t, id);
    expect(authorized.status).to.equal('AUTHORIZED');
    const [out] = await returnMovements(t, id);
    expect(out.direction).to.equal('OUT');
    expect(out.quantity.toFixed(4)).to.equal('-5.0000');
    expect(out.unitCost.toFixed(4)).to.equal('7.4415');
    // 803.00 − 5 × 7.4415 = 765.7925 over 95 units.
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '95.0000', averageCost: '8.0609736842' });
    const [payable] = await documentPayables(t, docHash);
    expect([payable.amount.toFixed(2), payable.status]).to.deep.equal(['550.00', 'OPEN']);
    expect(authorized.payablesDeducted.toFixed(2)).to.equal('50.00');
    expect(authorized.supplierCredit.toFixed(2)).to.equal('0.00');
    expect((await deductionsOf(t, id)).map((d) => [d.payableId, d.amount.toFixed(2), d.status])).to.deep.equal([
      [payable.id, '50.00', 'ACTIVE'],
    ]);
    const events = await returnEvents(t, id);
    expect(events.map((e) => e.type)).to.deep.equal(['supplier-return.issued', 'supplier-return.authorized']);
    const data = events[1].data as any;
    expect(data.total).to.equal(50);
    expect(data.creditsReversed).to.deep.equal({ icms: 9, pis: 0.68, cofins: 3.12, ipi: 0 });
    expect(data.items[0].entryUnitCost).to.equal(7.4415);
    expect((await returnAudit(t, id)).map((a) => a.action)).to.deep.equal(['CREATED', 'AUTHORIZED']);
    expect(await stockMismatches(t)).to.deep.equal([]);

    // The entry document cannot be cancelled while the return stands.
    const refused = await cancel(t, docHash);
    expectProblem(refused, 422, 'ENTRY_DOCUMENT_NOT_CANCELLABLE');
    expect(JSON.stringify(refused.body)).to.contain('SUPPLIER_RETURN_EXISTS');

    await inTransaction(NO_UNIT, (em) => cancelReturn(em, t.ctx, id));
    expect((await returnRow(t, id)).status).to.equal('CANCELLED');
    const back = await returnMovements(t, id);
    expect(back.map((m) => [m.direction, m.quantity.toFixed(4), m.unitCost.toFixed(4)])).to.deep.equal([
      ['OUT', '-5.0000', '7.4415'],
      ['IN', '5.0000', '7.4415'],
    ]);
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '100.0000', averageCost: '8.0300000000' });
    const [restored] = await documentPayables(t, docHash);
    expect([restored.amount.toFixed(2), restored.status]).to.deep.equal(['600.00', 'OPEN']);
    expect((await deductionsOf(t, id)).map((d) => d.status)).to.deep.equal(['REVERSED']);
    expect((await returnEvents(t, id)).map((e) => e.type)).to.deep.equal([
      'supplier-return.issued',
      'supplier-return.authorized',
      'supplier-return.cancelled',
    ]);
    expect(await stockMismatches(t)).to.deep.equal([]);
    // With nothing standing, the document cancels again.
    const ok = await cancel(t, docHash);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
  });

  it('a paid purchase: the return becomes a supplier credit; cancelling the return cancels the credit', async () => {
    const { docHash, itemHash } = await purchaseScenario(t, { second: false });
    const [payable] = await documentPayables(t, docHash);
    // Paid 580.00 of 600.00: the return of 30.00 (3 units) takes the open 20.00 and leaves 10.00 as credit.
    const pay = await api()
      .post(`/api/entry-document/contas-pagar/pay/${encodeId('payable', payable.id)}`)
      .set(t.headers())
      .send({ amount: 580, paymentDate: '2026-03-10', method: 'PIX' });
    expect(pay.status, JSON.stringify(pay.body)).to.equal(201);
    const id = await issueReturn(t, docHash, [{ itemHash, quantity: 3 }]);
    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, id));
    const ret = await returnRow(t, id);
    expect([ret.total.toFixed(2), ret.payablesDeducted.toFixed(2), ret.supplierCredit.toFixed(2)]).to.deep.equal([
      '30.00',
      '20.00',
      '10.00',
    ]);
    const [after] = await documentPayables(t, docHash);
    expect([after.amount.toFixed(2), after.paidAmount.toFixed(2), after.status]).to.deep.equal(['580.00', '580.00', 'PAID']);
    expect((await creditsOfReturn(t, id)).map((c) => [c.amount.toFixed(2), c.status])).to.deep.equal([['10.00', 'OPEN']]);
    await inTransaction(NO_UNIT, (em) => cancelReturn(em, t.ctx, id));
    const [reopened] = await documentPayables(t, docHash);
    expect([reopened.amount.toFixed(2), reopened.status]).to.deep.equal(['600.00', 'PARTIALLY_PAID']);
    expect((await creditsOfReturn(t, id)).map((c) => c.status)).to.deep.equal(['CANCELLED']);
  });

  it('returning all of a line abates the payable to zero (CANCELLED) and the telescoped values add up to the purchase', async () => {
    const { docHash, itemHash, product } = await purchaseScenario(t, { second: false });
    const a = await issueReturn(t, docHash, [{ itemHash, quantity: 7 }]);
    const b = await issueReturn(t, docHash, [{ itemHash, quantity: 53 }]);
    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, a));
    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, b));
    const [ra, rb] = [await returnRow(t, a), await returnRow(t, b)];
    expect(ra.creditPis.plus(rb.creditPis).toFixed(2)).to.equal('8.12');
    expect(ra.creditCofins.plus(rb.creditCofins).toFixed(2)).to.equal('37.39');
    expect(ra.total.plus(rb.total).toFixed(2)).to.equal('600.00');
    const [p] = await documentPayables(t, docHash);
    expect([p.amount.toFixed(2), p.status]).to.deep.equal(['0.00', 'CANCELLED']);
    expect(await stockOf(t, 0, product.id)).to.deep.include({ quantity: '0.0000' });
    // Nothing left to return.
    await issueReturn(t, docHash, [{ itemHash, quantity: 1 }]).then(
      () => expect.fail('a return above what is left passed'),
      (e) => expect(e.code).to.equal('SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE'),
    );
  });

  it('rejected keeps the quantities reserved; voided frees them; nothing is posted either way', async () => {
    const { docHash, itemHash } = await purchaseScenario(t, { second: false });
    const id = await issueReturn(t, docHash, [{ itemHash, quantity: 60 }]);
    await inTransaction(NO_UNIT, (em) => settleReturnWithoutPosting(em, t.ctx, id, 'reject'));
    expect((await returnRow(t, id)).status).to.equal('REJECTED');
    await issueReturn(t, docHash, [{ itemHash, quantity: 1 }]).then(
      () => expect.fail('a rejected NF-e released its quantities'),
      (e) => expect(e.code).to.equal('SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE'),
    );
    await inTransaction(NO_UNIT, (em) => settleReturnWithoutPosting(em, t.ctx, id, 'void'));
    expect((await returnRow(t, id)).status).to.equal('VOIDED');
    expect(await returnMovements(t, id)).to.have.length(0);
    expect((await documentPayables(t, docHash))[0].amount.toFixed(2)).to.equal('600.00');
    const again = await issueReturn(t, docHash, [{ itemHash, quantity: 60 }]);
    expect((await returnRow(t, again)).status).to.equal('ISSUED');
    // Authorizing a voided return is refused by the table.
    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, id)).then(
      () => expect.fail('a voided return was authorized'),
      (e) => expect(e.code).to.equal('SUPPLIER_RETURN_VOIDED'),
    );
  });

  it('lines received against a purchase order: the return takes its quantity off the order (RECEIVED → PARTIALLY_RECEIVED); cancelling gives it back', async () => {
    const supplier = { document: randomCnpj(), name: 'Distribuidora Teste Ltda', uf: 'SP' };
    const product = await makeProduct(t);
    const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 60, unitPrice: 10 }]));
    const line = order.items[0].purchaseOrderItemId;
    const { docHash, itemHash } = await purchaseScenario(t, { second: false, supplier, purchaseOrderItemId: line, product });
    expect((await orderInDb(t, order.id)).status).to.equal('RECEIVED');
    const id = await issueReturn(t, docHash, [{ itemHash, quantity: 5 }]);
    await inTransaction(NO_UNIT, (em) => authorizeReturn(em, t.ctx, id));
    const [returned] = await linesInDb(t, order.id);
    expect(returned.receivedQuantity.toFixed(4)).to.equal('55.0000');
    expect((await orderInDb(t, order.id)).status).to.equal('PARTIALLY_RECEIVED');
    const events = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, aggregateType: 'purchase-order' },
      order: { id: 'ASC' },
    });
    expect((events.at(-1)!.data as any).supplierReturnId).to.equal(encodeId('supplier-return', id));
    await inTransaction(NO_UNIT, (em) => cancelReturn(em, t.ctx, id));
    const [back] = await linesInDb(t, order.id);
    expect(back.receivedQuantity.toFixed(4)).to.equal('60.0000');
    expect((await orderInDb(t, order.id)).status).to.equal('RECEIVED');
  });

  it('two returns racing for the last units: one wins', async () => {
    const { docHash, itemHash } = await purchaseScenario(t, { second: false });
    await issueReturn(t, docHash, [{ itemHash, quantity: 55 }]);
    const results = await Promise.allSettled([
      issueReturn(t, docHash, [{ itemHash, quantity: 5 }]),
      issueReturn(t, docHash, [{ itemHash, quantity: 5 }]),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason.code).to.equal('SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE');
    const reserved = await dataSource.manager.query(
      'SELECT i.quantity FROM supplier_return_item i JOIN supplier_return r ON r.id = i.supplier_return_id WHERE r.company_id = ? AND r.entry_document_id = ?',
      [t.companyId, decodeId('entry-document', docHash)],
    );
    expect(reserved.map((r: any) => Number(r.quantity)).reduce((a: number, b: number) => a + b, 0)).to.equal(60);
  });
});
