import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { decodeId, encodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { api } from '../support/api';
import { makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createOrder, fulfill } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from './conformance-support';
import { invoiceTenant, InvoiceTenant } from './support';
import { stProductOf, totalsOfXml } from './xml-totals';

/*
 * Issue 43 points 5 and 6: the receivables of a billing NF-e equal its total (ST included) split by the
 * installments given at issue or by the order's payment terms; cobr/dup are those receivables to the
 * cent; pag follows the terms; vNFTot = Σ vItem (2026: = vNF, NT 2025.002 VB01-10 Exceção 1, W60-10).
 */

const standing = async (t: InvoiceTenant, fulfillmentId: string) =>
  (
    await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, fulfillmentId: decodeId('fulfillment', fulfillmentId) },
      order: { installmentNumber: 'ASC', id: 'ASC' },
    })
  ).filter((r) => r.status !== 'CANCELLED');
const rowsOf = (rows: Receivable[]) =>
  rows.map((r) => ({ n: r.installmentNumber, of: r.installmentCount, due: r.dueDate, amount: r.amount.toFixed(2) }));
const procOf = async (t: InvoiceTenant, id: string) =>
  gunzipText((await dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', id) })).procXmlGz!);

describe('Invoices: the receivables, cobr/dup, pag, vItem and vNFTot agree (issue 43 points 5 and 6)', function () {
  this.timeout(90_000);
  let t: InvoiceTenant;
  let stProduct: { id: number; hash: string };

  before(async () => {
    t = await invoiceTenant();
    stProduct = await stProductOf(t);
    await makePaymentMethod(t, 'DINHEIRO', 'CASH');
  });

  async function stSale(opts: { paymentTerms?: number[]; quantity?: number } = {}) {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      ...(opts.paymentTerms ? { paymentTerms: { installmentDays: opts.paymentTerms } } : {}),
      items: [
        { productId: stProduct.hash, quantity: opts.quantity ?? 3, unitPrice: '98.44' },
        { productId: t.products[0].hash, quantity: 1, unitPrice: '10.50' },
      ],
    });
    const res = await fulfill(
      t,
      order.id,
      order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { orderId: order.id as string, fulfillmentId: res.body.fulfillment.id as string };
  }

  it('an ST sale: the receivable is the NF-e total (ST included), not the order price; cobr/dup and pag equal it; à vista → indPag 0', async () => {
    const { fulfillmentId } = await stSale();
    // Billed at the order's prices by the fulfilment: 3 × 98.44 + 10.50 = 305.82.
    expect(rowsOf(await standing(t, fulfillmentId)).map((r) => r.amount)).to.deep.equal(['305.82']);
    const preview = await api().post('/api/invoices/preview').set(t.headers()).send({ fulfillmentId });
    expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
    const vNF = preview.body.totals.vNF;
    expect(preview.body.totals.vST).to.be.greaterThan(0);
    expect(vNF).to.equal(Number((305.82 + preview.body.totals.vST).toFixed(2)));
    expect(preview.body.installments).to.deep.equal([{ number: '001', dueDate: businessToday(), amount: vNF }]);
    // A preview writes nothing.
    expect(rowsOf(await standing(t, fulfillmentId)).map((r) => r.amount)).to.deep.equal(['305.82']);

    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('AUTHORIZED');
    const rows = await standing(t, fulfillmentId);
    expect(rowsOf(rows)).to.deep.equal([{ n: 1, of: 1, due: businessToday(), amount: vNF.toFixed(2) }]);
    expect(rows.map((r) => [r.originType, r.accessKey])).to.deep.equal([['FISCAL_DOCUMENT', res.body.accessKey]]);
    const x = totalsOfXml(await procOf(t, res.body.id));
    expect(x.dup).to.deep.equal([{ nDup: '001', dVenc: businessToday(), vDup: vNF.toFixed(2) }]);
    expect(x.pag).to.deep.equal([{ indPag: '0', tPag: '15', vPag: vNF.toFixed(2) }]);
    expect([x.vNF, x.vOrig, x.vLiq]).to.deep.equal([vNF.toFixed(2), vNF.toFixed(2), vNF.toFixed(2)]);
  });

  it('installments given at issue become the receivables (3 × 28.20, not one 84.60 due today); a prazo → indPag 1, tPag 15', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[0].hash, quantity: 8, unitPrice: '10.575' }],
    });
    const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 8 }]);
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    const fulfillmentId = f.body.fulfillment.id;
    expect(rowsOf(await standing(t, fulfillmentId))).to.deep.equal([{ n: 1, of: 1, due: businessToday(), amount: '84.60' }]);
    const dues = [30, 60, 90].map((d) => addCalendarDays(businessToday(), d));
    const res = await api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({ fulfillmentId, installments: dues.map((dueDate) => ({ dueDate, amount: 28.2 })) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const rows = await standing(t, fulfillmentId);
    expect(rowsOf(rows)).to.deep.equal(dues.map((due, i) => ({ n: i + 1, of: 3, due, amount: '28.20' })));
    expect(rows.every((r) => r.accessKey === res.body.accessKey && r.status === 'OPEN')).to.equal(true);
    const x = totalsOfXml(await procOf(t, res.body.id));
    expect(x.dup).to.deep.equal(dues.map((dVenc, i) => ({ nDup: `00${i + 1}`, dVenc, vDup: '28.20' })));
    expect(x.pag).to.deep.equal([{ indPag: '1', tPag: '15', vPag: '84.60' }]);
    // The replaced receivable's trail: audited, and an event for the change.
    const audit = await dataSource.query('SELECT action FROM audit_log WHERE company_id = ? AND entity = ? AND entity_id = ? ORDER BY id', [
      t.companyId,
      'receivable',
      rows[0].id,
    ]);
    expect(audit.map((a: any) => a.action)).to.include('REMADE_FOR_FISCAL_DOCUMENT');
  });

  it("an ST sale with the order's payment terms: vNF split by the terms from the issue date, to the cent; cobr/dup = the receivables", async () => {
    const { fulfillmentId } = await stSale({ paymentTerms: [30, 60, 90] });
    expect(await standing(t, fulfillmentId)).to.have.length(3);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const x = totalsOfXml(await procOf(t, res.body.id));
    const rows = await standing(t, fulfillmentId);
    expect(rows.map((r) => r.dueDate)).to.deep.equal([30, 60, 90].map((d) => addCalendarDays(businessToday(), d)));
    expect(rows.reduce((s, r) => s.plus(r.amount), new Dec(0)).toFixed(2)).to.equal(x.vNF);
    expect(x.dup).to.deep.equal(rows.map((r, i) => ({ nDup: `00${i + 1}`, dVenc: r.dueDate, vDup: r.amount.toFixed(2) })));
    expect(x.pag).to.deep.equal([{ indPag: '1', tPag: '15', vPag: x.vNF }]);
    if (canValidateXsd) expect(xsdErrors(await procOf(t, res.body.id))).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(await procOf(t, res.body.id))).to.equal(null);
  });

  it('vNFTot = Σ vItem = vNF on a document with the IBS/CBS group (2026 convention of NT 2025.002)', async () => {
    const { fulfillmentId } = await stSale();
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const x = totalsOfXml(await procOf(t, res.body.id));
    expect(x.vItem).to.have.length(2);
    expect(x.vIBS === null || Number(x.vIBS) + Number(x.vCBS) > 0).to.equal(true);
    expect(x.vNFTot).to.equal(x.vNF);
    expect(x.sumVItem).to.equal(x.vNF);
  });

  it('something received before issue: receivables that already add up stand; otherwise 422 RECEIVABLES_ALREADY_SETTLED and nothing is written', async () => {
    // Plain goods: the receivable (one 31.50) already equals vNF; a partial receipt does not block.
    const plain = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[0].hash, quantity: 3, unitPrice: '10.50' }],
    });
    const pf = (await fulfill(t, plain.id, [{ salesOrderItemId: plain.items[0].salesOrderItemId, quantity: 3 }])).body.fulfillment.id;
    const [pr] = await standing(t, pf);
    const paid = await api()
      .post(`/api/receivables/receive/${encodeId('receivable', pr.id)}`)
      .set(t.headers())
      .send({ amount: 10, receiptDate: businessToday(), method: 'DINHEIRO' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    const ok = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: pf });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(rowsOf(await standing(t, pf))).to.deep.equal([{ n: 1, of: 1, due: businessToday(), amount: '31.50' }]);

    // ST goods: the NF-e's total differs from what was partly received → refused, nothing numbered or changed.
    const { fulfillmentId } = await stSale();
    const [r] = await standing(t, fulfillmentId);
    expect(
      (
        await api()
          .post(`/api/receivables/receive/${encodeId('receivable', r.id)}`)
          .set(t.headers())
          .send({ amount: 50, receiptDate: businessToday(), method: 'DINHEIRO' })
      ).status,
    ).to.equal(201);
    const docs = await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId });
    expectProblem(await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId }), 422, 'RECEIVABLES_ALREADY_SETTLED');
    expect(await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId })).to.equal(docs);
    expect(rowsOf(await standing(t, fulfillmentId))).to.deep.equal([{ n: 1, of: 1, due: businessToday(), amount: '305.82' }]);
  });

  it('installments that do not add up to the NF-e total (ST included) are 422 INSTALLMENTS_MISMATCH; nothing written', async () => {
    const { fulfillmentId } = await stSale();
    const before = rowsOf(await standing(t, fulfillmentId));
    expectProblem(
      await api()
        .post('/api/invoices/issue')
        .set(t.headers())
        .send({ fulfillmentId, installments: [{ dueDate: addCalendarDays(businessToday(), 30), amount: 305.82 }] }),
      422,
      'INSTALLMENTS_MISMATCH',
    );
    expect(rowsOf(await standing(t, fulfillmentId))).to.deep.equal(before);
  });

  it('a cancelled NF-e cancels its receivables; the next NF-e for the same goods makes them again, equal to it', async () => {
    const { fulfillmentId } = await stSale({ paymentTerms: [30, 60] });
    const first = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const c = await api()
      .post(`/api/invoices/${first.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(c.status, JSON.stringify(c.body)).to.equal(200);
    expect(await standing(t, fulfillmentId)).to.have.length(0);
    const second = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    const rows = await standing(t, fulfillmentId);
    const x = totalsOfXml(await procOf(t, second.body.id));
    expect(rows.map((r) => [r.accessKey, r.status])).to.deep.equal([
      [second.body.accessKey, 'OPEN'],
      [second.body.accessKey, 'OPEN'],
    ]);
    expect(x.dup).to.deep.equal(rows.map((r, i) => ({ nDup: `00${i + 1}`, dVenc: r.dueDate, vDup: r.amount.toFixed(2) })));
    expect(rows.reduce((s, r) => s.plus(r.amount), new Dec(0)).toFixed(2)).to.equal(x.vNF);
  });
});
