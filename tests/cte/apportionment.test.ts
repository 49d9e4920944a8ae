import { expect } from 'chai';
import { Dec, sum } from '../../src/core/decimal';
import { splitLargestRemainder, splitOverDocuments } from '../../src/modules/cte/apportionment';
import { computeValueEffects } from '../../src/modules/stock/stock-ledger.service';

const d = (v: string | number) => new Dec(v);
const fixed = (xs: Dec[]) => xs.map((x) => x.toFixed(2));

describe('Freight split and value postings (pure)', () => {
  it('shares add up to the amount exactly, the remainder on the largest share', () => {
    expect(fixed(splitLargestRemainder(d('100'), [d(1), d(1), d(1)]))).to.deep.equal(['33.34', '33.33', '33.33']);
    expect(fixed(splitLargestRemainder(d('0.05'), [d(1), d(1), d(4)]))).to.deep.equal(['0.01', '0.01', '0.03']);
    expect(fixed(splitLargestRemainder(d('10'), [d(0), d(0)]))).to.deep.equal(['5.00', '5.00']);
    for (let n = 1; n < 40; n++) {
      const weights = Array.from({ length: n }, (_v, i) => d(((i * 7919) % 97) + 0.37));
      const amount = d((n * 13.37).toFixed(2));
      expect(sum(splitLargestRemainder(amount, weights)).eq(amount), `n=${n}`).to.equal(true);
    }
  });

  it("documents first, then each document's lines: every part exact to the cent", () => {
    const split = splitOverDocuments(d('100'), [
      {
        document: 'a',
        lines: [
          { item: 1, weight: d('333.33') },
          { item: 2, weight: d('333.33') },
          { item: 3, weight: d('333.34') },
        ],
      },
      { document: 'b', lines: [{ item: 4, weight: d('3000') }] },
    ]);
    expect(split.map((s) => s.amount.toFixed(2))).to.deep.equal(['25.00', '75.00']);
    expect(fixed(split[0].lines.map((l) => l.amount))).to.deep.equal(['8.33', '8.33', '8.34']);
  });

  it('a value posting spreads over what is still in stock of the receipt and reports the rest', () => {
    const balances = new Map([[1, { quantity: d('5'), averageCost: d('20') }]]);
    const [e] = computeValueEffects(balances, [{ productId: 1, amount: d('30'), receivedQuantity: d('10') }]);
    expect([e.absorbed, e.unabsorbed, e.quantityInStock, e.averageCostAfter].map((x) => x.toString())).to.deep.equal([
      '15',
      '15',
      '5',
      '23',
    ]);
    // More on hand than received: the receipt's goods are all there.
    const [f] = computeValueEffects(new Map([[1, { quantity: d('50'), averageCost: d('20') }]]), [
      { productId: 1, amount: d('30'), receivedQuantity: d('10') },
    ]);
    expect([f.absorbed.toString(), f.averageCostAfter.toString()]).to.deep.equal(['30', '20.6']);
    // Taking back no more than was put in.
    const [g] = computeValueEffects(new Map([[1, { quantity: d('10'), averageCost: d('23') }]]), [
      { productId: 1, amount: d('-30'), receivedQuantity: d('10'), limit: d('15') },
    ]);
    expect([g.absorbed.toString(), g.unabsorbed.toString()]).to.deep.equal(['-15', '-15']);
    // Nothing on hand: nothing absorbed, the average stays.
    const [h] = computeValueEffects(new Map(), [{ productId: 1, amount: d('30'), receivedQuantity: d('10') }]);
    expect([h.absorbed.toString(), h.averageCostAfter.toString()]).to.deep.equal(['0', '0']);
  });
});
