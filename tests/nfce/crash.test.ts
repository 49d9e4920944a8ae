import { expect } from 'chai';
import { In } from 'typeorm';
import { signToken } from '../../src/core/auth/jwt';
import { dataSource } from '../../src/core/db/data-source';
import { isMysql } from '../../src/core/db/engine';
import { decodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { ChildServer, freePort, kill, startServer } from '../support/child-server';
import { nfceSettings } from './support';

/*
 * Issue 31: the NFC-e queue across a SIGKILL. The real server in a child process sells at the counter
 * while the authority (in this process, so it survives) is down: every note in offline contingency.
 * The authority comes back slowly (each answer held after authorizing); the server is killed with
 * SIGKILL while its queue transmits, at a moment the authority holds authorizations the database has
 * not recorded yet. Restarted, the queue takes its lease again once the dead holder's runs out and
 * sends the rest in order; the notes the authority had already authorized answer 204 and are settled
 * by consulting. Every note ends AUTHORIZED with its printed key, the authority holds one
 * authorization per number, and the série's numbers have no gap. MySQL only, like the NF-e crash
 * test: the server and this test share the database.
 */
const SALES = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

(isMysql ? describe : describe.skip)('NFC-e queue across SIGKILL mid-transmission (child server, MySQL)', function () {
  this.timeout(300_000);
  const sim = new AuthoritySimulator();
  let base = '';
  let env: NodeJS.ProcessEnv;
  let server: ChildServer | undefined;
  let companyId = 0;
  let filialId = 0;
  let cnpj = '';

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
      WEBHOOK_DISPATCH_INTERVAL_MS: '0',
      SEFAZ_SIMULATOR: 'false',
      DFE_SCHEDULER: 'false',
      NFE_BATCH_WORKER: 'false',
      NFE_DEADLINE_ALERTS: 'false',
      INVOICE_RECOVERY: 'true',
      NFCE_QUEUE_TICK_SECONDS: '1',
      INVOICE_LEASE_SECONDS: '3',
      INVOICE_SEFAZ_TIMEOUT_MS: '5000',
    };
    server = await startServer(env);
    companyId = decodeId('company', server.demo.companyId);
    filialId = decodeId('filial', server.demo.filialIds[0]);
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: filialId, companyId });
    cnpj = filial.cnpj;
    const a1 = sim.issueClientCertificate(filial.cnpj, 'DEMO LTDA', 'crash-test');
    await saveCertificate({ companyId, actor: 'crash-test' }, filialId, { pfx: a1.pfx.toString('base64'), password: a1.password });
    await setFilialEndpoint(companyId, filialId, {
      distUrl: endpoints.distUrl,
      eventUrl: endpoints.eventUrl,
      caPem: endpoints.caPem,
      label: 'local simulator',
    });
  });

  after(async () => {
    if (server) await kill(server.child);
    await sim.stop();
  });

  it('killed while the queue transmits, restarted: every note authorized exactly once, no gap', async () => {
    const { demo } = server!;
    const token = signToken({ sub: 'crash-test', companyId: demo.companyId, filiais: ['*'], scope: '*' }, '1h');
    const headers = {
      authorization: `Bearer ${token}`,
      'x-company-id': demo.companyId,
      'x-filial-id': demo.filialIds[0],
      'content-type': 'application/json',
    };
    const call = async (method: string, url: string, body: object) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { ...headers, 'idempotency-key': `nfce-crash-${Date.now()}-${Math.random()}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    // Over whatever the demo holds (the document seed of an `npm start` with the simulator saves them once): its current version.
    const current = await fetch(`${base}/nfce/configuration/${demo.filialIds[0]}`, { headers }).then((r) => r.json() as Promise<any>);
    const config = await call('PUT', `/nfce/configuration/${demo.filialIds[0]}`, {
      ...nfceSettings(),
      ...(current.configured ? { version: current.version } : {}),
    });
    expect(config.status, JSON.stringify(config.body)).to.equal(200);

    // The authority down: the sales complete, their notes in offline contingency.
    sim.issuer.downFor(600_000);
    for (let i = 0; i < SALES; i += 4) {
      const batch = await Promise.all(
        [0, 1, 2, 3].map(() =>
          call('POST', '/sales-order', {
            flowMode: 'QUICK_SALE',
            items: [{ productId: demo.productIds[0], quantity: 1, unitPrice: '4.99' }],
            payments: [{ method: 'CASH', amount: '5.00' }],
          }),
        ),
      );
      for (const r of batch) {
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        expect(r.body.fiscalDocument, JSON.stringify(r.body)).to.include({ status: 'CONTINGENCY' });
      }
    }
    const notes = () => dataSource.manager.find(NfceDocument, { where: { companyId, filialId }, order: { number: 'ASC' } });
    const printed = new Map((await notes()).map((n) => [n.id, n.accessKey]));
    expect(printed.size).to.equal(SALES);

    // Back, slowly: each authorization's answer held 300 ms. Killed once the authority holds more than the database recorded.
    sim.issuer.faults.delayMs = 300;
    sim.issuer.downFor(0);
    const atAuthority = () => sim.issuer.documentsOf(cnpj).filter((d) => d.model === 65);
    const recorded = () => dataSource.manager.countBy(NfceDocument, { companyId, filialId, status: 'AUTHORIZED' });
    const deadline = Date.now() + 60_000;
    for (;;) {
      expect(Date.now(), 'the queue never transmitted').to.be.lessThan(deadline);
      if (atAuthority().length >= 8 && atAuthority().length > (await recorded())) break;
      await sleep(20);
    }
    await kill(server!.child);
    server = undefined;
    const killedAt = { authority: atAuthority().length, recorded: await recorded() };
    expect(killedAt.authority, JSON.stringify(killedAt)).to.be.greaterThan(killedAt.recorded);
    expect(killedAt.authority, JSON.stringify(killedAt)).to.be.lessThan(SALES);

    // Restarted: the queue resumes under its lease and settles the rest.
    sim.issuer.faults.delayMs = 0;
    server = await startServer(env);
    const settleBy = Date.now() + 60_000;
    let pending = SALES;
    while (pending > 0 && Date.now() < settleBy) {
      await sleep(250);
      pending = await dataSource.manager.countBy(NfceDocument, { companyId, filialId, status: In(['CONTINGENCY', 'SIGNED']) });
    }
    expect(pending, 'notes left in contingency after the restart').to.equal(0);

    const after = await notes();
    for (const n of after) {
      expect(n.status, `nº ${n.number}`).to.equal('AUTHORIZED');
      expect(n.accessKey, `nº ${n.number}`).to.equal(printed.get(n.id));
      expect(sim.issuer.document(n.accessKey)?.protocol).to.equal(n.protocol);
    }
    // Exactly once at the authority: one authorization per number, no other key for any of them.
    const held = atAuthority();
    expect(held).to.have.length(SALES);
    expect(new Set(held.map((d) => d.number)).size).to.equal(SALES);
    // Numbering without a gap: the série gave out exactly the notes' numbers.
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId, filialId, model: 65 });
    expect(after.map((n) => n.number)).to.deep.equal(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1));
    expect(after).to.have.length(SALES);
  });
});
