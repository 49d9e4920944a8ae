import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { AppError } from '../../src/core/errors';
import { encodeId } from '../../src/core/hashids';
import { Supplier } from '../../src/modules/catalog/entities/supplier.entity';
import { createEntryDocumentDraft, DraftInput } from '../../src/modules/entry-document/create-draft';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { assignItemProducts } from '../../src/modules/entry-document/update-draft';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { auditOf, confirm, createDraft, draftBody, item } from './support';

const randomKey = () => Array.from({ length: 44 }, () => Math.floor(Math.random() * 10)).join('');

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

describe('createEntryDocumentDraft and assignItemProducts (the contract the NF-e import uses)', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant();
  });

  const nfeInput = (over: Partial<DraftInput> = {}): DraftInput => ({
    filialId: t.filialIds[0],
    origin: 'NFE_XML',
    model: '55',
    series: '001',
    number: '000045678',
    accessKey: randomKey(),
    issueDate: '2026-03-01',
    entryDate: '2026-03-02',
    operationNature: 'VENDA DE MERCADORIA',
    supplier: { document: randomCnpj(), name: 'Indústria XML Ltda', stateRegistration: '110042490114', uf: 'SP' },
    items: [
      {
        supplierProductCode: 'SKU-1',
        description: 'REFRIGERANTE 2L CX C/6',
        ncm: '22021000',
        cfop: '5102',
        unit: 'CX',
        quantity: new Dec(10),
        unitPrice: new Dec('30.00'),
        freight: new Dec('5.00'),
        taxes: {
          icms: { cst: '00', base: new Dec(300), rate: new Dec(18), value: new Dec(54) },
          ipi: { cst: '50', value: new Dec('15.00') },
          icmsSt: { value: new Dec('7.50') },
        },
        declared: {
          description: 'REFRIGERANTE 2L CX C/6',
          unit: 'CX',
          quantity: new Dec(10),
          unitPrice: new Dec('30.00'),
          ncm: '22021000',
          cfop: '5102',
        },
      },
    ],
    installments: [{ number: 1, dueDate: '2026-04-01', amount: new Dec('327.50') }],
    expectedTotals: { products: new Dec(300), freight: new Dec(5), ipi: new Dec(15), icmsSt: new Dec('7.5'), total: new Dec('327.50') },
    ...over,
  });

  it("creates a draft inside the caller's transaction, keeping the declared values and the XML totals", async () => {
    const input = nfeInput();
    const doc = await inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, input));
    expect(doc).to.include({
      status: 'DRAFT',
      origin: 'NFE_XML',
      series: '1',
      number: '45678',
      accessKey: input.accessKey,
      pendingItemCount: 1,
    });
    expect(doc.total.toFixed(2)).to.equal('327.50');
    expect(doc.expectedTotals).to.deep.equal({ products: '300.00', freight: '5.00', ipi: '15.00', icmsSt: '7.50', total: '327.50' });
    const [line] = await dataSource.manager.findBy(EntryDocumentItem, { entryDocumentId: doc.id });
    expect(line).to.include({
      supplierProductCode: 'SKU-1',
      declaredDescription: 'REFRIGERANTE 2L CX C/6',
      declaredUnit: 'CX',
      declaredNcm: '22021000',
      declaredCfop: '5102',
      reviewStatus: 'PENDING',
    });
    expect(line.taxes.icms).to.deep.equal({ cst: '00', base: '300.00', rate: '18.0000', value: '54.00' });
    expect(line.ipi.toFixed(2)).to.equal('15.00');
    expect(await dataSource.manager.countBy(Supplier, { companyId: t.companyId, document: input.supplier!.document })).to.equal(1);

    // A rolled-back caller leaves nothing behind.
    const again = nfeInput();
    await rejection(
      inTransaction(NO_UNIT, async (em) => {
        await createEntryDocumentDraft(em, t.ctx, again);
        throw new Error('caller failed');
      }),
    );
    expect(await dataSource.manager.countBy(EntryDocument, { companyId: t.companyId, accessKey: again.accessKey! })).to.equal(0);
  });

  it('a second import of one access key → 409 NFE_ALREADY_IMPORTED naming the existing document', async () => {
    const input = nfeInput();
    const first = await inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, input));
    const err = await rejection(inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, { ...input, number: '1' })));
    expect(err.code).to.equal('NFE_ALREADY_IMPORTED');
    expect(err.kind).to.equal('conflict');
    expect(err.extensions.entryDocumentId).to.equal(encodeId('entry-document', first.id));
  });

  it('two concurrent imports of one key: one document, the other gets NFE_ALREADY_IMPORTED', async () => {
    const input = nfeInput();
    const results = await Promise.allSettled([0, 1].map(() => inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, input))));
    const ok = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<EntryDocument>[];
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).to.have.length(1);
    expect(failed.map((f) => (f.reason as AppError).code)).to.deep.equal(['NFE_ALREADY_IMPORTED']);
    expect((failed[0].reason as AppError).extensions.entryDocumentId).to.equal(encodeId('entry-document', ok[0].value.id));
    expect(await dataSource.manager.countBy(EntryDocument, { companyId: t.companyId, accessKey: input.accessKey! })).to.equal(1);
  });

  it("totals differing from the XML: in the draft's review, blocking at confirm-preview and confirm", async () => {
    const p = await makeProduct(t);
    const doc = await inTransaction(NO_UNIT, (em) =>
      createEntryDocumentDraft(
        em,
        t.ctx,
        nfeInput({
          expectedTotals: { products: new Dec(300), total: new Dec('330.00') },
          items: nfeInput().items.map((i) => ({ ...i, productId: p.id })),
        }),
      ),
    );
    const id = encodeId('entry-document', doc.id);
    const detail = await api().get(`/api/entry-document/detail/${id}`).set(t.headers());
    expect(detail.body.review.blockingProblems.map((b: { code: string }) => b.code)).to.deep.equal(['TOTALS_DIFFER_FROM_XML']);
    const pre = await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers());
    expect(pre.body.blockingProblems).to.deep.equal([
      {
        code: 'TOTALS_DIFFER_FROM_XML',
        message: "The computed totals differ from the XML's ICMSTot (total)",
        blocksConfirmation: true,
        details: { differences: [{ field: 'total', expected: 330, computed: 327.5 }] },
      },
    ]);
    expectProblem(await confirm(t, id), 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
  });

  it('assignItemProducts sets product and factor by line, bumps the version, audits; then the draft confirms', async () => {
    const p = await makeProduct(t);
    const doc = await inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, nfeInput()));
    const updated = await inTransaction(NO_UNIT, (em) =>
      assignItemProducts(em, t.ctx, doc.id, [{ lineNumber: 1, productId: p.id, conversionFactor: new Dec(6) }], 1),
    );
    expect(updated).to.include({ version: 2, pendingItemCount: 0 });
    const [line] = await dataSource.manager.findBy(EntryDocumentItem, { entryDocumentId: doc.id });
    // (300 + 5 + 15 + 7.50) / 60 units
    expect([line.productId, line.reviewStatus, line.stockQuantity.toFixed(4), line.unitCost.toFixed(10)]).to.deep.equal([
      p.id,
      'MATCHED',
      '60.0000',
      '5.4583333333',
    ]);
    expect(line.declaredUnit).to.equal('CX');
    const audit = await auditOf(t, encodeId('entry-document', doc.id));
    expect(audit[1].changes).to.deep.include({
      'items[1].productId': [null, encodeId('product', p.id)],
      'items[1].conversionFactor': ['1.000000', '6.000000'],
    });
    expect((await confirm(t, encodeId('entry-document', doc.id))).status).to.equal(200);
  });

  it("assignItemProducts refuses an unknown line (400), another tenant's product (404), a stale version or a non-draft (409)", async () => {
    const foreign = await makeProduct(await createTestTenant({ filiais: 1 }));
    const doc = await inTransaction(NO_UNIT, (em) => createEntryDocumentDraft(em, t.ctx, nfeInput()));
    expect(
      (await rejection(inTransaction(NO_UNIT, (em) => assignItemProducts(em, t.ctx, doc.id, [{ lineNumber: 2, productId: null }])))).code,
    ).to.equal('VALIDATION_ERROR');
    expect(
      (await rejection(inTransaction(NO_UNIT, (em) => assignItemProducts(em, t.ctx, doc.id, [{ lineNumber: 1, productId: foreign.id }]))))
        .code,
    ).to.equal('PRODUCT_NOT_FOUND');
    expect(
      (
        await rejection(
          inTransaction(NO_UNIT, (em) => assignItemProducts(em, t.ctx, doc.id, [{ lineNumber: 1, productId: null, ignored: true }], 7)),
        )
      ).code,
    ).to.equal('STALE_VERSION');
    const ignored = await inTransaction(NO_UNIT, (em) =>
      assignItemProducts(em, t.ctx, doc.id, [{ lineNumber: 1, productId: null, ignored: true }]),
    );
    expect(ignored.pendingItemCount).to.equal(0);
    const d = await createDraft(t, draftBody({ items: [item({ ignored: true })] }));
    await confirm(t, d.id);
    const confirmedId = (await dataSource.manager.findOneByOrFail(EntryDocument, { companyId: t.companyId, number: d.number })).id;
    expect(
      (await rejection(inTransaction(NO_UNIT, (em) => assignItemProducts(em, t.ctx, confirmedId, [{ lineNumber: 1, productId: null }]))))
        .code,
    ).to.equal('ENTRY_DOCUMENT_CONFIRMED');
  });
});
