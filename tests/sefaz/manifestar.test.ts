import https from 'node:https';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { findInboundByKey } from '../../src/modules/inbound-nfe/nfe-inbound.repository';
import { recordManifestation } from '../../src/modules/dfe/dfe-ingest';
import { DfeLog } from '../../src/modules/sefaz/entities/dfe-log.entity';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { buildFaultEnvelope } from '../../src/modules/authority/xml/soap';
import { issueCertificate } from '../../src/dev/sefaz-simulator/pki';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { fixture, hasFixtures, logCount, NFE, rowsOf, sefazTenant, SefazTenant } from './support';

describe('POST /entry-document/nfe/manifestar (NFeRecepcaoEvento 4.00)', function () {
  this.timeout(60_000);
  let t: SefazTenant;
  let keys: string[];
  const manifest = (body: object, tenant: SefazTenant = t) => api().post(`${NFE}/manifestar`).set(tenant.headers()).send(body);
  const inbound = async (key: string, tenant: SefazTenant = t) =>
    (await rowsOf('nfe_inbound', tenant.companyId, 'access_key = ?', [key]))[0];

  before(async () => {
    t = await sefazTenant();
    keys = t.sim.generate({ recipient: t.cnpj, count: 8 }).map((g) => g.accessKey);
    const sync = await api().post(`${NFE}/consultar`).set(t.headers());
    expect(sync.body.received).to.equal(8);
  });

  it('CIENCIA: 135 with protocol; state, history, audit and event recorded; the signed request logged without the certificate', async () => {
    const before = await inbound(keys[0]);
    const res = await manifest({ accessKey: keys[0], event: 'CIENCIA' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ cStat: '135', alreadyRegistered: false });
    expect(res.body.protocol).to.match(/^\d{15}$/);
    expect(res.body.inbound.manifestation).to.include({ status: 'CIENCIA', protocol: res.body.protocol });
    expect(res.body.inbound.version).to.equal(before.version + 1);

    const row = await inbound(keys[0]);
    expect(row).to.include({ manifestation: 'CIENCIA', manifestation_protocol: res.body.protocol });
    expect(row.manifestation_at).to.not.equal(null);
    const history = await rowsOf('nfe_inbound_event', t.companyId, "inbound_id = ? AND type = 'MANIFESTED'", [row.id]);
    expect(history.map((h) => [h.event_code, h.protocol])).to.deep.equal([['210210', res.body.protocol]]);
    expect(
      await rowsOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND entity_id = ? AND action = 'MANIFESTED'", [row.id]),
    ).to.have.length(1);
    const events = await rowsOf('outbox_event', t.companyId, "type = 'nfe.manifested'");
    expect(events).to.have.length(1);
    expect(JSON.parse(events[0].data)).to.include({ accessKey: keys[0], manifestation: 'CIENCIA', cStat: '135' });

    const [log] = await dataSource.manager.find(DfeLog, {
      where: { companyId: t.companyId, service: 'RECEPCAO_EVENTO' },
      order: { id: 'DESC' },
      take: 1,
    });
    expect(log).to.include({ operation: '210210', cStat: '135', httpStatus: 200 });
    const request = zlib.gunzipSync(log.requestGz).toString();
    expect(request).to.contain(`<infEvento Id="ID210210${keys[0]}01">`);
    expect(request).to.match(/<X509Certificate>\[omitted sha256:[0-9a-f]{64}\]<\/X509Certificate>/);
    expect(request).to.contain('<SignatureValue>');
  });

  it('an event another system already registered (573): success, the state right, no protocol invented', async () => {
    const other = await t.otherSystem().manifest({ event: 'CONFIRMACAO', accessKey: keys[1] });
    expect(other.result.cStat).to.equal('135');
    const res = await manifest({ accessKey: keys[1], event: 'CONFIRMACAO' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ cStat: '573', alreadyRegistered: true, protocol: null });
    expect(res.body.xMotivo).to.match(/Duplicidade/);
    expect(res.body.inbound.manifestation).to.include({ status: 'CONFIRMADA', protocol: null });
    expect(await inbound(keys[1])).to.include({ manifestation: 'CONFIRMADA' });
    // The same answer again changes nothing more.
    const again = await manifest({ accessKey: keys[1], event: 'CONFIRMACAO' });
    expect(again.body).to.include({ cStat: '573' });
    expect(again.body.inbound.version).to.equal(res.body.inbound.version);
  });

  it('NAO_REALIZADA with its justification: sent as plain ASCII xJust', async () => {
    const res = await manifest({ accessKey: keys[2], event: 'NAO_REALIZADA', justification: 'Mercadoria não entregue no prazo combinado' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.inbound.manifestation.status).to.equal('NAO_REALIZADA');
    const [log] = await dataSource.manager.find(DfeLog, { where: { companyId: t.companyId, operation: '210240' }, take: 1 });
    expect(zlib.gunzipSync(log.requestGz).toString()).to.contain('<xJust>Mercadoria nao entregue no prazo combinado</xJust>');
  });

  describe('400 before any call', () => {
    const refused = async (body: object, paths: string[]) => {
      const calls = await logCount(t);
      const res = await manifest(body);
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(paths);
      expect(await logCount(t)).to.equal(calls);
    };
    it('210240 without a justification', () => refused({ accessKey: keys[3], event: 'NAO_REALIZADA' }, ['justification']));
    it('210240 with 14 characters', () =>
      refused({ accessKey: keys[3], event: 'NAO_REALIZADA', justification: '12345678901234' }, ['justification']));
    it('a justification with another event', () =>
      refused({ accessKey: keys[3], event: 'CIENCIA', justification: 'justificativa longa o bastante' }, ['justification']));
    it('unknown event and malformed key', () => refused({ accessKey: '123', event: 'CANCELAR' }, ['accessKey', 'event']));
  });

  it('a key the filial has not received → 404; another company’s key → 404; filial not granted → 403', async () => {
    expectProblem(await manifest({ accessKey: '3'.repeat(44), event: 'CIENCIA' }), 404, 'NFE_INBOUND_NOT_FOUND');
    const b = await sefazTenant();
    expectProblem(await manifest({ accessKey: keys[3], event: 'CIENCIA' }, b), 404, 'NFE_INBOUND_NOT_FOUND');
    expectProblem(
      await api()
        .post(`${NFE}/manifestar`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }))
        .send({ accessKey: keys[3], event: 'CIENCIA' }),
      403,
      'FILIAL_NOT_GRANTED',
    );
    expect(await inbound(keys[3])).to.include({ manifestation: 'NONE' });
  });

  it('a rejection of the authority → 422 with cStat/xMotivo, state unchanged (ciência after a final manifestation: 655)', async () => {
    const res = await manifest({ accessKey: keys[2], event: 'CIENCIA' });
    expectProblem(res, 422, 'SEFAZ_REJECTED');
    expect(res.body.cStat).to.equal('655');
    expect(res.body.xMotivo).to.match(/manifestacao final/);
    expect(await inbound(keys[2])).to.include({ manifestation: 'NAO_REALIZADA' });
  });

  it('two at once for one key: one 135, one 573, both succeed; one protocol recorded', async () => {
    const [a, b] = await Promise.all([
      manifest({ accessKey: keys[4], event: 'CIENCIA' }),
      manifest({ accessKey: keys[4], event: 'CIENCIA' }),
    ]);
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    expect([a.body.cStat, b.body.cStat].sort()).to.deep.equal(['135', '573']);
    const winner = a.body.cStat === '135' ? a : b;
    expect(await inbound(keys[4])).to.include({ manifestation: 'CIENCIA', manifestation_protocol: winner.body.protocol });
    expect(
      await rowsOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND action = 'MANIFESTED' AND entity_id = ?", [
        (await inbound(keys[4])).id,
      ]),
    ).to.have.length(1);
  });

  it('answers crossing: the 573 recorded before the 135 of the same ciência; one MANIFESTED, one event, the protocol filled in', async () => {
    const record = (cStat: string, protocol: string | null) =>
      inTransaction(NO_UNIT, async (em) => {
        const current = (await findInboundByKey(em, t.companyId, t.filialIds[0], keys[6], true))!;
        return recordManifestation(em, t.ctx, current, { event: 'CIENCIA', protocol, at: new Date(), cStat, origin: 'REQUEST' });
      });
    const eventsBefore = (await rowsOf('outbox_event', t.companyId, "type = 'nfe.manifested'")).length;
    await record('573', null);
    await record('135', '135260000000777');
    const row = await inbound(keys[6]);
    expect(row).to.include({ manifestation: 'CIENCIA', manifestation_protocol: '135260000000777' });
    const audits = await rowsOf(
      'audit_log',
      t.companyId,
      "entity = 'nfe-inbound' AND entity_id = ? AND action IN ('MANIFESTED', 'UPDATED')",
      [row.id],
    );
    expect(audits.map((a) => [a.action, JSON.parse(a.changes)])).to.deep.equal([
      ['MANIFESTED', { manifestation: ['NONE', 'CIENCIA'], manifestationProtocol: [null, null] }],
      ['UPDATED', { manifestationProtocol: [null, '135260000000777'] }],
    ]);
    expect(await rowsOf('outbox_event', t.companyId, "type = 'nfe.manifested'")).to.have.length(eventsBefore + 1);
    const history = await rowsOf('nfe_inbound_event', t.companyId, "inbound_id = ? AND type = 'MANIFESTED'", [row.id]);
    expect(history.map((h) => h.protocol)).to.deep.equal([null, '135260000000777']);
  });

  it('an Idempotency-Key replays the first answer without a second call', async () => {
    const calls = await logCount(t);
    const first = await manifest({ accessKey: keys[5], event: 'CONFIRMACAO' }).set('Idempotency-Key', `manif-${keys[5]}`);
    const second = await manifest({ accessKey: keys[5], event: 'CONFIRMACAO' }).set('Idempotency-Key', `manif-${keys[5]}`);
    expect(first.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
    expect(await logCount(t)).to.equal(calls + 1);
  });

  it('an authority failure (SOAP Fault) → 502 with what it said, state unchanged', async () => {
    const pair = issueCertificate(t.sim.ca, { commonName: '127.0.0.1', hosts: ['127.0.0.1'] });
    const broken = https.createServer({ key: pair.keyPem, cert: pair.certPem }, (_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/soap+xml' });
      res.end(buildFaultEnvelope('Servico indisponivel', 'Receiver'));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    const port = (broken.address() as { port: number }).port;
    const b = await sefazTenant();
    const [key] = b.sim.generate({ recipient: b.cnpj, count: 1 }).map((g) => g.accessKey);
    await api().post(`${NFE}/consultar`).set(b.headers());
    await setFilialEndpoint(b.companyId, b.filialIds[0], {
      distUrl: `https://127.0.0.1:${port}/d`,
      eventUrl: `https://127.0.0.1:${port}/e`,
      caPem: b.endpoints.caPem,
      label: 'broken',
    });
    try {
      const res = await manifest({ accessKey: key, event: 'CIENCIA' }, b);
      expectProblem(res, 502, 'SEFAZ_SOAP_FAULT');
      expect(res.body.detail).to.contain('Servico indisponivel');
      expect(await inbound(key, b)).to.include({ manifestation: 'NONE' });
    } finally {
      broken.close();
    }
  });

  (hasFixtures ? it : it.skip)('a real, old NF-e: the authority answers 596 (deadline) → 422 with cStat', async () => {
    const real = fixture('procNFe-v400-prod-sp-12itens-4duplicatas.xml');
    const recipient = '23765766000162';
    const r = await sefazTenant({ cnpj: recipient });
    const fed = r.sim.authority.feed(real);
    expect((await api().post(`${NFE}/consultar`).set(r.headers())).body.received).to.equal(1);
    const res = await manifest({ accessKey: fed.accessKey, event: 'CIENCIA' }, r);
    expectProblem(res, 422, 'SEFAZ_REJECTED');
    expect(res.body).to.include({ cStat: '596' });
    expect(res.body.xMotivo).to.match(/prazo/);
  });

  it('a record of its own but no certificate → 422 before any call', async () => {
    const n = await sefazTenant({ certificate: false });
    const [g] = t.sim.generate({ recipient: n.cnpj, count: 1 });
    const staged = await api().post(`${NFE}/stage-xml`).set(n.headers()).send({ xml: g.xml });
    expect(staged.status, JSON.stringify(staged.body)).to.equal(201);
    expectProblem(await manifest({ accessKey: g.accessKey, event: 'CIENCIA' }, n), 422, 'CERTIFICATE_REQUIRED');
    expect(await logCount(n)).to.equal(0);
  });
});
