import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { InvoiceContingency } from '../../src/modules/outbound-nfe/entities/invoice-contingency.entity';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { SefazAuthoritySetting } from '../../src/modules/sefaz/entities/sefaz-authority-setting.entity';
import { issuerTarget } from '../../src/modules/sefaz/sefaz-connection';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { fulfilledOrder, InvoiceTenant } from '../invoices/support';
import { Counter, counterTenant } from '../nfce/support';

/*
 * Issue 44: a filial's authority settings by route — URLs set by hand per environment, target and
 * service, used where the emission picks its target; the contingency policy of each model, used where
 * the emission would enter contingency; an operator's contingency; the readiness check reports them.
 */

const OVERRIDE = 'https://nfe-novo.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx';
const defaults = { nfe: 'AUTOMATIC_SVC', nfce: 'AUTOMATIC_OFFLINE' };

describe('Authority settings: URL overrides, contingency policy, an operator’s contingency (issue 44)', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let save: Counter['save'];
  let sell: Counter['sell'];

  const path = (i: number, what = 'authority') => `/api/settings/filial/${t.filialHashes[i]}/${what}`;
  const get = async (i = 0) => (await api().get(path(i)).set(t.headers(i)).expect(200)).body;
  const put = (i: number, body: object) => api().put(path(i)).set(t.headers(i)).send(body);
  const check = async (i: number, code: string) => {
    const res = await api().get(path(i, 'readiness')).set(t.headers(i)).expect(200);
    return res.body.checks.find((c: { code: string }) => c.code === code);
  };

  before(async () => {
    ({ t, save, sell } = await counterTenant());
    other = await createTestTenant();
  });

  afterEach(async () => {
    t.sim.issuer.downFor(0);
    await dataSource.manager.update(InvoiceContingency, { companyId: t.companyId }, { endedAt: new Date() });
  });

  it('defaults until saved; bad input 400 and nothing written; another tenant’s filial 403; a read scope cannot write', async () => {
    const a = await get(1);
    expect(a.urlOverrides).to.deep.equal([]);
    expect(a.contingency).to.deep.equal({ ...defaults, open: null });
    expect(await check(1, 'CONTINGENCY')).to.include({ status: 'OK', fix: null });
    const bad = [
      {
        contingency: defaults,
        urlOverrides: [
          { environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: 'http://nfe.fazenda.sp.gov.br/x' },
        ],
      },
      {
        contingency: defaults,
        urlOverrides: [{ environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: 'not a url' }],
      },
      {
        contingency: defaults,
        urlOverrides: [{ environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'NFeDistribuicaoDFe', url: OVERRIDE }],
      },
      {
        contingency: defaults,
        urlOverrides: [
          { environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: OVERRIDE },
          { environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: OVERRIDE },
        ],
      },
      { urlOverrides: [] },
      { contingency: { nfe: 'EPEC', nfce: 'NONE' } },
    ];
    for (const body of bad) expectProblem(await put(1, body), 400, 'VALIDATION_ERROR');
    expect(await dataSource.manager.countBy(SefazAuthoritySetting, { companyId: t.companyId })).to.equal(0);
    expectProblem(
      await api().put(`/api/settings/filial/${other.filialHashes[0]}/authority`).set(t.headers()).send({ contingency: defaults }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expectProblem(
      await api()
        .put(path(1))
        .set(t.headersWith({ scope: 'settings:read' }, 1))
        .send({ contingency: defaults }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectProblem(
      await api()
        .post(`/api/settings/filial/${other.filialHashes[0]}/contingency`)
        .set(t.headers())
        .send({ reason: 'SEFAZ fora do ar desde cedo' }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expect(await dataSource.manager.countBy(InvoiceContingency, { companyId: other.companyId })).to.equal(0);
  });

  it('a URL set by hand replaces the table’s for its environment, target and service only; the emission’s target uses it; audited', async () => {
    const res = await put(1, {
      contingency: defaults,
      urlOverrides: [
        { environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: OVERRIDE },
        { environment: 'PRODUCTION', target: 'AUTHORIZER', service: 'STATUS_SERVICO', url: 'https://nfe.fazenda.sp.gov.br/ws/outro.asmx' },
        {
          environment: 'HOMOLOGATION',
          target: 'CONTINGENCY',
          service: 'AUTORIZACAO',
          url: 'https://hom.svc.fazenda.gov.br/novo/NFeAutorizacao4.asmx',
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.urlOverrides).to.have.length(3);
    expect(res.body.target.urls.AUTORIZACAO).to.equal(OVERRIDE);
    // The homologação filial: its PRODUCTION override waits for a move to production.
    expect(res.body.target.urls.STATUS_SERVICO).to.equal('https://homologacao.nfe.fazenda.sp.gov.br/ws/nfestatusservico4.asmx');
    expect(res.body.target.label).to.contain('set for the filial');
    expect(res.body.contingencyTarget.urls.AUTORIZACAO).to.equal('https://hom.svc.fazenda.gov.br/novo/NFeAutorizacao4.asmx');
    expect(res.body.contingencyTarget.urls.STATUS_SERVICO).to.equal(
      'https://hom.svc.fazenda.gov.br/NFeStatusServico4/NFeStatusServico4.asmx',
    );
    expect(await get(1)).to.deep.equal(res.body);
    // What the emission's client is built from (invoices' clientOf, nfce's counterTarget).
    const filial = await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[1] });
    expect((await issuerTarget(filial, null)).url('AUTORIZACAO')).to.equal(OVERRIDE);
    expect((await issuerTarget({ ...filial, nfeEnvironment: 'PRODUCTION' } as Filial, null)).url('STATUS_SERVICO')).to.equal(
      'https://nfe.fazenda.sp.gov.br/ws/outro.asmx',
    );
    expect((await issuerTarget({ ...filial, nfeEnvironment: 'PRODUCTION' } as Filial, null)).url('AUTORIZACAO')).to.equal(
      'https://nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx',
    );
    expect((await check(1, 'CONTINGENCY')).message).to.contain('2 URL(s) of HOMOLOGATION set by hand');
    const audit = await dataSource.manager.findBy(AuditLog, { companyId: t.companyId, entity: 'sefaz-authority-setting' });
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED']);
    // Replaced whole: [] → the tables again.
    const back = await put(1, { contingency: defaults });
    expect(back.status).to.equal(200);
    expect(back.body.urlOverrides).to.deep.equal([]);
    expect(back.body.target.urls.AUTORIZACAO).to.equal('https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx');
    // A filial on the simulator keeps its overrides unused, and the readiness check says so.
    expect(
      (
        await put(0, {
          contingency: defaults,
          urlOverrides: [{ environment: 'HOMOLOGATION', target: 'AUTHORIZER', service: 'AUTORIZACAO', url: OVERRIDE }],
        })
      ).status,
    ).to.equal(200);
    const onSim = await get(0);
    expect(onSim.target.simulator).to.equal(true);
    expect(onSim.target.urls.AUTORIZACAO.startsWith(t.endpoints.url)).to.equal(true);
    expect(await check(0, 'CONTINGENCY')).to.include({ status: 'WARNING', fix: `PUT /api/settings/filial/${t.filialHashes[0]}/authority` });
    expect((await put(0, { contingency: defaults })).status).to.equal(200);
  });

  it('concurrent first saves: each answers 200 or 409 CONCURRENT_UPDATE; one row, one of the bodies', async () => {
    const bodies = [
      { contingency: { nfe: 'MANUAL', nfce: 'NONE' } },
      { contingency: defaults },
      { contingency: { nfe: 'MANUAL', nfce: 'AUTOMATIC_OFFLINE' } },
      { contingency: { nfe: 'AUTOMATIC_SVC', nfce: 'NONE' } },
    ];
    const answers = await Promise.all(
      bodies.map((b) => api().put(`/api/settings/filial/${other.filialHashes[0]}/authority`).set(other.headers()).send(b)),
    );
    for (const a of answers) expect([200, 409], JSON.stringify(a.body)).to.include(a.status);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).to.equal('CONCURRENT_UPDATE');
    expect(answers.some((a) => a.status === 200)).to.equal(true);
    expect(await dataSource.manager.countBy(SefazAuthoritySetting, { companyId: other.companyId })).to.equal(1);
    const now = (await api().get(`/api/settings/filial/${other.filialHashes[0]}/authority`).set(other.headers()).expect(200)).body
      .contingency;
    expect(bodies.map((b) => b.contingency)).to.deep.include({ nfe: now.nfe, nfce: now.nfce });
  });

  it('NF-e MANUAL: the authority down, the NF-e waits SENT (no SVC); an operator enters SVC, the next NF-e goes there; twice → 409; DELETE leaves it', async () => {
    expect((await put(0, { contingency: { nfe: 'MANUAL', nfce: 'AUTOMATIC_OFFLINE' } })).status).to.equal(200);
    t.sim.issuer.downFor(600_000);
    const waiting = await api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({ fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(waiting.status, JSON.stringify(waiting.body)).to.equal(201);
    expect(waiting.body).to.include({ status: 'SENT', emissionType: 1 });
    expect(await dataSource.manager.countBy(InvoiceContingency, { companyId: t.companyId })).to.equal(0);

    expectProblem(await api().post(path(0, 'contingency')).set(t.headers()).send({ reason: 'curto' }), 400, 'VALIDATION_ERROR');
    const entered = await api().post(path(0, 'contingency')).set(t.headers()).send({ reason: 'SEFAZ-SP fora do ar desde as 10h' });
    expect(entered.status, JSON.stringify(entered.body)).to.equal(201);
    expect(entered.body).to.include({ filialId: t.filialHashes[0], mode: 'SVC-AN', reason: 'SEFAZ-SP fora do ar desde as 10h' });
    expectProblem(
      await api().post(path(0, 'contingency')).set(t.headers()).send({ reason: 'SEFAZ-SP fora do ar desde as 10h' }),
      409,
      'CONTINGENCY_ALREADY_OPEN',
    );
    expect((await get(0)).contingency.open).to.include({ mode: 'SVC-AN' });
    expect(await check(0, 'CONTINGENCY')).to.include({
      status: 'WARNING',
      fix: `DELETE /api/settings/filial/${t.filialHashes[0]}/contingency`,
    });

    const svc = await api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({ fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(svc.status, JSON.stringify(svc.body)).to.equal(201);
    expect(svc.body).to.include({ status: 'AUTHORIZED', emissionType: 6 });

    for (const _ of [1, 2]) await api().delete(path(0, 'contingency')).set(t.headers()).expect(204);
    expect((await get(0)).contingency.open).to.equal(null);
    const periods = await dataSource.manager.findBy(InvoiceContingency, { companyId: t.companyId });
    expect(periods.map((p) => [p.reason, p.endedAt !== null])).to.deep.equal([['SEFAZ-SP fora do ar desde as 10h', true]]);
    // The authority back, the waiting NF-e is authorized by the recovery pass under its own key.
    t.sim.issuer.downFor(0);
    await recoverInvoices();
    const after = await api().get(`/api/invoices/detail/${waiting.body.id}`).set(t.headers()).expect(200);
    expect(after.body).to.include({ status: 'AUTHORIZED', emissionType: 1 });
  });

  it('NFC-e NONE: the authority down, the note stays SIGNED (no offline note); the queue sends it once the authority answers', async () => {
    await save({ qrVersion: 3 });
    expect((await put(0, { contingency: { nfe: 'AUTOMATIC_SVC', nfce: 'NONE' } })).status).to.equal(200);
    t.sim.issuer.downFor(600_000);
    const sale = await sell();
    expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
    expect(sale.body.fiscalDocument).to.include({ status: 'SIGNED', contingency: false });
    const id = sale.body.fiscalDocument.id as string;
    const later = () => new Date(Date.now() + 120_000);
    await runNfceQueue({ now: later() });
    const still = await dataSource.manager.findOneByOrFail(NfceDocument, {
      companyId: t.companyId,
      accessKey: sale.body.fiscalDocument.accessKey,
    });
    expect(still).to.include({ status: 'SIGNED', emissionType: 1 });
    t.sim.issuer.downFor(0);
    await runNfceQueue({ now: later() });
    const detail = await api().get(`/api/nfce/detail/${id}`).set(t.headers()).expect(200);
    expect(detail.body).to.include({ status: 'AUTHORIZED', contingency: false, accessKey: sale.body.fiscalDocument.accessKey });
    // Back to the default: the next outage is an offline note again.
    expect((await put(0, { contingency: defaults })).status).to.equal(200);
    t.sim.issuer.downFor(600_000);
    const offline = await sell();
    expect(offline.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
  });
});
