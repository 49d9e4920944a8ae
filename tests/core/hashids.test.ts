import { expect } from 'chai';
import Hashids from 'hashids';
import { config } from '../../src/core/config';
import { decodeId, encodeId, encodeOptionalId, RESOURCE_TYPES, singleEncoder } from '../../src/core/hashids';

/*
 * encodeId answers a single number from precomputed tables (core/hashids.ts singleEncoder), not
 * through the library: it must give the library's hashid for every type and number, padding included,
 * with this salt and other lengths alike, and decode back.
 */
describe('hashids: the table encoder equals the library', () => {
  const library = (type: string, minLength = config.hashids.minLength) => new Hashids(`${config.hashids.salt}:${type}`, minLength);

  it('every resource type, small and large ids, random ids up to 2^31 and beyond', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const type of RESOURCE_TYPES) {
      const lib = library(type);
      const ids = [0, 1, 2, 99, 100, 101, 999, 1000, 43, 44, 45, 1935, 1936, 2_147_483_647, 2 ** 32, Number.MAX_SAFE_INTEGER];
      for (let i = 0; i < 1000; i++) ids.push(rnd(), rnd() % 100_000, i);
      for (const id of ids) {
        const encoded = encodeId(type, id);
        expect(encoded, `${type} ${id}`).to.equal(lib.encode(id));
        if (id > 0 && id <= 2_147_483_647) expect(decodeId(type, encoded)).to.equal(id);
      }
    }
    expect(encodeOptionalId('sales-order', null)).to.equal(null);
  });

  it('every minimum length the configuration allows (6–20): guards and padding as the library adds them', () => {
    for (let minLength = 6; minLength <= 20; minLength++) {
      const lib = library('sales-order-item', minLength);
      const fast = singleEncoder(lib, minLength);
      expect(fast, `minLength ${minLength}`).to.be.a('function');
      for (let id = 0; id < 3000; id++)
        for (const n of [id, id * 104_729, 2_147_483_647 - id * 7]) expect(fast!(n), `${minLength} ${n}`).to.equal(lib.encode(n));
    }
  });

  it("what the library does with what is not a whole number ≥ 0 stays the library's", () => {
    const lib = library('product');
    for (const id of [-1, 1.5, Number.NaN]) expect(encodeId('product', id)).to.equal(lib.encode(id));
  });
});
