import { expect } from 'chai';
import { signToken } from '../../src/core/auth/jwt';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/invoices/entities/outbound-nfe.entity';
import { InvoiceSeries } from '../../src/modules/invoices/entities/invoice-series.entity';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator } from '../../src/modules/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { ChildServer, exited, freePort, kill, startServer } from '../support/child-server';

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
    await setFilialEndpoint(companyId, filialId, { distUrl: endpoints.distUrl, eventUrl: endpoints.eventUrl, caPem: endpoints.caPem, label: 'local simulator' });
    await kill(server.child);
    server = undefined;
  });

  after(async () => {
    if (server) await kill(server.child);
    await sim.stop();
  });

  it('each fulfilment ends with exactly one AUTHORIZED NF-e; no number unaccounted', async () => {
    const outcomes: { step: string; fulfillmentId: string; invoiceId: string }[] = [];
    for (const step of STEPS) {
      server = await startServer({ ...env, INVOICE_CRASH_POINT: step });
      const { demo } = server;
      const token = signToken({ sub: 'crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
      const headers = { authorization: `Bearer ${token}`, 'x-company-id': demo.companyId, 'x-filial-id': demo.filialIds[0], 'content-type': 'application/json' };
      const post = async (url: string, body: object, key?: string) => {
        const res = await fetch(`${base}${url}`, { method: 'POST', headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as any };
      };
      const order = await post('/sales-order', { customerId: demo.customerIds[1], items: [{ productId: demo.productIds[0], quantity: 1 }] });
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      const f = await post(`/sales-order/${order.body.id}/fulfill`, { items: [{ salesOrderItemId: order.body.items[0].salesOrderItemId, quantity: 1 }] });
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
      const atAuthority = sim.issuer.documentsOf(docs[0].accessKey.slice(6, 20)).filter((d) => d.number === docs[0].number && d.series === docs[0].series);
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
});
