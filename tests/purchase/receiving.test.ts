import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { PurchaseOrderReceipt } from '../../src/modules/purchase/entities/purchase-order-receipt.entity';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { DEFAULT_ISSUER_CNPJ } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { randomCnpj } from '../support/tenant';
import {
  cancel as cancelDocument,
  confirm,
  createDraft,
  draftBody,
  footprint,
  item,
  movementsOf,
  payablesOf,
} from '../entry-document/support';
import { NFE, nfeTenant, NfeTenant, uploadConsulted } from '../nfe/nfe-support';
import {
  approvedOrder,
  auditOf,
  createPurchaseOrder,
  detail,
  eventsOf,
  linesInDb,
  orderBody,
  orderInDb,
  PURCHASE,
  purchaseFootprint,
  receiptsInDb,
  setTolerances,
} from './support';

/*
 * Entry documents against purchase orders (SPEC §9): links on manual drafts and NF-e imports, the
 * three-way match in the previews, receipts on confirm and their reversal on cancel, concurrency.
 */

const ENTRY = '/api/entry-document';
const importXml = async (t: NfeTenant, body: Record<string, unknown>) =>
  uploadConsulted(t, await api().post(`${NFE}/importar-xml`).set(t.headers()).send(body));
const entryDetail = async (t: NfeTenant, id: string) => (await api().get(`${ENTRY}/detail/${id}`).set(t.headers())).body;
const confirmPreview = async (t: NfeTenant, id: string) => (await api().get(`${ENTRY}/confirm-preview/${id}`).set(t.headers())).body;
const receiptsOf = (t: NfeTenant, id: string) => api().get(`${PURCHASE}/${id}/receipts`).set(t.headers());
const codes = (list: { code: string }[]) => list.map((p) => p.code);

describe('Purchase orders: receiving against entry documents', () => {
  let t: NfeTenant;
  let other: NfeTenant;
  let product: Awaited<ReturnType<typeof makeProduct>>;
  /** The NF-e builder's issuer: orders of this supplier match imported invoices. */
  const supplier = { document: DEFAULT_ISSUER_CNPJ, name: 'FORNECEDOR TESTE LTDA' };

  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
    product = await makeProduct(t, { name: 'Cimento CP-II 50kg', unit: 'SC' });
  });

  /** A manual draft of the supplier with these lines. */
  const draftOf = (lines: Record<string, unknown>[], over: Record<string, unknown> = {}, filialIndex = 0) =>
    createDraft(t, draftBody({ supplier, items: lines.map((l) => item(l)), ...over }), filialIndex);

  describe('manual drafts: links, the match, confirm and receipts', () => {
    it('create links a line; detail and confirm-preview show the match; confirm receives (PARTIALLY_RECEIVED), with receipt, audit and event', async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 100, unitPrice: 10 }]));
      const line = order.items[0].purchaseOrderItemId;
      const doc = await draftOf([{ productId: product.hash, quantity: 60, unitPrice: 10, purchaseOrderItemId: line }]);
      expect(doc.items[0].purchaseOrderItemId).to.equal(line);
      expect(doc.purchaseMatch.tolerances).to.deep.equal({ quantityPct: 0, pricePct: 2, mode: 'BLOCK' });
      expect(doc.purchaseMatch.lines).to.deep.equal([
        {
          lineNumber: 1,
          purchaseOrderItemId: line,
          purchaseOrderId: order.id,
          purchaseOrderCode: order.code,
          purchaseOrderStatus: 'APPROVED',
          orderLineNumber: 1,
          productId: product.hash,
          unit: 'SC',
          ordered: 100,
          cancelled: 0,
          alreadyReceived: 0,
          thisReceipt: 60,
          openAfter: 40,
          orderUnitPrice: 10,
          invoiceUnitPrice: 10,
          priceDifferencePct: 0,
          quantityStatus: 'OK',
          priceStatus: 'OK',
          receives: true,
          problems: [],
        },
      ]);
      const preview = await confirmPreview(t, doc.id);
      expect(preview.blockingProblems).to.deep.equal([]);
      expect(preview.purchaseMatch.lines[0]).to.include({ thisReceipt: 60, openAfter: 40 });

      const stockBefore = Number((await stockOf(t, 0, product.id)).quantity);
      const res = await confirm(t, doc.id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(Number((await stockOf(t, 0, product.id)).quantity)).to.equal(stockBefore + 60);
      const after = await detail(t, order.id);
      expect(after).to.include({ status: 'PARTIALLY_RECEIVED', version: order.version + 1 });
      expect(after.items[0]).to.include({ receivedQuantity: 60, cancelledQuantity: 0, openQuantity: 40 });
      expect((await linesInDb(t, order.id))[0].isOpen).to.equal(true);

      const receipts = await receiptsOf(t, order.id);
      expect(receipts.status).to.equal(200);
      expect(receipts.body).to.deep.include({ purchaseOrderId: order.id, code: order.code, status: 'PARTIALLY_RECEIVED' });
      expect(receipts.body.items).to.deep.equal([
        { purchaseOrderItemId: line, lineNumber: 1, productId: product.hash, ordered: 100, received: 60, cancelled: 0, open: 40 },
      ]);
      expect(receipts.body.data).to.have.length(1);
      expect(receipts.body.data[0]).to.include({
        purchaseOrderItemId: line,
        entryDocumentId: doc.id,
        entryDocumentItemId: doc.items[0].id,
        lineNumber: 1,
        number: doc.number,
        series: '1',
        status: 'CONFIRMED',
        quantity: 60,
        invoiceQuantity: 60,
        invoiceUnit: 'UN',
        conversionFactor: 1,
        unitPrice: 10,
        orderUnitPrice: 10,
        entryDate: '2026-03-03',
        issueDate: '2026-03-02',
        cancelledAt: null,
      });

      const audit = (await auditOf(t, order.id)).pop()!;
      expect(audit.action).to.equal('RECEIVED');
      expect(audit.changes).to.deep.equal({
        'items[1].receivedQuantity': ['0.0000', '60.0000'],
        status: ['APPROVED', 'PARTIALLY_RECEIVED'],
      });
      const event = (await eventsOf(t, order.id)).pop()!;
      expect(event.type).to.equal('purchase-order.received');
      expect(event.data).to.deep.include({
        status: 'PARTIALLY_RECEIVED',
        previousStatus: 'APPROVED',
        complete: false,
        entryDocumentId: doc.id,
        lines: [{ purchaseOrderItemId: line, lineNumber: 1, quantity: 60 }],
      });
      expect(await stockMismatches(t)).to.deep.equal([]);
    });

    it('links the create refuses: another company’s line → 404; another supplier, filial or product, an order not approved → 422; nothing written', async () => {
      const approvedHere = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]));
      const otherSupplier = await approvedOrder(
        t,
        orderBody({ document: randomCnpj() }, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]),
      );
      const otherFilial = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]), 1);
      const draftOrder = await createPurchaseOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]));
      const foreignProduct = await makeProduct(other);
      const foreign = await approvedOrder(other, orderBody(supplier, [{ productId: foreignProduct.hash, quantity: 5, unitPrice: 10 }]));
      const anotherProduct = await makeProduct(t);
      const before = await footprint(t);
      const beforePurchase = await purchaseFootprint(t);

      const attempt = (purchaseOrderItemId: string, productId = product.hash) =>
        api()
          .post(ENTRY)
          .set(t.headers())
          .send(
            draftBody({
              supplier,
              items: [
                item({ productId, quantity: 1, unitPrice: 10 }),
                item({ productId, quantity: 1, unitPrice: 10, purchaseOrderItemId }),
              ],
            }),
          );
      const missing = await attempt(foreign.items[0].purchaseOrderItemId);
      expectProblem(missing, 404, 'PURCHASE_ORDER_ITEM_NOT_FOUND');
      expect(missing.body.errors).to.deep.equal([{ path: 'items[1].purchaseOrderItemId', message: 'purchase-order line not found' }]);
      for (const [order, reason, productId] of [
        [otherSupplier, 'PURCHASE_ORDER_OTHER_SUPPLIER', product.hash],
        [otherFilial, 'PURCHASE_ORDER_OTHER_FILIAL', product.hash],
        [draftOrder, 'PURCHASE_ORDER_NOT_RECEIVABLE', product.hash],
        [approvedHere, 'PURCHASE_ORDER_PRODUCT_MISMATCH', anotherProduct.hash],
      ] as const) {
        const res = await attempt(order.items[0].purchaseOrderItemId, productId);
        expectProblem(res, 422, 'PURCHASE_ORDER_LINE_NOT_LINKABLE');
        expect(res.body.reasons).to.deep.equal([reason]);
        expect(res.body.errors[0].path).to.equal('items[1].purchaseOrderItemId');
      }
      expectProblem(await attempt('not!an!id'), 400, 'INVALID_ID');
      // preview-manual checks the same way.
      const preview = await api()
        .post(`${ENTRY}/preview-manual`)
        .set(t.headers())
        .send(
          draftBody({
            supplier,
            items: [item({ productId: product.hash, purchaseOrderItemId: otherSupplier.items[0].purchaseOrderItemId })],
          }),
        );
      expectProblem(preview, 422, 'PURCHASE_ORDER_LINE_NOT_LINKABLE');
      expect(await footprint(t)).to.deep.equal(before);
      expect(await purchaseFootprint(t)).to.deep.equal(beforePurchase);

      const ok = await api()
        .post(`${ENTRY}/preview-manual`)
        .set(t.headers())
        .send(
          draftBody({
            supplier,
            items: [
              item({ productId: product.hash, quantity: 2, unitPrice: 10, purchaseOrderItemId: approvedHere.items[0].purchaseOrderItemId }),
            ],
          }),
        );
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body.items[0].purchaseOrderItemId).to.equal(approvedHere.items[0].purchaseOrderItemId);
      expect(ok.body.purchaseMatch.lines[0]).to.include({ thisReceipt: 2, openAfter: 3 });
    });

    it('PATCH sets and checks links (audited); a link gone stale after the PATCH is a blocking problem of the review, confirm-preview and confirm', async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]));
      const wrong = await approvedOrder(
        t,
        orderBody({ document: randomCnpj() }, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]),
      );
      const doc = await draftOf([{ productId: product.hash, quantity: 2, unitPrice: 10 }]);
      expect(doc.purchaseMatch).to.equal(null);
      const bad = await api()
        .patch(`${ENTRY}/${doc.id}`)
        .set(t.headers())
        .send({
          version: doc.version,
          items: [item({ productId: product.hash, quantity: 2, unitPrice: 10, purchaseOrderItemId: wrong.items[0].purchaseOrderItemId })],
        });
      expectProblem(bad, 422, 'PURCHASE_ORDER_LINE_NOT_LINKABLE');
      const res = await api()
        .patch(`${ENTRY}/${doc.id}`)
        .set(t.headers())
        .send({
          version: doc.version,
          items: [item({ productId: product.hash, quantity: 2, unitPrice: 10, purchaseOrderItemId: order.items[0].purchaseOrderItemId })],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.items[0].purchaseOrderItemId).to.equal(order.items[0].purchaseOrderItemId);
      const trail = (await api().get(`${ENTRY}/audit-history/${doc.id}`).set(t.headers())).body.data;
      expect(trail.pop().changes['items[1].purchaseOrderItemId']).to.deep.equal([null, order.items[0].purchaseOrderItemId]);

      // The order is cancelled: the draft keeps its link (a PATCH of other fields still works) but cannot be confirmed.
      expect((await api().post(`${PURCHASE}/${order.id}/cancel`).set(t.headers()).send({})).status).to.equal(200);
      const notes = await api().patch(`${ENTRY}/${doc.id}`).set(t.headers()).send({ version: res.body.version, notes: 'conferir' });
      expect(notes.status, JSON.stringify(notes.body)).to.equal(200);
      expect(codes(notes.body.review.blockingProblems)).to.include('PURCHASE_ORDER_NOT_RECEIVABLE');
      expect(notes.body.purchaseMatch.lines[0]).to.include({ receives: false, purchaseOrderStatus: 'CANCELLED' });
      expect(codes((await confirmPreview(t, doc.id)).blockingProblems)).to.include('PURCHASE_ORDER_NOT_RECEIVABLE');
      const refused = await confirm(t, doc.id);
      expectProblem(refused, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(codes(refused.body.problems)).to.include('PURCHASE_ORDER_NOT_RECEIVABLE');
      expect((await dataSource.manager.findOneByOrFail(EntryDocument, { companyId: t.companyId, number: doc.number })).status).to.equal(
        'DRAFT',
      );
    });

    it('over-receipt beyond tolerance blocks confirm (nothing written); in WARN mode it is a warning and the order is RECEIVED', async () => {
      const wt = await nfeTenant();
      const p = await makeProduct(wt);
      const order = await approvedOrder(wt, orderBody(supplier, [{ productId: p.hash, quantity: 10, unitPrice: 10 }]));
      const doc = await createDraft(
        wt,
        draftBody({
          supplier,
          items: [item({ productId: p.hash, quantity: 12, unitPrice: 10, purchaseOrderItemId: order.items[0].purchaseOrderItemId })],
        }),
      );
      const preview = (await api().get(`${ENTRY}/confirm-preview/${doc.id}`).set(wt.headers())).body;
      expect(codes(preview.blockingProblems)).to.deep.equal(['PURCHASE_OVER_RECEIPT']);
      expect(preview.purchaseMatch.lines[0]).to.include({ quantityStatus: 'OVER_TOLERANCE', openAfter: 0 });
      const before = { entry: await footprint(wt), purchase: await purchaseFootprint(wt) };
      const refused = await confirm(wt, doc.id);
      expectProblem(refused, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(refused.body.problems[0]).to.include({ code: 'PURCHASE_OVER_RECEIPT', lineNumber: 1 });
      expect({ entry: await footprint(wt), purchase: await purchaseFootprint(wt) }).to.deep.equal(before);
      expect(await movementsOf(wt, doc.id)).to.deep.equal([]);
      expect((await orderInDb(wt, order.id)).status).to.equal('APPROVED');

      await setTolerances(wt, { mode: 'WARN' });
      const warned = (await api().get(`${ENTRY}/confirm-preview/${doc.id}`).set(wt.headers())).body;
      expect(codes(warned.blockingProblems)).to.deep.equal([]);
      expect(codes(warned.warnings)).to.include('PURCHASE_OVER_RECEIPT');
      const res = await confirm(wt, doc.id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const after = await detail(wt, order.id);
      expect(after.status).to.equal('RECEIVED');
      expect(after.items[0]).to.include({ receivedQuantity: 12, openQuantity: 0 });
      expect((await linesInDb(wt, order.id))[0].isOpen).to.equal(false);
      expect((await eventsOf(wt, order.id)).pop()!.data).to.include({ status: 'RECEIVED', complete: true });
      expect(await payablesOf(wt, doc.id)).to.have.length(1);
    });

    it('close: the rest is cancelled and nothing is open; cancelling the entry document keeps the order CLOSED (taken back → cancelled)', async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 100, unitPrice: 10 }]));
      const doc = await draftOf([
        { productId: product.hash, quantity: 30, unitPrice: 10, purchaseOrderItemId: order.items[0].purchaseOrderItemId },
      ]);
      expect((await confirm(t, doc.id)).status).to.equal(200);
      const closed = await api().post(`${PURCHASE}/${order.id}/close`).set(t.headers()).send({ reason: 'o resto não virá' });
      expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
      expect(closed.body).to.include({ status: 'CLOSED', closeReason: 'o resto não virá' });
      expect(closed.body.items[0]).to.include({ receivedQuantity: 30, cancelledQuantity: 70, openQuantity: 0 });
      expect((await eventsOf(t, order.id)).pop()!.type).to.equal('purchase-order.closed');
      expectProblem(await api().post(`${PURCHASE}/${order.id}/cancel`).set(t.headers()).send({}), 409, 'INVALID_STATUS_TRANSITION');
      // A new link to a closed order is refused.
      const refused = await api()
        .post(ENTRY)
        .set(t.headers())
        .send(draftBody({ supplier, items: [item({ productId: product.hash, purchaseOrderItemId: order.items[0].purchaseOrderItemId })] }));
      expectProblem(refused, 422, 'PURCHASE_ORDER_LINE_NOT_LINKABLE');

      expect((await cancelDocument(t, doc.id, { reason: 'nota devolvida' })).status).to.equal(200);
      const after = await detail(t, order.id);
      expect(after.status).to.equal('CLOSED');
      expect(after.items[0]).to.include({ receivedQuantity: 0, cancelledQuantity: 100, openQuantity: 0 });
      expect((await receiptsInDb(t, order.id)).map((r) => r.status)).to.deep.equal(['CANCELLED']);
      const audit = (await auditOf(t, order.id)).pop()!;
      expect(audit.action).to.equal('RECEIPT_REVERTED');
      expect(audit.changes).to.deep.equal({
        'items[1].receivedQuantity': ['30.0000', '0.0000'],
        'items[1].cancelledQuantity': ['70.0000', '100.0000'],
      });
      expect((await eventsOf(t, order.id)).pop()!.type).to.equal('purchase-order.receipt-reverted');
    });

    it('GET /purchase/:id/receipts: another company → 404, a filial not granted → 403, malformed → 400', async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 1, unitPrice: 1 }]), 1);
      expect((await receiptsOf(t, order.id)).body.data).to.deep.equal([]);
      expectProblem(await receiptsOf(other, order.id), 404, 'PURCHASE_ORDER_NOT_FOUND');
      expectProblem(
        await api()
          .get(`${PURCHASE}/${order.id}/receipts`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
      );
      expectProblem(await api().get(`${PURCHASE}/!!/receipts`).set(t.headers()), 400, 'INVALID_ID');
    });
  });

  describe('NF-e imports', () => {
    it('the full cycle: order 100 → NF-e xPed for 60 → PARTIALLY_RECEIVED → 40 at +8 % blocked (tolerance 5 %) → accepted at 10 % → RECEIVED → cancel → PARTIALLY_RECEIVED', async () => {
      const ct = await nfeTenant();
      const p = await makeProduct(ct, { name: 'Tinta Acrilica 18L', unit: 'LT' });
      await setTolerances(ct, { pricePct: '5' });
      const order = await approvedOrder(ct, orderBody(supplier, [{ productId: p.hash, quantity: 100, unitPrice: 10 }]));
      const line = order.items[0].purchaseOrderItemId;
      const invoiceLine = (quantity: string, unitPrice: string) => ({
        code: 'TNT18',
        description: 'TINTA ACRILICA 18L',
        quantity,
        unitPrice,
        purchaseOrder: `PC-${order.code}`,
        purchaseOrderLine: '1',
      });

      const first = await ct.nfe({ items: [invoiceLine('60', '10.00')] });
      const imported = await importXml(ct, { xml: first.xml, items: [{ lineNumber: 1, productId: p.hash }] });
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      expect(imported.body.items[0]).to.include({ purchaseOrderItemId: line, purchaseOrderLinkSource: 'ORDER_REFERENCE' });
      const firstDoc = imported.body.entryDocument.id;
      expect((await confirm(ct, firstDoc)).status).to.equal(200);
      expect((await detail(ct, order.id)).items[0]).to.include({ receivedQuantity: 60, openQuantity: 40 });
      expect((await orderInDb(ct, order.id)).status).to.equal('PARTIALLY_RECEIVED');

      const second = await ct.nfe({ items: [invoiceLine('40', '10.80')] });
      const preview = await api()
        .post(`${NFE}/preview-import`)
        .set(ct.headers())
        .send({ xml: second.xml, items: [{ lineNumber: 1, productId: p.hash }] });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body.draft.items[0].purchaseOrderItemId).to.equal(line);
      expect(preview.body.purchaseMatch.lines[0]).to.include({
        ordered: 100,
        alreadyReceived: 60,
        thisReceipt: 40,
        openAfter: 0,
        orderUnitPrice: 10,
        invoiceUnitPrice: 10.8,
        priceDifferencePct: 8,
        priceStatus: 'OVER_TOLERANCE',
        quantityStatus: 'OK',
      });
      expect(codes(preview.body.purchaseMatch.blockingProblems)).to.deep.equal(['PURCHASE_PRICE_ABOVE_TOLERANCE']);
      expect(preview.body.openPurchaseOrders.map((o: any) => [o.purchaseOrderId, o.openLines[0].openQuantity])).to.deep.equal([
        [order.id, 40],
      ]);

      const secondImport = await importXml(ct, { xml: second.xml, items: [{ lineNumber: 1, productId: p.hash }] });
      expect(secondImport.status).to.equal(201);
      const secondDoc = secondImport.body.entryDocument.id;
      const draft = await entryDetail(ct, secondDoc);
      expect(codes(draft.review.blockingProblems)).to.deep.equal(['PURCHASE_PRICE_ABOVE_TOLERANCE']);
      expect(draft.purchaseMatch.lines[0].priceStatus).to.equal('OVER_TOLERANCE');
      const blocked = await confirm(ct, secondDoc);
      expectProblem(blocked, 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
      expect(codes(blocked.body.problems)).to.deep.equal(['PURCHASE_PRICE_ABOVE_TOLERANCE']);
      expect((await detail(ct, order.id)).items[0].receivedQuantity).to.equal(60);

      await setTolerances(ct, { pricePct: '10' });
      expect(codes((await confirmPreview(ct, secondDoc)).blockingProblems)).to.deep.equal([]);
      const accepted = await confirm(ct, secondDoc);
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      const received = await detail(ct, order.id);
      expect(received.status).to.equal('RECEIVED');
      expect(received.items[0]).to.include({ receivedQuantity: 100, openQuantity: 0 });

      expect((await cancelDocument(ct, secondDoc, { reason: 'preço errado' })).status).to.equal(200);
      const back = await detail(ct, order.id);
      expect(back.status).to.equal('PARTIALLY_RECEIVED');
      expect(back.items[0]).to.include({ receivedQuantity: 60, openQuantity: 40 });
      const receipts = (await receiptsOf(ct, order.id)).body.data;
      expect(receipts.map((r: any) => [r.entryDocumentId, r.quantity, r.unitPrice, r.status])).to.deep.equal([
        [firstDoc, 60, 10, 'CONFIRMED'],
        [secondDoc, 40, 10.8, 'CANCELLED'],
      ]);
      expect(receipts[0].accessKey).to.equal(first.accessKey);
      // The receipts are a two-phase list: a page of one, then the rest by cursor.
      const page1 = (await api().get(`${PURCHASE}/${order.id}/receipts`).query({ pageSize: 1 }).set(ct.headers())).body;
      expect(page1.data.map((r: any) => r.entryDocumentId)).to.deep.equal([firstDoc]);
      expect(page1.pagination).to.include({ total: 2, hasMore: true });
      expect(page1.items).to.have.length(1);
      const page2 = (
        await api().get(`${PURCHASE}/${order.id}/receipts`).query({ pageSize: 1, cursor: page1.pagination.nextCursor }).set(ct.headers())
      ).body;
      expect(page2.data.map((r: any) => r.entryDocumentId)).to.deep.equal([secondDoc]);
      expectProblem(
        await api().get(`${PURCHASE}/${order.id}/receipts`).query({ pageSize: 1, cursor: 'forged' }).set(ct.headers()),
        400,
        'INVALID_CURSOR',
      );
      expect((await eventsOf(ct, order.id)).map((e) => [e.type, (e.data as any).status])).to.deep.equal([
        ['purchase-order.created', 'DRAFT'],
        ['purchase-order.approved', 'APPROVED'],
        ['purchase-order.received', 'PARTIALLY_RECEIVED'],
        ['purchase-order.received', 'RECEIVED'],
        ['purchase-order.receipt-reverted', 'PARTIALLY_RECEIVED'],
      ]);
      expect(await stockMismatches(ct)).to.deep.equal([]);
    });

    it("without xPed: the supplier's oldest open line of the product, the next order when the oldest is taken; another supplier's order never", async () => {
      const at = await nfeTenant();
      const p = await makeProduct(at);
      const q = await makeProduct(at);
      const foreignSupplierOrder = await approvedOrder(
        at,
        orderBody({ document: randomCnpj() }, [{ productId: p.hash, quantity: 50, unitPrice: 5 }]),
      );
      const oldest = await approvedOrder(
        at,
        orderBody(supplier, [
          { productId: q.hash, quantity: 3, unitPrice: 5 },
          { productId: p.hash, quantity: 5, unitPrice: 5 },
        ]),
      );
      const newer = await approvedOrder(at, orderBody(supplier, [{ productId: p.hash, quantity: 10, unitPrice: 5 }]));
      const built = await at.nfe({
        items: [
          { code: 'X1', description: 'ITEM X', quantity: '5', unitPrice: '5' },
          {
            code: 'X2',
            description: 'ITEM X CAIXA',
            quantity: '4',
            unitPrice: '5',
            purchaseOrder: String(foreignSupplierOrder.code),
            purchaseOrderLine: '1',
          },
          { code: 'Y1', description: 'SEM PEDIDO', quantity: '1', unitPrice: '5' },
        ],
      });
      const body = {
        xml: built.xml,
        items: [
          { lineNumber: 1, productId: p.hash },
          { lineNumber: 2, productId: p.hash },
        ],
      };
      const preview = await api().post(`${NFE}/preview-import`).set(at.headers()).send(body);
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body.items.map((i: any) => [i.purchaseOrderItemId, i.purchaseOrderLinkSource])).to.deep.equal([
        [oldest.items[1].purchaseOrderItemId, 'OPEN_LINE'],
        [newer.items[0].purchaseOrderItemId, 'OPEN_LINE'],
        [null, null],
      ]);
      expect(preview.body.openPurchaseOrders.map((o: any) => [o.purchaseOrderId, o.openLines.map((l: any) => l.lineNumber)])).to.deep.equal(
        [
          [oldest.id, [2]],
          [newer.id, [1]],
        ],
      );
      expect(preview.body.purchaseMatch.lines.map((l: any) => [l.purchaseOrderCode, l.thisReceipt, l.openAfter])).to.deep.equal([
        [oldest.code, 5, 0],
        [newer.code, 4, 6],
      ]);
      const imported = await importXml(at, body);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      const draft = await entryDetail(at, imported.body.entryDocument.id);
      expect(draft.items.map((i: any) => i.purchaseOrderItemId)).to.deep.equal([
        oldest.items[1].purchaseOrderItemId,
        newer.items[0].purchaseOrderItemId,
        null,
      ]);
      // The user changes the link on the draft: PATCH with the items as they are, line 2 unlinked.
      const items = draft.items.map((i: any) => ({
        productId: i.productId,
        description: i.description,
        unit: i.unit,
        quantity: i.quantity,
        unitPrice: i.unitPrice,
        conversionFactor: i.conversionFactor,
        purchaseOrderItemId: i.purchaseOrderItemId,
      }));
      items[1].purchaseOrderItemId = null;
      const patched = await api().patch(`${ENTRY}/${draft.id}`).set(at.headers()).send({ version: draft.version, items });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.purchaseMatch.lines.map((l: any) => l.lineNumber)).to.deep.equal([1]);
    });
  });

  describe('line review: PATCH /entry-document/lines/:id sets the purchase-order line', () => {
    const review = (tenant: NfeTenant, id: string, body: Record<string, unknown>) =>
      api().patch(`${ENTRY}/lines/${id}`).set(tenant.headers()).send(body);
    const rowOf = async (id: string) =>
      (await dataSource.manager.findOneByOrFail(EntryDocument, { companyId: t.companyId, id: decodeId('entry-document', id) })).version;
    const linkOf = async (itemId: string) =>
      (await dataSource.manager.findOneByOrFail(EntryDocumentItem, { companyId: t.companyId, id: decodeId('entry-document-item', itemId) }))
        .purchaseOrderItemId;

    it('links, unlinks and links again (audited, evented, the match follows); confirm receives on the reviewed link', async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 8, unitPrice: 10 }]));
      const target = order.items[0].purchaseOrderItemId;
      const doc = await draftOf([
        { productId: product.hash, quantity: 3, unitPrice: 10 },
        { productId: product.hash, quantity: 1, unitPrice: 10 },
      ]);
      const line = doc.items[0].id;

      const linked = await review(t, doc.id, { version: 1, lines: [{ id: line, purchaseOrderItemId: target }] });
      expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
      expect(linked.body.version).to.equal(2);
      expect(linked.body.items.map((i: any) => i.purchaseOrderItemId)).to.deep.equal([target, null]);
      expect(
        linked.body.purchaseMatch.lines.map((l: any) => [l.lineNumber, l.purchaseOrderItemId, l.thisReceipt, l.openAfter, l.receives]),
      ).to.deep.equal([[1, target, 3, 5, true]]);
      expect(await linkOf(line)).to.equal(decodeId('purchase-order-item', target));
      const trail = async () => (await api().get(`${ENTRY}/audit-history/${doc.id}`).set(t.headers())).body.data;
      expect((await trail()).pop().changes).to.deep.include({ 'items[1].purchaseOrderItemId': [null, target] });

      const unlinked = await review(t, doc.id, { version: 2, lines: [{ id: line, purchaseOrderItemId: null }] });
      expect(unlinked.status, JSON.stringify(unlinked.body)).to.equal(200);
      expect(unlinked.body.items[0].purchaseOrderItemId).to.equal(null);
      expect(unlinked.body.purchaseMatch).to.equal(null);
      expect(await linkOf(line)).to.equal(null);
      expect((await trail()).pop().changes).to.deep.include({ 'items[1].purchaseOrderItemId': [target, null] });
      const events = await dataSource.manager.find(OutboxEvent, {
        where: { companyId: t.companyId, aggregateType: 'entry-document', aggregateId: decodeId('entry-document', doc.id) },
        order: { id: 'ASC' },
      });
      expect(events.map((e) => e.type)).to.deep.equal(['entry-document.created', 'entry-document.updated', 'entry-document.updated']);

      expect((await review(t, doc.id, { version: 3, lines: [{ id: line, purchaseOrderItemId: target }] })).status).to.equal(200);
      expect((await confirm(t, doc.id)).status).to.equal(200);
      expect((await detail(t, order.id)).items[0]).to.include({ receivedQuantity: 3, openQuantity: 5 });
    });

    it("another tenant's order line → 404; another supplier or product, or a product changed under the link → 422 naming lines[j]; nothing written", async () => {
      const order = await approvedOrder(t, orderBody(supplier, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]));
      const otherSupplier = await approvedOrder(
        t,
        orderBody({ document: randomCnpj() }, [{ productId: product.hash, quantity: 5, unitPrice: 10 }]),
      );
      const anotherProduct = await makeProduct(t);
      const otherProductOrder = await approvedOrder(
        t,
        orderBody(supplier, [{ productId: anotherProduct.hash, quantity: 5, unitPrice: 10 }]),
      );
      const foreignProduct = await makeProduct(other);
      const foreign = await approvedOrder(other, orderBody(supplier, [{ productId: foreignProduct.hash, quantity: 5, unitPrice: 10 }]));
      const doc = await draftOf([
        { productId: product.hash, quantity: 2, unitPrice: 10 },
        { productId: product.hash, quantity: 2, unitPrice: 10, purchaseOrderItemId: order.items[0].purchaseOrderItemId },
      ]);
      const [first, second] = doc.items.map((i: any) => i.id);
      const before = { entry: await footprint(t), purchase: await purchaseFootprint(t) };

      const missing = await review(t, doc.id, {
        version: 1,
        lines: [
          { id: second, conversionFactor: 1 },
          { id: first, purchaseOrderItemId: foreign.items[0].purchaseOrderItemId },
        ],
      });
      expectProblem(missing, 404, 'PURCHASE_ORDER_ITEM_NOT_FOUND');
      expect(missing.body.errors).to.deep.equal([{ path: 'lines[1].purchaseOrderItemId', message: 'purchase-order line not found' }]);
      for (const [edit, reason] of [
        [{ id: first, purchaseOrderItemId: otherSupplier.items[0].purchaseOrderItemId }, 'PURCHASE_ORDER_OTHER_SUPPLIER'],
        [{ id: first, purchaseOrderItemId: otherProductOrder.items[0].purchaseOrderItemId }, 'PURCHASE_ORDER_PRODUCT_MISMATCH'],
        [{ id: second, productId: anotherProduct.hash }, 'PURCHASE_ORDER_PRODUCT_MISMATCH'],
      ] as const) {
        const res = await review(t, doc.id, { version: 1, lines: [edit] });
        expectProblem(res, 422, 'PURCHASE_ORDER_LINE_NOT_LINKABLE');
        expect(res.body.reasons).to.deep.equal([reason]);
        expect(res.body.errors.map((e: any) => e.path)).to.deep.equal(['lines[0].purchaseOrderItemId']);
      }
      expectProblem(await review(t, doc.id, { version: 1, lines: [{ id: first, purchaseOrderItemId: 'not!an!id' }] }), 400, 'INVALID_ID');
      expectProblem(await review(t, doc.id, { version: 1, lines: [{ id: first, purchaseOrderItemId: 5 }] }), 400);
      expect({ entry: await footprint(t), purchase: await purchaseFootprint(t) }).to.deep.equal(before);
      expect(await rowOf(doc.id)).to.equal(1);
      // Another product with its own order line linked in the same edit is fine.
      const both = await review(t, doc.id, {
        version: 1,
        lines: [{ id: second, productId: anotherProduct.hash, purchaseOrderItemId: otherProductOrder.items[0].purchaseOrderItemId }],
      });
      expect(both.status, JSON.stringify(both.body)).to.equal(200);
      expect(both.body.items[1]).to.include({
        productId: anotherProduct.hash,
        purchaseOrderItemId: otherProductOrder.items[0].purchaseOrderItemId,
      });
    });
  });

  describe('operation classes: only goods entering own stock as bought are receipts', () => {
    it('a linked bonificação line posts own stock but receives nothing (warning); the bought line beside it receives', async () => {
      const ct = await nfeTenant();
      const p = await makeProduct(ct);
      const order = await approvedOrder(ct, orderBody(supplier, [{ productId: p.hash, quantity: 10, unitPrice: 10 }]));
      const line = order.items[0].purchaseOrderItemId;
      const doc = await createDraft(
        ct,
        draftBody({
          supplier,
          items: [
            item({ productId: p.hash, quantity: 10, unitPrice: 10, purchaseOrderItemId: line }),
            item({ productId: p.hash, quantity: 2, unitPrice: 10, cfop: '5910', purchaseOrderItemId: line }),
          ],
        }),
      );
      expect(doc.items.map((i: any) => i.operationClass)).to.deep.equal(['PURCHASE_RESALE', 'BONUS']);
      expect(
        doc.purchaseMatch.lines.map((l: any) => [l.lineNumber, l.receives, l.thisReceipt, l.openAfter, l.quantityStatus]),
      ).to.deep.equal([
        [1, true, 10, 0, 'OK'],
        [2, false, 2, 0, null],
      ]);
      const warning = doc.review.warnings.find((w: any) => w.code === 'PURCHASE_ORDER_LINK_NOT_RECEIVED');
      expect(warning).to.include({ lineNumber: 2 });
      expect(warning.message).to.contain('bonificação');
      expect(doc.review.blockingProblems).to.deep.equal([]);

      const res = await confirm(ct, doc.id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // Both lines entered own stock; only the bought 10 were received (no over-receipt at 0 % tolerance).
      expect((await stockOf(ct, 0, p.id)).quantity).to.equal('12.0000');
      const after = await detail(ct, order.id);
      expect(after.status).to.equal('RECEIVED');
      expect(after.items[0]).to.include({ receivedQuantity: 10, openQuantity: 0 });
      expect((await receiptsInDb(ct, order.id)).map((r) => [r.lineNumber, r.quantity.toFixed(4)])).to.deep.equal([[1, '10.0000']]);
      // Only the bought line is owed.
      expect((await payablesOf(ct, doc.id)).map((x) => x.amount.toFixed(2))).to.deep.equal(['100.00']);
    });

    it('NF-e import links neither a remessa (third-party goods) nor a bonificação line, even with xPed; the bought line is linked', async () => {
      const ct = await nfeTenant();
      const p = await makeProduct(ct);
      const order = await approvedOrder(ct, orderBody(supplier, [{ productId: p.hash, quantity: 20, unitPrice: 5 }]));
      const ref = { purchaseOrder: String(order.code), purchaseOrderLine: '1' };
      const built = await ct.nfe({
        items: [
          { code: 'R1', description: 'REMESSA PARA CONSERTO', cfop: '5915', quantity: '3', unitPrice: '5', ...ref },
          { code: 'B1', description: 'BONIFICACAO', cfop: '5910', quantity: '2', unitPrice: '5', ...ref },
          { code: 'C1', description: 'COMPRA', cfop: '5102', quantity: '5', unitPrice: '5', ...ref },
        ],
      });
      const body = { xml: built.xml, items: [1, 2, 3].map((lineNumber) => ({ lineNumber, productId: p.hash })) };
      const preview = await api().post(`${NFE}/preview-import`).set(ct.headers()).send(body);
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect(preview.body.draft.items.map((i: any) => i.operationClass)).to.deep.equal(['THIRD_PARTY_INBOUND', 'BONUS', 'PURCHASE_RESALE']);
      expect(preview.body.items.map((i: any) => [i.purchaseOrderItemId, i.purchaseOrderLinkSource])).to.deep.equal([
        [null, null],
        [null, null],
        [order.items[0].purchaseOrderItemId, 'ORDER_REFERENCE'],
      ]);
      expect(preview.body.purchaseMatch.lines.map((l: any) => [l.lineNumber, l.thisReceipt, l.openAfter])).to.deep.equal([[3, 5, 15]]);

      const imported = await importXml(ct, body);
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      const id = imported.body.entryDocument.id;
      expect((await entryDetail(ct, id)).items.map((i: any) => i.purchaseOrderItemId)).to.deep.equal([
        null,
        null,
        order.items[0].purchaseOrderItemId,
      ]);
      expect((await confirm(ct, id)).status).to.equal(200);
      expect((await detail(ct, order.id)).items[0]).to.include({ receivedQuantity: 5, openQuantity: 15 });
    });
  });

  describe('concurrency', () => {
    it('20 confirms of different documents against the last 10 open units (tolerance 5 %): exactly 15 win, the rest 422, never over-received', async function () {
      this.timeout(120_000);
      const ct = await nfeTenant();
      const p = await makeProduct(ct);
      await setTolerances(ct, { quantityPct: '5' });
      const order = await approvedOrder(ct, orderBody(supplier, [{ productId: p.hash, quantity: 100, unitPrice: 10 }]));
      const line = order.items[0].purchaseOrderItemId;
      const make = (quantity: number) =>
        createDraft(ct, draftBody({ supplier, items: [item({ productId: p.hash, quantity, unitPrice: 10, purchaseOrderItemId: line })] }));
      expect((await confirm(ct, (await make(90)).id)).status).to.equal(200);
      const drafts = [];
      for (let i = 0; i < 20; i++) drafts.push(await make(1));
      const results = await Promise.all(drafts.map((d) => confirm(ct, d.id)));
      const statuses = results.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 422).map((r) => r.body)),
      ).to.have.length(15);
      expect(statuses.filter((s) => s === 422)).to.have.length(5);
      for (const r of results.filter((x) => x.status === 422)) expect(codes(r.body.problems)).to.deep.equal(['PURCHASE_OVER_RECEIPT']);
      const after = await detail(ct, order.id);
      expect(after.items[0]).to.include({ receivedQuantity: 105, openQuantity: 0 });
      expect(after.status).to.equal('RECEIVED');
      expect(await dataSource.manager.countBy(PurchaseOrderReceipt, { companyId: ct.companyId, status: 'CONFIRMED' })).to.equal(16);
      expect(await dataSource.manager.countBy(EntryDocument, { companyId: ct.companyId, status: 'CONFIRMED' })).to.equal(16);
      expect((await stockOf(ct, 0, p.id)).quantity).to.equal('105.0000');
      expect(await stockMismatches(ct)).to.deep.equal([]);
    });
  });
});
