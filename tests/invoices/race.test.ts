import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { unitOfWork } from '../../src/core/db/transaction';
import { decodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createOrder, fulfill } from '../sales-order/support';
import { fulfilledOrder, holdSeries, invoiceTenant, InvoiceTenant, lockWaiters } from './support';

/*
 * Exactly once (SPEC §12.2, issue 43 point 1): a unit of goods is billed by at most one live document
 * whatever mix of order, fulfilment and group claims race for it. Concurrent issues by salesOrderId and
 * by fulfillmentId of the same goods: one document, the others 409 ALREADY_INVOICED naming it; one number
 * taken; one authorization at the authority; the receivables as they were (attached once, to the winner).
 * The requests are gated so that every one of them has read "nothing billed yet" before any issuing
 * transaction commits: the check before the transaction cannot decide, the database must.
 */

type Answer = { status: number; body: any };

const issue = (t: InvoiceTenant, body: object): Promise<Answer> =>
  api()
    .post('/api/invoices/issue')
    .set(t.headers())
    .send(body)
    .then((r) => {
      if (r.status === 409) expectProblem(r, 409, 'ALREADY_INVOICED');
      return { status: r.status, body: r.body };
    });

/** Interleaves the requests so both kinds are in flight together. */
function interleave<T>(...lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(...lists.map((l) => l.length)); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Fires the requests while the issuing transactions cannot finish: MySQL — this test holds the série
 * row (FOR UPDATE) until `waiters` transactions of this database wait on a lock; SQLite — a transaction
 * of this test holds the engine's single transaction queue for a while.
 */
async function gated<T>(t: InvoiceTenant, waiters: number, fire: () => Promise<T>): Promise<T> {
  if (isMysql) {
    const held = await holdSeries(t.companyId);
    try {
      const done = fire();
      await lockWaiters(waiters);
      await held.release();
      return await done;
    } catch (err) {
      await held.release().catch(() => undefined);
      throw err;
    }
  }
  let release!: () => void;
  const held = unitOfWork(() => new Promise<void>((r) => (release = r)));
  const done = fire();
  await sleep(1500);
  release();
  await held;
  return done;
}

const nextNumber = async (t: InvoiceTenant) =>
  (await dataSource.manager.findOneBy(InvoiceSeries, { companyId: t.companyId, model: 55 }))?.nextNumber ?? 1;
const authorizedAtAuthority = (t: InvoiceTenant) => t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.status === 'AUTHORIZED').length;
const receivablesOf = (t: InvoiceTenant, salesOrderId: number) =>
  dataSource.manager.find(Receivable, { where: { companyId: t.companyId, salesOrderId }, order: { id: 'ASC' } });

/** Settles what the answers left SENT under load (the recovery pass), then the documents of the order. */
async function documentsOf(t: InvoiceTenant, salesOrderId: number): Promise<OutboundNfe[]> {
  await recoverInvoices();
  return dataSource.manager.find(OutboundNfe, { where: { companyId: t.companyId, salesOrderId }, order: { id: 'ASC' } });
}

function expectLosers(answers: Answer[], docs: OutboundNfe[]) {
  const ids = docs.map((d) => d.id);
  for (const a of answers.filter((x) => x.status !== 201)) {
    expect(a.status, JSON.stringify(a.body)).to.equal(409);
    expect(a.body.code).to.equal('ALREADY_INVOICED');
    // The problem names the live document that holds the goods.
    expect(ids, JSON.stringify(a.body)).to.include(decodeId('invoice', a.body.invoiceId));
    expect(a.body.invoiceStatus).to.be.oneOf(['SIGNED', 'SENT', 'AUTHORIZED']);
  }
}

describe('Invoices: exactly once when order, fulfilment and group claims race (SPEC §12.2)', function () {
  this.timeout(180_000);
  let t: InvoiceTenant;

  before(async () => {
    t = await invoiceTenant();
    // The série exists (the gate holds its row).
    const warm = await issue(t, { fulfillmentId: (await fulfilledOrder(t, { quantities: [1, 1] })).fulfillmentId });
    expect(warm.status, JSON.stringify(warm.body)).to.equal(201);
  });

  it('ten issues by salesOrderId and ten by fulfillmentId of the same goods: one document, nineteen 409s', async () => {
    const { orderId, fulfillmentId } = await fulfilledOrder(t, { quantities: [2, 1] });
    const salesOrderId = decodeId('sales-order', orderId);
    const receivablesBefore = await receivablesOf(t, salesOrderId);
    expect(receivablesBefore.length).to.be.greaterThan(0);
    const [numberBefore, authorizedBefore] = [await nextNumber(t), authorizedAtAuthority(t)];

    const requests = interleave<object>(
      Array.from({ length: 10 }, () => ({ salesOrderId: orderId })),
      Array.from({ length: 10 }, () => ({ fulfillmentId })),
    );
    const answers = await gated(t, requests.length, () => Promise.all(requests.map((body) => issue(t, body))));

    const docs = await documentsOf(t, salesOrderId);
    expect(
      docs.map((d) => [d.source, d.status]),
      JSON.stringify(answers.map((a) => a.status)),
    ).to.have.length(1);
    const [doc] = docs;
    expect(doc.status).to.equal('AUTHORIZED');
    expect(doc.claim).to.equal(doc.source === 'ORDER' ? `O${salesOrderId}` : `F${decodeId('fulfillment', fulfillmentId)}`);
    const won = answers.filter((a) => a.status === 201);
    expect(won.map((a) => decodeId('invoice', a.body.id))).to.deep.equal([doc.id]);
    expectLosers(answers, docs);
    // One number taken, one authorization at the authority.
    expect(await nextNumber(t)).to.equal(numberBefore + 1);
    expect(authorizedAtAuthority(t)).to.equal(authorizedBefore + 1);
    // The receivables are the fulfilment's as they were (no tax outside the price), attached once to the one document.
    const receivablesAfter = await receivablesOf(t, salesOrderId);
    expect(receivablesAfter.map((r) => [r.id, r.amount.toFixed(2), r.status])).to.deep.equal(
      receivablesBefore.map((r) => [r.id, r.amount.toFixed(2), r.status]),
    );
    expect(receivablesAfter.map((r) => r.fiscalDocumentId)).to.deep.equal(receivablesAfter.map(() => doc.id));
  });

  it('a grouped order fulfilled twice: group (order) claims and both fulfilments race; no unit of goods billed twice', async () => {
    const source = async (i: number) =>
      (
        await createOrder(t, {
          customerId: t.customer.hash,
          items: [{ productId: t.products[i].hash, quantity: 2, unitPrice: i === 0 ? '10.50' : '19.90' }],
        })
      ).id as string;
    const grouped = await api()
      .post('/api/sales-order/group')
      .set(t.headers())
      .send({ salesOrderIds: [await source(0), await source(1)] });
    expect(grouped.status, JSON.stringify(grouped.body)).to.equal(201);
    const order = grouped.body;
    const fulfilments: string[] = [];
    for (const item of order.items) {
      const f = await fulfill(t, order.id, [{ salesOrderItemId: item.salesOrderItemId, quantity: item.quantity }]);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      fulfilments.push(f.body.fulfillment.id);
    }
    const salesOrderId = decodeId('sales-order', order.id);
    const receivablesBefore = await receivablesOf(t, salesOrderId);
    const [numberBefore, authorizedBefore] = [await nextNumber(t), authorizedAtAuthority(t)];

    const requests = interleave<object>(
      Array.from({ length: 8 }, () => ({ salesOrderId: order.id })),
      Array.from({ length: 6 }, () => ({ fulfillmentId: fulfilments[0] })),
      Array.from({ length: 6 }, () => ({ fulfillmentId: fulfilments[1] })),
    );
    const answers = await gated(t, requests.length, () => Promise.all(requests.map((body) => issue(t, body))));

    const docs = await documentsOf(t, salesOrderId);
    const shape = JSON.stringify(docs.map((d) => [d.source, d.fulfillmentId, d.status]));
    expect(docs.length, shape).to.be.within(1, 2);
    if (docs.some((d) => d.source === 'ORDER')) expect(docs, `the order billed whole excludes its fulfilments: ${shape}`).to.have.length(1);
    else expect(new Set(docs.map((d) => d.fulfillmentId)).size, `one document per fulfilment: ${shape}`).to.equal(docs.length);
    expect(docs.map((d) => d.status)).to.deep.equal(docs.map(() => 'AUTHORIZED'));
    expect(answers.filter((a) => a.status === 201).map((a) => decodeId('invoice', a.body.id))).to.have.members(docs.map((d) => d.id));
    expectLosers(answers, docs);
    expect(await nextNumber(t)).to.equal(numberBefore + docs.length);
    expect(authorizedAtAuthority(t)).to.equal(authorizedBefore + docs.length);
    // The goods are owed once: the live receivables add up to the documents' totals, each attached to the document
    // that billed it (an order billed whole carries every installment; its fulfilments' own rows were replaced).
    const receivablesAfter = await receivablesOf(t, salesOrderId);
    const live = receivablesAfter.filter((r) => r.status !== 'CANCELLED');
    const owed = (rows: { amount: { toFixed(n: number): string } }[]) =>
      rows.reduce((s, r) => s + Number(r.amount.toFixed(2)), 0).toFixed(2);
    expect(owed(live)).to.equal(owed(receivablesBefore));
    expect(owed(live)).to.equal(owed(docs.map((d) => ({ amount: d.total }))));
    const orderDoc = docs.find((d) => d.source === 'ORDER');
    const byFulfilment = new Map(docs.filter((d) => d.source === 'FULFILLMENT').map((d) => [d.fulfillmentId, d.id]));
    expect(live.map((r) => r.fiscalDocumentId)).to.deep.equal(live.map((r) => orderDoc?.id ?? byFulfilment.get(r.fulfillmentId) ?? null));
  });

  it('the same goods billed again only once the live document released them (cancelled)', async () => {
    const { orderId, fulfillmentId } = await fulfilledOrder(t, { quantities: [1, 1] });
    const first = await issue(t, { fulfillmentId });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const byOrder = await issue(t, { salesOrderId: orderId });
    expect(byOrder.status).to.equal(409);
    expect(byOrder.body.invoiceId).to.equal(first.body.id);
    const cancelled = await api()
      .post(`/api/invoices/${first.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra antes da entrega' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const again = interleave<object>([{ salesOrderId: orderId }, { salesOrderId: orderId }], [{ fulfillmentId }, { fulfillmentId }]);
    const answers = await gated(t, again.length, () => Promise.all(again.map((b) => issue(t, b))));
    const live = (await documentsOf(t, decodeId('sales-order', orderId))).filter((d) => d.claim !== null);
    expect(live.map((d) => d.status)).to.deep.equal(['AUTHORIZED']);
    expect(answers.filter((a) => a.status === 201)).to.have.length(1);
    expectLosers(answers, live);
  });
});
