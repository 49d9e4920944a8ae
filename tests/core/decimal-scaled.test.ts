import { expect } from 'chai';
import fc from 'fast-check';
import { Dec, toJsonNumber } from '../../src/core/decimal';
import { decOfScaled, jsonNumberOfDec, scaledOf } from '../../src/core/decimal-scaled';

/*
 * core/decimal-scaled.ts reads and writes decimal.js's representation of a value (`s`, `e`, `d`) instead
 * of its text (docs/decisions/tax-engine-integers.md). These hold it to decimal.js's own parsing and
 * printing: a release that changes the representation fails here, not in a tax figure.
 */
describe('core/decimal-scaled: scaled integers ⇄ decimal.js, as decimal.js itself does it', () => {
  const representation = (x: Dec) => {
    const r = x as unknown as { s: number; e: number; d: number[]; constructor: unknown };
    return { s: r.s, e: r.e, d: r.d, constructor: r.constructor, keys: Object.keys(x) };
  };
  const scaled = fc.tuple(
    fc.oneof(
      fc.integer({ min: -9_999_999, max: 9_999_999 }),
      fc.maxSafeInteger().map((v) => v % 10 ** 15),
    ),
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 3 }),
  );

  it('decOfScaled(n, places) is new Dec(text of n × 10^-places): same digits, exponent, sign, own keys, deep-equal', () => {
    fc.assert(
      fc.property(scaled, ([n, places, zeros]) => {
        const v = n * 10 ** zeros;
        fc.pre(Number.isSafeInteger(v));
        const mine = decOfScaled(v, places);
        const ref = new Dec(v).div(new Dec(10).pow(places));
        expect(representation(mine)).to.deep.equal(representation(ref));
        expect(mine).to.deep.equal(ref);
        expect(mine.toFixed()).to.equal(ref.toFixed());
        expect(mine.plus(1).toFixed()).to.equal(ref.plus(1).toFixed());
      }),
      { numRuns: 2000 },
    );
  });

  it('scaledOf(x, places) is x × 10^places when exact and safe, else undefined; the same from a Dec, its text and a number', () => {
    fc.assert(
      fc.property(scaled, fc.constantFrom(0, 2, 4, 6, 10), ([n, p], places) => {
        const x = new Dec(n).div(new Dec(10).pow(p));
        const exact = x.decimalPlaces() <= places ? x.times(new Dec(10).pow(places)) : null;
        const got = scaledOf(x, places);
        if (got !== undefined) expect(exact && exact.eq(got)).to.equal(true);
        else expect(exact === null || exact.abs().gt(Number.MAX_SAFE_INTEGER) || x.abs().gte(new Dec(10).pow(15 - places))).to.equal(true);
        if (got !== undefined) expect(scaledOf(x.toFixed(), places)).to.equal(got);
      }),
      { numRuns: 2000 },
    );
    expect([scaledOf('1e3', 2), scaledOf('+1', 2), scaledOf('1.', 2), scaledOf('1.005', 2), scaledOf('1.0050', 3)]).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      1005,
    ]);
    expect([scaledOf(null, 2), scaledOf('', 2), scaledOf(37.4, 2), scaledOf(Number.NaN, 2)]).to.deep.equal([0, 0, 3740, undefined]);
  });

  it('jsonNumberOfDec is toJsonNumber for every Dec it answers', () => {
    fc.assert(
      fc.property(scaled, fc.constantFrom(2, 4, 10), ([n, p], places) => {
        const x = new Dec(n).div(new Dec(10).pow(p));
        const got = jsonNumberOfDec(x, places);
        if (got !== undefined) expect(Object.is(got, toJsonNumber(x, places))).to.equal(true);
        else expect(x.decimalPlaces() > places || x.abs().gte(new Dec(10).pow(15 - places))).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });
});
