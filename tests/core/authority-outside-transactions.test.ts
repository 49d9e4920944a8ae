import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { routesByModule } from '../../src/modules';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { SalesReturn } from '../../src/modules/returns/entities/sales-return.entity';
import { api } from '../support/api';
import { counterTenant, Counter } from '../nfce/support';
import { filialHash, fulfilledOrder } from '../invoices/support';

/*
 * Issue 43 (4), SPEC §12.2 "no call to the authority while a database transaction is open", over the
 * routes that reach the authority, with and without an Idempotency-Key, on both engines. At every
 * call the local authority receives, the test looks at the database: on SQLite whether its one
 * connection is inside a transaction, on MySQL whether another connection of this database holds one
 * open (information_schema.innodb_trx). A keyed return used to hold its transaction across the
 * emission and wait on itself (a second transaction for the NF-e's lease): it must answer.
 */

/** The transactions open in this database right now, besides the probe's own connection. */
async function openNow(): Promise<string[]> {
  if (!isMysql)
    return (dataSource.driver as unknown as { databaseConnection: { inTransaction: boolean } }).databaseConnection.inTransaction
      ? ['sqlite']
      : [];
  const rows: { id: string }[] = await dataSource.query(
    'SELECT x.trx_id AS id FROM information_schema.innodb_trx x JOIN information_schema.processlist p ON p.ID = x.trx_mysql_thread_id WHERE p.DB = DATABASE() AND p.ID <> CONNECTION_ID()',
  );
  return rows.map((r) => String(r.id));
}

/**
 * The transactions open at an authority call and still open 100 ms later (the authority answers after
 * 150 ms): a transaction held across the call. A bookkeeping statement's own short transaction (a lease
 * kept) that happens to overlap the first look is not one.
 */
async function openTransactions(): Promise<number> {
  const first = await openNow();
  if (!first.length) return 0;
  await new Promise((r) => setTimeout(r, 100));
  const second = new Set(await openNow());
  return first.filter((id) => second.has(id)).length;
}

/** The modules whose routes can reach the authority (through outbound-nfe, nfce or dfe). */
const REACHING = ['outbound-nfe', 'nfce', 'dfe', 'transfers', 'supplier-returns', 'returns', 'quick-sale'];
/** Writing routes of those modules that never call the authority (so they may run as one unit). */
const NO_AUTHORITY = new Set(['post /returns/:filialId/imported-nfe']);
/** Routes in 'unit' mode whose authority step runs after the unit commits (respondAfterCommit). */
const AFTER_COMMIT = new Set(['post /sales-order']);

describe('No call to the authority inside a transaction, with or without a key (issue 43)', function () {
  this.timeout(120_000);
  let c: Counter;
  let probes: Promise<number>[];

  before(async () => {
    c = await counterTenant();
    await c.save();
    // The authority answers after 150 ms: time for the probe to look at the database meanwhile.
    c.t.sim.issuer.faults.delayMs = 150;
    c.t.sim.onRequest = () => {
      probes.push(openTransactions());
    };
  });
  after(() => {
    c.t.sim.onRequest = null;
    c.t.sim.issuer.faults.delayMs = 0;
  });
  beforeEach(() => {
    probes = [];
  });

  /** Every call the authority got since the test began found no transaction open. */
  async function noneInside(minCalls = 1) {
    const seen = await Promise.all(probes);
    expect(seen.length, 'calls to the authority').to.be.at.least(minCalls);
    expect(seen, 'transactions open while the authority was called').to.deep.equal(seen.map(() => 0));
  }

  const keyed = (key: string | null) => (key ? { ...c.t.headers(), 'Idempotency-Key': key } : c.t.headers());

  it('the route table: every writing route that can reach the authority commits before it (own-transactions) or sends after its unit commits', () => {
    const wrong = routesByModule()
      .filter((m) => REACHING.includes(m.module))
      .flatMap((m) => m.routes)
      .filter((r) => r.method !== 'get' && r.idempotent === true)
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !NO_AUTHORITY.has(r) && !AFTER_COMMIT.has(r));
    expect(wrong).to.deep.equal([]);
    const modes = Object.fromEntries(
      routesByModule()
        .flatMap((m) => m.routes)
        .filter((r) => ['/returns/:filialId', '/returns/:id/document', '/invoices/issue'].includes(r.path) && r.method === 'post')
        .map((r) => [r.path, r.idempotent]),
    );
    expect(modes).to.deep.equal({
      '/returns/:filialId': 'own-transactions',
      '/returns/:id/document': 'own-transactions',
      '/invoices/issue': 'own-transactions',
    });
  });

  for (const key of [null, 'nfe-issue-43-1']) {
    it(`POST /invoices/issue and /invoices/:id/cancel ${key ? 'with' : 'without'} a key`, async () => {
      const { fulfillmentId } = await fulfilledOrder(c.t);
      const res = await api().post('/api/invoices/issue').set(keyed(key)).timeout(30_000).send({ fulfillmentId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status).to.equal('AUTHORIZED');
      const cancelled = await api()
        .post(`/api/invoices/${res.body.id}/cancel`)
        .set(keyed(key && `${key}-cancel`))
        .timeout(30_000)
        .send({ justification: 'Cancelamento de teste da emissao' });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      await noneInside(2);
    });
  }

  for (const key of [null, 'counter-sale-43-1']) {
    it(`a quick sale with automatic NFC-e ${key ? 'with' : 'without'} a key: authorized after the sale committed${key ? '; the replay answers the authorized note' : ''}`, async () => {
      const res = await c.sell().set(keyed(key)).timeout(30_000);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.fiscalDocument).to.include({ model: 65, status: 'AUTHORIZED', contingency: false });
      await noneInside(1);
      if (!key) return;
      const again = await c.sell().set(keyed(key)).timeout(30_000);
      expect(again.status).to.equal(201);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.body).to.deep.equal(res.body);
      const notes = await dataSource.manager.findBy(NfceDocument, {
        companyId: c.t.companyId,
        salesOrderId: decodeId('sales-order', res.body.id),
      });
      expect(notes.map((n) => n.status)).to.deep.equal(['AUTHORIZED']);
    });
  }

  for (const key of [null, 'return-43-1']) {
    it(`POST /returns/:filialId of goods sold with an NF-e, then /returns/:id/document after a cancellation, ${key ? 'with' : 'without'} a key`, async () => {
      const { order, fulfillmentId } = await fulfilledOrder(c.t, { quantities: [5, 1] });
      const sale = await api().post('/api/invoices/issue').set(c.t.headers()).send({ fulfillmentId });
      expect(sale.body.status).to.equal('AUTHORIZED');
      probes = [];
      const body = {
        customerId: c.t.customer.hash,
        reason: 'Produto com defeito',
        refundMethod: 'CASH',
        items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2, restock: true }],
      };
      const res = await api()
        .post(`/api/returns/${filialHash(c.t)}`)
        .set(keyed(key))
        .timeout(30_000)
        .send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.documentProblem).to.equal(null);
      expect(res.body.documents.map((d: { status: string }) => d.status)).to.deep.equal(['AUTHORIZED']);
      await noneInside(1);
      // Every other write still goes through (nothing left waiting on the request's rows).
      expect((await fulfilledOrder(c.t)).fulfillmentId).to.be.a('string');

      if (key) {
        const again = await api()
          .post(`/api/returns/${filialHash(c.t)}`)
          .set(keyed(key))
          .timeout(30_000)
          .send(body);
        expect(again.status).to.equal(201);
        expect(again.headers['idempotent-replayed']).to.equal('true');
        expect(again.body.id).to.equal(res.body.id);
        expect(await dataSource.manager.countBy(SalesReturn, { companyId: c.t.companyId, requestKey: key })).to.equal(1);
      }

      const invoiceId = res.body.documents[0].invoiceId;
      const cancelled = await api()
        .post(`/api/invoices/${invoiceId}/cancel`)
        .set(c.t.headers())
        .send({ justification: 'Devolucao registrada em duplicidade pelo caixa' });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      probes = [];
      const doc = await api()
        .post(`/api/returns/${res.body.id}/document`)
        .set(keyed(key && `${key}-doc`))
        .timeout(30_000)
        .send({});
      expect(doc.status, JSON.stringify(doc.body)).to.equal(201);
      expect(doc.body.documents.map((d: { status: string }) => d.status)).to.deep.equal(['AUTHORIZED', 'CANCELLED']);
      await noneInside(1);
      const docs = await dataSource.manager.findBy(OutboundNfe, {
        companyId: c.t.companyId,
        source: 'CUSTOMER_RETURN',
        sourceId: decodeId('return', res.body.id),
      });
      expect(docs).to.have.length(2);
    });
  }

  it('a keyed return that booked and died before its devolução: the retry with the key finds that return and issues its document, never a second return', async () => {
    const { order, fulfillmentId } = await fulfilledOrder(c.t, { quantities: [3, 1] });
    expect((await api().post('/api/invoices/issue').set(c.t.headers()).send({ fulfillmentId })).body.status).to.equal('AUTHORIZED');
    const { returnsService } = await import('../../src/modules/returns/returns.service');
    const { Dec } = await import('../../src/core/decimal');
    const key = 'return-43-crashed';
    // What the dead attempt committed: the booking, with its key (the key's own row left to its lease).
    const bookedId = await returnsService.book(
      { ...c.t.ctx, grantedFiliais: '*', scopes: [] },
      c.t.filialIds[0],
      {
        customerId: c.t.customer.id,
        reason: 'Produto com defeito',
        refundMethod: 'CASH',
        items: [{ salesOrderItemId: decodeId('sales-order-item', order.items[0].salesOrderItemId), quantity: new Dec(1), restock: true }],
      },
      { origin: 'COUNTER', importedAccessKey: null, requestKey: key },
    );
    const body = {
      customerId: c.t.customer.hash,
      reason: 'Produto com defeito',
      refundMethod: 'CASH',
      items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 1, restock: true }],
    };
    const res = await api()
      .post(`/api/returns/${filialHash(c.t)}`)
      .set(keyed(key))
      .timeout(30_000)
      .send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(decodeId('return', res.body.id)).to.equal(bookedId);
    expect(res.body.documents.map((d: { status: string }) => d.status)).to.deep.equal(['AUTHORIZED']);
    expect(await dataSource.manager.countBy(SalesReturn, { companyId: c.t.companyId, requestKey: key })).to.equal(1);
    expect(res.body.items[0].quantity).to.equal(1);
    await noneInside(1);
  });
});
