import { dataSource } from '../../src/core/db/data-source';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { trustCertificateAuthority } from '../../src/modules/fiscal-xml/signer-trust';
import { DfeScheduler } from '../../src/modules/dfe/dfe-scheduler';
import { DfeSchedule } from '../../src/modules/dfe/entities/dfe-schedule.entity';
import { setFilialEndpoint, setTransportOptions } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator, SimulatorEndpoints } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * The scheduled sync under a fast clock: a simulator of its own whose hour rules follow `SimClock`,
 * the schedulers on the same clock, and a recorder of every call the authority answers (so a test
 * can prove no call came inside a quiet period, none was repeated and none was out of sequence).
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export class SimClock {
  t = Date.now();
  now = () => new Date(this.t);
  ms = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

export interface RecordedCall {
  at: number;
  cnpj: string;
  kind: 'distNSU' | 'consNSU' | 'consChNFe' | 'event';
  /** ultNSU asked (distNSU) or the NSU (consNSU). */
  nsu: string | null;
  cStat: string;
  replyUltNSU: string | null;
  nsus: string[];
  accessKey?: string;
  tpEvento?: string;
  /** The stream was in its quiet period or blocked when the call arrived. */
  duringWait: boolean;
}

/** The filial's settings as the settings route (another engineer's) will set them: straight on the row. */
export async function setDfeSync(
  t: TestTenant,
  i: number,
  s: { enabled?: boolean; intervalMinutes?: number; autoCiencia?: boolean },
): Promise<void> {
  await dataSource.manager.update(
    Filial,
    { id: t.filialIds[i], companyId: t.companyId },
    {
      ...(s.enabled !== undefined ? { dfeSyncEnabled: s.enabled } : {}),
      ...(s.intervalMinutes !== undefined ? { dfeSyncIntervalMinutes: s.intervalMinutes } : {}),
      ...(s.autoCiencia !== undefined ? { autoCiencia: s.autoCiencia } : {}),
    },
  );
}

export const scheduleRow = (t: TestTenant, i = 0) =>
  dataSource.manager.findOneBy(DfeSchedule, { companyId: t.companyId, filialId: t.filialIds[i] });

export interface ScheduleWorld {
  clock: SimClock;
  sim: AuthoritySimulator;
  endpoints: SimulatorEndpoints;
  calls: RecordedCall[];
  replica: (owner: string, opts?: { cienciaPerRun?: number }) => DfeScheduler;
  /** A tenant whose filiais have certificates of this simulator, point at it and have the sync on. */
  tenant: (opts?: {
    filiais?: number;
    enabled?: boolean;
    autoCiencia?: boolean;
    intervalMinutes?: number;
  }) => Promise<TestTenant & { cnpjs: string[] }>;
  stop: () => Promise<void>;
}

export async function scheduleWorld(): Promise<ScheduleWorld> {
  const clock = new SimClock();
  const sim = new AuthoritySimulator({ now: clock.ms });
  const endpoints = await sim.start();
  // Its certificates chain to its CA: trusted like an installed ICP-Brasil root (a PRODUCTION filial takes no other).
  trustCertificateAuthority(sim.ca.certPem);
  setTransportOptions({ retries: 1, retryBaseMs: 5, timeoutMs: 5000 });
  const calls: RecordedCall[] = [];
  const tenants: TestTenant[] = [];

  const waiting = (cnpj: string) => {
    const st = sim.authority.status(cnpj);
    return [st.quietUntil, st.blockedUntil].some((u) => u !== null && Date.parse(u) > clock.t);
  };
  const distribute = sim.authority.distribute.bind(sim.authority);
  sim.authority.distribute = (req, pem) => {
    const duringWait = req.query.kind === 'distNSU' && waiting(req.cnpj);
    const xml = distribute(req, pem);
    calls.push({
      at: clock.t,
      cnpj: req.cnpj,
      kind: req.query.kind,
      nsu: req.query.kind === 'distNSU' ? req.query.ultNSU : req.query.kind === 'consNSU' ? req.query.nsu : null,
      cStat: /<cStat>(\d+)<\/cStat>/.exec(xml)![1],
      replyUltNSU: /<ultNSU>(\d+)<\/ultNSU>/.exec(xml)?.[1] ?? null,
      nsus: [...xml.matchAll(/NSU="(\d+)"/g)].map((m) => m[1]),
      duringWait,
    });
    return xml;
  };
  const receive = sim.authority.receiveEvents.bind(sim.authority);
  sim.authority.receiveEvents = (xml, pem) => {
    const reply = receive(xml, pem);
    const cnpj = /<CNPJ>(\d{14})<\/CNPJ>/.exec(xml)?.[1] ?? '';
    for (const m of reply.matchAll(/<infEvento[^>]*>([\s\S]*?)<\/infEvento>/g)) {
      calls.push({
        at: clock.t,
        cnpj,
        kind: 'event',
        nsu: null,
        cStat: /<cStat>(\d+)<\/cStat>/.exec(m[1])![1],
        replyUltNSU: null,
        nsus: [],
        accessKey: /<chNFe>(\d{44})<\/chNFe>/.exec(m[1])?.[1],
        tpEvento: /<tpEvento>(\d+)<\/tpEvento>/.exec(m[1])?.[1],
        duringWait: false,
      });
    }
    return reply;
  };

  const replicas: DfeScheduler[] = [];
  return {
    clock,
    sim,
    endpoints,
    calls,
    replica: (owner, opts = {}) => {
      const r = new DfeScheduler({ now: clock.now, owner, cienciaPerRun: opts.cienciaPerRun ?? 300 });
      replicas.push(r);
      return r;
    },
    tenant: async (opts = {}) => {
      const t = await createTestTenant({ filiais: opts.filiais ?? 2 });
      tenants.push(t);
      const cnpjs: string[] = [];
      for (let i = 0; i < t.filialIds.length; i++) {
        const cnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[i] })).cnpj;
        cnpjs.push(cnpj);
        const a1 = sim.issueClientCertificate(cnpj, `FILIAL ${i + 1} LTDA`, 'senha');
        await saveCertificate(t.ctx, t.filialIds[i], { pfx: a1.pfx.toString('base64'), password: a1.password });
        await setFilialEndpoint(t.companyId, t.filialIds[i], {
          distUrl: endpoints.distUrl,
          eventUrl: endpoints.eventUrl,
          caPem: endpoints.caPem,
          label: 'local simulator',
        });
        await setDfeSync(t, i, {
          enabled: opts.enabled ?? true,
          intervalMinutes: opts.intervalMinutes ?? 60,
          autoCiencia: opts.autoCiencia ?? true,
        });
      }
      return Object.assign(t, { cnpjs });
    },
    stop: async () => {
      for (const r of replicas) await r.stop();
      // Later test files must not find these filiais due.
      for (const t of tenants) for (let i = 0; i < t.filialIds.length; i++) await setDfeSync(t, i, { enabled: false });
      await sim.stop();
      setTransportOptions(undefined);
    },
  };
}

/** Every distNSU of a CNPJ continued from the previous reply's ultNSU (none repeated, none out of sequence). */
export function sequenceViolations(calls: RecordedCall[], cnpj: string): string[] {
  const problems: string[] = [];
  let expected: string | null = null;
  for (const c of calls.filter((x) => x.cnpj === cnpj && x.kind === 'distNSU')) {
    if (expected !== null && c.nsu !== expected)
      problems.push(`distNSU ${c.nsu} at ${new Date(c.at).toISOString()} after a reply with ultNSU ${expected}`);
    expected = c.replyUltNSU ?? expected;
  }
  return problems;
}
