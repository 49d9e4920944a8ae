import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { In } from 'typeorm';
import { hasValidCheckDigit } from '../../src/modules/fiscal-xml/access-key';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { eventsOf } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from './conformance-support';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * Issue 30 core path: fulfil → preview → issue → AUTHORIZED against the local authority, the signed XML
 * stored before sending, the nfeProc valid against PL_010 (xmllint) and its signature verified by
 * xmlsec1; numbering without gaps; refusals write nothing.
 */

const docsOf = (t: TestTenant) => dataSource.manager.find(OutboundNfe, { where: { companyId: t.companyId }, order: { id: 'ASC' } });

describe('Invoices: preview and issue (NF-e 55 against the local authority)', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let other: TestTenant;

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
  });

  it('preview answers the whole document without taking a number', async () => {
    const { fulfillmentId } = await fulfilledOrder(t, { freight: 12.34 });
    const res = await api().post('/api/invoices/preview').set(t.headers()).send({ fulfillmentId, notes: 'Pedido do cliente 4512' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.items).to.have.length(2);
    expect(res.body.totals.vProd).to.equal(31.5 + 39.8);
    expect(res.body.totals.vFrete).to.equal(12.34);
    expect(res.body.totals.vNF).to.equal(Number((31.5 + 39.8 + 12.34).toFixed(2)));
    expect(res.body.transport.mode).to.equal(0);
    // No IBPT table loaded: no figure is declared (Lei 12.741 row 7, docs/decisions/tax-law-rows.md).
    expect(res.body.additionalInfo).to.equal(
      'Pedido do cliente 4512 | Valor aproximado dos tributos não informado: sem tabela IBPT vigente (Lei 12.741/2012)',
    );
    expect(await docsOf(t)).to.have.length(0);
    expect(await dataSource.manager.countBy(InvoiceSeries, { companyId: t.companyId })).to.equal(0);
  });

  it('issues: numbered, signed, stored, authorized; the nfeProc validates (XSD) and its signature verifies (xmlsec1)', async () => {
    const { fulfillmentId, orderId } = await fulfilledOrder(t);
    const before = (await eventsOf(t)).length;
    const res = await api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({
        fulfillmentId,
        installments: [
          { dueDate: '2099-01-10', amount: 35.65 },
          { dueDate: '2099-02-10', amount: 35.65 },
        ],
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({
      status: 'AUTHORIZED',
      cStat: '100',
      model: 55,
      series: 1,
      number: 1,
      fulfillmentId,
      salesOrderId: orderId,
      emissionType: 1,
    });
    expect(res.body.protocol).to.match(/^\d{15}$/);
    expect(hasValidCheckDigit(res.body.accessKey)).to.equal(true);
    expect(res.body.installments).to.deep.equal([
      { number: '001', dueDate: '2099-01-10', amount: 35.65 },
      { number: '002', dueDate: '2099-02-10', amount: 35.65 },
    ]);

    const [doc] = await docsOf(t);
    expect(doc).to.include({
      status: 'AUTHORIZED',
      number: 1,
      accessKey: res.body.accessKey,
      claim: `F${decodeId('fulfillment', fulfillmentId)}`,
      leaseOwner: null,
      sendAttempts: 1,
    });
    const signed = gunzipText(doc.signedXmlGz);
    const proc = gunzipText(doc.procXmlGz!);
    expect(proc).to.contain(signed.replace(/^<\?xml[^>]*>/, ''));
    expect(proc).to.match(/<protNFe versao="4.00"><infProt>.*<cStat>100<\/cStat>/);
    expect(t.sim.issuer.document(doc.accessKey)?.status).to.equal('AUTHORIZED');
    expect((await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId })).nextNumber).to.equal(2);
    const types = (await eventsOf(t)).slice(before).map((e) => e.type);
    expect(types).to.include.members(['nfe.outbound.issued', 'nfe.outbound.authorized']);

    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);

    const xml = await api().get(`/api/invoices/${res.body.id}/xml`).set(t.headers());
    expect(xml.status).to.equal(200);
    expect(xml.headers['content-type']).to.match(/application\/xml/);
    expect(xml.text).to.equal(proc);
    const detail = await api().get(`/api/invoices/detail/${res.body.id}`).set(t.headers());
    expect(detail.status).to.equal(200);
    expect(detail.body).to.include({ id: res.body.id, status: 'AUTHORIZED' });
    const list = await api().get(`/api/invoices/list/${t.filialHashes[0]}`).set(t.headers());
    expect(list.status).to.equal(200);
    expect(list.body.data.map((d: any) => d.id)).to.include(res.body.id);
  });

  it('a second issue for the same fulfilment is 409 naming the document; the same Idempotency-Key answers the same document', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const key = `issue-${Date.now()}`;
    const first = await api().post('/api/invoices/issue').set(t.headers()).set('Idempotency-Key', key).send({ fulfillmentId });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const again = await api().post('/api/invoices/issue').set(t.headers()).set('Idempotency-Key', key).send({ fulfillmentId });
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    const other2 = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expectProblem(other2, 409, 'ALREADY_INVOICED');
    expect(other2.body.invoiceId).to.equal(first.body.id);
    expect((await docsOf(t)).filter((d) => d.fulfillmentId === decodeId('fulfillment', fulfillmentId))).to.have.length(1);
  });

  it("bad input is 400 and writes nothing; another tenant's fulfilment is 404; a filial not granted is 403", async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const n = (await docsOf(t)).length;
    expectProblem(await api().post('/api/invoices/issue').set(t.headers()).send({}), 400);
    expectProblem(await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId, bogus: 1 }), 400);
    expectProblem(
      await api()
        .post('/api/invoices/issue')
        .set(t.headers())
        .send({ fulfillmentId, installments: [{ dueDate: '2099-02-30', amount: 1 }] }),
      400,
    );
    expectProblem(
      await api()
        .post('/api/invoices/issue')
        .set(t.headers())
        .send({ fulfillmentId, installments: [{ dueDate: '2099-02-10', amount: 1 }] }),
      422,
      'INSTALLMENTS_MISMATCH',
    );
    expectProblem(await api().post('/api/invoices/issue').set(other.headers()).send({ fulfillmentId }), 404, 'FULFILLMENT_NOT_FOUND');
    expectProblem(
      await api()
        .post('/api/invoices/issue')
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
        .send({ fulfillmentId }),
      403,
    );
    expect(await docsOf(t)).to.have.length(n);
    const [doc] = await docsOf(t);
    expectProblem(
      await api()
        .get(`/api/invoices/detail/${(await api().get(`/api/invoices/list/${t.filialHashes[0]}`).set(t.headers())).body.data[0].id}`)
        .set(other.headers()),
      404,
      'INVOICE_NOT_FOUND',
    );
    expect(doc).to.not.equal(undefined);
  });

  it('twenty concurrent issues on one série get twenty distinct consecutive numbers', async () => {
    const fulfilments = [];
    for (let i = 0; i < 20; i++) fulfilments.push((await fulfilledOrder(t, { quantities: [1, 1] })).fulfillmentId);
    const start = (await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId })).nextNumber;
    const answers = await Promise.all(
      fulfilments.map((fulfillmentId) => api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId })),
    );
    answers.forEach((a) => expect(a.status, JSON.stringify(a.body)).to.equal(201));
    const numbers = answers.map((a) => a.body.number).sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: 20 }, (_v, i) => start + i));
    // Under load an answer may outlast the client's timeout: such a document stays SENT (never re-numbered)
    // and the recovery pass settles it by consulting the key.
    expect(answers.every((a) => ['AUTHORIZED', 'SENT'].includes(a.body.status))).to.equal(true);
    await recoverInvoices();
    const settled = await dataSource.manager.findBy(OutboundNfe, { companyId: t.companyId, number: In(numbers) });
    expect(settled.map((d) => d.status)).to.deep.equal(settled.map(() => 'AUTHORIZED'));
    const report = await api()
      .get(
        `/api/invoices/series/${(await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data[0].id}/numbers`,
      )
      .set(t.headers());
    expect(report.status).to.equal(200);
    expect(report.body.unaccounted).to.deep.equal([]);
    expect(report.body.numbers).to.have.length(start + 19);
  });
});
