import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { api } from '../support/api';
import { makeProduct, stockMismatches, stockOf } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { creditsOf, setTaxRegime, thirdPartyBalance } from '../entry-document/fiscal-support';
import { rowsOf } from '../nfe/nfe-support';
import { CTE, cteTenant, CteTenant, importNfe, stage } from './cte-support';

/*
 * CT-e freight and the fiscal booking: one notion of apportioned freight per line (the fiscal cost
 * formula's `apportionedFreight`: cost = gross − credits + apportioned freight), lines that take it
 * by their operation class, and the freight's ICMS credited line by line with the goods' own rule.
 */
describe('CT-e freight under the fiscal booking (LUCRO_REAL)', () => {
  let t: CteTenant;
  let products: Awaited<ReturnType<typeof makeProduct>>[];
  let doc: { id: string; accessKey: string };
  let items: any[];
  const ED = '/api/entry-document';
  const detail = async (id: string) => (await api().get(`${ED}/detail/${id}`).set(t.headers())).body;

  before(async () => {
    t = await cteTenant();
    await setTaxRegime(t, 0, 'LUCRO_REAL');
    products = [await makeProduct(t), await makeProduct(t), await makeProduct(t)];
    // The second product is bought for use and consumption (1556): the company's rule books it.
    const rule = await api()
      .post(`${ED}/cfop-rules`)
      .set(t.headers())
      .send({ issuerCfop: '5102', productId: products[1].hash, entryCfop: '1556' });
    expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    doc = await importNfe(t, [
      { code: 'RESALE', quantity: '10', unitPrice: '30', productId: products[0].hash, pisRate: '1.65', cofinsRate: '7.6' },
      { code: 'OFFICE', quantity: '10', unitPrice: '10', productId: products[1].hash },
      // Goods sent to be processed (5901 → 1901): third-party stock, they take no freight.
      { code: 'REMESSA', quantity: '5', unitPrice: '20', cfop: '5901', icms: { cst: '41' }, productId: products[2].hash },
    ]);
    items = (await detail(doc.id)).items;
    expect(items.map((i: any) => i.operationClass)).to.deep.equal(['PURCHASE_RESALE', 'PURCHASE_USE_CONSUMPTION', 'THIRD_PARTY_INBOUND']);
  });

  it('the freight goes to own-stock lines only; its ICMS is credited on the resale line, not on the use-and-consumption one', async () => {
    const cteId = await stage(t, t.cte({ total: '100.00', icms: { cst: '00', rate: '12' }, nfeKeys: [doc.accessKey] }));
    const res = await api().post(`${CTE}/apportion-preview/${cteId}`).set(t.headers()).send({});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.taxRegime).to.equal('LUCRO_REAL');
    // Shares of vTPrest by value (300 : 100), the ICMS (12.00) follows them; only the resale line's is credited. The
    // resale line also credits PIS/COFINS on its freight net of the ICMS (Lucro Real, Leis 10.637/2002 and 10.833/2003
    // art. 3): 75 − 9 = 66.00 → PIS 1.089 = 1.09, COFINS 5.016 = 5.02 → 66 − 6.11 = 59.89. Use and consumption takes none.
    expect(res.body.freight).to.deep.equal({
      serviceTotal: 100,
      icms: 12,
      recoverableIcms: 9,
      pisCredit: 1.09,
      cofinsCredit: 5.02,
      amount: 84.89,
    });
    expect(res.body.documents[0].amount).to.equal(84.89);
    expect(
      res.body.documents[0].lines.map((l: any) => [
        l.lineNumber,
        l.basis,
        l.share,
        l.icms,
        l.icmsCredit,
        l.pisCredit,
        l.cofinsCredit,
        l.amount,
      ]),
    ).to.deep.equal([
      [1, 300, 75, 9, 9, 1.09, 5.02, 59.89],
      [2, 100, 25, 3, 0, 0, 0, 25],
    ]);
    // The draft's net cost moves by exactly the apportioned freight: its credits stay as the fiscal booking took them.
    expect(res.body.documents[0].lines.map((l: any) => Number((l.unitCostAfter - l.unitCostBefore).toFixed(10)))).to.deep.equal([
      5.989, 2.5,
    ]);

    const applied = await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({});
    expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
    const after = (await detail(doc.id)).items;
    expect(after.map((i: any) => i.apportionedFreight)).to.deep.equal([59.89, 25, 0]);
    expect(after.map((i: any, n: number) => Number((i.unitCost - items[n].unitCost).toFixed(10)))).to.deep.equal([5.989, 2.5, 0]);
    // The PIS/COFINS credits of the resale line (on 300.00) are unchanged by the freight.
    const [row] = await rowsOf(
      'entry_document_item',
      t.companyId,
      'line_number = 1 AND entry_document_id = (SELECT id FROM entry_document WHERE access_key = ?)',
      [doc.accessKey],
    );
    expect([String(row.credit_pis), String(row.credit_cofins), String(row.apportioned_freight)].map(Number)).to.deep.equal([
      4.95, 22.8, 59.89,
    ]);

    const cte = (await api().get(`${CTE}/detail/${cteId}`).set(t.headers())).body;
    expect(cte.apportionment).to.deep.include({ amount: 84.89, recoverableIcms: 9, pisCredit: 1.09, cofinsCredit: 5.02 });
    expect(cte.allocations.map((a: any) => [a.lineNumber, a.share, a.icmsCredit, a.pisCredit, a.cofinsCredit, a.amount])).to.deep.equal([
      [1, 75, 9, 1.09, 5.02, 59.89],
      [2, 25, 0, 0, 0, 25],
    ]);
    // The carrier is owed the whole bill.
    expect(cte.payables.map((p: any) => p.amount)).to.deep.equal([100]);
  });

  it('manual shares are shares of vTPrest: they add up to it, and the ICMS follows them', async () => {
    const cteId = await stage(t, t.cte({ total: '50.00', icms: { cst: '00', rate: '12' }, nfeKeys: [doc.accessKey] }));
    const lines = (a: string, b: string) => [
      { itemId: items[0].id, amount: a },
      { itemId: items[1].id, amount: b },
    ];
    const short = await api()
      .post(`${CTE}/apportion-preview/${cteId}`)
      .set(t.headers())
      .send({ method: 'MANUAL', lines: lines('20.00', '24.00') });
    expect(short.body.blockingProblems).to.deep.equal([
      {
        code: 'CTE_MANUAL_SHARES_MISMATCH',
        message: "The manual shares add up to 44.00; the CT-e's vTPrest is 50.00",
        details: { shares: 44, serviceTotal: 50 },
      },
    ]);
    const res = await api()
      .post(`${CTE}/apportion-preview/${cteId}`)
      .set(t.headers())
      .send({ method: 'MANUAL', lines: lines('20.00', '30.00') });
    expect(res.body.blockingProblems).to.deep.equal([]);
    // ICMS 6.00 over 20 : 30 → 2.40 and 3.60; the resale line credits its part, and PIS/COFINS on 20 − 2.40 = 17.60:
    // PIS 0.2904 = 0.29, COFINS 1.3376 = 1.34 → 17.60 − 1.63 = 15.97.
    expect(res.body.documents[0].lines.map((l: any) => [l.share, l.icms, l.icmsCredit, l.amount])).to.deep.equal([
      [20, 2.4, 2.4, 15.97],
      [30, 3.6, 0, 30],
    ]);
    expect(res.body.freight).to.deep.equal({
      serviceTotal: 50,
      icms: 6,
      recoverableIcms: 2.4,
      pisCredit: 0.29,
      cofinsCredit: 1.34,
      amount: 45.97,
    });
  });

  it('a line whose class no longer takes own stock after the freight was put on it blocks confirmation', async () => {
    const rule = await api()
      .post(`${ED}/cfop-rules`)
      .set(t.headers())
      .send({ issuerCfop: '5102', productId: products[0].hash, entryCfop: '1949', operationClass: 'THIRD_PARTY_INBOUND' });
    expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    try {
      const pre = await api().get(`${ED}/confirm-preview/${doc.id}`).set(t.headers());
      expect(pre.status).to.equal(200);
      const problem = pre.body.blockingProblems.find((p: any) => p.code === 'APPORTIONED_FREIGHT_WITHOUT_STOCK');
      expect(problem, JSON.stringify(pre.body.blockingProblems)).to.include({ lineNumber: 1 });
      expectProblem(await api().post(`${ED}/confirm/${doc.id}`).set(t.headers()), 422, 'ENTRY_DOCUMENT_NOT_CONFIRMABLE');
    } finally {
      expect((await api().delete(`${ED}/cfop-rules/${rule.body.id}`).set(t.headers())).status).to.equal(204);
    }
    const pre = await api().get(`${ED}/confirm-preview/${doc.id}`).set(t.headers());
    expect(pre.body.blockingProblems.map((p: any) => p.code)).to.not.include('APPORTIONED_FREIGHT_WITHOUT_STOCK');
  });

  it('confirmed with its credits and third-party goods, freight posted since on the stock, then cancelled: stock, third-party goods and credits end where they started', async () => {
    const confirmed = await api().post(`${ED}/confirm/${doc.id}`).set(t.headers());
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    const costs = (await detail(doc.id)).items.map((i: any) => i.unitCost);
    expect(await stockOf(t, 0, products[0].id)).to.deep.equal({ quantity: '10.0000', averageCost: costs[0].toFixed(10) });
    expect(Number((await thirdPartyBalance(t, 0, products[2].id))!.quantity.toFixed(4))).to.equal(5);
    expect((await creditsOf(t, doc.id)).map((c) => [c.tax, c.status])).to.deep.equal([
      ['PIS', 'RECORDED'],
      ['COFINS', 'RECORDED'],
    ]);

    // A second CT-e onto the confirmed document: a value-only posting on the two own-stock lines.
    const cteId = await stage(t, t.cte({ total: '20.00', icms: { cst: '00', rate: '12' }, nfeKeys: [doc.accessKey] }));
    const applied = await api().post(`${CTE}/apportion/${cteId}`).set(t.headers()).send({});
    expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
    // 15.00 / 5.00 of vTPrest, ICMS 1.80 / 0.60: the resale line credits its part, and PIS/COFINS on 13.20:
    // PIS 0.2178 = 0.22, COFINS 1.0032 = 1.00 → 13.20 − 1.22 = 11.98.
    expect(applied.body.documents[0].lines.map((l: any) => [l.mode, l.share, l.icmsCredit, l.amount, l.absorbed])).to.deep.equal([
      ['STOCK_ADJUSTMENT', 15, 1.8, 11.98, 11.98],
      ['STOCK_ADJUSTMENT', 5, 0, 5, 5],
    ]);
    expect((await stockOf(t, 0, products[0].id)).averageCost).to.equal(new Dec(costs[0]).plus('1.198').toFixed(10));

    const cancelled = await api().post(`${ED}/cancel/${doc.id}`).set(t.headers()).send({ reason: 'teste' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    for (const p of products.slice(0, 2)) expect((await stockOf(t, 0, p.id)).quantity).to.equal('0.0000');
    expect(Number((await thirdPartyBalance(t, 0, products[2].id))!.quantity.toFixed(4))).to.equal(0);
    expect((await creditsOf(t, doc.id)).map((c) => [c.tax, c.status])).to.deep.equal([
      ['PIS', 'REVERSED'],
      ['COFINS', 'REVERSED'],
    ]);
    // Both CT-e's freight left with the goods: their cancels have nothing to take back from the stock.
    const cancelPreview = await api().get(`${CTE}/cancel-preview/${cteId}`).set(t.headers());
    expect(cancelPreview.body.blockingProblems).to.deep.equal([]);
    expect(cancelPreview.body.documents.flatMap((d: any) => d.lines)).to.deep.equal([]);
    expect(await stockMismatches(t)).to.deep.equal([]);
  });
});
