import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { api } from '../support/api';
import { makePaymentMethod, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { changedTables, rowCounts } from '../support/rows';
import { CTE, cteTenant, CteTenant, importNfe, stage } from '../cte/cte-support';

/* CT-e freight while the month is closed (issue 47): apportioning and cancelling move the goods' cost today → 409 naming the period, nothing written. */
describe('Fiscal periods: CT-e apportion and cancellation refused while the month is closed', function () {
  this.timeout(60_000);
  let t: CteTenant;
  const month = businessToday().slice(0, 7);
  const periodUrl = () => `/api/fiscal-periods/${t.filialHashes[0]}/${month}`;

  before(async () => {
    t = await cteTenant();
    await makePaymentMethod(t, 'PIX', 'PIX');
  });

  it('closed: apportion and cancel → 409 FISCAL_PERIOD_CLOSED, nothing written; reopened: the apportion goes through', async () => {
    const p = await makeProduct(t);
    const d = await importNfe(t, [{ code: 'R', quantity: '1', unitPrice: '10', productId: p.hash }]);
    const cteId = await stage(t, t.cte({ total: '5.00', nfeKeys: [d.accessKey] }));
    const closed = await api().post(`${periodUrl()}/close`).set(t.headers()).send({ force: true });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    const before = await rowCounts(t.companyId);
    for (const res of [
      await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({}),
      await api().post(`${CTE}/cancel/${cteId}`).set(t.headers()).send({ reason: 'Frete em duplicidade' }),
    ]) {
      expectProblem(res, 409, 'FISCAL_PERIOD_CLOSED');
      expect(res.body.period).to.equal(month);
    }
    expect(changedTables(before, await rowCounts(t.companyId))).to.deep.equal({});
    expect(
      (await api().post(`${periodUrl()}/reopen`).set(t.headers()).send({ reason: 'Frete lancado apos o fechamento' })).status,
    ).to.equal(200);
    const applied = await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({});
    expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
  });
});
