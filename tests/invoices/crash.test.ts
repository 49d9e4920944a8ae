import { expect } from 'chai';
import { signToken } from '../../src/core/auth/jwt';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { ChildServer, Demo, exited, freePort, kill, startServer } from '../support/child-server';
import { holdSeries, lockWaiters } from './support';

/*
 * Exactly once, proven (issue 30): the real server in a child process bills against the local
 * authority (in this process, so it survives), and kills itself with SIGKILL at each step of an issue —
 * after numbering (before the commit), after signing, after sending (SENT committed, nothing on the
 * wire), after the authority authorized but before the answer was recorded. It is restarted; the same
 * request is retried with its Idempotency-Key (and the recovery pass runs). Each fulfilment ends with
 * exactly one document, AUTHORIZED, the authority holds exactly one authorization for it, and every
 * number the série gave out is accounted for. MySQL only (the server and the test share the database).
 */
const STEPS = ['after-numbering', 'after-signing', 'after-sending', 'after-authorized'] as const;

(isMysql ? describe : describe.skip)('Invoices: exactly once across SIGKILL at every step (child server, MySQL)', function () {
  this.timeout(400_000);
  const sim = new AuthoritySimulator();
  let base = '';
  let env: NodeJS.ProcessEnv;
  let server: ChildServer | undefined;
  let replica: ChildServer | undefined;

  before(async () => {
    const endpoints = await sim.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}/api`;
    env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'true',
      DB_MIGRATE_ON_START: 'false',
      IDEMPOTENCY_LEASE_MS: '1000',
      WEBHOOK_DISPATCH_INTERVAL_MS: '0',
      SEFAZ_SIMULATOR: 'false',
      DFE_SCHEDULER: 'false',
      NFE_BATCH_WORKER: 'false',
      NFE_DEADLINE_ALERTS: 'false',
      INVOICE_RECOVERY: 'true',
      INVOICE_RECOVERY_TICK_SECONDS: '1',
      INVOICE_LEASE_SECONDS: '3',
      INVOICE_SEFAZ_TIMEOUT_MS: '5000',
    };
    // A first start seeds the demo tenant; its first filial then bills against this process's simulator.
    server = await startServer(env);
    const companyId = decodeId('company', server.demo.companyId);
    const filialId = decodeId('filial', server.demo.filialIds[0]);
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: filialId, companyId });
    const a1 = sim.issueClientCertificate(filial.cnpj, 'DEMO LTDA', 'crash-test');
    await saveCertificate({ companyId, actor: 'crash-test' }, filialId, { pfx: a1.pfx.toString('base64'), password: a1.password });
    await setFilialEndpoint(companyId, filialId, {
      distUrl: endpoints.distUrl,
      eventUrl: endpoints.eventUrl,
      caPem: endpoints.caPem,
      label: 'local simulator',
    });
    await kill(server.child);
    server = undefined;
  });

  after(async () => {
    if (server) await kill(server.child);
    if (replica) await kill(replica.child);
    await sim.stop();
  });

  it('each fulfilment ends with exactly one AUTHORIZED NF-e; no number unaccounted', async () => {
    const outcomes: { step: string; fulfillmentId: string; invoiceId: string }[] = [];
    for (const step of STEPS) {
      server = await startServer({ ...env, INVOICE_CRASH_POINT: step });
      const { demo } = server;
      const token = signToken({ sub: 'crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
      const headers = {
        authorization: `Bearer ${token}`,
        'x-company-id': demo.companyId,
        'x-filial-id': demo.filialIds[0],
        'content-type': 'application/json',
      };
      const post = async (url: string, body: object, key?: string) => {
        const res = await fetch(`${base}${url}`, {
          method: 'POST',
          headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const order = await post('/sales-order', {
        customerId: demo.customerIds[1],
        items: [{ productId: demo.productIds[0], quantity: 1 }],
      });
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      const f = await post(`/sales-order/${order.body.id}/fulfill`, {
        items: [{ salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 1 }],
      });
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      const fulfillmentId = f.body.fulfillment.id;
      const key = `crash-${step}-${Date.now()}`;
      // The server dies inside this request.
      const first = await post('/invoices/issue', { fulfillmentId }, key).catch((e: Error) => e);
      expect(first, `${step}: the server answered instead of dying: ${JSON.stringify(first)}`).to.be.instanceOf(Error);
      await exited(server.child);

      server = await startServer(env);
      await new Promise((r) => setTimeout(r, 3500)); // the dead request's key and the document's lease run out
      const retried = await post('/invoices/issue', { fulfillmentId }, key);
      expect(retried.status, `${step}: ${JSON.stringify(retried.body)}`).to.be.oneOf([200, 201]);
      // Settled by the retry or, if it found the document leased, by the recovery pass right after.
      let status = retried.body.status;
      for (let i = 0; i < 40 && status !== 'AUTHORIZED'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = ((await (await fetch(`${base}/invoices/detail/${retried.body.id}`, { headers })).json()) as any).status;
      }
      expect(status, step).to.equal('AUTHORIZED');
      outcomes.push({ step, fulfillmentId, invoiceId: retried.body.id });
      await kill(server.child);
      server = undefined;
    }

    const { companyId } = await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', outcomes[0].invoiceId) });
    for (const o of outcomes) {
      const docs = await dataSource.manager.findBy(OutboundNfe, { companyId, fulfillmentId: decodeId('fulfillment', o.fulfillmentId) });
      expect(
        docs.map((d) => d.status),
        o.step,
      ).to.deep.equal(['AUTHORIZED']);
      const atAuthority = sim.issuer
        .documentsOf(docs[0].accessKey.slice(6, 20))
        .filter((d) => d.number === docs[0].number && d.series === docs[0].series);
      expect(
        atAuthority.map((d) => d.status),
        o.step,
      ).to.deep.equal(['AUTHORIZED']);
    }
    // Every number the série gave out belongs to a document (or a voided range): nothing skipped in silence.
    const series = await dataSource.manager.findBy(InvoiceSeries, { companyId, model: 55 });
    for (const s of series) {
      const docs = await dataSource.manager.findBy(OutboundNfe, { companyId, seriesId: s.id });
      const used = new Set(docs.map((d) => d.number));
      const missing = Array.from({ length: s.nextNumber - 1 }, (_v, i) => i + 1).filter((n) => !used.has(n));
      expect(missing, `série ${s.series}`).to.deep.equal([]);
    }
  });

  /*
   * Issue 43 point 1 across a crash: two replicas, one order. Replica A takes a claim (the order, or its
   * fulfilment) and is held inside its issuing transaction (this test holds the série row); replica B
   * takes the other claim of the same goods meanwhile. A then dies by SIGKILL — inside the transaction
   * (after numbering: rolled back) or right after its commit (after signing: a SIGNED document B must see).
   * A restarts, its request is retried with its key and the recovery pass runs: one document, AUTHORIZED.
   */
  type Claim = 'order' | 'fulfilment';
  const RACES: { step: (typeof STEPS)[number]; a: Claim; b: Claim }[] = [
    { step: 'after-numbering', a: 'order', b: 'fulfilment' },
    { step: 'after-signing', a: 'fulfilment', b: 'order' },
  ];

  it('an order claim and a fulfilment claim race on two replicas, one killed in its issue: one AUTHORIZED NF-e for the goods', async () => {
    const at = (port: string, demo: Demo) => {
      const token = signToken({ sub: 'crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
      const headers = {
        authorization: `Bearer ${token}`,
        'x-company-id': demo.companyId,
        'x-filial-id': demo.filialIds[0],
        'content-type': 'application/json',
      };
      const base = `http://127.0.0.1:${port}/api`;
      return {
        post: async (url: string, body: object, key?: string) => {
          const res = await fetch(`${base}${url}`, {
            method: 'POST',
            headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
            body: JSON.stringify(body),
          });
          return { status: res.status, body: (await res.json()) as any };
        },
        get: async (url: string) => (await (await fetch(`${base}${url}`, { headers })).json()) as any,
      };
    };
    const replicaPort = String(await freePort());
    replica = await startServer({ ...env, PORT: replicaPort });
    const { demo } = replica;
    const b = at(replicaPort, demo);
    const a = at(env.PORT!, demo);
    const companyId = decodeId('company', demo.companyId);
    const filialId = decodeId('filial', demo.filialIds[0]);
    // The série exists (the test holds its row), as the first issue of the filial would create it.
    if (!(await dataSource.manager.existsBy(InvoiceSeries, { companyId, filialId, model: 55, isDefault: true }))) {
      await dataSource.manager.insert(InvoiceSeries, { companyId, filialId, model: 55, series: 1, nextNumber: 1, isDefault: true });
    }

    for (const race of RACES) {
      const order = await b.post('/sales-order', {
        customerId: demo.customerIds[1],
        items: [{ productId: demo.productIds[0], quantity: 2 }],
      });
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      const f = await b.post(`/sales-order/${order.body.id}/fulfill`, {
        items: [{ salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 2 }],
      });
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      const claims = { order: { salesOrderId: order.body.id }, fulfilment: { fulfillmentId: f.body.fulfillment.id } };
      const salesOrderId = decodeId('sales-order', order.body.id);
      const receivablesBefore = await dataSource.manager.findBy(Receivable, { companyId, salesOrderId });
      const keyA = `race-a-${race.step}-${Date.now()}`;

      server = await startServer({ ...env, INVOICE_CRASH_POINT: race.step });
      const held = await holdSeries(companyId);
      let byA: Promise<unknown>;
      let byB: Promise<{ status: number; body: any }>;
      try {
        byA = a.post('/invoices/issue', claims[race.a], keyA).catch((e: Error) => e);
        const first = await lockWaiters(1, 60_000);
        const earlyA =
          first < 1 ? JSON.stringify(await Promise.race([byA, new Promise((r) => setTimeout(() => r('no answer'), 100))])) : '';
        expect(first, `${race.step}: A waits inside its issuing transaction ${earlyA}`).to.equal(1);
        byB = b.post('/invoices/issue', claims[race.b], `race-b-${race.step}-${Date.now()}`);
        const waiting = await lockWaiters(2, 60_000);
        const early =
          waiting < 2 ? JSON.stringify(await Promise.race([byB, new Promise((r) => setTimeout(() => r('no answer'), 100))])) : '';
        expect(waiting, `${race.step}: B waits too ${early}`).to.equal(2);
      } finally {
        await held.release();
      }
      const answerA = await byA;
      expect(
        answerA,
        `${race.step}: A answered instead of dying: ${JSON.stringify(answerA)} ${JSON.stringify(await Promise.race([byB, new Promise((r) => setTimeout(() => r('no answer'), 3000))]))}`,
      ).to.be.instanceOf(Error);
      await exited(server.child);
      const answerB = await byB;

      server = await startServer(env);
      await new Promise((r) => setTimeout(r, 3500)); // the dead request's key and the document's lease run out
      const retried = await a.post('/invoices/issue', claims[race.a], keyA);
      const docs = async () => dataSource.manager.find(OutboundNfe, { where: { companyId, salesOrderId }, order: { id: 'ASC' } });
      let found = await docs();
      for (let i = 0; i < 40 && !(found.length === 1 && found[0].status === 'AUTHORIZED'); i++) {
        await new Promise((r) => setTimeout(r, 250));
        found = await docs();
      }
      const shape = JSON.stringify({
        b: [answerB.status, answerB.body.code],
        retried: [retried.status, retried.body.code],
        docs: found.map((d) => [d.source, d.status]),
      });
      expect(
        found.map((d) => d.status),
        shape,
      ).to.deep.equal(['AUTHORIZED']);
      const [doc] = found;
      if (race.step === 'after-numbering') {
        // A's transaction died with it: B billed the goods; A's retry is told so.
        expect(answerB.status, shape).to.equal(201);
        expect(decodeId('invoice', answerB.body.id)).to.equal(doc.id);
        expect(retried.status, shape).to.equal(409);
        expect(retried.body).to.include({ code: 'ALREADY_INVOICED', invoiceId: answerB.body.id });
      } else {
        // A committed its SIGNED document before dying: B, waiting on the order's lock, found it.
        expect(answerB.status, shape).to.equal(409);
        expect(answerB.body).to.include({ code: 'ALREADY_INVOICED', invoiceStatus: 'SIGNED' });
        expect(decodeId('invoice', answerB.body.invoiceId)).to.equal(doc.id);
        expect(retried.status, shape).to.equal(200);
        expect(decodeId('invoice', retried.body.id)).to.equal(doc.id);
      }
      const winner = race.step === 'after-numbering' ? race.b : race.a;
      expect(doc.source).to.equal(winner === 'order' ? 'ORDER' : 'FULFILLMENT');
      const atAuthority = sim.issuer
        .documentsOf(doc.accessKey.slice(6, 20))
        .filter((d) => d.number === doc.number && d.series === doc.series);
      expect(atAuthority.map((d) => d.status)).to.deep.equal(['AUTHORIZED']);
      // The receivables are the fulfilment's as they were, attached to the document only if it bills the fulfilment.
      const receivablesAfter = await dataSource.manager.findBy(Receivable, { companyId, salesOrderId });
      expect(receivablesAfter.map((r) => [r.id, r.amount.toFixed(2)])).to.deep.equal(
        receivablesBefore.map((r) => [r.id, r.amount.toFixed(2)]),
      );
      expect(receivablesAfter.map((r) => r.fiscalDocumentId)).to.deep.equal(receivablesAfter.map(() => doc.id));
      await kill(server.child);
      server = undefined;
    }
    // No number of the série skipped in silence (A's rolled-back number was taken again by B).
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId, filialId, model: 55, isDefault: true });
    const used = new Set((await dataSource.manager.findBy(OutboundNfe, { companyId, seriesId: series.id })).map((d) => d.number));
    expect(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1).filter((n) => !used.has(n))).to.deep.equal([]);
  });
});
