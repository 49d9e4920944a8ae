import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { SalesReturnTaxCredit } from '../../src/modules/returns/entities/sales-return-tax-credit.entity';
import { SalesReturn } from '../../src/modules/returns/entities/sales-return.entity';
import { api } from '../support/api';
import { makePaymentMethod, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { filialHash, fulfilledOrder, invoiceTenant, InvoiceTenant } from '../invoices/support';

/*
 * Issue 43 (3): a return registered while the sale's NF-e is still SENT is booked (restocked, refunded)
 * and says its devolução waits (originStatus PENDING, documentProblem RETURN_ORIGIN_PENDING);
 * POST /returns/:id/document answers 409 RETURN_ORIGIN_PENDING naming the sale's document; once the
 * sale's NF-e is authorized the devolution pass (a step of the invoice recovery pass) traces the units
 * and issues the devolução — once, whatever the passes and crashes.
 */

const docsOfReturn = (t: TestTenant, returnId: string) =>
  dataSource.manager.find(OutboundNfe, {
    where: { companyId: t.companyId, source: 'CUSTOMER_RETURN', sourceId: decodeId('return', returnId) },
    order: { id: 'ASC' },
  });

describe('Returns of a sale whose NF-e is not authorized yet (issue 43)', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;

  /** A billed sale whose NF-e the authority authorized but whose answer we never recorded (SENT, its lease run out). */
  async function saleWithPendingNfe(quantities: number[]) {
    const { order, fulfillmentId } = await fulfilledOrder(t, { quantities });
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    await dataSource.manager.update(
      OutboundNfe,
      { id: decodeId('invoice', res.body.id) },
      {
        status: 'SENT',
        cStat: null,
        protocol: null,
        procXmlGz: null,
        authorizedAt: null,
        leaseOwner: 'dead-process',
        leaseUntil: new Date(Date.now() - 1000),
      },
    );
    return { order, invoice: res.body };
  }

  const returnOf = (items: { salesOrderItemId: string; quantity: number }[], headers = t.headers()) =>
    api()
      .post(`/api/returns/${filialHash(t)}`)
      .set(headers)
      .send({
        customerId: t.customer.hash,
        reason: 'Produto com defeito',
        refundMethod: 'CASH',
        items: items.map((i) => ({ restock: true, ...i })),
      });

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    await makePaymentMethod(t, 'CASH', 'CASH');
  });

  it('registered while the sale NF-e is SENT: booked and PENDING with the problem named; document → 409 naming the sale’s key; once authorized the pass issues the devolução exactly once', async () => {
    const { order, invoice } = await saleWithPendingNfe([10, 2]);
    const line = order.items[0];
    const stockBefore = await stockOf(t, 0, t.products[0].id);

    const res = await returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 3 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.originStatus).to.equal('PENDING');
    expect(res.body.documentProblem?.code).to.equal('RETURN_ORIGIN_PENDING');
    expect(res.body.documentProblem.detail).to.contain(`NF-e ${invoice.series}/${invoice.number} (SENT)`);
    expect(res.body.documents).to.deep.equal([]);
    expect(Number((await stockOf(t, 0, t.products[0].id)).quantity)).to.equal(Number(stockBefore.quantity) + 3);
    expect(res.body.refundAmount).to.equal(31.5);

    // Asked for: 409 naming the sale's document; another tenant → 404; nothing issued.
    const asked = await api().post(`/api/returns/${res.body.id}/document`).set(t.headers()).send({});
    expectProblem(asked, 409, 'RETURN_ORIGIN_PENDING');
    expect(asked.body.documents).to.deep.equal([
      { model: 55, accessKey: invoice.accessKey, series: invoice.series, number: invoice.number, status: 'SENT' },
    ]);
    expectProblem(await api().post(`/api/returns/${res.body.id}/document`).set(other.headers()).send({}), 404, 'RETURN_NOT_FOUND');
    expect(await docsOfReturn(t, res.body.id)).to.have.length(0);

    // The recovery pass settles the sale's NF-e (consulted: AUTHORIZED), then the devolution pass issues ours.
    await recoverInvoices();
    expect((await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', invoice.id) })).status).to.equal('AUTHORIZED');
    const docs = await docsOfReturn(t, res.body.id);
    expect(docs.map((d) => d.status)).to.deep.equal(['AUTHORIZED']);
    expect(docs[0].summary.references).to.deep.equal([invoice.accessKey]);
    expect(t.sim.issuer.document(docs[0].accessKey)?.status).to.equal('AUTHORIZED');
    const detail = await api().get(`/api/returns/detail/${res.body.id}`).set(t.headers());
    expect(detail.status).to.equal(200);
    expect(detail.body.originStatus).to.equal('RESOLVED');
    expect(detail.body.items[0].fiscalOrigins).to.deep.equal([{ accessKey: invoice.accessKey, lineNumber: 1, quantity: 3 }]);
    expect(detail.body.documents.map((d: { status: string }) => d.status)).to.deep.equal(['AUTHORIZED']);
    const credits = await dataSource.manager.findBy(SalesReturnTaxCredit, {
      companyId: t.companyId,
      returnId: decodeId('return', res.body.id),
    });
    expect(credits.map((c) => c.tax)).to.include('ICMS');
    const audit = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'return', entityId: decodeId('return', res.body.id) },
    });
    expect(audit.map((a) => a.action)).to.include.members(['REGISTERED', 'ORIGINS_TRACED', 'DOCUMENT_AUTHORIZED']);

    // Exactly once: more passes issue nothing more; asking again is the live document's 409.
    await recoverInvoices();
    await recoverInvoices();
    expect(await docsOfReturn(t, res.body.id)).to.have.length(1);
    expectProblem(await api().post(`/api/returns/${res.body.id}/document`).set(t.headers()).send({}), 409, 'ALREADY_INVOICED');
  });

  it('POST /returns/:id/document once the sale is authorized: traced and issued on demand; the pass then has nothing left', async () => {
    const { order, invoice } = await saleWithPendingNfe([4, 1]);
    const res = await returnOf([{ salesOrderItemId: order.items[1].salesOrderItemId, quantity: 1 }]);
    expect(res.body.originStatus).to.equal('PENDING');
    // The sale's NF-e settled alone (the returns pass not yet run): the devolução asked for by hand.
    const { settle } = await import('../../src/modules/outbound-nfe');
    await settle({ companyId: t.companyId, actor: 'test' }, decodeId('invoice', invoice.id));
    const issued = await api()
      .post(`/api/returns/${res.body.id}/document`)
      .set(t.headers())
      .set('Idempotency-Key', `dev-${res.body.id}`)
      .send({});
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    expect(issued.body.originStatus).to.equal('RESOLVED');
    expect(issued.body.documents.map((d: { status: string }) => d.status)).to.deep.equal(['AUTHORIZED']);
    expect(issued.body.items[0].fiscalOrigins).to.deep.equal([{ accessKey: invoice.accessKey, lineNumber: 2, quantity: 1 }]);
    await recoverInvoices();
    expect(await docsOfReturn(t, res.body.id)).to.have.length(1);
  });

  it('a pass that died after storing the devolução (SIGNED, TRACED): the next pass resumes that document, never a second one', async () => {
    const { order } = await saleWithPendingNfe([5, 1]);
    const res = await returnOf([{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2 }]);
    expect(res.body.originStatus).to.equal('PENDING');
    await recoverInvoices();
    const [doc] = await docsOfReturn(t, res.body.id);
    // As a crash between the devolução's storing and its answer would leave it.
    await dataSource.manager.update(
      OutboundNfe,
      { id: doc.id },
      { status: 'SIGNED', cStat: null, protocol: null, procXmlGz: null, authorizedAt: null, leaseOwner: null, leaseUntil: null },
    );
    await dataSource.manager.update(SalesReturn, { id: decodeId('return', res.body.id) }, { originStatus: 'TRACED' });
    await recoverInvoices();
    const docs = await docsOfReturn(t, res.body.id);
    expect(docs.map((d) => [d.id, d.status])).to.deep.equal([[doc.id, 'AUTHORIZED']]);
    expect((await dataSource.manager.findOneByOrFail(SalesReturn, { id: decodeId('return', res.body.id) })).originStatus).to.equal(
      'RESOLVED',
    );
  });

  it('a sale without a document of ours: the return is RESOLVED at once, no problem, no devolução', async () => {
    const { order } = await fulfilledOrder(t, { quantities: [2, 1] });
    const res = await returnOf([{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 1 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ originStatus: 'RESOLVED', documentProblem: null });
    expectProblem(
      await api().post(`/api/returns/${res.body.id}/document`).set(t.headers()).send({}),
      422,
      'RETURN_WITHOUT_FISCAL_DOCUMENT',
    );
  });
});
