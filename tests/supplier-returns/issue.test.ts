import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { buildNfe } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { setTaxRegime } from '../entry-document/fiscal-support';
import { confirm, createDraft, draftBody, item } from '../entry-document/support';
import { NFE, uploadConsulted } from '../nfe/nfe-support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';
import { documentPayables, returnEvents, returnFootprint, returnMovements, SR } from './support';

/*
 * Issue 33 part B through HTTP: a CONFIRMED entry document imported from the supplier's NF-e → preview
 * → our NF-e de devolução (tpNF 1, finNFe 4, CFOP 5202, refNFe to the supplier's key) authorized by the
 * local authority; its authorization posts the stock out at the entry cost (7.4415, not the 8.03
 * average), reverses the credits and abates the payable to the cent; its cancellation (110111 through
 * POST /invoices/:id/cancel) reverses it all. Every XML validates against PL_010 and verifies (xmlsec1).
 */
describe('Supplier returns: NF-e de devolução de compra through HTTP', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  let docHash: string;
  let itemHash: string;
  let supplierKey: string;

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    product = await makeProduct(t, { ncm: '15091000' } as never);
    // The supplier's NF-e: 60 × 10.00, ICMS 18% (108.00), PIS 1.65% and COFINS 7.6% → net 7.4415 a unit (LUCRO_REAL).
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
    // Uploaded by hand: the authority's confirmation of its key is recorded as consultar-protocolo would.
    const imported = await uploadConsulted(
      t,
      await api()
        .post(`${NFE}/importar-xml`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 1, productId: product.hash }] }),
    );
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    docHash = imported.body.entryDocument.id;
    supplierKey = imported.body.entryDocument.accessKey;
    const c1 = await confirm(t, docHash);
    expect(c1.status, JSON.stringify(c1.body)).to.equal(200);
    expect(c1.body.stockMovements[0].unitCost).to.equal(7.4415);
    itemHash = c1.body.items[0].id;
    // A second purchase at another cost moves the average to (446.49 + 356.51) / 100 = 8.03.
    const second = await createDraft(
      t,
      draftBody({
        items: [
          item({
            productId: product.hash,
            description: 'AZEITE EXTRA VIRGEM 500ML',
            quantity: 40,
            unitPrice: '8.91275',
            taxes: { pis: { cst: '04' }, cofins: { cst: '04' } },
          }),
        ],
      }),
    );
    expect((await confirm(t, second.id)).status).to.equal(200);
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '100.0000', averageCost: '8.0300000000' });
  });

  const body = (quantity: number | string, over: Record<string, unknown> = {}) => ({
    reason: 'Mercadoria avariada no transporte, devolvida ao fornecedor',
    items: [{ entryDocumentItemId: itemHash, quantity }],
    ...over,
  });

  it('returnable items and the preview: values, CFOP 5202, stock out at 7.4415, credits and payable — nothing written', async () => {
    const before = await returnFootprint(t);
    const returnable = await api().get(`${SR}/returnable-items/${docHash}`).set(t.headers());
    expect(returnable.status, JSON.stringify(returnable.body)).to.equal(200);
    expect(returnable.body.lines[0]).to.deep.include({
      entryDocumentItemId: itemHash,
      quantity: 60,
      returnedQuantity: 0,
      returnableQuantity: 60,
      entryUnitCost: 7.4415,
      notReturnableReason: null,
    });
    const res = await api()
      .post(`${SR}/preview`)
      .set(t.headers())
      .send({ entryDocumentId: docHash, ...body(5) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.referencedKey).to.equal(supplierKey);
    expect(res.body.lines[0]).to.deep.include({
      cfop: '5202',
      quantity: 5,
      stockQuantity: 5,
      productsValue: 50,
      icmsBase: 50,
      icms: 9,
      total: 50,
      entryUnitCost: 7.4415,
      stockValue: 37.21,
    });
    expect(res.body.creditsReversed).to.deep.equal({ icms: 9, pis: 0.68, cofins: 3.12, ipi: 0, cbs: 0, ibs: 0 });
    expect(res.body.stockMovements).to.deep.equal([
      {
        productId: product.hash,
        quantity: 5,
        unitCost: 7.4415,
        balanceBefore: 100,
        balanceAfter: 95,
        averageCostBefore: 8.03,
        averageCostAfter: 8.0609736842,
      },
    ]);
    expect(res.body.payables).to.have.length(1);
    expect(res.body.payables[0]).to.deep.include({ amount: 50, amountAfter: 550, statusAfter: 'OPEN' });
    expect(res.body.supplierCredit).to.equal(0);
    expect(await returnFootprint(t)).to.deep.equal(before);
  });

  it('bad input → 400 problem+json; more than received → 422; another tenant’s ids → 404; nothing written', async () => {
    const before = await returnFootprint(t);
    expectProblem(
      await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-bad-1').send({ reason: 'curto', items: [] }),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-bad-2').send(body(-1)),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await api()
        .post(`${SR}/issue/${docHash}`)
        .set(t.headers())
        .set('Idempotency-Key', 'sr-bad-3')
        .send({ ...body(1), surprise: true }),
      400,
      'UNKNOWN_FIELDS',
    );
    expectProblem(await api().post(`${SR}/issue/not-an-id!`).set(t.headers()).set('Idempotency-Key', 'sr-bad-4').send(body(1)), 400);
    expectProblem(
      await api()
        .post(`${SR}/issue/${docHash}`)
        .set(t.headers())
        .set('Idempotency-Key', 'sr-bad-5')
        .send({
          ...body(1),
          items: [
            { entryDocumentItemId: itemHash, quantity: 1 },
            { entryDocumentItemId: itemHash, quantity: 2 },
          ],
        }),
      400,
      'VALIDATION_ERROR',
    );
    const over = await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-over').send(body(61));
    expectProblem(over, 422, 'SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE');
    expect(over.body.errors[0].path).to.equal('items[0].quantity');
    expectProblem(
      await api()
        .post(`${SR}/preview`)
        .set(t.headers())
        .send({ entryDocumentId: docHash, ...body(60.0001) }),
      422,
      'SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE',
    );
    // Another tenant: its token cannot see the document, nor the return, nor its lines.
    expectProblem(
      await api().post(`${SR}/issue/${docHash}`).set(other.headers()).set('Idempotency-Key', 'sr-other').send(body(1)),
      404,
      'ENTRY_DOCUMENT_NOT_FOUND',
    );
    expectProblem(await api().get(`${SR}/returnable-items/${docHash}`).set(other.headers()), 404, 'ENTRY_DOCUMENT_NOT_FOUND');
    const foreign = await createDraft(other, draftBody());
    expectProblem(
      await api()
        .post(`${SR}/preview`)
        .set(t.headers())
        .send({ entryDocumentId: docHash, ...body(1), items: [{ entryDocumentItemId: foreign.items[0].id, quantity: 1 }] }),
      404,
      'ENTRY_DOCUMENT_ITEM_NOT_FOUND',
    );
    // A DRAFT (or hand-keyed) document returns nothing.
    expectProblem(
      await api()
        .post(`${SR}/preview`)
        .set(other.headers())
        .send({ entryDocumentId: foreign.id, ...body(1), items: [{ entryDocumentItemId: foreign.items[0].id, quantity: 1 }] }),
      409,
      'ENTRY_DOCUMENT_DRAFT',
    );
    expect(await returnFootprint(t)).to.deep.equal(before);
  });

  it('issues the NF-e de devolução (authorized): stock out at 7.4415, credits reversed, payable reduced to the cent; XSD and xmlsec1; cancel reverses everything', async () => {
    const res = await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-issue-1').send(body(5));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({
      status: 'AUTHORIZED',
      entryDocumentId: docHash,
      referencedKey: supplierKey,
      payablesDeducted: 50,
      supplierCredit: 0,
      stockValue: 37.21,
    });
    expect(res.body.totals.total).to.equal(50);
    expect(res.body.creditsReversed).to.deep.equal({ icms: 9, pis: 0.68, cofins: 3.12, ipi: 0, cbs: 0, ibs: 0 });
    expect(res.body.settlement.payables).to.have.length(1);
    const id = decodeId('supplier-return', res.body.id);
    // A retry with the same key answers the same return; no second NF-e.
    const again = await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-issue-1').send(body(5));
    expect(again.body.id).to.equal(res.body.id);

    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, {
      companyId: t.companyId,
      id: decodeId('invoice', res.body.invoiceId),
    });
    expect(doc.status).to.equal('AUTHORIZED');
    const proc = gunzipText(doc.procXmlGz!);
    expect(proc).to.match(/<tpNF>1<\/tpNF>/);
    expect(proc).to.match(/<finNFe>4<\/finNFe>/);
    expect(proc).to.contain(`<refNFe>${supplierKey}</refNFe>`);
    expect(proc).to.match(/<CFOP>5202<\/CFOP>/);
    expect(proc).to.match(/<vNF>50.00<\/vNF>/);
    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);

    const [out] = await returnMovements(t, id);
    expect([out.direction, out.quantity.toFixed(4), out.unitCost.toFixed(4)]).to.deep.equal(['OUT', '-5.0000', '7.4415']);
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '95.0000', averageCost: '8.0609736842' });
    expect((await documentPayables(t, docHash)).map((p) => [p.amount.toFixed(2), p.status])).to.deep.equal([['550.00', 'OPEN']]);
    const events = await returnEvents(t, id);
    expect(events.map((e) => e.type)).to.deep.equal(['supplier-return.issued', 'supplier-return.authorized']);
    expect((events[1].data as any).payablesDeducted).to.equal(50);
    const returnable = await api().get(`${SR}/returnable-items/${docHash}`).set(t.headers());
    expect(returnable.body.lines[0]).to.deep.include({ returnedQuantity: 5, returnableQuantity: 55 });
    const list = await api().get(`${SR}/list/${t.filialHashes[0]}`).set(t.headers()).query({ entryDocumentId: docHash });
    expect(list.status).to.equal(200);
    expect(list.body.data.map((r: any) => r.id)).to.include(res.body.id);
    expectProblem(await api().get(`${SR}/detail/${res.body.id}`).set(other.headers()), 404, 'SUPPLIER_RETURN_NOT_FOUND');

    const cancelled = await api()
      .post(`/api/invoices/${res.body.invoiceId}/cancel`)
      .set(t.headers())
      .set('Idempotency-Key', 'sr-cancel-1')
      .send({ justification: 'Devolucao emitida com quantidade errada' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const detail = await api().get(`${SR}/detail/${res.body.id}`).set(t.headers());
    expect(detail.body.status).to.equal('CANCELLED');
    expect(detail.body.settlement.payables.map((p: any) => p.status)).to.deep.equal(['REVERSED']);
    expect(await stockOf(t, 0, product.id)).to.deep.equal({ quantity: '100.0000', averageCost: '8.0300000000' });
    expect((await documentPayables(t, docHash)).map((p) => [p.amount.toFixed(2), p.status])).to.deep.equal([['600.00', 'OPEN']]);
    expect((await returnEvents(t, id)).map((e) => e.type)).to.deep.equal([
      'supplier-return.issued',
      'supplier-return.authorized',
      'supplier-return.cancelled',
    ]);
    const after = await api().get(`${SR}/returnable-items/${docHash}`).set(t.headers());
    expect(after.body.lines[0]).to.deep.include({ returnedQuantity: 0, returnableQuantity: 60 });
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('two returns racing for the last units through HTTP: one wins', async () => {
    const first = await api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', 'sr-race-0').send(body(57));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const results = await Promise.all(
      ['sr-race-1', 'sr-race-2'].map((k) => api().post(`${SR}/issue/${docHash}`).set(t.headers()).set('Idempotency-Key', k).send(body(3))),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422]);
    expectProblem(
      results.find((r) => r.status === 422)!,
      422,
      'SUPPLIER_RETURN_QUANTITY_EXCEEDS_RETURNABLE',
    );
    expect(await stockOf(t, 0, product.id)).to.deep.include({ quantity: '40.0000' });
    expect((await documentPayables(t, docHash)).map((p) => [p.amount.toFixed(2), p.status])).to.deep.equal([['0.00', 'CANCELLED']]);
  });
});
