import { expect } from 'chai';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * The cash-session tests' world: a counter (quick sale: cash, Pix, credit and debit cards) with stock,
 * and helpers that drive sessions and sales through HTTP. A supervisor's token has every scope; the
 * operator's lacks cash-sessions:supervise (the blind close).
 */
export const OPERATOR_SCOPE = 'cash-sessions:read cash-sessions:write sales-order:write quick-sale:write';

export interface CashCounter {
  t: TestTenant;
  product: { id: number; hash: string };
  operator: (i?: number) => Record<string, string>;
  open(terminalId: string, openingFloat: string | number, i?: number): Promise<any>;
  sell(terminalId: string | undefined, payments: object[], quantity?: number, i?: number): ReturnType<ReturnType<typeof api>['post']>;
  move(
    id: string,
    type: 'SANGRIA' | 'SUPRIMENTO',
    amount: string | number,
    headers?: Record<string, string>,
  ): ReturnType<ReturnType<typeof api>['post']>;
  close(id: string, counted: object[], headers?: Record<string, string>): ReturnType<ReturnType<typeof api>['post']>;
  configure(over?: Record<string, unknown>, i?: number): Promise<any>;
}

export async function cashCounter(existing?: TestTenant): Promise<CashCounter> {
  const t = existing ?? (await createTestTenant());
  const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
  for (const [code, kind] of [
    ['CASH', 'CASH'],
    ['PIX', 'PIX'],
    ['CREDIT_CARD', 'CREDIT_CARD'],
    ['DEBIT_CARD', 'DEBIT_CARD'],
  ] as const)
    await makePaymentMethod(t, code, kind).catch(() => undefined);
  // One unit costs 10.00: sums stay readable.
  const product = await makeProduct(t, { name: 'Caixa de bombons', price: '10.00' as never });
  await addStock(t, 0, product.id, 100_000, '4');
  await addStock(t, 1, product.id, 100_000, '4');
  const versions = [0, 0];
  const configure = async (over: Record<string, unknown> = {}, i = 0) => {
    const res = await api()
      .put(`/api/quick-sale/configuration/${t.filialHashes[i]}`)
      .set(t.headers(i))
      .send({
        enabled: true,
        defaultCustomerId: walkIn.hash,
        paymentMethods: ['CASH', 'PIX', 'CREDIT_CARD', 'DEBIT_CARD'],
        defaultPaymentMethod: 'CASH',
        cashDifferenceLimit: 5,
        ...over,
        ...(versions[i] ? { version: versions[i] } : {}),
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    versions[i] = res.body.version;
    return res.body;
  };
  await configure({}, 0);
  await configure({}, 1);
  return {
    t,
    product,
    operator: (i = 0) => t.headersWith({ scope: OPERATOR_SCOPE, sub: 'ana.caixa' }, i),
    async open(terminalId, openingFloat, i = 0) {
      const res = await api()
        .post('/api/cash-sessions')
        .set(t.headers(i))
        .send({ filialId: t.filialHashes[i], terminalId, operatorId: 'ana.caixa', openingFloat });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body;
    },
    sell: (terminalId, payments, quantity = 1, i = 0) =>
      api()
        .post('/api/sales-order')
        .set(t.headers(i))
        .send({ flowMode: 'QUICK_SALE', items: [{ productId: product.hash, quantity }], payments, ...(terminalId ? { terminalId } : {}) }),
    move: (id, type, amount, headers = t.headers()) =>
      api()
        .post(`/api/cash-sessions/${id}/movements`)
        .set(headers)
        .send({ type, amount, reason: `${type} de teste` }),
    close: (id, counted, headers = t.headers()) => api().post(`/api/cash-sessions/${id}/close`).set(headers).send({ counted }),
    configure,
  };
}

export const line = (session: any, method: string) => (session.closing as any[]).find((l) => l.method === method);
