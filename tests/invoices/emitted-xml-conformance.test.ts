import path from 'node:path';
import { expect } from 'chai';
import { In } from 'typeorm';
import { dataSource } from '../../src/core/db/data-source';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { decodeId } from '../../src/core/hashids';
import { InvoiceNumberVoid } from '../../src/modules/outbound-nfe/entities/invoice-number-void.entity';
import { OutboundNfeEvent } from '../../src/modules/outbound-nfe/entities/outbound-nfe-event.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod, makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { buildNfe } from '../support/nfe-builder';
import { createOrder, fulfill } from '../sales-order/support';
import { NFE, uploadConsulted } from '../nfe/nfe-support';
import { confirm } from '../entry-document/support';
import { setTaxRegime } from '../entry-document/fiscal-support';
import { counterTenant } from '../nfce/support';
import { canValidateXsd, canVerifySignature, FIXTURES_DIR, xmlsecErrors, xsdErrors } from './conformance-support';
import { filialHash, invoiceTenant, InvoiceTenant } from './support';
import { stProductOf, sumOf, totalsOfXml } from './xml-totals';

/*
 * Issue 43, the cross-path check: every XML the service emits, on every path (partial fulfilments, a
 * grouped order, ST, DIFAL, installments, cancellation, carta de correção, voiding, NFC-e online and
 * offline, devoluções both ways, a transfer, a Simples Nacional issuer), validates against PL_010
 * (xmllint; the events against their own 1.00 schemas), verifies with xmlsec1, and its totals agree:
 * vNFTot = Σ vItem = vNF (2026), Σ cobr/dup = vOrig = vLiq = vNF, Σ pag − vTroco = vNF (tPag 90: 0),
 * and the receivables behind it add up to it, installment by installment.
 */

const EVENT_XSD = (name: string) => path.relative(path.join(FIXTURES_DIR, 'xsd/PL_010_V1.30'), path.join(FIXTURES_DIR, 'xsd', name));
const standing = (rows: Receivable[]) =>
  rows.filter((r) => r.status !== 'CANCELLED').sort((a, b) => a.installmentNumber - b.installmentNumber || a.id - b.id);

/** The schema, the signature and the totals of one emitted NF-e/NFC-e; `receivables`: the rows that must be its duplicatas. */
function checkDocument(label: string, xml: string, opts: { schema?: string; receivables?: Receivable[] | null; cobr?: boolean } = {}) {
  if (canValidateXsd) expect(xsdErrors(xml, opts.schema), `${label}: PL_010`).to.equal(null);
  if (canVerifySignature) expect(xmlsecErrors(xml), `${label}: xmlsec1`).to.equal(null);
  const x = totalsOfXml(xml);
  if (x.vNFTot !== null) {
    expect(x.vItem, `${label}: a vItem per det`).to.have.length(x.items);
    expect([x.vNFTot, x.sumVItem], `${label}: vNFTot = Σ vItem = vNF`).to.deep.equal([x.vNF, x.vNF]);
  }
  if (x.dup.length) {
    expect([sumOf(x.dup.map((d) => d.vDup)), x.vOrig, x.vLiq], `${label}: cobr`).to.deep.equal([x.vNF, x.vNF, x.vNF]);
  }
  const paid = x.pag.some((p) => p.tPag === '90') ? '0.00' : x.vNF;
  expect(sumOf([...x.pag.map((p) => p.vPag), ...(x.vTroco ? [`-${x.vTroco}`] : [])]), `${label}: Σ vPag − vTroco`).to.equal(paid);
  if (opts.cobr === false) expect(x.dup, `${label}: no cobr`).to.deep.equal([]);
  if (opts.receivables) {
    const rows = standing(opts.receivables);
    expect(sumOf(rows.map((r) => r.amount)), `${label}: Σ receivables = vNF`).to.equal(x.vNF);
    expect(
      x.dup.map((d) => [d.dVenc, d.vDup]),
      `${label}: cobr/dup = the receivables`,
    ).to.deep.equal(rows.map((r) => [r.dueDate, r.amount.toFixed(2)]));
    const aPrazo = rows.some((r) => r.dueDate > businessToday());
    expect(
      x.pag.map((p) => p.indPag),
      `${label}: indPag by the terms`,
    ).to.deep.equal([aPrazo ? '1' : '0']);
  }
  return x;
}

/** A procEventoNFe (110111, 110110) or procInutNFe: its schema where the fixtures have it, and its signature. */
function checkEvent(label: string, xml: string, schema: string | null, idElement: string) {
  if (canValidateXsd && schema) expect(xsdErrors(xml, EVENT_XSD(schema)), `${label}: ${schema}`).to.equal(null);
  if (canVerifySignature) expect(xmlsecErrors(xml, idElement), `${label}: xmlsec1`).to.equal(null);
}

describe('Every emitted XML: PL_010 (xmllint), xmlsec1, and totals that agree with each other and the receivables (issue 43)', function () {
  this.timeout(300_000);
  let t: InvoiceTenant;
  const docOf = async (id: string) =>
    dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', id) });
  const procOf = async (id: string) => gunzipText((await docOf(id)).procXmlGz!);
  const receivablesOfFulfilments = (ids: string[]) =>
    dataSource.manager.find(Receivable, {
      where: { companyId: t.companyId, fulfillmentId: In(ids.map((f) => decodeId('fulfillment', f))) },
    });
  const issue = async (body: object) => {
    const res = await api().post('/api/invoices/issue').set(t.headers()).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status, JSON.stringify(res.body)).to.equal('AUTHORIZED');
    return res.body;
  };
  const fulfilAll = async (order: any, quantities?: number[]) => {
    const res = await fulfill(
      t,
      order.id,
      order.items.map((i: any, n: number) => ({ salesOrderItemId: i.salesOrderItemId, quantity: quantities ? quantities[n] : i.quantity })),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.fulfillment.id as string;
  };

  before(async () => {
    t = await invoiceTenant();
    await makePaymentMethod(t, 'CASH', 'CASH');
    await setupFiscalData(t, { filiais: [1] });
  });

  it('partial fulfilments with payment terms: each NF-e bills its delivery, split by the terms (freight with the first)', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      freight: 7.77,
      paymentTerms: { installmentDays: [30, 60] },
      items: t.products.map((p, i) => ({ productId: p.hash, quantity: 4, unitPrice: i ? '19.90' : '10.50' })),
    });
    const first = await fulfilAll(order, [1, 3]);
    const second = await fulfilAll(order, [3, 1]);
    for (const f of [first, second]) {
      const inv = await issue({ fulfillmentId: f });
      checkDocument(`partial ${f}`, await procOf(inv.id), { receivables: await receivablesOfFulfilments([f]) });
    }
  });

  it('a grouped order billed as a whole: the order NF-e equals every receivable of its fulfilments', async () => {
    const mk = async () =>
      (
        await createOrder(t, {
          customerId: t.customer.hash,
          paymentTerms: { installmentDays: [28, 56] },
          items: [{ productId: t.products[0].hash, quantity: 2, unitPrice: '10.50' }],
        })
      ).id;
    const grouped = await api()
      .post('/api/sales-order/group')
      .set(t.headers())
      .send({ salesOrderIds: [await mk(), await mk()] });
    expect(grouped.status, JSON.stringify(grouped.body)).to.equal(201);
    const f1 = await fulfilAll(grouped.body, [1]);
    const f2 = await fulfilAll(grouped.body, [3]);
    const inv = await issue({ salesOrderId: grouped.body.id });
    checkDocument('group', await procOf(inv.id), { receivables: await receivablesOfFulfilments([f1, f2]) });
    // The order's NF-e is their fiscal document, and its cancellation cancels them.
    expect(standing(await receivablesOfFulfilments([f1, f2])).map((r) => [r.originType, r.accessKey])).to.deep.equal([
      ['FISCAL_DOCUMENT', inv.accessKey],
      ['FISCAL_DOCUMENT', inv.accessKey],
    ]);
    const cancelled = await api()
      .post(`/api/invoices/${inv.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Pedido agrupado faturado por engano' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(standing(await receivablesOfFulfilments([f1, f2]))).to.deep.equal([]);
  });

  it('ST, installments at issue, and DIFAL to a consumer in another state', async () => {
    const st = await stProductOf(t);
    const stOrder = await createOrder(t, { customerId: t.customer.hash, items: [{ productId: st.hash, quantity: 2, unitPrice: '98.44' }] });
    const stF = await fulfilAll(stOrder);
    const stInv = await issue({ fulfillmentId: stF });
    const stX = checkDocument('ST', await procOf(stInv.id), { receivables: await receivablesOfFulfilments([stF]) });
    expect(Number(stX.vNF)).to.be.greaterThan(196.88);

    const iOrder = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[0].hash, quantity: 8, unitPrice: '10.575' }],
    });
    const iF = await fulfilAll(iOrder);
    const dues = [30, 60, 90].map((d) => addCalendarDays(businessToday(), d));
    const iInv = await issue({ fulfillmentId: iF, installments: dues.map((dueDate) => ({ dueDate, amount: 28.2 })) });
    const iX = checkDocument('installments', await procOf(iInv.id), { receivables: await receivablesOfFulfilments([iF]) });
    expect(iX.dup.map((d) => d.vDup)).to.deep.equal(['28.20', '28.20', '28.20']);

    const consumer = await makeCustomer(t, { name: 'Maria Consumidora' } as never);
    await setupFiscalData(t, { filiais: [], customers: [{ id: consumer.id, uf: 'RJ', personType: 'PF', document: '52998224725' }] });
    const dOrder = await createOrder(t, {
      customerId: consumer.hash,
      items: [{ productId: t.products[1].hash, quantity: 5, unitPrice: '19.90' }],
    });
    const dF = await fulfilAll(dOrder);
    const dInv = await issue({ fulfillmentId: dF });
    const dXml = await procOf(dInv.id);
    expect(dXml).to.contain('<ICMSUFDest>').and.contain('<idDest>2</idDest>');
    checkDocument('DIFAL', dXml, { receivables: await receivablesOfFulfilments([dF]) });
  });

  it('cancellation and carta de correção: the NF-e and its events; the cancelled NF-e leaves no receivable standing', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[0].hash, quantity: 2, unitPrice: '10.50' }],
    });
    const f = await fulfilAll(order);
    const inv = await issue({ fulfillmentId: f });
    checkDocument('to correct', await procOf(inv.id), { receivables: await receivablesOfFulfilments([f]) });
    const cce = await api()
      .post(`/api/invoices/${inv.id}/correct`)
      .set(t.headers())
      .send({ correction: 'Endereco de entrega: fundos do predio, portao azul' });
    expect(cce.status, JSON.stringify(cce.body)).to.equal(200);
    const cancelled = await api()
      .post(`/api/invoices/${inv.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const events = await dataSource.manager.find(OutboundNfeEvent, {
      where: { companyId: t.companyId, outboundNfeId: decodeId('invoice', inv.id) },
      order: { id: 'ASC' },
    });
    expect(events.map((e) => e.type)).to.deep.equal(['110110', '110111']);
    checkEvent('CC-e', gunzipText(events[0].xmlGz), 'procCCeNFe_v1.00.xsd', 'infEvento');
    checkEvent('cancellation', gunzipText(events[1].xmlGz), 'procEventoCancNFe_v1.00.xsd', 'infEvento');
    expect(standing(await receivablesOfFulfilments([f]))).to.deep.equal([]);
  });

  it('voiding: a rejected number voided (procInutNFe signed), the goods billed again by a valid NF-e equal to the receivables', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      paymentTerms: { installmentDays: [15] },
      items: [{ productId: t.products[1].hash, quantity: 3, unitPrice: '19.90' }],
    });
    const f = await fulfilAll(order);
    t.sim.issuer.faults.rejectNext = { cStat: '539', xMotivo: 'Rejeicao: teste' };
    const rejected = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: f });
    expect(rejected.body.status, JSON.stringify(rejected.body)).to.equal('REJECTED');
    // What the rejected document computed stands on the receivables until a document replaces it.
    checkDocument('rejected (signed, not authorized)', gunzipText((await docOf(rejected.body.id)).signedXmlGz), {
      schema: 'nfe_v4.00.xsd',
      receivables: await receivablesOfFulfilments([f]),
    });
    const voided = await api()
      .post(`/api/invoices/${rejected.body.id}/void`)
      .set(t.headers())
      .send({ justification: 'Numero nao utilizado por rejeicao' });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(200);
    const row = await dataSource.manager.findOneOrFail(InvoiceNumberVoid, { where: { companyId: t.companyId }, order: { id: 'DESC' } });
    // No inutilização schema among the fixtures: its signature is checked.
    checkEvent('voiding', gunzipText(row.xmlGz!), null, 'infInut');
    const again = await issue({ fulfillmentId: f });
    checkDocument('billed again', await procOf(again.id), { receivables: await receivablesOfFulfilments([f]) });
  });

  it('devoluções both ways: our entry devolução of a customer return, our devolução to a supplier (tPag 90, no cobr)', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[0].hash, quantity: 6, unitPrice: '10.50' }],
    });
    const f = await fulfilAll(order);
    await issue({ fulfillmentId: f });
    const ret = await api()
      .post(`/api/returns/${filialHash(t)}`)
      .set(t.headers())
      .send({
        customerId: t.customer.hash,
        reason: 'Produto com defeito',
        refundMethod: 'CASH',
        items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2, restock: true }],
      });
    expect(ret.status, JSON.stringify(ret.body)).to.equal(201);
    const [d] = ret.body.documents;
    expect(d.status).to.equal('AUTHORIZED');
    const x = checkDocument('customer devolução', await procOf(d.invoiceId ?? d.id), { cobr: false });
    expect(x.pag.map((p) => p.tPag)).to.deep.equal(['90']);
    // The sale's receivables were credited by the refund: what stays open + credited = the sale's NF-e.
    const rows = standing(await receivablesOfFulfilments([f]));
    expect(sumOf(rows.map((r) => r.amount))).to.equal('63.00');

    await setTaxRegime(t, 0, 'LUCRO_REAL');
    const product = await makeProduct(t, { ncm: '15091000' } as never);
    const built = buildNfe({
      issuer: { uf: 'SP' },
      recipient: { cnpj: t.cnpj },
      environment: '2',
      items: [
        {
          code: 'AZ-500',
          description: 'AZEITE EXTRA VIRGEM 500ML',
          ncm: '15091000',
          cfop: '5102',
          quantity: '60',
          unitPrice: '10.00',
          icms: { cst: '00', rate: '18' },
          pisRate: '1.65',
          cofinsRate: '7.6',
        },
      ],
    });
    const imported = await uploadConsulted(
      t,
      await api()
        .post(`${NFE}/importar-xml`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 1, productId: product.hash }] }),
    );
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const c = await confirm(t, imported.body.entryDocument.id);
    expect(c.status, JSON.stringify(c.body)).to.equal(200);
    const sr = await api()
      .post(`/api/supplier-returns/issue/${imported.body.entryDocument.id}`)
      .set(t.headers())
      .set('Idempotency-Key', `sr-${Date.now()}`)
      .send({
        reason: 'Mercadoria avariada no transporte, devolvida ao fornecedor',
        items: [{ entryDocumentItemId: c.body.items[0].id, quantity: 5 }],
      });
    expect(sr.status, JSON.stringify(sr.body)).to.equal(201);
    const sx = checkDocument('supplier devolução', await procOf(sr.body.invoiceId), { cobr: false });
    expect(sx.pag.map((p) => p.tPag)).to.deep.equal(['90']);
  });

  it('a transfer between filiais (tPag 90, no cobr)', async () => {
    const res = await api()
      .post('/api/transfers')
      .set(t.headers())
      .set('Idempotency-Key', `tr-${Date.now()}`)
      .send({ toFilialId: t.filialHashes[1], items: [{ productId: t.products[0].hash, quantity: 4 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const x = checkDocument('transfer', await procOf(res.body.invoices[0].id), { cobr: false });
    expect(x.pag.map((p) => p.tPag)).to.deep.equal(['90']);
  });

  it('a Simples Nacional issuer (CSOSN): the sale with terms', async () => {
    const s = await invoiceTenant();
    await dataSource.manager.update(Filial, { id: s.filialIds[0], companyId: s.companyId }, { taxRegime: 'SIMPLES_NACIONAL' });
    const order = await api()
      .post('/api/sales-order')
      .set(s.headers())
      .send({
        customerId: s.customer.hash,
        paymentTerms: { installmentDays: [30, 60, 90] },
        items: [{ productId: s.products[0].hash, quantity: 7, unitPrice: '10.50' }],
      });
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    const f = await fulfill(s, order.body.id, [{ salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 7 }]);
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    const inv = await api().post('/api/invoices/issue').set(s.headers()).send({ fulfillmentId: f.body.fulfillment.id });
    expect(inv.body.status, JSON.stringify(inv.body)).to.equal('AUTHORIZED');
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: s.companyId, id: decodeId('invoice', inv.body.id) });
    const xml = gunzipText(doc.procXmlGz!);
    expect(xml).to.contain('<CRT>1</CRT>').and.contain('<CSOSN>');
    const rows = await dataSource.manager.find(Receivable, {
      where: { companyId: s.companyId, fulfillmentId: decodeId('fulfillment', f.body.fulfillment.id) },
    });
    checkDocument('Simples', xml, { receivables: rows });
  });

  it('NFC-e online and offline: Σ vPag − vTroco = vNF = the sale’s receivables; the offline note and its authorized nfeProc', async () => {
    const counter = await counterTenant();
    await counter.save();
    const c = counter.t;
    const paymentsOf = async (orderId: string) =>
      dataSource.manager.find(Receivable, { where: { companyId: c.companyId, salesOrderId: decodeId('sales-order', orderId) } });
    const online = await counter.sell();
    expect(online.status, JSON.stringify(online.body)).to.equal(201);
    expect(online.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const xml = (await api().get(`/api/nfce/${online.body.fiscalDocument.id}/xml`).set(c.headers())).text;
    const x = checkDocument('NFC-e online', xml, { cobr: false });
    expect(sumOf((await paymentsOf(online.body.id)).map((r) => r.grossAmount))).to.equal(x.vNF);

    c.sim.issuer.downFor(600_000);
    const offline = await counter.sell();
    expect(offline.body.fiscalDocument.status, JSON.stringify(offline.body)).to.equal('CONTINGENCY');
    const note = await dataSource.manager.findOneByOrFail(NfceDocument, {
      companyId: c.companyId,
      accessKey: offline.body.fiscalDocument.accessKey,
    });
    const ox = checkDocument('NFC-e offline (tpEmis 9)', gunzipText(note.signedXmlGz), { schema: 'nfe_v4.00.xsd', cobr: false });
    expect(sumOf((await paymentsOf(offline.body.id)).map((r) => r.grossAmount))).to.equal(ox.vNF);
    c.sim.issuer.downFor(0);
    await runNfceQueue();
    const sent = await dataSource.manager.findOneByOrFail(NfceDocument, { companyId: c.companyId, id: note.id });
    expect(sent.status).to.equal('AUTHORIZED');
    checkDocument('NFC-e offline, authorized', gunzipText(sent.procXmlGz!), { cobr: false });
  });
});
