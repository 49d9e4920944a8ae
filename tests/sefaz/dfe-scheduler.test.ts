import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import type { FilialRunReport } from '../../src/modules/dfe/dfe-scheduler';
import { DfeSchedule } from '../../src/modules/dfe/entities/dfe-schedule.entity';
import { DfeState } from '../../src/modules/dfe/entities/dfe-state.entity';
import { padNsu } from '../../src/modules/authority/xml/dist-dfe';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { HOUR, MINUTE, scheduleRow, ScheduleWorld, scheduleWorld, sequenceViolations, setDfeSync } from './schedule-support';
import { NFE, rowsOf } from './support';

const stateRow = (companyId: number, filialId: number) => dataSource.manager.findOneBy(DfeState, { companyId, filialId });

describe('Scheduled DF-e sync (fast simulator clock)', function () {
  this.timeout(600_000);
  let w: ScheduleWorld;

  before(async () => {
    w = await scheduleWorld();
  });
  after(async () => {
    await w.stop();
  });

  describe('two replicas, 500 invoices to two filiais', () => {
    let t: Awaited<ReturnType<ScheduleWorld['tenant']>>;
    const keys: string[][] = [[], []];
    const startedAt = () => w.calls.length;
    let firstCall = 0;
    const runsBy = { a: 0, b: 0 };
    const overlaps: number[] = [];
    // Another company's filial with the sync on and no certificate (as other test files leave
    // behind): the replicas run it too, so the counts below must be per tenant.
    let bystander: TestTenant;
    let bystanderRuns = 0;

    before(async () => {
      t = await w.tenant();
      bystander = await createTestTenant({ filiais: 1 });
      await setDfeSync(bystander, 0, { enabled: true, intervalMinutes: 180 });
      firstCall = startedAt();
      const a = w.replica('replica-a');
      const b = w.replica('replica-b');
      // Ten simulated hours in 2-minute ticks, both replicas ticking side by side; the invoices
      // arrive during the first five hours (50 per filial and hour), so later runs find new NSUs
      // right after quiet periods and the ciência-released full XML as further NSUs.
      const ours = (reports: FilialRunReport[]) => {
        bystanderRuns += reports.filter((r) => r.companyId === bystander.companyId).length;
        return reports.filter((r) => r.companyId === t.companyId);
      };
      for (let minute = 0; minute <= 10 * 60; minute += 2) {
        if (minute % 60 === 30 && minute < 5 * 60) {
          for (const i of [0, 1]) keys[i].push(...w.sim.generate({ recipient: t.cnpjs[i], count: 50 }).map((g) => g.accessKey));
        }
        const [ra, rb] = (await Promise.all([a.tick(), b.tick()])).map(ours);
        runsBy.a += ra.length;
        runsBy.b += rb.length;
        overlaps.push(...ra.filter((x) => rb.some((y) => y.filialId === x.filialId)).map((x) => x.filialId));
        w.clock.advance(2 * MINUTE);
      }
      await setDfeSync(bystander, 0, { enabled: false });
    });

    it('received every invoice and its full XML: no NSU lost', async () => {
      expect(keys[0].length + keys[1].length).to.equal(500);
      for (const i of [0, 1]) {
        const status = w.sim.authority.status(t.cnpjs[i]);
        // 250 summaries + 250 full documents released by the ciências.
        expect(status.maxNSU).to.equal(padNsu(500));
        const state = (await stateRow(t.companyId, t.filialIds[i]))!;
        expect(state.ultNsu).to.equal(status.maxNSU);
        expect(state.pendingGaps).to.equal(null);
        const rows = await rowsOf('nfe_inbound', t.companyId, 'filial_id = ?', [t.filialIds[i]]);
        expect(rows.map((r) => r.access_key).sort()).to.deep.equal([...keys[i]].sort());
        expect(rows.every((r) => r.kind === 'FULL' && Number(r.has_xml) === 1 && r.manifestation === 'CIENCIA')).to.equal(true);
        // Every NSU of the stream came in some reply, exactly once.
        const seen = w.calls
          .slice(firstCall)
          .filter((c) => c.cnpj === t.cnpjs[i])
          .flatMap((c) => c.nsus);
        expect(new Set(seen).size).to.equal(seen.length);
        expect(seen.map(Number).sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 500 }, (_v, n) => n + 1));
      }
    });

    it('made no call inside a quiet period, none out of sequence and none twice', () => {
      const calls = w.calls.slice(firstCall);
      expect(calls.filter((c) => c.duringWait)).to.deep.equal([]);
      expect(calls.filter((c) => c.cStat === '656')).to.deep.equal([]);
      for (const cnpj of t.cnpjs) expect(sequenceViolations(calls, cnpj)).to.deep.equal([]);
      const events = calls.filter((c) => c.kind === 'event');
      expect(events).to.have.length(500);
      expect(new Set(events.map((e) => `${e.accessKey}:${e.tpEvento}`)).size).to.equal(500);
      expect(events.every((e) => e.cStat === '135' && e.tpEvento === '210210')).to.equal(true);
    });

    it('both replicas took part, one at a time per filial', async () => {
      expect(overlaps).to.deep.equal([]);
      expect(runsBy.a).to.be.greaterThan(0);
      expect(runsBy.b).to.be.greaterThan(0);
      const rows = await dataSource.manager.findBy(DfeSchedule, { companyId: t.companyId });
      expect(rows).to.have.length(2);
      for (const r of rows) {
        expect(r.leaseOwner).to.equal(null);
        expect(r.totalReceived).to.equal(500);
        expect(r.consecutiveErrors).to.equal(0);
        expect(r.foreignConsumerAt).to.equal(null);
        expect(r.runs).to.be.within(8, 12);
      }
      // Every run a schedule row counts was reported by exactly one replica, per tenant.
      expect(runsBy.a + runsBy.b).to.equal(rows.reduce((n, r) => n + r.runs, 0));
      const other = (await scheduleRow(bystander))!;
      expect(other).to.include({ lastOutcome: 'NO_CERTIFICATE', runs: bystanderRuns });
      expect(bystanderRuns).to.be.greaterThan(1);
      const logs = await rowsOf('sefaz_dfe_log', t.companyId);
      expect(logs.filter((l) => l.operation === '210210')).to.have.length(500);
    });

    it('reports the schedule per filial', async () => {
      const res = await api().get(`${NFE}/dfe-schedule`).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.have.length(2);
      const [f0] = res.body.data;
      expect(f0).to.include({
        filialId: t.filialHashes[0],
        cnpj: t.cnpjs[0],
        hasCertificate: true,
        status: 'SCHEDULED',
        documentsReceived: 500,
      });
      expect(f0.settings).to.deep.equal({ enabled: true, intervalMinutes: 60, autoCiencia: true });
      expect(f0.lastRun).to.include({ outcome: 'OK' });
      expect(Date.parse(f0.nextRunAt)).to.be.greaterThan(Date.parse(f0.lastRun.startedAt));
      expect(Date.parse(f0.nextRunAt)).to.be.at.least(Date.parse(f0.nextAllowedAt));
      expect(f0.anotherSystemConsuming).to.deep.equal({ detected: false, lastDetectedAt: null, reason: null, detections: 0 });
      expect(f0.nsu).to.deep.equal({ ultNSU: padNsu(500), maxNSU: padNsu(500), pendingGapNsus: 0 });
      expect(f0.errors.consecutive).to.equal(0);
      const one = await api().get(`${NFE}/dfe-schedule/${t.filialHashes[1]}`).set(t.headers());
      expect(one.status).to.equal(200);
      expect(one.body).to.include({ filialId: t.filialHashes[1], documentsReceived: 500 });
    });
  });

  describe('leases, restarts and another system on the CNPJ', () => {
    let t: Awaited<ReturnType<ScheduleWorld['tenant']>>;

    before(async () => {
      t = await w.tenant({ filiais: 1 });
    });

    it("a dead replica's lease blocks the filial until it expires, then another replica runs it", async () => {
      w.sim.generate({ recipient: t.cnpjs[0], count: 30 });
      // A replica took the filial and died in the middle of its sync: both leases are left behind.
      await dataSource.manager.insert(DfeSchedule, {
        companyId: t.companyId,
        filialId: t.filialIds[0],
        nextRunAt: new Date(w.clock.t),
        leaseOwner: 'dead-replica',
        leaseUntil: new Date(w.clock.t + 15 * MINUTE),
      });
      await dataSource.manager.insert(DfeState, {
        companyId: t.companyId,
        filialId: t.filialIds[0],
        leaseUntil: new Date(w.clock.t + 5 * MINUTE),
      });
      const b = w.replica('replica-b');
      await b.tick();
      w.clock.advance(10 * MINUTE);
      await b.tick();
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0])).to.have.length(0);
      expect((await scheduleRow(t))!.leaseOwner).to.equal('dead-replica');
      w.clock.advance(6 * MINUTE);
      const reports = (await b.tick()).filter((r) => r.companyId === t.companyId);
      expect(reports.map((r) => [r.filialId, r.outcome, r.received])).to.deep.equal([[t.filialIds[0], 'OK', 30]]);
      const row = (await scheduleRow(t))!;
      expect(row).to.include({ leaseOwner: null, lastOutcome: 'OK', totalReceived: 30, lastCiencias: 30 });
      expect(sequenceViolations(w.calls, t.cnpjs[0])).to.deep.equal([]);
    });

    it('a new process continues from the stored state (restart)', async () => {
      w.clock.advance(2 * HOUR);
      const fresh = w.replica('after-restart');
      await fresh.tick();
      expect(sequenceViolations(w.calls, t.cnpjs[0])).to.deep.equal([]);
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0] && c.cStat === '656')).to.deep.equal([]);
      const state = (await stateRow(t.companyId, t.filialIds[0]))!;
      expect(state.ultNsu).to.equal(w.sim.authority.status(t.cnpjs[0]).maxNSU);
    });

    it('reports "another system is consuming this CNPJ" and fills the NSUs it took', async () => {
      const r = w.replica('replica-c', { cienciaPerRun: 0 });
      w.clock.advance(2 * HOUR);
      await r.tick();
      const state = (await stateRow(t.companyId, t.filialIds[0]))!;
      const ours = state.ultNsu;
      // Another system with the CNPJ's certificate reads the new NSUs first, from our position.
      const fed = w.sim.generate({ recipient: t.cnpjs[0], count: 8 });
      w.clock.advance(2 * HOUR);
      const a1 = w.sim.issueClientCertificate(t.cnpjs[0], 'OUTRO SISTEMA', 'x');
      const { AuthorityClient } = await import('../../src/modules/authority/authority-client');
      const { parsePfx } = await import('../../src/modules/sefaz/certificate/pfx');
      const other = new AuthorityClient({
        national: { distUrl: w.endpoints.distUrl, eventUrl: w.endpoints.eventUrl, ca: [w.endpoints.caPem] },
        credentials: parsePfx(a1.pfx, 'x'),
        tpAmb: '1',
        document: t.cnpjs[0],
        uf: 'SP',
      });
      const theirs = await other.distDFe({ kind: 'distNSU', ultNSU: ours });
      expect(theirs.cStat).to.equal('138');

      await r.tick();
      const row = (await scheduleRow(t))!;
      expect(row.lastOutcome).to.equal('BLOCKED');
      expect(row.foreignConsumerDetections).to.equal(1);
      expect(row.foreignConsumerReason).to.match(/another system is consuming this CNPJ/);
      const res = await api().get(`${NFE}/dfe-schedule/${t.filialHashes[0]}`).set(t.headers());
      expect(res.body.anotherSystemConsuming).to.include({ detected: true, detections: 1 });
      expect(res.body.nsu.pendingGapNsus).to.equal(8);
      // Nothing more until the block is over.
      const calls = w.calls.length;
      w.clock.advance(30 * MINUTE);
      await r.tick();
      expect(w.calls.length).to.equal(calls);
      // An hour later the gap is fetched NSU by NSU: nothing of the other system's share is lost.
      w.clock.advance(HOUR);
      await r.tick();
      const keys = (await rowsOf('nfe_inbound', t.companyId)).map((x) => x.access_key);
      for (const f of fed) expect(keys).to.include(f.accessKey);
      expect((await stateRow(t.companyId, t.filialIds[0]))!.pendingGaps).to.equal(null);
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0] && c.kind === 'consNSU')).to.have.length(8);
    });
  });

  describe('settings', () => {
    it('a disabled filial is not run; one without certificate is reported, without a call', async () => {
      const t = await w.tenant({ filiais: 2 });
      await setDfeSync(t, 1, { enabled: false });
      await dataSource.query('DELETE FROM sefaz_certificate WHERE company_id = ? AND filial_id = ?', [t.companyId, t.filialIds[0]]);
      const before = w.calls.length;
      await w.replica('settings').tick();
      expect(w.calls.filter((c) => t.cnpjs.includes(c.cnpj))).to.have.length(0);
      expect(w.calls.length).to.equal(before);
      expect((await scheduleRow(t, 0))!.lastOutcome).to.equal('NO_CERTIFICATE');
      expect(await scheduleRow(t, 1)).to.equal(null);
      const res = await api().get(`${NFE}/dfe-schedule`).set(t.headers());
      expect(res.body.data.map((d: any) => d.status)).to.deep.equal(['NO_CERTIFICATE', 'DISABLED']);
      expect(res.body.data[1].nextRunAt).to.equal(null);
    });

    it('the interval spaces the runs (2 h) and autoCiencia off sends no event', async () => {
      const t = await w.tenant({ filiais: 1, intervalMinutes: 120, autoCiencia: false });
      w.sim.generate({ recipient: t.cnpjs[0], count: 3 });
      const r = w.replica('interval');
      const start = w.clock.t;
      await r.tick();
      const row = (await scheduleRow(t))!;
      expect(row.nextRunAt.getTime()).to.equal(start + 120 * MINUTE);
      expect(row.lastReceived).to.equal(3);
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0] && c.kind === 'event')).to.have.length(0);
      w.clock.advance(90 * MINUTE);
      await r.tick();
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0] && c.kind === 'distNSU')).to.have.length(1);
      w.clock.advance(31 * MINUTE);
      await r.tick();
      expect(w.calls.filter((c) => c.cnpj === t.cnpjs[0] && c.kind === 'distNSU')).to.have.length(2);
      const rows = await rowsOf('nfe_inbound', t.companyId);
      expect(rows.every((x) => x.kind === 'SUMMARY' && x.manifestation === 'NONE')).to.equal(true);
    });
  });

  describe('GET /dfe-schedule access', () => {
    it('403 for a filial not granted or of another company, 400 for a malformed id', async () => {
      const t = await createTestTenant();
      const other = await createTestTenant();
      expectProblem(
        await api()
          .get(`${NFE}/dfe-schedule/${t.filialHashes[1]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
      );
      expectProblem(await api().get(`${NFE}/dfe-schedule/${other.filialHashes[0]}`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(`${NFE}/dfe-schedule/not-an-id!`).set(t.headers()), 400);
      const limited = await api()
        .get(`${NFE}/dfe-schedule`)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }));
      expect(limited.body.data.map((d: any) => d.filialId)).to.deep.equal([t.filialHashes[0]]);
    });
  });
});
