import { expect } from 'chai';
import type { ObjectSchema } from 'joi';
import { allRoutes } from '../../src/modules';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { createTestTenant, TestTenant } from '../support/tenant';

/** POSTs that compute and answer without changing anything: the only ones without Idempotency-Key. */
const READ_ONLY_POST = /\/(match|preview|preview-import|preview-manual|group\/preview)$|\/apportion-preview\/:id$/;

/*
 * SPEC §0 as a property of the route table, so routes added later are held to it too: every POST that
 * creates or posts honours Idempotency-Key, every PATCH requires `version`, every list is paginated.
 */
describe('Route contract (SPEC §0)', () => {
  const routes = allRoutes();

  it('every POST that creates or posts honours Idempotency-Key', () => {
    const missing = routes.filter((r) => r.method === 'post' && !READ_ONLY_POST.test(r.path) && !r.idempotent).map((r) => r.path);
    expect(missing).to.deep.equal([]);
  });

  it('every PATCH requires version', () => {
    const missing = routes
      .filter((r) => r.method === 'patch')
      .filter((r) => {
        const version = (r.schema?.body as ObjectSchema | undefined)?.describe().keys?.version;
        return version?.flags?.presence !== 'required';
      })
      .map((r) => r.path);
    expect(missing).to.deep.equal([]);
  });

  it('every list route takes page, pageSize and cursor', async () => {
    const t = await createTestTenant({ filiais: 1 });
    const customer = await makeCustomer(t);
    const lists = ['/api/webhooks', `/api/returns/returnable-items/${t.filialHashes[0]}?customerId=${customer.hash}`];
    for (const url of lists) {
      const res = await api().get(url).query({ pageSize: 1 }).set(t.headers());
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.pagination, url).to.include.keys('page', 'pageSize', 'total', 'hasMore', 'nextCursor');
    }
    const paginated = routes.filter(
      (r) => r.method === 'get' && (r.schema?.query as ObjectSchema | undefined)?.describe().keys?.cursor,
    ).length;
    expect(paginated).to.be.greaterThan(15);
  });

  describe('idempotent conversions and assignment', () => {
    let t: TestTenant;
    let product: string;
    before(async () => {
      t = await createTestTenant({ filiais: 1 });
      product = (await makeProduct(t)).hash;
    });

    it('convert-quote, convert-order-to-quote and assign-customer replay their first answer for a retried key', async () => {
      const quote = await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ type: 'QUOTE', items: [{ productId: product, quantity: 1 }] });
      expect(quote.status).to.equal(201);
      const convert = () =>
        api().post(`/api/sales-order/convert-quote/${quote.body.id}`).set(t.headers()).set('Idempotency-Key', `cq-${quote.body.id}`);
      const first = await convert();
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      const retried = await convert();
      expect(retried.status).to.equal(200);
      expect(retried.headers['idempotent-replayed']).to.equal('true');
      expect(retried.body).to.deep.equal(first.body);

      const back = () =>
        api()
          .post(`/api/sales-order/convert-order-to-quote/${quote.body.id}`)
          .set(t.headers())
          .set('Idempotency-Key', `oq-${quote.body.id}`)
          .send({});
      const toQuote = await back();
      expect(toQuote.status, JSON.stringify(toQuote.body)).to.equal(200);
      expect((await back()).headers['idempotent-replayed']).to.equal('true');

      const customer = await makeCustomer(t);
      const assign = () =>
        api()
          .post(`/api/sales-order/${quote.body.id}/assign-customer`)
          .set(t.headers())
          .set('Idempotency-Key', `ac-${quote.body.id}`)
          .send({ customerId: customer.hash });
      const assigned = await assign();
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
      const again = await assign();
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.body.version).to.equal(assigned.body.version);
    });
  });
});
