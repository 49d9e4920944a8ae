import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { Dec } from '../../src/core/decimal';
import { BusinessRuleError } from '../../src/core/errors';
import { encodeId } from '../../src/core/hashids';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { postToLedger, previewPosting, LedgerLine } from '../../src/modules/stock/stock-ledger.service';
import { addStock, makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Stock ledger', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant({ filiais: 2 });
  });

  const post = (filialIndex: number, lines: LedgerLine[], referenceId = 1, allowNegative?: boolean) =>
    inTransaction(NO_UNIT, (em) =>
      postToLedger(em, {
        companyId: t.companyId,
        filialId: t.filialIds[filialIndex],
        reason: 'TEST',
        referenceType: 'test',
        referenceId,
        lines,
        allowNegative,
      }),
    );

  it('weighted average cost matches a hand-computed example', async () => {
    const p = await makeProduct(t);
    // 10 @ 5.00 → avg 5; + 30 @ 7.00 → (50 + 210) / 40 = 6.5; − 15 at avg → 25 @ 6.5; + 5 @ 9.10 → (162.5 + 45.5) / 30 = 6.9333333333
    await post(0, [{ productId: p.id, direction: 'IN', quantity: new Dec(10), unitCost: new Dec('5.00') }]);
    await post(0, [{ productId: p.id, direction: 'IN', quantity: new Dec(30), unitCost: new Dec('7.00') }]);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '40.0000', averageCost: '6.5000000000' });
    const [out] = await post(0, [{ productId: p.id, direction: 'OUT', quantity: new Dec(15) }]);
    expect(out.unitCost.toFixed(10)).to.equal('6.5000000000');
    await post(0, [{ productId: p.id, direction: 'IN', quantity: new Dec(5), unitCost: new Dec('9.10') }]);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '30.0000', averageCost: '6.9333333333' });
    // The other filial is untouched.
    expect((await stockOf(t, 1, p.id)).quantity).to.equal('0.0000');
  });

  it('a reversal backs its cost out of the average (confirm → cancel restores)', async () => {
    const p = await makeProduct(t);
    await post(0, [{ productId: p.id, direction: 'IN', quantity: new Dec(10), unitCost: new Dec(5) }]);
    await post(0, [{ productId: p.id, direction: 'IN', quantity: new Dec(10), unitCost: new Dec(7) }]);
    expect((await stockOf(t, 0, p.id)).averageCost).to.equal('6.0000000000');
    await post(0, [{ productId: p.id, direction: 'OUT', quantity: new Dec(10), unitCost: new Dec(7), reversal: true }]);
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '10.0000', averageCost: '5.0000000000' });
  });

  it('an out-movement beyond the balance fails with INSUFFICIENT_STOCK and writes nothing', async () => {
    const p = await makeProduct(t);
    const q = await makeProduct(t);
    await addStock(t, 0, p.id, 5, 2);
    await addStock(t, 0, q.id, 5, 2);
    let error: unknown;
    try {
      await post(0, [
        { productId: p.id, direction: 'OUT', quantity: new Dec(3) },
        { productId: q.id, direction: 'OUT', quantity: new Dec(6) },
      ]);
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(BusinessRuleError);
    expect((error as BusinessRuleError).code).to.equal('INSUFFICIENT_STOCK');
    expect((error as BusinessRuleError).extensions.shortages).to.deep.equal([
      { productId: encodeId('product', q.id), available: 5, requested: 6 },
    ]);
    expect((await stockOf(t, 0, p.id)).quantity).to.equal('5.0000');
    expect(await dataSource.manager.countBy(StockMovement, { companyId: t.companyId, productId: p.id })).to.equal(1);
  });

  it('goes negative only where the filial allows it', async () => {
    const p = await makeProduct(t);
    await post(1, [{ productId: p.id, direction: 'OUT', quantity: new Dec(2) }], 1, true);
    expect((await stockOf(t, 1, p.id)).quantity).to.equal('-2.0000');
    // Coming back from negative, the new cost is the entry's cost.
    await post(1, [{ productId: p.id, direction: 'IN', quantity: new Dec(5), unitCost: new Dec('3.3') }]);
    expect(await stockOf(t, 1, p.id)).to.deep.equal({ quantity: '3.0000', averageCost: '3.3000000000' });
  });

  it('20 parallel out-movements of 1 against a balance of 10: exactly 10 succeed', async () => {
    const p = await makeProduct(t);
    await addStock(t, 0, p.id, 10, '4.25');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_v, i) => post(0, [{ productId: p.id, direction: 'OUT', quantity: new Dec(1) }], 100 + i)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).to.have.length(10);
    expect(failed).to.have.length(10);
    for (const f of failed) expect((f.reason as BusinessRuleError).code).to.equal('INSUFFICIENT_STOCK');
    expect((await stockOf(t, 0, p.id)).quantity).to.equal('0.0000');
    expect(await dataSource.manager.countBy(StockMovement, { companyId: t.companyId, productId: p.id, direction: 'OUT' })).to.equal(10);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });

  it('a preview computes exactly what the post does, without writing', async () => {
    const p = await makeProduct(t);
    await addStock(t, 0, p.id, 8, 2);
    const lines: LedgerLine[] = [{ productId: p.id, direction: 'IN', quantity: new Dec(4), unitCost: new Dec('3.5') }];
    const posting = { companyId: t.companyId, filialId: t.filialIds[0], reason: 'TEST', referenceType: 'test', referenceId: 9, lines };
    const preview = await previewPosting(dataSource.manager, posting);
    expect((await stockOf(t, 0, p.id)).quantity).to.equal('8.0000');
    const posted = await inTransaction(NO_UNIT, (em) => postToLedger(em, posting));
    expect(preview.effects.map((e) => [e.balanceAfter.toFixed(4), e.averageCostAfter.toFixed(10)])).to.deep.equal(
      posted.map((e) => [e.balanceAfter.toFixed(4), e.averageCostAfter.toFixed(10)]),
    );
    expect(await stockOf(t, 0, p.id)).to.deep.equal({ quantity: '12.0000', averageCost: '2.5000000000' });
  });

  it('every balance equals the sum of its movements (check:stock)', async () => {
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
