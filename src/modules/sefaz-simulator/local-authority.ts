import crypto from 'node:crypto';
import fs from 'node:fs';
import { config } from '../../core/config';
import { sefazConfig } from '../../core/config/sefaz';
import { systemContext } from '../../core/context';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { rewindCursorPast, saveCertificate, setFilialEndpoint } from '../sefaz';
import { Company, Filial } from '../tenancy';
import { trustCertificateAuthority } from '../fiscal-xml';
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

/** Gives a filial a fresh certificate of the simulator and points it there; a fresh simulator resets the filial's NSU position. */
async function attachFilial(sim: AuthoritySimulator, companyId: number, filial: Filial, endpoints: { distUrl: string; eventUrl: string; caPem: string }): Promise<void> {
  const password = crypto.randomBytes(12).toString('hex');
  const a1 = sim.issueClientCertificate(filial.cnpj, filial.name.toUpperCase(), password);
  await saveCertificate(systemContext(companyId, 'local-authority'), filial.id, { pfx: a1.pfx.toString('base64'), password });
  await setFilialEndpoint(companyId, filial.id, { ...endpoints, label: 'local simulator', waitSeconds: sefazConfig.simulator.waitMs / 1000 });

  const tpAmb = filial.nfeEnvironment === 'HOMOLOGATION' ? '2' : '1';
  const stream = sim.authority.status(filial.cnpj, tpAmb);
  if (stream.documents === 0) sim.generate({ recipient: filial.cnpj, recipientName: filial.name, recipientUf: filial.uf, tpAmb, count: DEMO_INVOICES });
  await rewindCursorPast(companyId, filial.id, sim.authority.status(filial.cnpj, tpAmb).maxNSU);
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
  // The demo's issuers sign with certificates of the simulator's CA: the demo trusts it as its ICP-Brasil root.
  trustCertificateAuthority(sim.ca.certPem);

  const company = await readerOf(NO_UNIT).findOneBy(Company, { cnpj: attachCompanyCnpj });
  if (company) {
    const filiais = await readerOf(NO_UNIT).find(Filial, { where: { companyId: company.id }, order: { id: 'ASC' } });
    for (const filial of filiais) await attachFilial(sim, company.id, filial, endpoints);
  }
  if (persistent) {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.writeFileSync(INFO_FILE, JSON.stringify({ url: endpoints.url, adminToken: endpoints.adminToken, caPem: endpoints.caPem, pid: process.pid }, null, 2), { mode: 0o600 });
  }
  logger.info('local tax-authority simulator started', { url: endpoints.url, demoTenant: !!company });
  return {
    url: endpoints.url,
    adminToken: endpoints.adminToken,
    simulator: sim,
    stop: async () => {
      await sim.stop();
      if (persistent) fs.rmSync(INFO_FILE, { force: true });
    },
  };
}
