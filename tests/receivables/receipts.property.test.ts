import { expect } from 'chai';
import fc from 'fast-check';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { Dec, sum } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { ReceivableReceipt } from '../../src/modules/receivables/entities/receivable-receipt.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { registerReceipt, reverseReceipt } from '../../src/modules/receivables/receipts.service';
import { statusFor } from '../../src/modules/receivables/receivables.rules';
import { createTestTenant, TestTenant } from '../support/tenant';
import { billedOrder, salesSetup } from './support';

/*
 * Property: for any sequence of receipts (any amount, some above the balance) and reversals (of any
 * receipt, some twice), a receivable's receivedAmount equals the sum of its standing receipts, never
 * exceeds its amount, and its status is what that sum means.
 */
type Op = { kind: 'receive'; cents: number } | { kind: 'reverse'; pick: number };

describe('Receivables: receipts and reversals keep receivedAmount = standing receipts ≤ amount (property)', () => {
  let t: TestTenant;
  let customer: { hash: string };
  let product: { hash: string };
  const today = businessToday();

  before(async () => {
    t = await createTestTenant();
    ({ customer, product } = await salesSetup(t, '3.00'));
  });

  it('holds for random sequences', async function () {
    this.timeout(120_000);
    const ctx = { ...t.ctx, grantedFiliais: '*' as const, scopes: ['*'] };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('receive' as const), cents: fc.integer({ min: 1, max: 350 }) }),
      fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops: Op[]) => {
        const { receivables } = await billedOrder(t, customer.hash, product.hash, 1, null);
        const id = decodeId('receivable', receivables[0].id);
        for (const o of ops) {
          if (o.kind === 'receive') {
            await registerReceipt(ctx, id, { amount: new Dec(o.cents).div(100), receiptDate: today, method: 'PIX' }).catch(
              (e: { code?: string }) => {
                if (!['RECEIPT_EXCEEDS_BALANCE', 'RECEIVABLE_ALREADY_RECEIVED'].includes(e.code ?? '')) throw e;
              },
            );
          } else {
            const receipts = await dataSource.manager.find(ReceivableReceipt, { where: { receivableId: id }, order: { id: 'ASC' } });
            if (!receipts.length) continue;
            await reverseReceipt(ctx, receipts[o.pick % receipts.length].id, 'property').catch((e: { code?: string }) => {
              if (e.code !== 'RECEIPT_ALREADY_REVERSED') throw e;
            });
          }
          const row = await dataSource.manager.findOneByOrFail(Receivable, { id });
          const standing = (await dataSource.manager.find(ReceivableReceipt, { where: { receivableId: id } })).filter(
            (p) => p.status === 'ACTIVE',
          );
          expect(row.receivedAmount.toFixed(2)).to.equal(sum(standing.map((p) => p.amount)).toFixed(2));
          expect(row.receivedAmount.lte(row.amount)).to.equal(true);
          expect(row.status).to.equal(statusFor(row.amount, row.receivedAmount, row.creditedAmount));
        }
      }),
      { numRuns: 25 },
    );
  });
});
