import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Supplier } from '../../src/modules/catalog/entities/supplier.entity';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { EntryDocumentInstallment } from '../../src/modules/entry-document/entities/entry-document-installment.entity';
import { api } from '../support/api';
import { makeProduct, makeSupplier } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { auditOf, createDraft, docId, draftBody, eventsOf, footprint, item } from './support';

describe('POST /entry-document and POST /entry-document/preview-manual', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  describe('POST /entry-document', () => {
    it('creates a DRAFT: supplier created from its CNPJ, every value computed, audit and event written', async () => {
      const p = await makeProduct(t);
      const cnpj = randomCnpj();
      const body = draftBody({
        number: '000123',
        series: '002',
        operationNature: 'Compra para comercialização',
        notes: 'Entrega parcial',
        supplier: { document: cnpj, name: 'Atacado Boa Compra', stateRegistration: '123456789', uf: 'mg' },
        items: [
          item({
            productId: p.hash,
            supplierProductCode: 'ABC-1',
            description: 'Caixa parafuso',
            ncm: '73181500',
            cfop: '1102',
            unit: 'cx',
            quantity: '3',
            unitPrice: '20.1',
            discount: 1,
            freight: '2.5',
            taxes: { ipi: { cst: '50', base: 60.3, rate: 5, value: 3.02 }, icms: { cst: '00', base: 60.3, rate: 18, value: 10.85 } },
          }),
          item({ productId: null, supplierProductCode: 'XYZ', description: 'Sem cadastro', quantity: 1, unitPrice: 9.99 }),
        ],
      });
      const res = await api().post('/api/entry-document').set(t.headers()).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const d = res.body;
      expect(d).to.include({
        status: 'DRAFT',
        origin: 'MANUAL',
        model: '55',
        series: '2',
        number: '123',
        accessKey: null,
        issueDate: '2026-03-02',
        entryDate: '2026-03-03',
        version: 1,
        itemCount: 2,
        pendingItemCount: 1,
      });
      expect(d.filialId).to.equal(t.filialHashes[0]);
      expect(d.supplier).to.deep.include({ document: cnpj, name: 'Atacado Boa Compra', stateRegistration: '123456789', uf: 'MG' });
      // 3 × 20.10 = 60.30; − 1.00 + 2.50 + IPI 3.02 = 64.82 → 64.82 / 3 = 21.6066666667
      expect(d.totals).to.deep.equal({
        products: 70.29,
        freight: 2.5,
        insurance: 0,
        discount: 1,
        otherExpenses: 0,
        ipi: 3.02,
        icmsSt: 0,
        total: 74.81,
      });
      expect(d.items[0]).to.deep.include({
        lineNumber: 1,
        productId: p.hash,
        reviewStatus: 'MATCHED',
        total: 60.3,
        landedTotal: 64.82,
        stockQuantity: 3,
        unitCost: 21.6066666667,
        unit: 'CX',
      });
      expect(d.items[0].taxes.ipi).to.deep.equal({ cst: '50', base: 60.3, rate: 5, value: 3.02 });
      expect(d.items[0].taxes.icms).to.deep.equal({ cst: '00', base: 60.3, rate: 18, value: 10.85 });
      expect(d.items[0].declared).to.deep.equal({
        code: 'ABC-1',
        description: 'Caixa parafuso',
        unit: 'CX',
        quantity: 3,
        unitPrice: 20.1,
        ncm: '73181500',
        cfop: '1102',
      });
      expect(d.items[0].product).to.deep.include({ code: p.code, name: p.name });
      expect(d.items[1]).to.deep.include({ productId: null, reviewStatus: 'PENDING', unitCost: 9.99 });
      expect(d.review.blockingProblems.map((c: { code: string }) => c.code)).to.deep.equal(['ITEM_WITHOUT_PRODUCT']);
      expect(d.installments).to.deep.equal([]);
      expect(d.payables).to.deep.equal([]);

      const stored = await dataSource.manager.findOneByOrFail(EntryDocument, { id: docId(d.id) });
      expect(stored.companyId).to.equal(t.companyId);
      expect(stored.total.toFixed(2)).to.equal('74.81');
      expect(stored.supplierDocument).to.equal(cnpj);
      const items = await dataSource.manager.find(EntryDocumentItem, {
        where: { entryDocumentId: stored.id },
        order: { lineNumber: 'ASC' },
      });
      expect(items.map((i) => [i.lineNumber, i.unitCost.toFixed(10), i.stockQuantity.toFixed(4)])).to.deep.equal([
        [1, '21.6066666667', '3.0000'],
        [2, '9.9900000000', '1.0000'],
      ]);
      const supplier = await dataSource.manager.findOneByOrFail(Supplier, { companyId: t.companyId, document: cnpj });
      expect(supplier.id).to.equal(stored.supplierId);
      expect(supplier.name).to.equal('Atacado Boa Compra');
      expect((await auditOf(t, d.id)).map((a) => [a.action, a.actor])).to.deep.equal([['CREATED', 'test-user']]);
      const events = await eventsOf(t, d.id);
      expect(events.map((e) => e.type)).to.deep.equal(['entry-document.created']);
      expect(events[0].data).to.include({ entryDocumentId: d.id, status: 'DRAFT', total: 74.81 });
    });

    it('an existing supplier is found by document; supplierId works too', async () => {
      const s = await makeSupplier(t, { name: 'Fornecedor Cadastrado' });
      const before = await dataSource.manager.countBy(Supplier, { companyId: t.companyId });
      const byDoc = await createDraft(t, draftBody({ supplier: { document: s.document, name: 'Nome na nota' } }));
      expect(byDoc.supplier).to.deep.include({ id: s.hash, name: 'Nome na nota' });
      const byId = await createDraft(t, draftBody({ supplier: undefined, supplierId: s.hash }));
      expect(byId.supplier).to.deep.include({ id: s.hash, document: s.document, name: 'Fornecedor Cadastrado' });
      expect(await dataSource.manager.countBy(Supplier, { companyId: t.companyId })).to.equal(before);
    });

    it('header charges are allocated by item value with the residue on the last item', async () => {
      const body = draftBody({
        charges: { freight: '10.00', discount: '1.00', insurance: 0.01 },
        items: [item({ quantity: 1, unitPrice: 1 }), item({ quantity: 1, unitPrice: 1 }), item({ quantity: 1, unitPrice: 1 })],
      });
      const d = await createDraft(t, body);
      expect(d.items.map((i: { freight: number }) => i.freight)).to.deep.equal([3.33, 3.33, 3.34]);
      expect(d.items.map((i: { discount: number }) => i.discount)).to.deep.equal([0.33, 0.33, 0.34]);
      expect(d.items.map((i: { insurance: number }) => i.insurance)).to.deep.equal([0, 0, 0.01]);
      expect(d.totals).to.deep.include({ products: 3, freight: 10, discount: 1, insurance: 0.01, total: 12.01 });
    });

    it('a charge given both in the header and on an item → 400 naming the charge, nothing written', async () => {
      const before = await footprint(t);
      const res = await api()
        .post('/api/entry-document')
        .set(t.headers())
        .send(draftBody({ charges: { freight: 5 }, items: [item({ freight: 1 })] }));
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['charges.freight']);
      expect(await footprint(t)).to.deep.equal(before);
    });

    it('bad input → 400 with every field path, nothing written (and no supplier created)', async () => {
      const before = await footprint(t);
      const suppliers = await dataSource.manager.countBy(Supplier, { companyId: t.companyId });
      const res = await api()
        .post('/api/entry-document')
        .set(t.headers())
        .send({
          number: 'abc',
          issueDate: '2026-02-30',
          supplier: { document: '11.111.111/1111-11', name: 'X' },
          items: [{ description: '', unit: 'UN', quantity: -1, unitPrice: '1.123456789012', conversionFactor: 0 }],
          installments: [{ dueDate: '2026-01-01', amount: 0 }],
        });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths).to.include.members([
        'number',
        'issueDate',
        'supplier.document',
        'items[0].description',
        'items[0].quantity',
        'items[0].unitPrice',
        'items[0].conversionFactor',
        'installments[0].amount',
      ]);
      expect(await footprint(t)).to.deep.equal(before);
      expect(await dataSource.manager.countBy(Supplier, { companyId: t.companyId })).to.equal(suppliers);
    });

    it('supplier and supplierId together, or neither → 400', async () => {
      const s = await makeSupplier(t);
      expectProblem(
        await api()
          .post('/api/entry-document')
          .set(t.headers())
          .send(draftBody({ supplierId: s.hash })),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(
        await api()
          .post('/api/entry-document')
          .set(t.headers())
          .send(draftBody({ supplier: undefined })),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('repeated installment numbers → 400', async () => {
      const res = await api()
        .post('/api/entry-document')
        .set(t.headers())
        .send(
          draftBody({
            installments: [
              { number: 1, dueDate: '2026-04-01', amount: 5 },
              { number: 1, dueDate: '2026-05-01', amount: 5 },
            ],
          }),
        );
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors[0].path).to.equal('installments[1].number');
    });

    it("another tenant's product or supplier → 404, nothing written", async () => {
      const foreignProduct = await makeProduct(other);
      const foreignSupplier = await makeSupplier(other);
      const before = await footprint(t);
      const res = await api()
        .post('/api/entry-document')
        .set(t.headers())
        .send(draftBody({ items: [item(), item({ productId: foreignProduct.hash })] }));
      expectProblem(res, 404, 'PRODUCT_NOT_FOUND');
      expect(res.body.errors).to.deep.equal([{ path: 'items[1].productId', message: 'product not found' }]);
      expectProblem(
        await api()
          .post('/api/entry-document')
          .set(t.headers())
          .send(draftBody({ supplier: undefined, supplierId: foreignSupplier.hash })),
        404,
        'SUPPLIER_NOT_FOUND',
      );
      expect(await footprint(t)).to.deep.equal(before);
    });

    it('x-filial-id not granted → 403; a read-only token → 403; nothing written', async () => {
      const before = await footprint(t);
      expectProblem(
        await api()
          .post('/api/entry-document')
          .set(t.headersWith({ filiais: [t.filialHashes[0]] }, 1))
          .send(draftBody()),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .post('/api/entry-document')
          .set(t.headersWith({ scope: 'entry-document:read' }))
          .send(draftBody()),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expect(await footprint(t)).to.deep.equal(before);
    });

    it('without x-filial-id → 400 (the governing filial is required)', async () => {
      const { 'x-filial-id': _omit, ...headers } = t.headers();
      expectProblem(await api().post('/api/entry-document').set(headers).send(draftBody()), 400, 'MISSING_TENANT_HEADER');
    });

    it('the filial of x-filial-id governs: a document created with filial 2', async () => {
      const d = await createDraft(t, draftBody(), 1);
      expect(d.filialId).to.equal(t.filialHashes[1]);
    });

    it('an Idempotency-Key retry returns the first response and creates one document', async () => {
      const body = draftBody();
      const key = `create-${Date.now()}`;
      const first = await api().post('/api/entry-document').set(t.headers()).set('Idempotency-Key', key).send(body);
      const second = await api().post('/api/entry-document').set(t.headers()).set('Idempotency-Key', key).send(body);
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      expect(second.body.id).to.equal(first.body.id);
      expect(await dataSource.manager.countBy(EntryDocument, { companyId: t.companyId, number: String(body.number) })).to.equal(1);
    });

    it('stores the installments as given', async () => {
      const d = await createDraft(
        t,
        draftBody({
          items: [item({ quantity: 2, unitPrice: 50 })],
          installments: [
            { dueDate: '2026-04-01', amount: 60 },
            { dueDate: '2026-05-01', amount: '40.00' },
          ],
        }),
      );
      expect(d.installments).to.deep.equal([
        { number: 1, dueDate: '2026-04-01', amount: 60 },
        { number: 2, dueDate: '2026-05-01', amount: 40 },
      ]);
      const rows = await dataSource.manager.find(EntryDocumentInstallment, {
        where: { entryDocumentId: docId(d.id) },
        order: { number: 'ASC' },
      });
      expect(rows.map((r) => [r.number, r.dueDate, r.amount.toFixed(2)])).to.deep.equal([
        [1, '2026-04-01', '60.00'],
        [2, '2026-05-01', '40.00'],
      ]);
    });
  });

  describe('POST /entry-document/preview-manual', () => {
    it('answers the computed document — totals, conversions, costs, installment check, warnings — and writes nothing', async () => {
      const p = await makeProduct(t, { stockControlled: false });
      const before = await footprint(t);
      const suppliers = await dataSource.manager.countBy(Supplier, { companyId: t.companyId });
      const res = await api()
        .post('/api/entry-document/preview-manual')
        .set(t.headers())
        .send(
          draftBody({
            issueDate: '2026-03-10',
            entryDate: '2026-03-09',
            charges: { otherExpenses: 4 },
            items: [item({ productId: p.hash, quantity: 2, unitPrice: 30, conversionFactor: 6 }), item({ quantity: 1, unitPrice: 40 })],
            installments: [{ dueDate: '2026-04-01', amount: 50 }],
          }),
        );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.id).to.equal(null);
      expect(res.body.supplier.id).to.equal(null);
      expect(res.body.totals).to.deep.include({ products: 100, otherExpenses: 4, total: 104 });
      // 60 + 2.40 (other expenses by value) over 12 units
      expect(res.body.items[0]).to.deep.include({ stockQuantity: 12, otherExpenses: 2.4, landedTotal: 62.4, unitCost: 5.2 });
      expect(res.body.items[1]).to.deep.include({ otherExpenses: 1.6, unitCost: 41.6 });
      expect(res.body.installmentCheck).to.deep.equal({
        installmentsTotal: 50,
        documentTotal: 104,
        payableTotal: 104,
        difference: 54,
        matches: false,
      });
      expect(res.body.payables).to.deep.equal([{ number: 1, dueDate: '2026-04-01', amount: 50 }]);
      const codes = res.body.warnings.map((w: { code: string; blocksConfirmation: boolean }) => [w.code, w.blocksConfirmation]);
      expect(codes).to.deep.include.members([
        ['ITEM_WITHOUT_PRODUCT', true],
        ['INSTALLMENTS_TOTAL_MISMATCH', true],
        ['ENTRY_BEFORE_ISSUE', false],
        ['PRODUCT_NOT_STOCK_CONTROLLED', false],
      ]);
      expect(await footprint(t)).to.deep.equal(before);
      expect(await dataSource.manager.countBy(Supplier, { companyId: t.companyId })).to.equal(suppliers);
    });

    it('without installments, the planned payable is the total at the entry date', async () => {
      const res = await api()
        .post('/api/entry-document/preview-manual')
        .set(t.headers())
        .send(draftBody({ items: [item({ quantity: 3, unitPrice: '3.33' })] }));
      expect(res.status).to.equal(200);
      expect(res.body.payables).to.deep.equal([{ number: 1, dueDate: '2026-03-03', amount: 9.99 }]);
      expect(res.body.installmentCheck).to.equal(null);
    });

    it("bad input → 400; another tenant's product → 404; filial not granted → 403", async () => {
      expectProblem(
        await api()
          .post('/api/entry-document/preview-manual')
          .set(t.headers())
          .send(draftBody({ items: [] })),
        400,
        'VALIDATION_ERROR',
      );
      const foreign = await makeProduct(other);
      expectProblem(
        await api()
          .post('/api/entry-document/preview-manual')
          .set(t.headers())
          .send(draftBody({ items: [item({ productId: foreign.hash })] })),
        404,
        'PRODUCT_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post('/api/entry-document/preview-manual')
          .set(t.headersWith({ filiais: [t.filialHashes[0]] }, 1))
          .send(draftBody()),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });
  });
});
