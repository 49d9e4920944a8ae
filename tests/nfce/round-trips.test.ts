import { expect } from 'chai';
import { isMysql } from '../../src/core/db/engine';
import { recordStatements, shapeOf } from '../support/statements';
import { Counter, counterTenant } from './support';

/*
 * What a quick sale with its NFC-e online sends to MySQL, round trip by round trip (the counter's
 * speed, issue 31): pinned like the hot transactions of tests/core/round-trips.test.ts.
 */
describe('Round trips of a quick sale with its NFC-e (MySQL)', function () {
  this.timeout(60_000);
  let c: Counter;

  before(async function () {
    if (!isMysql) this.skip();
    c = await counterTenant();
    await c.save();
    // The first sale warms the signer, the endpoints and the id blocks.
    expect((await c.sell()).body.fiscalDocument).to.include({ status: 'AUTHORIZED' });
  });

  it('a quick sale with its NFC-e authorized online', async () => {
    const { result: res, roundTrips } = await recordStatements(() => c.sell());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ status: 'AUTHORIZED', contingency: false });
    // The sale's 2 round trips, the note's reads and number in the first (issue 51): the filial's last
    // sale issued a note, so they go with the sale's own reads, the série's number taken only where
    // auto_issue is on (the sale reads the setting in the same trip); the tax engine's reads there too
    // (what depends on the products and the parties; the priced lines are computed once the order is).
    // The note is inserted with the sale's COMMIT (its id taken before the INSERT); after the
    // authority's answer, one more: the guarded status change (the database enforces the guard, so no
    // trip of its own), audit, outbox, COMMIT.
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
        'SELECT nfce_configuration',
        'SELECT nfce_document',
        'UPDATE invoice_series',
        'SELECT invoice_series',
        // The tax engine's master data (tax groups, rules, UF rates, ST agreements, rule sets) comes from
        // its cache once the version row says it is current (issue 51): one row read instead of five tables.
        'SELECT fiscal_data_version',
        'SELECT filial',
        'SELECT company',
        'SELECT product',
        'SELECT fiscal_approximate_tax',
        'SELECT fiscal_approximate_tax',
        // The fiscal period check (the filial row shared, fiscal-periods), with the note's reads: no round trip of its own.
        'SELECT filial',
      ],
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
        'INSERT nfce_document',
        'INSERT audit_log',
        'INSERT outbox_event',
        'INSERT audit_log',
        'INSERT outbox_event',
        'COMMIT',
      ],
      ['START TRANSACTION', 'UPDATE nfce_document', 'GUARD', 'INSERT audit_log', 'INSERT outbox_event', 'COMMIT'],
    ]);
  });
});
