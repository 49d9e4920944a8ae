import { expect } from 'chai';
import { In } from 'typeorm';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { parseNfe } from '../../src/modules/fiscal-xml/nfe/nfe-parser';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { SalesReturnTaxCredit } from '../../src/modules/returns/entities/sales-return-tax-credit.entity';
import { SalesReturn } from '../../src/modules/returns/entities/sales-return.entity';
import { api } from '../support/api';
import { makePaymentMethod, makeSeller, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { eventsOf } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, sampleDocument, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { buildReturnDocument, recipientFromParty } from '../../src/modules/fiscal';
import { buildNfeXml } from '../../src/modules/outbound-nfe/xml/nfe-xml';
import { signerOf, signNfe } from '../../src/modules/authority/xml/xmldsig';
import type { ParsedNfe } from '../../src/modules/fiscal-xml/nfe/nfe-types';
import { NFE_NS } from '../../src/modules/authority/xml/xml-text';
import { filialHash, fulfilledOrder, invoiceTenant, InvoiceTenant } from '../invoices/support';

/*
 * Issue 33 (customer side): a sale billed with our NF-e comes back through /returns with our entry
 * NF-e de devolução (tpNF 0, finNFe 4, CFOP 1202, refNFe to the sale), the original values and taxes in
 * proportion to the cent, authorized by the local authority; the sale's ICMS/PIS/COFINS come back as
 * credits (Lucro Real); the receivable is reduced; cancelling the devolução reverses the credits.
 */

const round2 = (d: Dec) => Number(d.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2));
const docOf = (id: string) => dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', id) });
const creditsOf = (t: TestTenant, returnId: string) =>
  dataSource.manager.find(SalesReturnTaxCredit, {
    where: { companyId: t.companyId, returnId: decodeId('return', returnId) },
    order: { id: 'ASC' },
  });

describe('Returns with our NF-e de devolução (issue 33)', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;

  /** A sale of `quantities` fulfilled and billed with an authorized NF-e: the order, its NF-e (hashid) and parsed nfeProc. */
  async function billedSale(quantities: number[]) {
    const { fulfillmentId, orderId, order } = await fulfilledOrder(t, { quantities });
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('AUTHORIZED');
    const sale = await parseNfe(gunzipText((await docOf(res.body.id)).procXmlGz!));
    return { orderId, order, invoice: res.body, sale };
  }

  const returnOf = (items: { salesOrderItemId: string; quantity: number; restock?: boolean }[], headers = t.headers()) =>
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

  it('a sale of 10 with NF-e, return of 3: our devolução authorized (XSD, xmlsec1), values and taxes in proportion, stock back, credits taken, receivable reduced to the cent', async () => {
    const { orderId, order, invoice, sale } = await billedSale([10, 2]);
    const line = order.items[0];
    const stockBefore = await stockOf(t, 0, t.products[0].id);
    const receivableBefore = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', orderId) },
    });
    const openBefore = receivableBefore.reduce((s, r) => s.plus(r.amount).minus(r.receivedAmount).minus(r.creditedAmount), new Dec(0));
    const before = (await eventsOf(t)).length;

    const res = await returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 3 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.documentProblem).to.equal(null);
    expect(res.body.origin).to.equal('COUNTER');
    expect(res.body.items[0].fiscalOrigins).to.deep.equal([{ accessKey: invoice.accessKey, lineNumber: 1, quantity: 3 }]);
    expect(res.body.documents).to.have.length(1);
    const [d] = res.body.documents;
    expect(d).to.include({ status: 'AUTHORIZED', live: true });

    // The document: entry devolução referencing the sale, item 1 at 3/10 of its values and taxes.
    const doc = await docOf(d.invoiceId);
    expect(doc).to.include({
      source: 'CUSTOMER_RETURN',
      sourceId: decodeId('return', res.body.id),
      claim: `CR${decodeId('return', res.body.id)}`,
    });
    const proc = gunzipText(doc.procXmlGz!);
    const dev = await parseNfe(proc);
    expect(dev.ide.operationType).to.equal('0');
    expect(dev.ide.purpose).to.equal('4');
    expect(dev.ide.referencedKeys).to.deep.equal([invoice.accessKey]);
    expect(dev.items).to.have.length(1);
    const o = sale.items[0];
    const r = dev.items[0];
    expect(o.cfop).to.equal('5102');
    expect(r.cfop).to.equal('1202');
    expect(r.quantity.toNumber()).to.equal(3);
    expect(r.unitPrice.eq(o.unitPrice)).to.equal(true);
    const part = (v: Dec | null | undefined) => round2((v ?? new Dec(0)).times(3).div(10));
    expect(r.total.toNumber()).to.equal(part(o.total));
    expect(r.taxes.icms!.cst).to.equal(o.taxes.icms!.cst);
    expect(r.taxes.icms!.base!.toNumber()).to.equal(part(o.taxes.icms!.base));
    expect(r.taxes.icms!.value!.toNumber()).to.equal(part(o.taxes.icms!.value));
    expect(r.taxes.pis!.value!.toNumber()).to.equal(part(o.taxes.pis!.value));
    expect(r.taxes.cofins!.value!.toNumber()).to.equal(part(o.taxes.cofins!.value));
    expect(dev.payments.map((p) => [p.method, p.amount.toNumber()])).to.deep.equal([['90', 0]]);
    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);
    expect(t.sim.issuer.document(doc.accessKey)?.status).to.equal('AUTHORIZED');

    // Credits: the sale's ICMS, PIS and COFINS of the returned units (Lucro Real).
    const credits = await creditsOf(t, res.body.id);
    expect(credits.map((c) => [c.tax, Number(c.amount.toFixed(2)), c.status])).to.deep.equal([
      ['ICMS', part(o.taxes.icms!.value), 'RECORDED'],
      ['PIS', part(o.taxes.pis!.value), 'RECORDED'],
      ['COFINS', part(o.taxes.cofins!.value), 'RECORDED'],
    ]);
    expect(res.body.credits.map((c: { tax: string }) => c.tax)).to.deep.equal(['ICMS', 'PIS', 'COFINS']);

    // Stock back, receivable reduced by the refund (3 × 10.50).
    expect(Number((await stockOf(t, 0, t.products[0].id)).quantity)).to.equal(Number(stockBefore.quantity) + 3);
    expect(res.body.refundAmount).to.equal(31.5);
    const receivableAfter = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', orderId) },
    });
    const openAfter = receivableAfter.reduce((s, x) => s.plus(x.amount).minus(x.receivedAmount).minus(x.creditedAmount), new Dec(0));
    expect(Number(openBefore.minus(openAfter).toFixed(2))).to.equal(31.5);

    const types = (await eventsOf(t)).slice(before).map((e) => e.type);
    expect(types).to.include.members(['return.registered', 'nfe.outbound.issued', 'nfe.outbound.authorized', 'return.document-authorized']);
    const audit = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'return', entityId: decodeId('return', res.body.id) },
    });
    expect(audit.map((a) => a.action)).to.include.members(['REGISTERED', 'DOCUMENT_AUTHORIZED']);

    // The rest (7) in a second return: both devoluções add up to the original line to the cent.
    const rest = await returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 7 }]);
    expect(rest.status, JSON.stringify(rest.body)).to.equal(201);
    const dev2 = await parseNfe(gunzipText((await docOf(rest.body.documents[0].invoiceId)).procXmlGz!));
    const r2 = dev2.items[0];
    for (const [a, b, whole] of [
      [r.total, r2.total, o.total],
      [r.taxes.icms!.value!, r2.taxes.icms!.value!, o.taxes.icms!.value!],
      [r.taxes.pis!.value!, r2.taxes.pis!.value!, o.taxes.pis!.value!],
      [r.taxes.cofins!.value!, r2.taxes.cofins!.value!, o.taxes.cofins!.value!],
    ] as const)
      expect(a.plus(b).eq(whole), `${a.toString()} + ${b.toString()} = ${whole.toString()}`).to.equal(true);
    // Nothing left to return of that line: 422, nothing written.
    const count = await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId });
    expectProblem(await returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 1 }]), 422, 'RETURN_QUANTITY_EXCEEDS_RETURNABLE');
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId })).to.equal(count);
  });

  it('cancelling our devolução (110111) reverses its credits; the return gets a new document; a second live one is 409; another tenant → 404', async () => {
    const { order } = await billedSale([4, 1]);
    const res = await returnOf([{ salesOrderItemId: order.items[1].salesOrderItemId, quantity: 1 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const invoiceId = res.body.documents[0].invoiceId;
    expectProblem(await api().post(`/api/returns/${res.body.id}/document`).set(t.headers()).send({}), 409, 'ALREADY_INVOICED');
    expectProblem(await api().post(`/api/returns/${res.body.id}/document`).set(other.headers()).send({}), 404, 'RETURN_NOT_FOUND');
    expectProblem(await api().post(`/api/returns/not-an-id/document`).set(t.headers()).send({}), 400);

    const cancelled = await api()
      .post(`/api/invoices/${invoiceId}/cancel`)
      .set(t.headers())
      .send({ justification: 'Devolucao registrada em duplicidade pelo caixa' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect((await creditsOf(t, res.body.id)).every((c) => c.status === 'REVERSED')).to.equal(true);
    expect((await eventsOf(t)).map((e) => e.type)).to.include('return.document-cancelled');

    const again = await api().post(`/api/returns/${res.body.id}/document`).set(t.headers()).send({});
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    expect(again.body.documents.map((x: { status: string }) => x.status)).to.deep.equal(['AUTHORIZED', 'CANCELLED']);
    const credits = await creditsOf(t, res.body.id);
    expect(credits.filter((c) => c.status === 'RECORDED').length).to.be.greaterThan(0);
    const detail = await api().get(`/api/returns/detail/${res.body.id}`).set(t.headers());
    expect(detail.status).to.equal(200);
    expect(detail.body.documents).to.have.length(2);
  });

  it('two returns racing for the last returnable unit of a billed sale: exactly one wins and one devolução is issued', async () => {
    const { order } = await billedSale([1, 1]);
    const line = order.items[0];
    const results = await Promise.all([
      returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 1 }]),
      returnOf([{ salesOrderItemId: line.salesOrderItemId, quantity: 1 }]),
    ]);
    const statuses = results.map((x) => x.status).sort();
    expect(statuses, JSON.stringify(results.map((x) => x.body))).to.deep.equal([201, 422]);
    const won = results.find((x) => x.status === 201)!;
    expect(won.body.documents[0].status).to.equal('AUTHORIZED');
    const docs = await dataSource.manager.find(OutboundNfe, {
      where: { companyId: t.companyId, source: 'CUSTOMER_RETURN', sourceId: In([decodeId('return', won.body.id)]) },
    });
    expect(docs).to.have.length(1);
  });

  /** The customer's own devolução of `lines` of our sale: his NF-e (tpNF 1, finNFe 4, CFOP 5202, refNFe to our key), signed with his A1. */
  function customersDevolution(sale: ParsedNfe, lines: { lineNumber: number; quantity: number }[], number = 501): string {
    const cnpj = t.customer.document!;
    const issuer = { ...sampleDocument().issuer, document: cnpj, name: 'Cliente Contribuinte Ltda', stateRegistration: '123456789012' };
    const doc = buildReturnDocument({
      original: sale,
      side: 'PURCHASE',
      issuer,
      recipient: recipientFromParty(sale.issuer),
      date: new Date().toISOString().slice(0, 10),
      lines: lines.map((l) => ({ ...l, productId: 0 })),
    });
    const built = buildNfeXml(doc, {
      number,
      series: 1,
      issuedAt: new Date(),
      emissionType: 1,
      contingency: null,
      randomCode: String(10_000_000 + number),
      tpAmb: '2',
      transport: { mode: 9, volumes: null },
      installments: [],
      paymentType: '90',
      additionalInfo: 'Devolucao de mercadoria',
    });
    const a1 = t.sim.issueClientCertificate(cnpj, 'CLIENTE CONTRIBUINTE LTDA', 'senha');
    const nfe = signNfe(built.xml, built.accessKey, built.canonicalInfNFe, signerOf(a1.keyPem, a1.certPem)).xml.replace(
      /^<\?xml[^>]*>/,
      '',
    );
    // Authorized by the (simulated) authority as his own NF-e: the import wants the protocol.
    const reply = t.sim.issuer.authorize(
      `<enviNFe xmlns="${NFE_NS}" versao="4.00"><idLote>${number}</idLote><indSinc>1</indSinc>${nfe}</enviNFe>`,
      null,
      false,
    );
    const prot = /<protNFe[\s\S]*<\/protNFe>/.exec(reply.message ?? '')![0];
    return `<nfeProc xmlns="${NFE_NS}" versao="4.00">${nfe}${prot}</nfeProc>`;
  }

  it("a contributor customer's own devolução imported: a return of our sale (IMPORTED), restocked, receivable credited, credits taken, no payable, no document of ours; twice → 409; more than returnable → 422", async () => {
    const { orderId, order, invoice, sale } = await billedSale([6, 2]);
    const stockBefore = await stockOf(t, 0, t.products[0].id);
    const xml = customersDevolution(sale, [{ lineNumber: 1, quantity: 2 }]);
    if (canValidateXsd) expect(xsdErrors(xml), xml).to.equal(null);
    const url = `/api/returns/${filialHash(t)}/imported-nfe`;
    expectProblem(await api().post(url).set(t.headers()).send({ xml, refundMethod: 'NOPE' }), 422, 'REFUND_METHOD_INVALID');
    expectProblem(await api().post(url).set(t.headers()).send({ refundMethod: 'CASH' }), 400);
    expectProblem(
      await api().post(`/api/returns/${other.filialHashes[0]}/imported-nfe`).set(t.headers()).send({ xml, refundMethod: 'CASH' }),
      403,
    );
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId, origin: 'IMPORTED' })).to.equal(0);

    const res = await api().post(url).set(t.headers()).send({ xml, refundMethod: 'CASH', restock: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.origin).to.equal('IMPORTED');
    expect(res.body.importedAccessKey).to.have.length(44);
    expect(res.body.documents).to.deep.equal([]);
    expect(res.body.items).to.have.length(1);
    expect(res.body.items[0]).to.include({ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2 });
    expect(res.body.items[0].fiscalOrigins).to.deep.equal([{ accessKey: invoice.accessKey, lineNumber: 1, quantity: 2 }]);
    expect(res.body.refundAmount).to.equal(21);
    expect(Number((await stockOf(t, 0, t.products[0].id)).quantity)).to.equal(Number(stockBefore.quantity) + 2);
    const o = sale.items[0];
    const part = (v: Dec | null | undefined) => round2((v ?? new Dec(0)).times(2).div(6));
    expect((await creditsOf(t, res.body.id)).map((c) => [c.tax, Number(c.amount.toFixed(2))])).to.deep.equal([
      ['ICMS', part(o.taxes.icms!.value)],
      ['PIS', part(o.taxes.pis!.value)],
      ['COFINS', part(o.taxes.cofins!.value)],
    ]);
    const receivables = await dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, salesOrderId: decodeId('sales-order', orderId) },
    });
    expect(receivables.reduce((s, r) => s.plus(r.creditedAmount), new Dec(0)).toNumber()).to.equal(21);
    const lineAfter = (await api().get(`/api/sales-order/detail/${orderId}`).set(t.headers())).body.items[0];
    expect(lineAfter.returnedQuantity).to.equal(2);

    expectProblem(await api().post(url).set(t.headers()).send({ xml, refundMethod: 'CASH' }), 409, 'RETURN_ALREADY_IMPORTED');
    // More than is left (6 − 2 = 4): 422, nothing written.
    const count = await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId });
    expectProblem(
      await api()
        .post(url)
        .set(t.headers())
        .send({ xml: customersDevolution(sale, [{ lineNumber: 1, quantity: 5 }], 502), refundMethod: 'CASH' }),
      422,
      'RETURN_QUANTITY_EXCEEDS_RETURNABLE',
    );
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId })).to.equal(count);
    // Two devoluções racing for the last 4 units: one is booked, the other refused.
    const racing = await Promise.all(
      [503, 504].map((n) =>
        api()
          .post(url)
          .set(t.headers())
          .send({ xml: customersDevolution(sale, [{ lineNumber: 1, quantity: 4 }], n), refundMethod: 'CASH' }),
      ),
    );
    expect(racing.map((r) => r.status).sort(), JSON.stringify(racing.map((r) => r.body))).to.deep.equal([201, 422]);
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: t.companyId })).to.equal(count + 1);
    // Another tenant cannot book it against our sale.
    expectProblem(
      await api().post(`/api/returns/${other.filialHashes[0]}/imported-nfe`).set(other.headers()).send({ xml, refundMethod: 'CASH' }),
      422,
    );
  });

  it("a counter sale with an authorized NFC-e: the return's devolução references the NFC-e key (CFOP 1202), values in proportion", async () => {
    const seller = await makeSeller(t, { name: 'Caixa 9' });
    expect(
      (
        await api()
          .put(`/api/nfce/configuration/${filialHash(t)}`)
          .set(t.headers())
          .send({
            series: 1,
            qrVersion: 3,
            qrCodeUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode',
            consultUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/consulta',
            autoIssue: true,
            syncTimeoutMs: 3000,
          })
      ).status,
    ).to.equal(200);
    const qs = await api()
      .put(`/api/quick-sale/configuration/${filialHash(t)}`)
      .set(t.headers())
      .send({
        enabled: true,
        defaultCustomerId: t.customer.hash,
        defaultSellerId: seller.hash,
        paymentMethods: ['CASH'],
        defaultPaymentMethod: 'CASH',
      });
    expect(qs.status, JSON.stringify(qs.body)).to.equal(200);
    const sold = await api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({
        flowMode: 'QUICK_SALE',
        customerId: t.customer.hash,
        items: [{ productId: t.products[0].hash, quantity: 4, unitPrice: '10.50' }],
        payments: [{ method: 'CASH', amount: '42.00' }],
      });
    expect(sold.status, JSON.stringify(sold.body)).to.equal(201);
    expect(sold.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const res = await returnOf([{ salesOrderItemId: sold.body.items[0].salesOrderItemId, quantity: 1 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.documentProblem).to.equal(null);
    expect(res.body.items[0].fiscalOrigins).to.deep.equal([{ accessKey: sold.body.fiscalDocument.accessKey, lineNumber: 1, quantity: 1 }]);
    const proc = gunzipText((await docOf(res.body.documents[0].invoiceId)).procXmlGz!);
    const dev = await parseNfe(proc);
    expect(dev.ide.referencedKeys).to.deep.equal([sold.body.fiscalDocument.accessKey]);
    expect(dev.items[0].cfop).to.equal('1202');
    expect(dev.items[0].total.toNumber()).to.equal(10.5);
    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);
  });
});
