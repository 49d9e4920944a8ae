import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Dec, storedDifferenceToJsonNumber, storedToJsonNumber, toJsonNumber } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { toSalesOrderDto } from '../../src/modules/sales-order/sales-order.mapper';
import { loadView } from '../../src/modules/sales-order/sales-order.repository';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct, makeSeller } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill, insertOrders } from './support';

/*
 * A list page maps its orders from plain rows (loadListed → toSalesOrderListDto), not from hydrated
 * entities: every order of the page must come out byte for byte as the single read's DTO
 * (loadView → toSalesOrderDto) gives it, whatever its state.
 */
describe('Sales orders: a list page maps rows exactly as the entity mapper does', () => {
  let t: TestTenant;

  before(async () => {
    t = await createTestTenant();
    const p1 = await makeProduct(t, { price: new Dec('10.99') });
    const p2 = await makeProduct(t, { price: new Dec('0.3333333333') });
    await addStock(t, 0, p1.id, 1000, '4');
    await addStock(t, 0, p2.id, 1000, '0.1');
    const customer = await makeCustomer(t, { name: 'Maria Ávila' });
    const seller = await makeSeller(t, { name: 'João Caixa' });
    // Plain orders with odd amounts, a quote, a partly fulfilled order, a cancelled one, a group.
    const a = await createOrder(t, {
      customerId: customer.hash,
      sellerId: seller.hash,
      discount: '2.37',
      freight: '5.1',
      notes: 'Entregar às 14h "portão"',
      items: [
        { productId: p1.hash, quantity: '2.5' },
        { productId: p2.hash, quantity: '7.1234', discount: '0.01' },
      ],
    });
    const b = await createOrder(t, {
      customerId: customer.hash,
      sellerId: seller.hash,
      items: [
        { productId: p1.hash, quantity: 3, unitPrice: '8.1234567891' },
        { productId: p2.hash, quantity: '1.0001' },
      ],
    });
    await createOrder(t, { type: 'QUOTE', items: [{ productId: p1.hash, quantity: 1 }] });
    await createOrder(t, { type: 'QUOTE', validUntil: '2999-12-31', items: [{ productId: p2.hash, quantity: '12345.6789' }] });
    const partly = await createOrder(t, {
      items: [
        { productId: p1.hash, quantity: 5 },
        { productId: p2.hash, quantity: '3.3' },
      ],
    });
    expect((await fulfill(t, partly.id, [{ salesOrderItemId: partly.items[0].salesOrderItemId, quantity: '1.5' }])).status).to.equal(201);
    const cancelled = await createOrder(t, { items: [{ productId: p1.hash, quantity: 1 }] });
    expect((await api().post(`/api/sales-order/cancel/${cancelled.id}`).set(t.headers()).send({ reason: 'desistiu' })).status).to.equal(
      200,
    );
    expect(
      (
        await api()
          .post('/api/sales-order/group')
          .set(t.headers())
          .send({ salesOrderIds: [a.id, b.id] })
      ).status,
    ).to.equal(201);
    // Written straight to the table: an expired quote, no customer or seller, amounts at the column limits.
    await insertOrders(t, p1.id, [
      { type: 'QUOTE', validUntil: '2001-02-03', alias: 'OBRA' },
      { grossTotal: new Dec('9999999999999.99'), itemsDiscount: new Dec('0.01'), total: new Dec('9999999999999.98') },
      { grossTotal: new Dec('0'), total: new Dec('-0.00') },
    ]);
  });

  for (const path of ['list', 'or-get'] as const) {
    it(`${path === 'list' ? 'GET /sales-order/list/:filialId' : 'GET /sales-order/:filialId'}: every order as toSalesOrderDto(loadView) gives it`, async () => {
      const url = path === 'list' ? `/api/sales-order/list/${t.filialHashes[0]}` : `/api/sales-order/${t.filialHashes[0]}`;
      const res = await api().get(url).query({ pageSize: 100 }).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.length).to.equal(10);
      for (const listed of res.body.data) {
        const view = await loadView(dataSource.manager, t.companyId, decodeId('sales-order', listed.id));
        expect(JSON.stringify(listed)).to.equal(JSON.stringify(toSalesOrderDto(view)));
      }
      const states = res.body.data.map(
        (o: { status: string; type: string; groupedFromIds: string[]; expired: boolean }) =>
          `${o.type}:${o.status}:${o.groupedFromIds.length}:${o.expired}`,
      );
      expect(states).to.include.members([
        'ORDER:PARTIALLY_FULFILLED:0:false',
        'ORDER:CANCELLED:0:false',
        'ORDER:GROUPED:0:false',
        'ORDER:OPEN:2:false',
        'QUOTE:OPEN:0:true',
        'QUOTE:OPEN:0:false',
      ]);
      expect(res.body.data.some((o: { items: { origins: unknown[] | null }[] }) => o.items.some((i) => i.origins?.length))).to.equal(true);
    });
  }

  it('stored decimals: the fast readings equal toJsonNumber on the same text', () => {
    const texts = [
      '0',
      '-0',
      '0.00',
      '-0.00',
      '12.3',
      '12.30',
      '12.345',
      '12.3456',
      '12.34565',
      '-7.125',
      '1e3',
      '+5',
      '.5',
      '5.',
      '007.50',
      '9999999999999.99',
      '99999999999999.9999',
      '12345678901234567890.1234',
      '0.0000000001',
      '0.00000000005',
    ];
    for (const scale of ['amount', 'quantity', 'price'] as const) {
      for (const text of texts) {
        let expected: unknown;
        try {
          expected = toJsonNumber(text, scale);
        } catch {
          expected = 'throws';
        }
        let actual: unknown;
        try {
          actual = storedToJsonNumber(text, scale);
        } catch {
          actual = 'throws';
        }
        expect(JSON.stringify(actual), `${text} at ${scale}`).to.equal(JSON.stringify(expected));
      }
      // Random short texts of digits, signs, points and other characters: the same answer (or the same refusal).
      let s = 99;
      const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
      for (let i = 0; i < 3000; i++) {
        const random = Array.from({ length: next() % 9 }, () => '0123456789-.e+ x'[next() % 16]).join('');
        const answer = (f: () => unknown) => {
          try {
            return JSON.stringify(f());
          } catch {
            return 'throws';
          }
        };
        expect(
          answer(() => storedToJsonNumber(random, scale)),
          `${random} at ${scale}`,
        ).to.equal(answer(() => toJsonNumber(random, scale)));
      }
      expect(storedToJsonNumber(null, scale)).to.equal(null);
      expect(storedToJsonNumber(1.5, scale)).to.equal(1.5);
    }
    // Differences: random fixed-point texts (and a few that leave the integer path) against decimal.js.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = (places: number) => {
      const intDigits = 1 + Math.floor(rnd() * 16);
      const int = Array.from({ length: intDigits }, () => Math.floor(rnd() * 10)).join('');
      const frac = Array.from({ length: Math.floor(rnd() * (places + 2)) }, () => Math.floor(rnd() * 10)).join('');
      return `${rnd() < 0.2 ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
    };
    for (let i = 0; i < 5000; i++) {
      const scale = rnd() < 0.5 ? 'quantity' : 'amount';
      const places = scale === 'quantity' ? 4 : 2;
      const [a, b, c] = [text(places), text(places), text(places)];
      const expected = toJsonNumber(new Dec(a).minus(b).minus(c), scale);
      expect(JSON.stringify(storedDifferenceToJsonNumber(scale, a, b, c)), `${a} - ${b} - ${c} at ${scale}`).to.equal(
        JSON.stringify(expected),
      );
    }
  });
});
