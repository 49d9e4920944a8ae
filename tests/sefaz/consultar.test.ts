import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { DfeLog } from '../../src/modules/sefaz/entities/dfe-log.entity';
import { SefazCertificate } from '../../src/modules/sefaz/entities/sefaz-certificate.entity';
import { DfeState } from '../../src/modules/dfe/entities/dfe-state.entity';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
// The module object itself (not an interop copy): the race test below wraps its clientFor.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: the module object, not an interop copy
import connection = require('../../src/modules/sefaz/sefaz-connection');
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { changedTables, rowCounts } from '../support/rows';
import { createTestTenant } from '../support/tenant';
import { allowNextQuery, clock, HOUR, logCount, NFE, rowsOf, sefazTenant, SefazTenant, stateOf } from './support';

describe('POST /entry-document/nfe/consultar (DF-e distribution)', function () {
  this.timeout(60_000);

  describe('first sync of 120 documents', () => {
    let t: SefazTenant;
    let keys: string[];
    let first: any;

    before(async () => {
      t = await sefazTenant();
      // 110 invoices (summaries); another system on the same CNPJ gives ciência to 5 (their full XML
      // follows as new NSUs); the issuer cancels 3; 2 more invoices: 120 documents in the stream.
      keys = t.sim.generate({ recipient: t.cnpj, count: 110 }).map((g) => g.accessKey);
      const other = t.otherSystem();
      for (const key of keys.slice(0, 5)) expect((await other.manifest({ event: 'CIENCIA', accessKey: key })).result.cStat).to.equal('135');
      for (const key of [keys[0], keys[5], keys[6]]) t.sim.authority.cancelByIssuer(key);
      keys.push(...t.sim.generate({ recipient: t.cnpj, count: 2 }).map((g) => g.accessKey));
      expect(t.sim.authority.status(t.cnpj).maxNSU).to.equal('000000000000120');
      first = await api().post(`${NFE}/consultar`).set(t.headers());
    });

    it('arrives in 3 calls of at most 50 and answers the state', () => {
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.include({ received: 120, calls: 3, ultNSU: '000000000000120', maxNSU: '000000000000120', cStat: '138' });
      expect(first.body.stored).to.deep.equal({ summaries: 112, documents: 5, events: 3, cancellations: 3 });
      expect(Date.parse(first.body.nextAllowedAt)).to.be.closeTo(Date.now() + HOUR, 60_000);
    });

    it('stores summaries, full XML and events on the inbound records', async () => {
      const rows = await rowsOf('nfe_inbound', t.companyId);
      expect(rows).to.have.length(112);
      expect(rows.filter((r) => r.kind === 'SUMMARY')).to.have.length(107);
      const full = rows.filter((r) => r.kind === 'FULL');
      expect(full.map((r) => r.access_key).sort()).to.deep.equal(keys.slice(0, 5).sort());
      expect(full.every((r) => Number(r.has_xml) === 1 && r.source === 'SEFAZ')).to.equal(true);
      expect(
        rows
          .filter((r) => r.authority_status === 'CANCELLED')
          .map((r) => r.access_key)
          .sort(),
      ).to.deep.equal([keys[0], keys[5], keys[6]].sort());
      expect(rows.every((r) => /^\d{15}$/.test(r.nsu))).to.equal(true);
      const cancellations = await rowsOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT' AND event_code = '110111'");
      expect(cancellations).to.have.length(3);
      const received = await rowsOf('outbox_event', t.companyId, "type = 'nfe.inbound.received'");
      expect(received).to.have.length(112);
    });

    it('keeps the state and a log row per call, without certificate material', async () => {
      const state = (await stateOf(t))!;
      expect(state).to.include({ ultNsu: '000000000000120', maxNsu: '000000000000120', lastCStat: '138' });
      const logs = await dataSource.manager.find(DfeLog, {
        where: { companyId: t.companyId, filialId: t.filialIds[0] },
        order: { id: 'ASC' },
      });
      expect(logs.map((l) => [l.operation, l.cStat])).to.deep.equal([
        ['distNSU', '138'],
        ['distNSU', '138'],
        ['distNSU', '138'],
      ]);
      const text = JSON.stringify(logs.map((l) => [l.requestGz.toString('base64'), l.responseGz?.toString('base64')]));
      expect(text).not.to.match(/PRIVATE KEY/);
    });

    it('a repeat within the hour makes no call: 429 with Retry-After', async () => {
      const calls = await logCount(t);
      const position = t.sim.authority.status(t.cnpj).position;
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expectProblem(res, 429, 'SEFAZ_WAIT_REQUIRED');
      expect(Number(res.headers['retry-after'])).to.be.within(3500, 3600);
      expect(res.body.nextAllowedAt).to.equal(first.body.nextAllowedAt);
      expect(await logCount(t)).to.equal(calls);
      expect(t.sim.authority.status(t.cnpj).position).to.equal(position);
    });

    it('an hour later with nothing new: 137, the position kept, another hour to wait', async () => {
      await allowNextQuery(t);
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ received: 0, calls: 1, cStat: '137', ultNSU: '000000000000120' });
      expect(Date.parse(res.body.nextAllowedAt)).to.be.greaterThan(Date.now() + HOUR - 60_000);
      expect((await stateOf(t))!.lastCStat).to.equal('137');
    });

    it('the lists of the NF-e module show the records (pending excludes the cancelled)', async () => {
      const pending = await api().get(`${NFE}/inbound/pendentes/${t.filialHashes[0]}?pageSize=100&includeTotal=true`).set(t.headers());
      expect(pending.status).to.equal(200);
      expect(pending.body.pagination.total).to.equal(109);
      expect(pending.body.data.every((r: any) => r.authorityStatus !== 'CANCELLED')).to.equal(true);
    });
  });

  describe('the authority’s other answers', () => {
    it('new documents after the wait continue from the returned ultNSU', async () => {
      const t = await sefazTenant();
      t.sim.generate({ recipient: t.cnpj, count: 3 });
      expect((await api().post(`${NFE}/consultar`).set(t.headers())).body.ultNSU).to.equal('000000000000003');
      t.sim.generate({ recipient: t.cnpj, count: 2 });
      await allowNextQuery(t);
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expect(res.body).to.include({ received: 2, ultNSU: '000000000000005', maxNSU: '000000000000005' });
      expect(await rowsOf('nfe_inbound', t.companyId)).to.have.length(5);
    });

    it('656 from another system’s position: resume there, then fill the gap with consNSU', async () => {
      const t = await sefazTenant();
      t.sim.generate({ recipient: t.cnpj, count: 4 });
      // Another system on the same CNPJ takes NSUs 1–4 first.
      const other = await t.otherSystem().distDFe({ kind: 'distNSU', ultNSU: '0' });
      expect(other.ultNSU).to.equal('000000000000004');
      clock.advance(HOUR + 60_000);

      const blocked = await api().post(`${NFE}/consultar`).set(t.headers());
      expect(blocked.status, JSON.stringify(blocked.body)).to.equal(200);
      expect(blocked.body).to.include({ cStat: '656', received: 0, ultNSU: '000000000000004' });
      expect(blocked.body.gaps).to.deep.equal({ filled: 0, pendingNsus: 4 });
      expect((await stateOf(t))!.pendingGaps).to.deep.equal([['000000000000001', '000000000000004']]);
      expectProblem(await api().post(`${NFE}/consultar`).set(t.headers()), 429, 'SEFAZ_WAIT_REQUIRED');

      t.sim.generate({ recipient: t.cnpj, count: 1 });
      await allowNextQuery(t);
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ received: 5, ultNSU: '000000000000005', calls: 5 });
      expect(res.body.gaps).to.deep.equal({ filled: 4, pendingNsus: 0 });
      const ops = (await dataSource.manager.find(DfeLog, { where: { companyId: t.companyId }, order: { id: 'ASC' } })).map(
        (l) => l.operation,
      );
      expect(ops).to.deep.equal(['distNSU', 'consNSU', 'consNSU', 'consNSU', 'consNSU', 'distNSU']);
      expect(await rowsOf('nfe_inbound', t.companyId)).to.have.length(5);
      expect((await stateOf(t))!.pendingGaps).to.equal(null);
    });

    it('two syncs at once: one runs, the other is refused (409), nothing doubled', async () => {
      const t = await sefazTenant();
      t.sim.generate({ recipient: t.cnpj, count: 60 });
      const [a, b] = await Promise.all([api().post(`${NFE}/consultar`).set(t.headers()), api().post(`${NFE}/consultar`).set(t.headers())]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).to.deep.equal([200, 409]);
      const loser = a.status === 409 ? a : b;
      expectProblem(loser, 409, 'SEFAZ_SYNC_IN_PROGRESS');
      expect(await rowsOf('nfe_inbound', t.companyId)).to.have.length(60);
      expect((await stateOf(t))!.leaseUntil).to.equal(null);
      expect(t.sim.authority.status(t.cnpj).blockedUntil).to.equal(null);
    });

    it('a first sync that finds the row created and leased meanwhile by another first sync is refused (409), nothing sent', async () => {
      const t = await sefazTenant();
      t.sim.generate({ recipient: t.cnpj, count: 3 });
      // The other first sync creates the state row and takes its lease while this one, which saw no
      // row, is still checking the certificate (the window of the "two syncs at once" race).
      const realClientFor = connection.clientFor;
      connection.clientFor = async (filial) => {
        const client = await realClientFor(filial);
        await dataSource.manager.insert(DfeState, {
          companyId: t.companyId,
          filialId: t.filialIds[0],
          leaseUntil: new Date(Date.now() + 60_000),
        });
        return client;
      };
      let res;
      try {
        res = await api().post(`${NFE}/consultar`).set(t.headers());
      } finally {
        connection.clientFor = realClientFor;
      }
      expectProblem(res, 409, 'SEFAZ_SYNC_IN_PROGRESS');
      expect(await logCount(t)).to.equal(0);
      expect(t.sim.authority.status(t.cnpj).position).to.equal(null);
      expect(await stateOf(t)).to.include({ ultNsu: '000000000000000', version: 1 });
    });

    it('members in the body cannot move the position: they are refused (400) and the query starts from the stored NSU', async () => {
      const t = await sefazTenant();
      const refused = await api().post(`${NFE}/consultar`).set(t.headers()).send({ ultNSU: '5' });
      expectProblem(refused, 400, 'UNKNOWN_FIELDS');
      expect(refused.body.errors).to.deep.equal([{ path: 'ultNSU', message: 'ultNSU is not allowed' }]);
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body.ultNSU).to.equal('000000000000000');
    });

    it('an unreachable authority: retried with back-off, logged, 503; the state unchanged', async () => {
      const t = await sefazTenant();
      await setFilialEndpoint(t.companyId, t.filialIds[0], {
        distUrl: 'https://127.0.0.1:1/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
        eventUrl: 'https://127.0.0.1:1/x',
        caPem: t.endpoints.caPem,
        label: 'down',
      });
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expectProblem(res, 503, 'SEFAZ_UNAVAILABLE');
      const logs = await dataSource.manager.find(DfeLog, { where: { companyId: t.companyId }, order: { id: 'ASC' } });
      expect(logs.map((l) => [l.attempt, l.httpStatus, l.cStat])).to.deep.equal([
        [1, null, null],
        [2, null, null],
      ]);
      expect(logs[0].error).to.match(/ECONNREFUSED/);
      const state = (await stateOf(t))!;
      expect(state).to.include({ ultNsu: '000000000000000', nextAllowedAt: null, leaseUntil: null });
    });
  });

  describe('refusals before any call', () => {
    it('no certificate → 422, nothing sent and nothing written (no DF-e state row either)', async () => {
      const t = await sefazTenant({ certificate: false });
      const before = await rowCounts();
      expectProblem(await api().post(`${NFE}/consultar`).set(t.headers()), 422, 'CERTIFICATE_REQUIRED');
      expect(changedTables(before, await rowCounts())).to.deep.equal({});
      expect(await logCount(t)).to.equal(0);
      expect(await stateOf(t)).to.equal(null);
    });

    it('an expired certificate in store → 422, nothing sent', async () => {
      const t = await sefazTenant();
      await dataSource.manager.update(SefazCertificate, { companyId: t.companyId }, { validTo: new Date(Date.now() - 86_400_000) });
      const res = await api().post(`${NFE}/consultar`).set(t.headers());
      expectProblem(res, 422, 'CERTIFICATE_EXPIRED');
      expect(await logCount(t)).to.equal(0);
    });

    it('x-filial-id missing → 400; a filial not granted → 403; no scope → 403', async () => {
      const t = await createTestTenant();
      const { 'x-filial-id': _f, ...noFilial } = t.headers();
      expectProblem(await api().post(`${NFE}/consultar`).set(noFilial), 400, 'MISSING_TENANT_HEADER');
      expectProblem(
        await api()
          .post(`${NFE}/consultar`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 0)),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await api()
          .post(`${NFE}/consultar`)
          .set(t.headersWith({ scope: 'nfe:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });

    it('another company’s filial → 403', async () => {
      const t = await createTestTenant();
      const other = await createTestTenant();
      expectProblem(
        await api()
          .post(`${NFE}/consultar`)
          .set({ ...t.headers(), 'x-filial-id': other.filialHashes[0] }),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });
  });

  describe('GET /entry-document/nfe/dfe/:filialId and /dfe-log/:filialId', () => {
    it('shows the state, endpoints and certificate; the log with envelopes on request', async () => {
      const t = await sefazTenant();
      t.sim.generate({ recipient: t.cnpj, count: 1 });
      await api().post(`${NFE}/consultar`).set(t.headers());
      const state = await api().get(`${NFE}/dfe/${t.filialHashes[0]}`).set(t.headers());
      expect(state.status).to.equal(200);
      expect(state.body).to.include({ ultNSU: '000000000000001', lastCStat: '138', syncRunning: false });
      expect(state.body.endpoints.label).to.equal('local simulator');
      expect(state.body.certificate.cnpj).to.equal(t.cnpj);
      const log = await api().get(`${NFE}/dfe-log/${t.filialHashes[0]}?envelopes=true`).set(t.headers());
      expect(log.status).to.equal(200);
      expect(log.body.data).to.have.length(1);
      expect(log.body.data[0]).to.include({ service: 'DIST_DFE', operation: 'distNSU', cStat: '138', attempt: 1, httpStatus: 200 });
      expect(log.body.data[0].request).to.contain('<distNSU><ultNSU>000000000000000</ultNSU></distNSU>');
      expect(log.body.data[0].response).to.contain('<cStat>138</cStat>');
      const other = await createTestTenant();
      expectProblem(await api().get(`${NFE}/dfe-log/${other.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
    });
  });
});
