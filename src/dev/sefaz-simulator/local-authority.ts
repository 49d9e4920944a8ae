import crypto from 'node:crypto';
import fs from 'node:fs';
import { config } from '../../core/config';
import { sefazConfig } from '../../core/config/sefaz';
import { ActorContext, systemContext } from '../../core/context';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { registerLocalAuthority } from '../../modules/emission-setup';
import { rewindCursorPast } from '../../modules/dfe';
import { getCertificate, saveCertificate, setFilialEndpoint } from '../../modules/sefaz';
import { Company, Filial } from '../../modules/tenancy';
import { trustCertificateAuthority } from '../../modules/fiscal-xml';
import { DATA_DIR, INFO_FILE, STATE_FILE } from './info-file';
import { AuthoritySimulator } from './simulator';

/*
 * `npm start` on the embedded default: the local authority simulator starts, the demo tenant's
 * filiais get a certificate it issued and point at it, and a first start leaves a few invoices in
 * their streams. Its address and admin token are written for `npm run simulator:feed`; documents
 * and NSU positions persist next to the embedded database (info-file.ts).
 */
const DEMO_INVOICES = 3;

export interface LocalAuthority {
  url: string;
  adminToken: string;
  simulator: AuthoritySimulator;
  stop: () => Promise<void>;
}

export const SIMULATOR_LABEL = 'local simulator';

/** The local authority this process runs (npm start with SEFAZ_SIMULATOR, or a test's). */
let running: AuthoritySimulator | null = null;

/**
 * Makes `sim` the local authority filiais are attached to by POST /settings/filial/:filialId/simulator
 * (startLocalAuthority does; tests pass their own); null: none.
 */
export function useLocalAuthority(
  sim: AuthoritySimulator | null,
  endpoints?: { url: string; distUrl: string; eventUrl: string; caPem: string },
): void {
  running = sim && endpoints ? sim : null;
  registerLocalAuthority(
    sim && endpoints
      ? { url: endpoints.url, label: SIMULATOR_LABEL, attach: (ctx, filial, opts) => attachFilial(ctx, sim, filial, endpoints, opts) }
      : null,
  );
}

/**
 * Points a filial at the simulator and, unless it keeps its own (`certificate: 'KEEP'`; default
 * when it has one), gives it a fresh A1 certificate of the simulator's CA; a fresh simulator resets
 * the filial's NSU position. The demo's filiais also get a few invoices in their DF-e streams.
 */
async function attachFilial(
  ctx: ActorContext,
  sim: AuthoritySimulator,
  filial: Filial,
  endpoints: { distUrl: string; eventUrl: string; caPem: string },
  opts: { certificate?: 'ISSUE' | 'KEEP'; demoInvoices?: boolean } = {},
): Promise<{ certificateIssued: boolean }> {
  const companyId = filial.companyId;
  const has = await getCertificate(companyId, filial.id).then(
    () => true,
    () => false,
  );
  const issue = (opts.certificate ?? (has ? 'KEEP' : 'ISSUE')) === 'ISSUE';
  if (issue) {
    const password = crypto.randomBytes(12).toString('hex');
    const a1 = sim.issueClientCertificate(filial.cnpj, filial.name.toUpperCase(), password);
    await saveCertificate(ctx, filial.id, { pfx: a1.pfx.toString('base64'), password });
  }
  const { distUrl, eventUrl, caPem } = endpoints;
  await setFilialEndpoint(companyId, filial.id, {
    distUrl,
    eventUrl,
    caPem,
    label: SIMULATOR_LABEL,
    waitSeconds: sefazConfig.simulator.waitMs / 1000,
  });

  const tpAmb = filial.nfeEnvironment === 'HOMOLOGATION' ? '2' : '1';
  const stream = sim.authority.status(filial.cnpj, tpAmb);
  if (opts.demoInvoices && stream.documents === 0)
    sim.generate({ recipient: filial.cnpj, recipientName: filial.name, recipientUf: filial.uf, tpAmb, count: DEMO_INVOICES });
  await rewindCursorPast(companyId, filial.id, sim.authority.status(filial.cnpj, tpAmb).maxNSU);
  return { certificateIssued: issue };
}

/**
 * Starts the local authority when configured (SEFAZ_SIMULATOR; default: embedded database outside
 * production) and attaches the company of `attachCompanyCnpj` (npm start: the demo tenant) to it. Returns null when it is not to run.
 */
export async function startLocalAuthority(attachCompanyCnpj: string): Promise<LocalAuthority | null> {
  if (!sefazConfig.simulator.enabled) return null;
  const persistent = config.db.engine === 'sqlite' && config.db.sqliteFile !== ':memory:';
  const sim = new AuthoritySimulator({
    host: sefazConfig.simulator.host,
    port: sefazConfig.simulator.port,
    waitMs: sefazConfig.simulator.waitMs,
    xsdDir: sefazConfig.simulator.xsdDir,
    stateFile: persistent ? STATE_FILE : undefined,
  });
  const endpoints = await sim.start();
  useLocalAuthority(sim, endpoints);
  // The demo's issuers sign with certificates of the simulator's CA: the demo trusts it as its ICP-Brasil root.
  trustCertificateAuthority(sim.ca.certPem);

  const company = await readerOf(NO_UNIT).findOneBy(Company, { cnpj: attachCompanyCnpj });
  if (company) {
    const filiais = await readerOf(NO_UNIT).find(Filial, { where: { companyId: company.id }, order: { id: 'ASC' } });
    for (const filial of filiais)
      await attachFilial(systemContext(company.id, 'local-authority'), sim, filial, endpoints, {
        certificate: 'ISSUE',
        demoInvoices: true,
      });
  }
  // The address and admin token for simulator:feed and simulator:attach (on MySQL too: SEFAZ_SIMULATOR=true).
  {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.writeFileSync(
      INFO_FILE,
      JSON.stringify({ url: endpoints.url, adminToken: endpoints.adminToken, caPem: endpoints.caPem, pid: process.pid }, null, 2),
      { mode: 0o600 },
    );
  }
  logger.info('local tax-authority simulator started', { url: endpoints.url, demoTenant: !!company });
  return {
    url: endpoints.url,
    adminToken: endpoints.adminToken,
    simulator: sim,
    stop: async () => {
      await sim.stop();
      if (running === sim) useLocalAuthority(null);
      fs.rmSync(INFO_FILE, { force: true });
    },
  };
}
