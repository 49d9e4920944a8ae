import { expect } from 'chai';
import { IsNull } from 'typeorm';
import { signToken } from '../../src/core/auth/jwt';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { InvoiceContingency } from '../../src/modules/outbound-nfe/entities/invoice-contingency.entity';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { ChildServer, exited, freePort, kill, startServer } from '../support/child-server';

/*
 * Issue 43: the lost answer followed by an outage, across SIGKILL (the real server in a child process,
 * the authority in this one). Each scenario kills the server at one step, restarts it with the
 * authority down, retries the request with its Idempotency-Key, then brings the authority back and
 * lets the server's recovery pass decide. Each fulfilment ends with exactly one live NF-e (the claim),
 * AUTHORIZED; every other document of it CANCELLED (at the authority too) or VOIDED (its number voided);
 * the authority holds exactly one standing authorization per sale; no number unaccounted. MySQL only.
 */
interface Scenario {
  name: string;
  crashPoint: 'after-authorized' | 'after-contingency-document';
  /** Faults of the first run (before the crash). */
  faults: Partial<AuthoritySimulator['issuer']['faults']>;
  /** Which attempt ends as the sale's NF-e: the first (its number authorized) or the contingency one. */
  stands: 'first' | 'contingency';
}

const SCENARIOS: Scenario[] = [
  {
    name: 'killed after the authority authorized the first attempt; restarted with the authority down',
    crashPoint: 'after-authorized',
    faults: {},
    stands: 'first',
  },
  {
    name: 'answer lost, authority down, killed after the contingency document was stored',
    crashPoint: 'after-contingency-document',
    faults: { dropAfterAuthorize: 1, downAfterDropMs: 600_000 },
    stands: 'first',
  },
  {
    name: 'lost on the way there, authority down, killed after the SVC authorized the contingency document',
    crashPoint: 'after-authorized',
    faults: { dropBeforeAuthorize: 1, downAfterDropMs: 600_000 },
    stands: 'contingency',
  },
];

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

(isMysql ? describe : describe.skip)('Invoices: a lost answer followed by an outage, across SIGKILL (child server, MySQL)', function () {
  this.timeout(600_000);
  const sim = new AuthoritySimulator();
  let base = '';
  let env: NodeJS.ProcessEnv;
  let server: ChildServer | undefined;
  let companyId = 0;

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
    server = await startServer(env);
    companyId = decodeId('company', server.demo.companyId);
    const filialId = decodeId('filial', server.demo.filialIds[0]);
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: filialId, companyId });
    const a1 = sim.issueClientCertificate(filial.cnpj, 'DEMO LTDA', 'outage-crash-test');
    await saveCertificate({ companyId, actor: 'outage-crash-test' }, filialId, { pfx: a1.pfx.toString('base64'), password: a1.password });
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
    await sim.stop();
  });

  afterEach(() => {
    Object.assign(sim.issuer.faults, {
      dropAfterAuthorize: 0,
      dropBeforeAuthorize: 0,
      downUntil: 0,
      downAfterDropMs: 0,
      consultAbsentNext: 0,
    });
  });

  for (const sc of SCENARIOS) {
    it(`${sc.name}: one live AUTHORIZED NF-e for the sale, the other attempt ${sc.stands === 'first' ? 'cancelled' : 'voided'}`, async () => {
      // Each scenario starts in normal emission.
      await dataSource.manager.update(InvoiceContingency, { companyId, endedAt: IsNull() }, { endedAt: new Date() });
      Object.assign(sim.issuer.faults, sc.faults);
      server = await startServer({ ...env, INVOICE_CRASH_POINT: sc.crashPoint });
      const { demo } = server;
      const token = signToken({ sub: 'outage-crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
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
      const fulfillmentId = decodeId('fulfillment', f.body.fulfillment.id);
      const key = `outage-${sc.crashPoint}-${Date.now()}`;
      const first = await post('/invoices/issue', { fulfillmentId: f.body.fulfillment.id }, key).catch((e: Error) => e);
      expect(first, `the server answered instead of dying: ${JSON.stringify(first)}`).to.be.instanceOf(Error);
      await exited(server.child);

      // Restarted while the authority is down (the SVC answers).
      sim.issuer.downFor(600_000);
      server = await startServer(env);
      await wait(3500); // the dead request's key and the documents' leases run out
      const retried = await post('/invoices/issue', { fulfillmentId: f.body.fulfillment.id }, key);
      expect(retried.status, JSON.stringify(retried.body)).to.be.oneOf([200, 201]);
      const docsOf = () => dataSource.manager.find(OutboundNfe, { where: { companyId, fulfillmentId }, order: { id: 'ASC' } });
      // While down: the sale's document is the contingency one, authorized by the SVC; the first attempt waits, SENT.
      let docs = await docsOf();
      for (let i = 0; i < 40 && !(docs.length === 2 && docs[1].status === 'AUTHORIZED'); i++) {
        await wait(250);
        docs = await docsOf();
      }
      expect(docs.map((d) => [d.status, d.emissionType, d.contingencyOf])).to.deep.equal([
        ['SENT', 1, null],
        ['AUTHORIZED', 6, docs[0].id],
      ]);
      expect(docs[1].claim).to.equal(`F${fulfillmentId}`);
      expect(docs[0].claim).to.equal(null);
      expect(docs[1].number).to.equal(docs[0].number + 1);
      // Never a second key for the first number.
      expect(
        sim.issuer
          .documentsOf(docs[0].accessKey.slice(6, 20))
          .filter((d) => d.number === docs[0].number && d.accessKey !== docs[0].accessKey),
      ).to.deep.equal([]);

      // The authority is back: the server's recovery pass consults the first attempt and decides.
      sim.issuer.faults.downUntil = 0;
      const settled = (ds: OutboundNfe[]) =>
        sc.stands === 'first' ? ds[0].status === 'AUTHORIZED' && ds[1].status === 'CANCELLED' : ds[0].status === 'VOIDED';
      for (let i = 0; i < 80 && !settled(docs); i++) {
        await wait(250);
        docs = await docsOf();
      }
      expect(docs.map((d) => d.status)).to.deep.equal(sc.stands === 'first' ? ['AUTHORIZED', 'CANCELLED'] : ['VOIDED', 'AUTHORIZED']);
      const live = docs.filter((d) => d.claim !== null);
      expect(live.map((d) => d.id)).to.deep.equal([sc.stands === 'first' ? docs[0].id : docs[1].id]);
      // At the authority: one standing authorization for the sale.
      const held = sim.issuer.documentsOf(docs[0].accessKey.slice(6, 20)).filter((d) => docs.some((x) => x.accessKey === d.accessKey));
      expect(held.filter((d) => d.status === 'AUTHORIZED').map((d) => d.accessKey)).to.deep.equal([live[0].accessKey]);
      if (sc.stands === 'contingency') expect(held.map((d) => d.accessKey)).to.deep.equal([docs[1].accessKey]);
      else expect(sim.issuer.document(docs[1].accessKey)?.status).to.equal('CANCELLED');
      // The live document's answer, through the API.
      const detail = (await (await fetch(`${base}/invoices/detail/${retried.body.id}`, { headers })).json()) as any;
      expect(detail.status).to.be.oneOf(['AUTHORIZED', 'CANCELLED']);
      await kill(server.child);
      server = undefined;
    });
  }

  it('every number the série gave out belongs to a document: nothing skipped in silence', async () => {
    const series = await dataSource.manager.findBy(InvoiceSeries, { companyId, model: 55 });
    for (const s of series) {
      const docs = await dataSource.manager.findBy(OutboundNfe, { companyId, seriesId: s.id });
      const used = new Set(docs.map((d) => d.number));
      const missing = Array.from({ length: s.nextNumber - 1 }, (_v, i) => i + 1).filter((n) => !used.has(n));
      expect(missing, `série ${s.series}`).to.deep.equal([]);
    }
  });
});
