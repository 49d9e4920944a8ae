import { expect } from 'chai';
import { isMysql } from '../../src/core/db/engine';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct, makeSeller } from '../support/catalog';
import { createDraft, draftBody, item } from '../entry-document/support';
import { createOrder, fulfill } from '../sales-order/support';
import { recordStatements, shapeOf, transactionsOf } from '../support/statements';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * What the hot transactions send to MySQL and in how many round trips (docs/decisions.md "Round
 * trips"): the batching exists for these figures, so they are pinned here statement by statement.
 * A change that adds a round trip or a statement fails this test; update the pinned shapes on
 * purpose, with the new figure in decisions.md.
 */
describe('Round trips of the hot transactions (MySQL)', function () {
  let t: TestTenant;
  let products: { id: number; hash: string }[];

  before(async function () {
    // SQLite runs each statement as it is issued, in process: there are no round trips to save or pin.
    if (!isMysql) this.skip();
    t = await createTestTenant();
    const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
    const seller = await makeSeller(t, { name: 'Caixa 1' });
    await makePaymentMethod(t, 'CASH', 'CASH');
    await makePaymentMethod(t, 'PIX', 'PIX');
    products = [];
    for (const name of ['Pão', 'Leite']) {
      const p = await makeProduct(t, { name, price: '5.00' as never });
      await addStock(t, 0, p.id, 100, '2.00');
      products.push(p);
    }
    const res = await api()
      .put(`/api/quick-sale/configuration/${t.filialHashes[0]}`)
      .set(t.headers())
      .send({
        enabled: true,
        defaultCustomerId: walkIn.hash,
        defaultSellerId: seller.hash,
        paymentMethods: ['CASH', 'PIX'],
        defaultPaymentMethod: 'CASH',
      });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
  });

  it('a quick sale', async () => {
    const { result: res, roundTrips } = await recordStatements(() =>
      api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({
          flowMode: 'QUICK_SALE',
          items: products.map((p) => ({ productId: p.hash, quantity: 2 })),
          payments: [{ method: 'CASH', amount: '50.00' }],
        }),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // One transaction in 2 round trips and nothing else logged: the x-filial-id filial and the
    // counter's setup are read with the products and the stock lock; then every write with the COMMIT.
    // The order, its lines and its fulfilment have their ids before the INSERTs (core/sequence/ids.ts),
    // so they are written with the rest, already fulfilled. The order code (and, once per block, the
    // ids) are taken on the sequence pool meanwhile (its own connection, not logged here).
    expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
      [
        'START TRANSACTION',
        'SELECT filial',
        'SELECT quick_sale_configuration',
        'SELECT payment_method',
        'SELECT customer',
        'SELECT seller',
        'SELECT product',
        'SELECT stock_balance FOR UPDATE',
      ],
      // The receivables (one per payment; cash born RECEIVED with its receipt) and their audit rows and
      // receivable.created events travel in the same batch: four statements more, no round trip.
      [
        'INSERT sales_order',
        'INSERT sales_order_item',
        'INSERT fulfillment',
        'UPDATE stock_balance',
        'INSERT stock_movement',
        'INSERT fulfillment_item',
        'INSERT sale_payment',
        'INSERT receivable',
        'INSERT receivable_receipt',
        'INSERT audit_log',
        'INSERT outbox_event',
        'INSERT audit_log',
        'INSERT outbox_event',
        'COMMIT',
      ],
    ]);
  });

  it('a fulfilment', async () => {
    const order = await createOrder(t, { items: products.map((p) => ({ productId: p.hash, quantity: 3 })) });
    const { result: res, roundTrips } = await recordStatements(() =>
      fulfill(
        t,
        order.id,
        order.items.map((i: { salesOrderItemId: string }) => ({ salesOrderItemId: i.salesOrderItemId, quantity: 1 })),
      ),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // 2 round trips and nothing else logged: the x-filial-id filial read, the order and its lines
    // locked with the products' read and the lock of the lines' stock balances; then the fulfilment
    // (its id taken before the INSERT, core/sequence/ids.ts) and every other write with the COMMIT.
    expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
      [
        'START TRANSACTION',
        'SELECT filial',
        'SELECT sales_order FOR UPDATE',
        'SELECT sales_order_item FOR UPDATE',
        'SELECT product',
        'SELECT stock_balance FOR UPDATE',
      ],
      // The fulfilment's receivables (its order's installments), then at commit their audit rows and
      // receivable.created events after the transaction's own events: all in the last batch.
      [
        'INSERT fulfillment',
        'UPDATE stock_balance',
        'INSERT stock_movement',
        'INSERT fulfillment_item',
        'UPDATE sales_order_item',
        'UPDATE sales_order',
        'INSERT receivable',
        'INSERT outbox_event',
        'INSERT audit_log',
        'INSERT outbox_event',
        'INSERT audit_log',
        'COMMIT',
      ],
    ]);
  });

  it('a list page', async () => {
    const { result: res, roundTrips } = await recordStatements(() =>
      api().get(`/api/sales-order/list/${t.filialHashes[0]}`).set(t.headers()),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.length).to.be.greaterThan(0);
    // 3 round trips: the filial; the page's ids with the (capped) count; the orders with the names of
    // their customers and sellers (joined), their lines, and the orders grouped into them.
    expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
      ['SELECT filial'],
      ['SELECT sales_order', 'SELECT sales_order'],
      ['SELECT sales_order', 'SELECT sales_order_item', 'SELECT sales_order'],
    ]);
  });

  it('a list page through GET /sales-order/:filialId with x-filial-id: 2 round trips, the filial read with the page', async () => {
    const { result: res, roundTrips } = await recordStatements(() => api().get(`/api/sales-order/${t.filialHashes[0]}`).set(t.headers()));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.length).to.be.greaterThan(0);
    expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
      ['SELECT filial', 'SELECT sales_order', 'SELECT sales_order'],
      ['SELECT sales_order', 'SELECT sales_order_item', 'SELECT sales_order'],
    ]);
  });

  it('a text search page: the filial, customers and sellers in one round trip', async () => {
    const { result: res, roundTrips } = await recordStatements(() =>
      api().get(`/api/sales-order/${t.filialHashes[0]}`).query({ search: 'caixa' }).set(t.headers()),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.length).to.be.greaterThan(0);
    expect(roundTrips.map((trip) => trip.map(shapeOf))).to.deep.equal([
      ['SELECT filial', 'SELECT party_search_token', 'SELECT party_search_token'],
      // The union of the branches (the seller's orders, order aliases) cut to the page, and its count.
      ['SELECT sales_order', 'SELECT sales_order'],
      ['SELECT sales_order', 'SELECT sales_order_item', 'SELECT sales_order'],
    ]);
  });

  it('an entry document confirm', async () => {
    const doc = await createDraft(t, draftBody({ items: products.map((p) => item({ productId: p.hash, quantity: 4, unitPrice: 3 })) }));
    const { result: res, roundTrips } = await recordStatements(() => api().post(`/api/entry-document/confirm/${doc.id}`).set(t.headers()));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // Not batched beyond the ledger (TypeORM reads, one statement per round trip): 11 round trips.
    expect(transactionsOf(roundTrips)).to.deep.equal([
      [
        ['START TRANSACTION', 'SELECT entry_document'],
        // The fiscal period check (the filial row shared, fiscal-periods) travels with the status UPDATE: no round trip of its own.
        ['SELECT filial', 'UPDATE entry_document'],
        ['SELECT entry_document_item'],
        ['SELECT entry_document_installment'],
        ['SELECT filial'],
        ['SELECT product'],
        ['SELECT stock_balance FOR UPDATE'],
        ['UPDATE stock_balance', 'INSERT stock_movement', 'INSERT payable'],
        // The payables' audit rows (INSERT … SELECT) travel with the next statement: no round trip of their own.
        ['INSERT audit_log', 'UPDATE entry_document'],
        ['SELECT entry_document'],
        ['INSERT outbox_event', 'INSERT audit_log', 'COMMIT'],
      ],
    ]);
  });
});
