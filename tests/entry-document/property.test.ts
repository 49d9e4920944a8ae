import { expect } from 'chai';
import fc from 'fast-check';
import { Dec } from '../../src/core/decimal';
import { api } from '../support/api';
import { addStock, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';
import { cancel, confirm, nextNumber, payablesOf } from './support';

/*
 * For random documents (1–50 items, random per-item and header charges, 0–4 installments):
 * preview-manual's totals are the sum of the items plus charges, every line's cost follows from its
 * values; confirm posts what confirm-preview said, and cancel restores every balance.
 * The seed is fixed so the suite is deterministic; FC_SEED=<n> explores other documents.
 */

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2));
const itemArb = fc.record({
  product: fc.nat(5),
  quantity: fc.integer({ min: 1, max: 500_000 }).map((n) => (n / 1000).toFixed(3)),
  unitPrice: fc.integer({ min: 1, max: 5_000_000 }).map((n) => (n / 10_000).toFixed(4)),
  conversionFactor: fc.constantFrom('1', '6', '12', '0.5', '2.5'),
  freight: fc.option(cents(5_000)),
  insurance: fc.option(cents(1_000)),
  ipi: fc.option(cents(3_000)),
  discountPercent: fc.integer({ min: 0, max: 40 }),
});
const docArb = fc.record({
  items: fc.array(itemArb, { minLength: 1, maxLength: 50 }),
  headerFreight: fc.option(cents(20_000)),
  headerOther: fc.option(cents(5_000)),
  headerIcmsSt: fc.option(cents(5_000)),
  installments: fc.integer({ min: 0, max: 4 }),
});
type DocSpec = typeof docArb extends fc.Arbitrary<infer T> ? T : never;

const money = (v: Dec) => v.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

describe('Entry documents — property: totals add up; confirm then cancel restores the stock', () => {
  let t: TestTenant;
  let products: { id: number; hash: string }[];
  before(async () => {
    t = await createTestTenant();
    products = [];
    for (let i = 0; i < 6; i++) {
      const p = await makeProduct(t);
      // Half start with stock (the average must be backed out), half from zero.
      if (i % 2 === 0) await addStock(t, 0, p.id, 100 + i, `${3 + i}.25`);
      products.push(p);
    }
  });

  function bodyOf(spec: DocSpec) {
    const items = spec.items.map((it) => {
      const value = money(new Dec(it.quantity).times(it.unitPrice));
      return {
        productId: products[it.product].hash,
        description: 'Item aleatório',
        unit: 'UN',
        quantity: it.quantity,
        unitPrice: it.unitPrice,
        conversionFactor: it.conversionFactor,
        // A header charge is allocated, so the items leave it out.
        freight: spec.headerFreight === null ? it.freight : null,
        insurance: it.insurance,
        discount: money(value.times(it.discountPercent).div(100)).toFixed(2),
        taxes: { ipi: { value: it.ipi }, icmsSt: spec.headerIcmsSt === null ? null : undefined },
      };
    });
    return {
      number: nextNumber(),
      issueDate: '2026-03-02',
      entryDate: '2026-03-03',
      supplier: { document: '11222333000181', name: 'Fornecedor Aleatório' },
      charges: { freight: spec.headerFreight, otherExpenses: spec.headerOther, icmsSt: spec.headerIcmsSt },
      items,
    };
  }

  function installmentsFor(total: Dec, count: number) {
    const n = Math.min(count, total.times(100).toNumber());
    if (n <= 0) return [];
    const share = total.div(n).toDecimalPlaces(2, Dec.ROUND_DOWN);
    return Array.from({ length: n }, (_v, i) => ({
      dueDate: `2026-0${4 + i}-10`,
      amount: (i === n - 1 ? total.minus(share.times(n - 1)) : share).toFixed(2),
    }));
  }

  it('holds for random documents', async function () {
    this.timeout(180_000);
    const seed = Number(process.env.FC_SEED ?? 20260322);
    await fc.assert(
      fc.asyncProperty(docArb, async (spec) => {
        const body = bodyOf(spec);
        const preview = await api().post('/api/entry-document/preview-manual').set(t.headers()).send(body);
        expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
        const { totals, items } = preview.body;
        const sumOf = (field: string) => items.reduce((s: Dec, i: Record<string, number>) => s.plus(new Dec(i[field])), new Dec(0));
        const ipiSum = items.reduce((s: Dec, i: { taxes: { ipi: { value: number } } }) => s.plus(new Dec(i.taxes.ipi.value)), new Dec(0));
        const stSum = items.reduce(
          (s: Dec, i: { taxes: { icmsSt: { value: number } } }) => s.plus(new Dec(i.taxes.icmsSt.value)),
          new Dec(0),
        );
        const productsTotal = spec.items.reduce((s, it) => s.plus(money(new Dec(it.quantity).times(it.unitPrice))), new Dec(0));
        expect(new Dec(totals.products).eq(productsTotal)).to.equal(true, 'products');
        for (const f of ['freight', 'insurance', 'discount', 'otherExpenses']) expect(new Dec(totals[f]).eq(sumOf(f))).to.equal(true, f);
        expect(new Dec(totals.ipi).eq(ipiSum)).to.equal(true, 'ipi');
        expect(new Dec(totals.icmsSt).eq(stSum)).to.equal(true, 'icmsSt');
        if (spec.headerFreight !== null)
          expect(new Dec(totals.freight).eq(spec.headerFreight)).to.equal(true, 'header freight allocated exactly');
        if (spec.headerOther !== null)
          expect(new Dec(totals.otherExpenses).eq(spec.headerOther)).to.equal(true, 'header other expenses allocated exactly');
        const total = new Dec(totals.products)
          .minus(totals.discount)
          .plus(totals.freight)
          .plus(totals.insurance)
          .plus(totals.otherExpenses)
          .plus(totals.ipi)
          .plus(totals.icmsSt);
        expect(new Dec(totals.total).eq(total)).to.equal(true, 'total');
        expect(sumOf('landedTotal').eq(total)).to.equal(true, 'lines add up to the total');
        for (const it of items) {
          expect(new Dec(it.stockQuantity).eq(new Dec(it.quantity).times(it.conversionFactor))).to.equal(true, 'stock quantity');
          expect(new Dec(it.unitCost).eq(new Dec(it.landedTotal).div(it.stockQuantity).toDecimalPlaces(10, Dec.ROUND_HALF_UP))).to.equal(
            true,
            'unit cost',
          );
        }

        const before = await Promise.all(products.map((p) => stockOf(t, 0, p.id)));
        const installments = installmentsFor(new Dec(totals.total), spec.installments);
        const created = await api()
          .post('/api/entry-document')
          .set(t.headers())
          .send({ ...body, installments });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(created.body.totals).to.deep.equal(totals);
        const plan = await api().get(`/api/entry-document/confirm-preview/${created.body.id}`).set(t.headers());
        expect(plan.body.blockingProblems).to.deep.equal([]);
        const confirmed = await confirm(t, created.body.id);
        expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
        expect(confirmed.body.stockMovements).to.deep.equal(plan.body.stockMovements);
        expect((await payablesOf(t, created.body.id)).length).to.equal(Math.max(installments.length, new Dec(totals.total).gt(0) ? 1 : 0));

        const cancelled = await cancel(t, created.body.id);
        expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
        const after = await Promise.all(products.map((p) => stockOf(t, 0, p.id)));
        after.forEach((a, i) => {
          expect(a.quantity).to.equal(before[i].quantity, `quantity of product ${i}`);
          // The average is backed out line by line; each step rounds to 10 places.
          if (new Dec(before[i].quantity).gt(0))
            expect(new Dec(a.averageCost).minus(before[i].averageCost).abs().lte('0.000001')).to.equal(
              true,
              `average of product ${i}: ${before[i].averageCost} → ${a.averageCost}`,
            );
        });
        expect((await payablesOf(t, created.body.id)).every((p) => p.status === 'CANCELLED')).to.equal(true);
      }),
      { numRuns: 25, seed },
    );
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
