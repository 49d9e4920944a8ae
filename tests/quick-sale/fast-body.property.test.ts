import { expect } from 'chai';
import fc from 'fast-check';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { fastCreateBody, quickSaleSchemas } from '../../src/modules/quick-sale/quick-sale.schemas';

/*
 * POST /sales-order reads the usual counter-sale body by hand (fastCreateBody) and leaves anything
 * else to joi. Whatever the hand reading accepts must be exactly what joi answers for the same body:
 * bodies near the fast shape, with every field bent in the ways clients bend them (numbers as text,
 * spaces, signs, scale, case, extra keys, wrong types), are read both ways and compared.
 */

/** JSON with sorted keys and decimals as their text: equal strings mean equal values. */
function canonical(value: unknown): string {
  if (value instanceof Dec) return JSON.stringify(`Dec:${value.toString()}`);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const joiBody = quickSaleSchemas.createSalesOrder.body!;

const decimalish = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 1000 }), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 99_999 }).map((n) => (n / 100).toFixed(2)), weight: 8 },
  fc.integer({ min: -5, max: 1_000_000 }),
  fc.double({ min: -10, max: 1e16, noNaN: false }),
  fc.constantFrom('1', ' 2 ', '0', '-1', '1.5', '1.123', '1.1234', '1.12345', '1e3', '', ' ', 'abc', '00012', '99999999999999', '9999999999.99', '10000000000000000000', '+1', '.5', '5.'),
  fc.string({ maxLength: 8 }),
  fc.constant(null),
);
const productId = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 1_000_000 }).map((n) => encodeId('product', n)), weight: 8 },
  fc.integer({ min: 1, max: 1000 }).map((n) => encodeId('customer', n)),
  fc.constantFrom('', 'x', '0', 'abc$', 12),
);
const method = fc.oneof(
  { arbitrary: fc.constantFrom('CASH', 'cash', ' pix ', 'CARD_1', 'Pix'), weight: 6 },
  fc.constantFrom('bad code', '', 'Ç', 'A'.repeat(31)),
  fc.string({ maxLength: 6 }),
  fc.integer(),
);
const extra = fc.option(fc.dictionary(fc.constantFrom('discount', 'note', 'unitPrice', '__proto__', 'x'), fc.anything({ maxDepth: 1 }), { maxKeys: 1 }), { nil: undefined, freq: 8 });
const withExtra = <T extends object>(base: fc.Arbitrary<T>) => fc.tuple(base, extra).map(([b, e]) => (e ? { ...b, ...e } : b));

const item = withExtra(fc.record({ productId, quantity: decimalish }));
const payment = withExtra(fc.record({ method, amount: decimalish }));
const body = withExtra(
  fc.record(
    {
      flowMode: fc.constantFrom('QUICK_SALE', 'QUICK_SALE', 'QUICK_SALE', 'STANDARD', 'quick_sale', 'OTHER'),
      items: fc.oneof({ arbitrary: fc.array(item, { minLength: 1, maxLength: 3 }), weight: 8 }, fc.constant([]), fc.constant('items')),
      payments: fc.oneof({ arbitrary: fc.array(payment, { minLength: 1, maxLength: 2 }), weight: 8 }, fc.constant([]), fc.constant({})),
    },
    { requiredKeys: ['flowMode', 'items'] },
  ),
);

describe('quick sale: the hand-read create body agrees with joi', () => {
  it('every body the fast reading accepts, joi accepts with the same value', () => {
    let accepted = 0;
    fc.assert(
      fc.property(body, (input) => {
        const fast = fastCreateBody(input);
        if (fast === undefined) return;
        accepted += 1;
        const { value, error } = joiBody.validate(input);
        expect(error?.message, canonical(input)).to.equal(undefined);
        expect(canonical(fast), canonical(input)).to.equal(canonical(value));
      }),
      { numRuns: Number(process.env.FC_RUNS_FAST_BODY ?? 3000) },
    );
    // The generator reaches the fast path often enough for the comparison to mean something.
    expect(accepted).to.be.greaterThan(20);
  });

  it('the usual counter-sale body takes the fast path', () => {
    const input = { flowMode: 'QUICK_SALE', items: [{ productId: encodeId('product', 7), quantity: 2 }], payments: [{ method: 'cash', amount: '20.00' }] };
    const fast = fastCreateBody(input);
    expect(fast).to.not.equal(undefined);
    expect(canonical(fast)).to.equal(canonical(joiBody.validate(input).value));
  });
});
