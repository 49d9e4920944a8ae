import { expect } from 'chai';
import fc from 'fast-check';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { useTefSimulator } from '../../src/dev/tef-simulator';
import { dataSource } from '../../src/core/db/data-source';
import { CashSession } from '../../src/modules/cash-sessions/entities/cash-session.entity';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant } from '../support/tenant';
import { canValidateXsd, xsdErrors } from '../invoices/conformance-support';
import { counterTenant } from '../nfce/support';
import type { InvoiceTenant } from '../invoices/support';

/*
 * The session's NFC-e (issue 48): every counter payment's identification goes into detPag (card group:
 * tpIntegra, CNPJ, tBand, cAut; Pix dynamic 17 / static 20 with the endToEndId as cAut; CNPJPag/UFPag)
 * and every note validates against PL_010 (xmllint); contingency notes belong to the session; a
 * cancelled sale leaves the expected totals; the Z report lists the notes with their status; the TEF
 * authorizes a card through the simulator (registered by the test, as the development start does).
 */
describe('Cash sessions: the NFC-e of a session, its payment groups (PL_010) and the TEF simulator', function () {
  this.timeout(180_000);
  let t: InvoiceTenant;
  let sessionId: string;
  const TERMINAL = 'CX01';

  const sellAt = (terminalId: string, payments: object[], quantity = 1) =>
    api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({ flowMode: 'QUICK_SALE', terminalId, items: [{ productId: t.products[0].hash, quantity, unitPrice: '10.00' }], payments });
  const sell = (payments: object[], quantity = 1) => sellAt(TERMINAL, payments, quantity);
  const xmlOf = async (nfceId: string) => {
    const res = await api().get(`/api/nfce/${nfceId}/xml`).set(t.headers());
    expect(res.status).to.equal(200);
    return res.text;
  };
  const valid = (xml: string) => {
    if (!canValidateXsd) return;
    expect(xsdErrors(xml, xml.includes('<nfeProc') ? 'procNFe_v4.00.xsd' : 'nfe_v4.00.xsd')).to.equal(null);
  };
  const detPag = (xml: string) => /<pag>.*<\/pag>/s.exec(xml)![0];

  before(async () => {
    const counter = await counterTenant();
    t = counter.t;
    await counter.save();
    await makePaymentMethod(t, 'CREDIT_CARD', 'CREDIT_CARD');
    await makePaymentMethod(t, 'DEBIT_CARD', 'DEBIT_CARD');
    const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
    const cfg = await api().get(`/api/quick-sale/configuration/${t.filialHashes[0]}`).set(t.headers());
    const saved = await api()
      .put(`/api/quick-sale/configuration/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        enabled: true,
        defaultCustomerId: walkIn.hash,
        paymentMethods: ['CASH', 'PIX', 'CREDIT_CARD', 'DEBIT_CARD'],
        defaultPaymentMethod: 'CASH',
        requireCashSession: true,
        cashDifferenceLimit: 1,
        version: cfg.body.version,
      });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const opened = await api()
      .post('/api/cash-sessions')
      .set(t.headers())
      .send({ filialId: t.filialHashes[0], terminalId: TERMINAL, operatorId: 'ana.caixa', openingFloat: 100 });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    sessionId = opened.body.id;
  });

  afterEach(() => {
    t.sim.issuer.downFor(0);
  });

  after(() => useTefSimulator(null));

  it('the TEF authorizes a card at the terminal (simulator only); without an adapter 422; a decline 422; the answer is the payment group of the sale', async () => {
    useTefSimulator(null);
    expectProblem(
      await api().post(`/api/cash-sessions/${sessionId}/tef-authorizations`).set(t.headers()).send({ method: 'CREDIT_CARD', amount: 20 }),
      422,
      'TEF_NOT_AVAILABLE',
    );
    useTefSimulator();
    expectProblem(
      await api().post(`/api/cash-sessions/${sessionId}/tef-authorizations`).set(t.headers()).send({ method: 'CASH', amount: 20 }),
      422,
      'TEF_METHOD_NOT_CARD',
    );
    expectProblem(
      await api().post(`/api/cash-sessions/${sessionId}/tef-authorizations`).set(t.headers()).send({ method: 'CREDIT_CARD', amount: 9000 }),
      422,
      'TEF_DECLINED',
    );
    expectProblem(
      await api().post(`/api/cash-sessions/${sessionId}/tef-authorizations`).set(t.headers()).send({ method: 'CREDIT_CARD', amount: -1 }),
      400,
    );
    const tef = await api()
      .post(`/api/cash-sessions/${sessionId}/tef-authorizations`)
      .set(t.headers())
      .send({ method: 'CREDIT_CARD', amount: 20 });
    expect(tef.status, JSON.stringify(tef.body)).to.equal(201);
    expect(tef.body.card).to.include({ integration: 'TEF', acquirerCnpj: '01027058000191', brand: '01' });
    const sale = await sell([{ method: 'CREDIT_CARD', amount: 20, card: tef.body.card }], 2);
    expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
    expect(sale.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const xml = await xmlOf(sale.body.fiscalDocument.id);
    expect(detPag(xml)).to.contain(
      `<detPag><indPag>0</indPag><tPag>03</tPag><vPag>20.00</vPag><card><tpIntegra>1</tpIntegra><CNPJ>01027058000191</CNPJ><tBand>01</tBand><cAut>${tef.body.card.authorizationCode}</cAut></card></detPag>`,
    );
    valid(xml);
    const found = await api().get(`/api/receivables/${t.filialHashes[0]}?nsu=${tef.body.card.nsu}`).set(t.headers());
    expect(found.body.data).to.have.length(1);
    expect(found.body.data[0]).to.include({ debtorType: 'ACQUIRER', grossAmount: 20 });
  });

  it('every payment group validates against PL_010: POS card, Pix dynamic (17) and static (20), cash with change, a payment taken elsewhere (CNPJPag/UFPag)', async () => {
    const cases: { payments: object[]; quantity: number; fragment: string }[] = [
      {
        payments: [{ method: 'DEBIT_CARD', amount: 10, card: { integration: 'POS', brand: '02', nsu: '778899' } }],
        quantity: 1,
        fragment: '<tPag>04</tPag><vPag>10.00</vPag><card><tpIntegra>2</tpIntegra><tBand>02</tBand></card>',
      },
      {
        payments: [{ method: 'DEBIT_CARD', amount: 10 }],
        quantity: 1,
        fragment: '<tPag>04</tPag><vPag>10.00</vPag><card><tpIntegra>2</tpIntegra></card>',
      },
      {
        payments: [{ method: 'PIX', amount: 30, pix: { endToEndId: 'E1803615020261202153012345678901', pspCnpj: '18236120000158' } }],
        quantity: 3,
        fragment:
          '<tPag>17</tPag><vPag>30.00</vPag><card><tpIntegra>2</tpIntegra><CNPJ>18236120000158</CNPJ><cAut>E1803615020261202153012345678901</cAut></card>',
      },
      {
        payments: [{ method: 'PIX', amount: 10, pix: { endToEndId: 'E0000000020261202153012345678902', static: true } }],
        quantity: 1,
        fragment: '<tPag>20</tPag><vPag>10.00</vPag><card><tpIntegra>2</tpIntegra><cAut>E0000000020261202153012345678902</cAut></card>',
      },
      {
        payments: [{ method: 'CASH', amount: 50 }],
        quantity: 2,
        fragment: '<tPag>01</tPag><vPag>50.00</vPag></detPag><vTroco>30.00</vTroco>',
      },
      {
        payments: [
          {
            method: 'CREDIT_CARD',
            amount: 10,
            takenAt: { cnpj: '11222333000181', uf: 'SP' },
            card: { integration: 'POS', acquirerCnpj: '01027058000191', authorizationCode: 'X9', nsu: '42' },
          },
        ],
        quantity: 1,
        fragment:
          '<tPag>03</tPag><vPag>10.00</vPag><CNPJPag>11222333000181</CNPJPag><UFPag>SP</UFPag><card><tpIntegra>2</tpIntegra><CNPJ>01027058000191</CNPJ><cAut>X9</cAut></card>',
      },
    ];
    for (const c of cases) {
      const sale = await sell(c.payments, c.quantity);
      expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
      const xml = await xmlOf(sale.body.fiscalDocument.id);
      expect(detPag(xml)).to.contain(c.fragment);
      valid(xml);
    }
  });

  it('contingency notes belong to the session; a cancelled sale leaves the expected totals; the Z report lists the NFC-e with their status', async () => {
    t.sim.issuer.downFor(600_000);
    const offline = await sell([{ method: 'CASH', amount: 10 }], 1);
    expect(offline.status, JSON.stringify(offline.body)).to.equal(201);
    expect(offline.body.fiscalDocument.status).to.equal('CONTINGENCY');
    valid(await xmlOf(offline.body.fiscalDocument.id));
    t.sim.issuer.downFor(0);
    // The queue transmits it (it stays the session's); the counter is online again.
    expect((await runNfceQueue()).transmitted).to.equal(1);
    const cancelledSale = await sell([{ method: 'CASH', amount: 40 }], 4);
    expect(cancelledSale.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const x1 = await api().get(`/api/cash-sessions/${sessionId}/report/x`).set(t.headers());
    const cashBefore = x1.body.figures.lines.find((l: any) => l.method === 'CASH').expected;
    const cancel = await api()
      .post(`/api/nfce/${cancelledSale.body.fiscalDocument.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Venda cancelada a pedido do cliente' });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    const x2 = await api().get(`/api/cash-sessions/${sessionId}/report/x`).set(t.headers());
    expect(x2.body.figures.lines.find((l: any) => l.method === 'CASH').expected).to.equal(cashBefore - 40);
    expect(x2.body.figures.cancelledSalesCount).to.equal(1);

    const lines = x2.body.figures.lines as { method: string; expected: number }[];
    const closed = await api()
      .post(`/api/cash-sessions/${sessionId}/close`)
      .set(t.headers())
      .send({ counted: lines.map((l) => ({ method: l.method, amount: l.expected })) });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    expect(closed.body).to.include({ status: 'CLOSED', closingDifference: 0 });
    // 100 float + 50 − 30 (change) + 10 (contingency) = 130; the cancelled 40 is out.
    expect(closed.body.expectedCash).to.equal(130);
    const z = await api().get(`/api/cash-sessions/${sessionId}/report/z`).set(t.headers());
    expect(z.status).to.equal(200);
    expect(z.body.fiscalDocuments).to.have.length(9);
    expect(z.body.fiscalDocumentsByStatus).to.deep.equal({ AUTHORIZED: 8, CANCELLED: 1 });
    const contingency = z.body.fiscalDocuments.find((n: any) => n.id === offline.body.fiscalDocument.id);
    expect(contingency).to.include({ status: 'AUTHORIZED', contingency: true });
    const stored = await dataSource.manager.findOneByOrFail(CashSession, { id: decodeId('cash-session', sessionId) });
    expect(stored.closing!.map((l) => l.method)).to.deep.equal(['CASH', 'CREDIT_CARD', 'DEBIT_CARD', 'PIX']);
    const other = await createTestTenant();
    expectProblem(await api().get(`/api/cash-sessions/${sessionId}/report/z`).set(other.headers()), 404, 'CASH_SESSION_NOT_FOUND');
  });

  it('property: generated days with NFC-e — sales in every method, contingency notes, cancelled sales, movements — expected = the formula without the cancelled, counted exactly → no difference', async () => {
    let run = 0;
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('sale' as const),
        units: fc.integer({ min: 1, max: 3 }),
        method: fc.constantFrom('CASH', 'PIX', 'CREDIT_CARD', 'DEBIT_CARD'),
        extra: fc.integer({ min: 0, max: 9 }),
        offline: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('cancel' as const) }),
      fc.record({ kind: fc.constant('suprimento' as const), amount: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant('sangria' as const), amount: fc.integer({ min: 1, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 50 }), fc.array(op, { minLength: 1, maxLength: 5 }), async (float, ops) => {
        const terminal = `PR${++run}`;
        const opened = await api()
          .post('/api/cash-sessions')
          .set(t.headers())
          .send({ filialId: t.filialHashes[0], terminalId: terminal, operatorId: 'ana.caixa', openingFloat: float });
        expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
        const id = opened.body.id;
        let drawer = new Dec(float);
        const others = new Map<string, Dec>();
        const cancellable: { nfceId: string; method: string; total: Dec }[] = [];
        let cancelled = 0;
        for (const o of ops) {
          if (o.kind === 'sale') {
            const total = new Dec(o.units * 10);
            if (o.offline) t.sim.issuer.downFor(600_000);
            const r = await sellAt(
              terminal,
              [{ method: o.method, amount: (o.method === 'CASH' ? total.plus(o.extra) : total).toFixed(2) }],
              o.units,
            );
            t.sim.issuer.downFor(0);
            expect(r.status, JSON.stringify(r.body)).to.equal(201);
            valid(await xmlOf(r.body.fiscalDocument.id));
            if (o.method === 'CASH') drawer = drawer.plus(total);
            else others.set(o.method, (others.get(o.method) ?? new Dec(0)).plus(total));
            if (r.body.fiscalDocument.status === 'AUTHORIZED')
              cancellable.push({ nfceId: r.body.fiscalDocument.id, method: o.method, total });
          } else if (o.kind === 'cancel') {
            const last = cancellable.pop();
            if (!last) continue;
            const r = await api()
              .post(`/api/nfce/${last.nfceId}/cancel`)
              .set(t.headers())
              .send({ justification: 'Venda cancelada a pedido do cliente' });
            expect(r.status, JSON.stringify(r.body)).to.equal(200);
            cancelled += 1;
            if (last.method === 'CASH') drawer = drawer.minus(last.total);
            else others.set(last.method, others.get(last.method)!.minus(last.total));
          } else {
            const r = await api()
              .post(`/api/cash-sessions/${id}/movements`)
              .set(t.headers())
              .send({ type: o.kind === 'sangria' ? 'SANGRIA' : 'SUPRIMENTO', amount: o.amount, reason: 'Movimento de teste' });
            if (o.kind === 'sangria' && drawer.lt(o.amount)) expectProblem(r, 422, 'SANGRIA_EXCEEDS_CASH');
            else {
              expect(r.status, JSON.stringify(r.body)).to.equal(201);
              drawer = o.kind === 'sangria' ? drawer.minus(o.amount) : drawer.plus(o.amount);
            }
          }
        }
        // The contingency notes go out; they stay the session's.
        await runNfceQueue();
        const counted = [
          { method: 'CASH', amount: drawer.toFixed(2) },
          ...[...others].map(([method, v]) => ({ method, amount: v.toFixed(2) })),
        ];
        const closed = await api().post(`/api/cash-sessions/${id}/close`).set(t.headers()).send({ counted });
        expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
        expect(closed.body).to.include({ status: 'CLOSED', closingDifference: 0, expectedCash: Number(drawer.toFixed(2)) });
        for (const [method, v] of others)
          expect((closed.body.closing as any[]).find((l) => l.method === method)).to.include({
            expected: Number(v.toFixed(2)),
            difference: 0,
          });
        const z = await api().get(`/api/cash-sessions/${id}/report/z`).set(t.headers());
        expect(z.body.figures.cancelledSalesCount).to.equal(cancelled);
        expect(z.body.fiscalDocumentsByStatus.CANCELLED ?? 0).to.equal(cancelled);
        expect(z.body.fiscalDocuments).to.have.length(ops.filter((o) => o.kind === 'sale').length);
      }),
      { numRuns: 5 },
    );
  });
});
