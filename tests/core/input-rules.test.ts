import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decimal, isCalendarDate, isoDate, isoTimestamp, Joi } from '../../src/core/http/schema';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { countOf, NFE, nfeTenant, NfeTenant } from '../nfe/nfe-support';

type FieldError = { path: string; message: string };
const byPath = (errors: FieldError[]) => [...errors].sort((a, b) => a.path.localeCompare(b.path));

/*
 * SPEC §0 "Input": one date type, decimals bounded by their columns, unknown fields refused. The rules
 * live in core/http (schema.ts, validate.ts); these tests pin them on the helpers and on real routes.
 */
describe('Input rules (SPEC §0)', () => {
  describe('isoDate(): real calendar dates only', () => {
    it('accepts calendar dates and refuses impossible ones', () => {
      for (const ok of ['2026-02-28', '2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31'])
        expect(isCalendarDate(ok), ok).to.equal(true);
      for (const bad of [
        '2026-02-30',
        '2025-02-29',
        '1900-02-29',
        '0000-00-00',
        '2026-00-10',
        '2026-13-01',
        '2026-04-31',
        '0999-12-31',
        '2026-1-01',
        '20260101',
        '2026-01-01T00:00:00Z',
        '',
      ])
        expect(isCalendarDate(bad), bad).to.equal(false);
      expect(isoDate().validate('2026-02-30').error?.details[0].type).to.equal('date.calendar');
      expect(isoDate().validate('2026-03-01').value).to.equal('2026-03-01');
    });

    it('isoTimestamp(): ISO 8601 with an offset, returned as a Date', () => {
      const ok = isoTimestamp().validate('2026-03-01T11:05:00.250-03:00');
      expect(ok.error).to.equal(undefined);
      expect((ok.value as Date).toISOString()).to.equal('2026-03-01T14:05:00.250Z');
      expect((isoTimestamp().validate('2026-03-01T14:05Z').value as Date).toISOString()).to.equal('2026-03-01T14:05:00.000Z');
      for (const bad of [
        '2026-02-30T10:00:00Z',
        '2026-03-01T24:00:00Z',
        '2026-03-01T10:60:00Z',
        '2026-03-01T10:00:00',
        '2026-03-01',
        '2026-03-01T10:00:00+15:00',
        'yesterday',
      ])
        expect(isoTimestamp().validate(bad).error?.details[0].type, bad).to.equal('date.timestamp');
    });
  });

  describe('decimal(): bounded by the column its scale names', () => {
    const check = (schema: ReturnType<typeof decimal>, value: unknown) => {
      const { error, value: v } = Joi.object({ x: schema }).validate({ x: value });
      if (error?.details[0].message === '"x" must be a number or a numeric string') return 'not-a-number';
      return error ? error.details[0].type : String(v.x);
    };

    it('amount 15,2 · quantity 18,4 · price 21,10 · factor 15,6 · percent 7,4', () => {
      expect(check(decimal('amount'), '9999999999999.99')).to.equal('9999999999999.99');
      expect(check(decimal('amount'), '10000000000000')).to.equal('decimal.max');
      expect(check(decimal('amount'), '-10000000000000')).to.equal('decimal.min');
      expect(check(decimal('amount'), '99999999999999999999')).to.equal('decimal.max');
      expect(check(decimal('amount'), 1e20)).to.equal('decimal.max');
      expect(check(decimal('quantity'), '99999999999999.9999')).to.equal('99999999999999.9999');
      expect(check(decimal('quantity'), '100000000000000')).to.equal('decimal.max');
      expect(check(decimal('price'), '99999999999.9999999999')).to.equal('99999999999.9999999999');
      expect(check(decimal('price'), '100000000000')).to.equal('decimal.max');
      expect(check(decimal('factor'), '1000000000')).to.equal('decimal.max');
      expect(check(decimal('percent'), '1000')).to.equal('decimal.max');
      // An explicit max narrows the column's range, never widens it.
      expect(check(decimal('amount', { max: 1e20 }), '10000000000000')).to.equal('decimal.max');
      expect(check(decimal('amount', { max: 10 }), '10.01')).to.equal('decimal.max');
    });

    it('scale, exponents, non-finite numbers and float-looking strings are refused', () => {
      expect(check(decimal('amount'), '1.005')).to.equal('decimal.scale');
      expect(check(decimal('amount'), 0.1)).to.equal('0.1');
      for (const bad of ['1e5', 'NaN', 'Infinity', '0x10', '', ' ', '1.', '.5', true, [], {}])
        expect(check(decimal('amount'), bad), String(bad)).to.equal('not-a-number');
      expect(check(decimal('amount'), '1'.repeat(61))).to.equal('not-a-number');
    });
  });

  describe('on the routes', () => {
    let t: TestTenant;
    let n: NfeTenant;
    let productHash: string;
    before(async () => {
      t = await createTestTenant();
      n = await nfeTenant();
      productHash = (await makeProduct(t)).hash;
    });
    const orders = () => dataSource.manager.countBy(SalesOrder, { companyId: t.companyId });

    it('createdFrom=0000-00-00 on the sales-order list → 400 naming the field', async () => {
      for (const bad of ['0000-00-00', '2026-02-30', '2026-13-01']) {
        const res = await api().get(`/api/sales-order/list/${t.filialHashes[0]}`).query({ createdFrom: bad }).set(t.headers());
        expectProblem(res, 400, 'VALIDATION_ERROR');
        expect(res.body.errors).to.deep.equal([{ path: 'query.createdFrom', message: 'createdFrom must be a calendar date YYYY-MM-DD' }]);
      }
    });

    it('entryDate 2026-02-30 on importar-xml → 400 on both engines, nothing stored', async () => {
      const { xml } = await n.nfe();
      const res = await api().post(`${NFE}/importar-xml`).set(n.headers()).send({ xml, entryDate: '2026-02-30' });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['entryDate']);
      expect(await countOf('entry_document', n.companyId)).to.equal(0);
      expect(await countOf('nfe_inbound', n.companyId)).to.equal(0);
    });

    it('numbers beyond their columns → 400 naming each field, identical on both engines, nothing stored', async () => {
      const before = await orders();
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          freight: '99999999999999999999',
          discount: 1e16,
          items: [{ productId: productHash, quantity: '123456789012345', unitPrice: '100000000000' }],
        });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(byPath(res.body.errors)).to.deep.equal(
        byPath([
          { path: 'discount', message: 'discount must be at most 9999999999999.99' },
          { path: 'freight', message: 'freight must be at most 9999999999999.99' },
          { path: 'items[0].quantity', message: 'items[0].quantity must be at most 99999999999999.9999' },
          { path: 'items[0].unitPrice', message: 'items[0].unitPrice must be at most 99999999999.9999999999' },
        ]),
      );
      expect(await orders()).to.equal(before);

      const product = await api().post('/api/catalog/products').set(t.headers()).send({ name: 'X', unit: 'UN', price: '123456789012' });
      expectProblem(product, 400, 'VALIDATION_ERROR');
      expect(product.body.errors[0].path).to.equal('price');
      const auto = await api()
        .post('/api/entry-document/product-map/auto-create')
        .set(t.headers())
        .send({ supplierDocument: n.document, supplierProductCode: 'Z1', description: 'Z', unit: 'UN', price: '1e3' });
      expectProblem(auto, 400, 'VALIDATION_ERROR');
      expect(auto.body.errors[0].path).to.equal('price');
    });

    it('unknown body fields → 400 UNKNOWN_FIELDS listing them; nothing written', async () => {
      const customer = await makeCustomer(t);
      const before = await orders();
      const res = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ costumerId: customer.hash, purchaseOrderId: 'x', items: [{ productId: productHash, quantity: 1, colour: 'red' }] });
      expectProblem(res, 400, 'UNKNOWN_FIELDS');
      expect(byPath(res.body.errors)).to.deep.equal(
        byPath([
          { path: 'costumerId', message: 'costumerId is not allowed' },
          { path: 'purchaseOrderId', message: 'purchaseOrderId is not allowed' },
          { path: 'items[0].colour', message: 'items[0].colour is not allowed' },
        ]),
      );
      expect(res.body.errors).to.have.length(3);
      expect(await orders()).to.equal(before);
      // Mixed with other problems the code stays VALIDATION_ERROR, and everything is listed.
      const mixed = await api().post('/api/sales-order').set(t.headers()).send({ costumerId: customer.hash });
      expectProblem(mixed, 400, 'VALIDATION_ERROR');
      expect(mixed.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['costumerId', 'items']);
    });

    it('unknown query parameters → 400, also on routes that take none; a body on a route without one → 400', async () => {
      const list = await api().get('/api/catalog/products').query({ serach: 'x', pageSize: 5 }).set(t.headers());
      expectProblem(list, 400, 'UNKNOWN_FIELDS');
      expect(list.body.errors).to.deep.equal([{ path: 'query.serach', message: 'serach is not allowed' }]);
      const me = await api().get('/api/me').query({ debug: 1 }).set(t.headers());
      expectProblem(me, 400, 'UNKNOWN_FIELDS');
      expect(me.body.errors).to.deep.equal([{ path: 'query.debug', message: 'debug is not allowed' }]);
      const order = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ items: [{ productId: productHash, quantity: 1 }] });
      expect(order.status).to.equal(201);
      const convert = await api().post(`/api/sales-order/convert-quote/${order.body.id}`).set(t.headers()).send({ force: true });
      expectProblem(convert, 400, 'UNKNOWN_FIELDS');
      expect(convert.body.errors).to.deep.equal([{ path: 'force', message: 'force is not allowed' }]);
    });

    it('the OpenAPI document states the rules: additionalProperties false, date formats, decimal ranges', async () => {
      const doc = (await api().get('/api/openapi.json')).body;
      const create = doc.paths['/api/sales-order'].post.requestBody.content['application/json'].schema;
      expect(create.additionalProperties).to.equal(false);
      expect(create.properties.freight['x-decimal']).to.deep.equal({ scale: 2, minimum: '0', maximum: '9999999999999.99' });
      const list = doc.paths['/api/sales-order/list/{filialId}'].get.parameters.find((p: { name: string }) => p.name === 'createdFrom');
      expect(list.schema).to.include({ type: 'string', format: 'date' });
    });
  });
});
