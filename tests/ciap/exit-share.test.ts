import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { addMonths, creditOf, exitShareOf, isTaxedExit, splitParts } from '../../src/modules/ciap/exit-share';

/* The CIAP's arithmetic (LC 87/1996 art. 20 §5), by hand: the parts, the months, the taxed-exit share by CST. */

const row = (cfop: string, cst: string, operationValue: string, icms = '0') => ({
  cfop,
  cst,
  figures: { operationValue: new Dec(operationValue), icms: new Dec(icms) } as never,
});

describe('CIAP arithmetic', () => {
  it('48 parts: 4,800.00 → 100.00 each; 1,000.00 → 47 × 20.83 + 20.99; 0.47 → 47 × 0.01 + 0.00 … the last takes the residue', () => {
    expect(splitParts(new Dec('4800.00'), 48).every((p) => p.eq(100))).to.equal(true);
    const parts = splitParts(new Dec('1000.00'), 48);
    expect(parts.slice(0, 47).every((p) => p.eq('20.83'))).to.equal(true);
    expect(parts[47].toFixed(2)).to.equal('20.99');
    // 0.50 / 48 = 0.0104 → 0.01 × 47 = 0.47, last 0.03: the parts add up to the credit.
    const small = splitParts(new Dec('0.50'), 48);
    expect(small[47].toFixed(2)).to.equal('0.03');
    expect(small.reduce((a, b) => a.plus(b), new Dec(0)).toFixed(2)).to.equal('0.50');
  });

  it('part k falls in the entry month + (k − 1), across years', () => {
    expect(addMonths('2026-11', 0)).to.equal('2026-11');
    expect(addMonths('2026-11', 2)).to.equal('2027-01');
    expect(addMonths('2026-11', 47)).to.equal('2030-10');
  });

  it('taxed exits: CST 00/10/20/60/70, 90 with ICMS, and exports; exempt, not taxed, suspended, deferred and 90 without ICMS are not', () => {
    for (const cst of ['000', '010', '020', '060', '070', '100', '200']) expect(isTaxedExit(row('5102', cst, '1')), cst).to.equal(true);
    expect(isTaxedExit(row('5102', '090', '1', '0.18'))).to.equal(true);
    for (const cst of ['040', '041', '050', '051', '090']) expect(isTaxedExit(row('5102', cst, '1')), cst).to.equal(false);
    expect(isTaxedExit(row('7102', '041', '1'))).to.equal(true);
  });

  it('the share: 800.00 taxed + 150.00 exported of 1,187.50 → 950/1,187.50 = 80 %; a part of 100.00 → 80.00; 20.83 → 16.66 (16.664); no exits → 0', () => {
    const share = exitShareOf([
      row('5102', '000', '800.00', '144.00'),
      row('7102', '041', '150.00'),
      row('5102', '040', '200.00'),
      row('5152', '041', '37.50'),
    ]);
    expect([share.taxed.toFixed(2), share.total.toFixed(2)]).to.deep.equal(['950.00', '1187.50']);
    expect(creditOf(new Dec('100.00'), share).toFixed(2)).to.equal('80.00');
    expect(creditOf(new Dec('20.83'), share).toFixed(2)).to.equal('16.66');
    expect(creditOf(new Dec('100.00'), { taxed: new Dec(0), total: new Dec(0) }).toFixed(2)).to.equal('0.00');
  });
});
