import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { dataSource } from '../../src/core/db/data-source';
import { DfeLog } from '../../src/modules/sefaz/entities/dfe-log.entity';
import { DfeState } from '../../src/modules/dfe/entities/dfe-state.entity';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint, setTransportOptions } from '../../src/modules/sefaz/sefaz-connection';
import { parsePfx } from '../../src/modules/sefaz/certificate/pfx';
import { AuthorityClient } from '../../src/modules/authority/authority-client';
import { AuthoritySimulator, SimulatorEndpoints } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { trustCertificateAuthority } from '../../src/modules/fiscal-xml/signer-trust';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * One local authority for every tax-authority test file (its CA and keys take a moment to make),
 * with a clock the tests move: the simulator's hour rules follow `clock`, the service's
 * nextAllowedAt is moved back in the database (`allowNextQuery`).
 */

export const NFE = '/api/entry-document/nfe';

/** ../shared/fixtures/nfe from the repository root; tests that read it skip when it is absent. */
export const FIXTURES = path.resolve(__dirname, '../..', '../shared/fixtures/nfe');
export const hasFixtures = fs.existsSync(path.join(FIXTURES, 'ws'));
export const fixture = (rel: string) => fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
export const hasTool = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;

export const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs, advance: (ms: number) => void (clock.offsetMs += ms) };
export const HOUR = 3600_000;

let simulator: AuthoritySimulator | null = null;
let endpoints: SimulatorEndpoints | null = null;

export async function authority(): Promise<{ sim: AuthoritySimulator; endpoints: SimulatorEndpoints }> {
  if (!simulator) {
    simulator = new AuthoritySimulator({ now: clock.now });
    endpoints = await simulator.start();
    // Its issuers' certificates chain to its CA: trusted here like an installed ICP-Brasil root.
    trustCertificateAuthority(simulator.ca.certPem);
    // Failures are tested on purpose: keep retries and back-off short.
    setTransportOptions({ retries: 1, retryBaseMs: 5, timeoutMs: 2000 });
  }
  return { sim: simulator, endpoints: endpoints! };
}

after(async () => {
  await simulator?.stop();
});

export interface SefazTenant extends TestTenant {
  cnpj: string;
  sim: AuthoritySimulator;
  endpoints: SimulatorEndpoints;
  /** A client of "another system" polling or manifesting the same CNPJ with its own certificate. */
  otherSystem: () => AuthorityClient;
}

export const filialCnpj = async (t: TestTenant, i = 0) => (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[i] })).cnpj;

/** A tenant whose first filial has an A1 certificate of the simulator and points at it. */
export async function sefazTenant(opts: { certificate?: boolean; cnpj?: string } = {}): Promise<SefazTenant> {
  const { sim, endpoints: ep } = await authority();
  const t = await createTestTenant();
  if (opts.cnpj) await dataSource.manager.update(Filial, { id: t.filialIds[0], companyId: t.companyId }, { cnpj: opts.cnpj });
  const cnpj = await filialCnpj(t);
  if (opts.certificate !== false) {
    const a1 = sim.issueClientCertificate(cnpj, 'EMPRESA TESTE LTDA', 'senha-a1');
    await saveCertificate(t.ctx, t.filialIds[0], { pfx: a1.pfx.toString('base64'), password: a1.password });
  }
  await setFilialEndpoint(t.companyId, t.filialIds[0], {
    distUrl: ep.distUrl,
    eventUrl: ep.eventUrl,
    caPem: ep.caPem,
    label: 'local simulator',
  });
  const otherSystem = () => {
    const a1 = sim.issueClientCertificate(cnpj, 'OUTRO SISTEMA', 'x');
    return new AuthorityClient({
      national: { distUrl: ep.distUrl, eventUrl: ep.eventUrl, ca: [ep.caPem] },
      credentials: { ...parsePfx(a1.pfx, 'x') },
      tpAmb: '1',
      document: cnpj,
      uf: 'SP',
    });
  };
  return Object.assign(t, { cnpj, sim, endpoints: ep, otherSystem });
}

export const logCount = (t: TestTenant, i = 0) => dataSource.manager.countBy(DfeLog, { companyId: t.companyId, filialId: t.filialIds[i] });

export const stateOf = (t: TestTenant, i = 0) =>
  dataSource.manager.findOneBy(DfeState, { companyId: t.companyId, filialId: t.filialIds[i] });

/** "An hour later": the service may query again and the simulator's quiet period is over. */
export async function allowNextQuery(t: TestTenant, i = 0): Promise<void> {
  await dataSource.manager.update(
    DfeState,
    { companyId: t.companyId, filialId: t.filialIds[i] },
    { nextAllowedAt: new Date(Date.now() - 1000) },
  );
  clock.advance(HOUR + 60_000);
}

/** Rows of a table for one tenant (database assertions). */
export function rowsOf(table: string, companyId: number, where = '', params: unknown[] = []): Promise<Record<string, any>[]> {
  return dataSource.query(`SELECT * FROM ${table} WHERE company_id = ? ${where ? `AND ${where}` : ''} ORDER BY id`, [companyId, ...params]);
}
