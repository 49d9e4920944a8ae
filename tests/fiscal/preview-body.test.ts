import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { fastPreviewBody, fiscalSchemas } from '../../src/modules/fiscal/fiscal.schemas';
import { api } from '../support/api';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * The preview body read by hand (issue 51, fiscal.schemas.ts fastPreviewBody): for a body it reads it
 * answers exactly joi's value; anything else is left to joi, whose errors the route answers unchanged.
 * (In the suite, core/http/validate.ts also checks every fast answer of every request against joi's.)
 */
const joiOf = (body: unknown) => fiscalSchemas.preview.body!.validate(body);
const product = encodeId('product', 7);
const line = { productId: product, quantity: '2', unitPrice: '9.90' };

/** Deep equality with Decs compared by value (a Dec is an object of internal words). */
const plain = (v: unknown): unknown =>
  v instanceof Dec
    ? `Dec(${v.toString()})`
    : Array.isArray(v)
      ? v.map(plain)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
        : v;

describe('Fiscal preview body read by hand', () => {
  it('answers joi’s value for the bodies it reads', () => {
    const bodies: unknown[] = [
      { date: '2026-06-15', items: [line] },
      {
        customerId: encodeId('customer', 3),
        filialId: encodeId('filial', 2),
        date: '2026-06-15',
        freight: 37.4,
        discount: '12.35',
        insurance: 0,
        otherExpenses: '1.5',
        operation: 'RETURN',
        model: 65,
        presence: 9,
        finalConsumer: false,
        items: [line, { productId: product, quantity: 1.5, unitPrice: 0, discount: 0.5 }],
      },
      { customerId: null, consumerDocument: '529.982.247-25', date: '2024-02-29', items: [line] },
      { consumerDocument: null, date: '2026-06-15', items: [{ ...line, quantity: '0.0001', unitPrice: '1234567.0123456789' }] },
    ];
    for (const body of bodies) {
      const fast = fastPreviewBody(body);
      const { value, error } = joiOf(body);
      expect(error, JSON.stringify(body)).to.equal(undefined);
      expect(fast, JSON.stringify(body)).to.not.equal(undefined);
      expect(plain(fast)).to.deep.equal(plain(value));
    }
  });

  it('leaves to joi every body it does not read as it is, valid or not', () => {
    const bodies: unknown[] = [
      { salesOrderId: encodeId('sales-order', 1), date: '2026-06-15' },
      { fulfillmentId: encodeId('fulfillment', 1), date: '2026-06-15' },
      { date: '2026-06-15' },
      { date: '2026-02-30', items: [line] },
      { date: '2026-06-15', items: [] },
      { date: '2026-06-15', items: [{ ...line, quantity: ' 2' }] },
      { date: '2026-06-15', items: [{ ...line, quantity: 0 }] },
      { date: '2026-06-15', items: [{ ...line, quantity: '1.00001' }] },
      { date: '2026-06-15', items: [{ ...line, unitPrice: -1 }] },
      { date: '2026-06-15', items: [{ ...line, discount: '1.001' }] },
      { date: '2026-06-15', items: [{ ...line, extra: 1 }] },
      { date: '2026-06-15', items: [{ ...line, productId: 'not an id!' }] },
      { date: '2026-06-15', items: [line], model: '55' },
      { date: '2026-06-15', items: [line], presence: 6 },
      { date: '2026-06-15', items: [line], finalConsumer: 'true' },
      { date: '2026-06-15', items: [line], consumerDocument: '111.111.111-11' },
      { date: '2026-06-15', items: [line], consumerDocument: ' 52998224725' },
      { date: '2026-06-15', items: [line], freight: '1e3' },
      { date: '2026-06-15', items: [line], operation: 'sale' },
      { date: '2026-06-15', items: [line], unknown: true },
      JSON.parse(`{"date":"2026-06-15","items":[${JSON.stringify(line)}],"__proto__":{"x":1}}`),
      { date: '2026-06-15', items: [line], constructor: 1 },
      [],
      null,
    ];
    for (const body of bodies) expect(fastPreviewBody(body), JSON.stringify(body)).to.equal(undefined);
  });

  describe('through the route', () => {
    let t: TestTenant;
    before(async () => {
      t = await createTestTenant();
    });

    it('a refused body answers joi’s problem: same code, paths and messages', async () => {
      const res = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ date: '2026-02-30', items: [{ productId: product, quantity: 0, unitPrice: '1.001', extra: 1 }], freight: -1 });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('VALIDATION_ERROR');
      expect(res.body.errors).to.have.deep.members([
        { path: 'date', message: 'date must be a calendar date YYYY-MM-DD' },
        { path: 'items[0].quantity', message: 'items[0].quantity must be greater than 0' },
        { path: 'items[0].extra', message: 'items[0].extra is not allowed' },
        { path: 'freight', message: 'freight must be at least 0' },
      ]);
    });
  });
});
