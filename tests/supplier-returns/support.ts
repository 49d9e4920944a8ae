import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { nextSequenceValue } from '../../src/core/sequence/sequence.service';
import { PayableDeduction } from '../../src/modules/payables/entities/payable-deduction.entity';
import { SupplierCredit } from '../../src/modules/payables/entities/supplier-credit.entity';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { SupplierReturn } from '../../src/modules/supplier-returns/entities/supplier-return.entity';
import { SupplierReturnItem } from '../../src/modules/supplier-returns/entities/supplier-return-item.entity';
import { assertStock, planReturn, registerReturn } from '../../src/modules/supplier-returns/postings';
import { CODE_SEQUENCE } from '../../src/modules/supplier-returns/supplier-returns.repository';
import { makeProduct } from '../support/catalog';
import { TestTenant } from '../support/tenant';
import { setTaxRegime } from '../entry-document/fiscal-support';
import { confirm, createDraft, draftBody, item } from '../entry-document/support';

export const SR = '/api/supplier-returns';

/**
 * The purchase of the issue's figures, LUCRO_REAL: 60 × 10.00 with ICMS 18% (108.00); PIS/COFINS on
 * 600 − 108 = 492.00 → 8.12 and 37.39; net cost 600 − 108 − 8.12 − 37.39 = 446.49 → 7.4415 a unit.
 * Then 40 more at 8.91275 (monophasic PIS/COFINS, CST 04: no credit) move the average to (446.49 + 356.51) / 100 = 8.03.
 */
export async function purchaseScenario(
  t: TestTenant,
  opts: {
    second?: boolean;
    supplierUf?: string;
    purchaseOrderItemId?: string;
    supplier?: Record<string, unknown>;
    product?: Awaited<ReturnType<typeof makeProduct>>;
  } = {},
) {
  await setTaxRegime(t, 0, 'LUCRO_REAL');
  const product = opts.product ?? (await makeProduct(t));
  const first = await createDraft(
    t,
    draftBody({
      ...(opts.supplier
        ? { supplier: opts.supplier }
        : opts.supplierUf
          ? { supplier: { document: (draftBody().supplier as any).document, name: 'Distribuidora Teste Ltda', uf: opts.supplierUf } }
          : {}),
      items: [
        item({
          productId: product.hash,
          description: 'AZEITE EXTRA VIRGEM 500ML',
          cfop: '5102',
          ncm: '15091000',
          quantity: 60,
          unitPrice: '10.00',
          ...(opts.purchaseOrderItemId ? { purchaseOrderItemId: opts.purchaseOrderItemId } : {}),
          taxes: {
            icms: { cst: '00', base: '600.00', rate: 18, value: '108.00' },
            pis: { cst: '01', base: '600.00', rate: '1.65', value: '9.90' },
            cofins: { cst: '01', base: '600.00', rate: '7.6', value: '45.60' },
          },
        }),
      ],
    }),
  );
  const c1 = await confirm(t, first.id);
  expect(c1.status, JSON.stringify(c1.body)).to.equal(200);
  expect(c1.body.stockMovements[0].unitCost).to.equal(7.4415);
  if (opts.second !== false) {
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
    const c2 = await confirm(t, second.id);
    expect(c2.status, JSON.stringify(c2.body)).to.equal(200);
  }
  return { product, doc: c1.body, docHash: first.id as string, itemHash: c1.body.items[0].id as string };
}

/** Registers a return the way the NF-e's issuing transaction does (number taken before it). */
export async function issueReturn(
  t: TestTenant,
  docHash: string,
  items: { itemHash: string; quantity: string | number }[],
  reason = 'Mercadoria avariada no transporte',
): Promise<number> {
  const code = await nextSequenceValue(dataSource.manager, t.companyId, CODE_SEQUENCE);
  return inTransaction(NO_UNIT, async (em) => {
    const plan = await planReturn(
      em,
      t.ctx,
      decodeId('entry-document', docHash),
      {
        reason,
        items: items.map((i) => ({ entryDocumentItemId: decodeId('entry-document-item', i.itemHash), quantity: new Dec(i.quantity) })),
      },
      true,
    );
    await assertStock(em, plan);
    return registerReturn(em, t.ctx, plan, reason, code);
  });
}

export const returnRow = (t: TestTenant, id: number) => dataSource.manager.findOneByOrFail(SupplierReturn, { companyId: t.companyId, id });
export const returnItems = (t: TestTenant, id: number) =>
  dataSource.manager.find(SupplierReturnItem, { where: { companyId: t.companyId, supplierReturnId: id } });
export const returnMovements = (t: TestTenant, id: number) =>
  dataSource.manager.find(StockMovement, {
    where: { companyId: t.companyId, referenceType: 'supplier-return', referenceId: id },
    order: { id: 'ASC' },
  });
export const documentPayables = (t: TestTenant, docHash: string) =>
  dataSource.manager.find(Payable, {
    where: { companyId: t.companyId, entryDocumentId: decodeId('entry-document', docHash) },
    order: { installmentNumber: 'ASC' },
  });
export const deductionsOf = (t: TestTenant, id: number) =>
  dataSource.manager.find(PayableDeduction, { where: { companyId: t.companyId, sourceId: id }, order: { id: 'ASC' } });
export const creditsOfReturn = (t: TestTenant, id: number) =>
  dataSource.manager.find(SupplierCredit, { where: { companyId: t.companyId, sourceId: id }, order: { id: 'ASC' } });
export const returnEvents = (t: TestTenant, id: number) =>
  dataSource.manager.find(OutboxEvent, {
    where: { companyId: t.companyId, aggregateType: 'supplier-return', aggregateId: id },
    order: { id: 'ASC' },
  });
export const returnAudit = (t: TestTenant, id: number) =>
  dataSource.manager.find(AuditLog, { where: { companyId: t.companyId, entity: 'supplier-return', entityId: id }, order: { id: 'ASC' } });

/** Row counts a refused request must leave unchanged. */
export async function returnFootprint(t: TestTenant) {
  const m = dataSource.manager;
  const where = { companyId: t.companyId };
  return {
    returns: await m.countBy(SupplierReturn, where),
    items: await m.countBy(SupplierReturnItem, where),
    movements: await m.countBy(StockMovement, where),
    deductions: await m.countBy(PayableDeduction, where),
    credits: await m.countBy(SupplierCredit, where),
    audit: await m.countBy(AuditLog, where),
    events: await m.countBy(OutboxEvent, where),
  };
}
