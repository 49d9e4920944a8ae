import zlib from 'node:zlib';
import { sefazConfig } from '../../core/config/sefaz';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import type { Filial } from '../tenancy';
import { filialAuthoritySettings, overridesFor } from './authority-settings';
import { loadCredentials } from './certificate/certificate.service';
import { DfeLog } from './entities/dfe-log.entity';
import { SefazEndpoint } from './entities/sefaz-endpoint.entity';
import {
  AuthorityTarget,
  Contingency,
  ExchangeRecord,
  IssuerTarget,
  issuerTargetOf,
  type PostOptions,
  AuthorityClient,
} from '../authority';

/*
 * A ready client for one filial: its certificate (checked: 422 before any call), its environment's
 * endpoints (configuration, or the filial's own endpoint row such as the local simulator) and the
 * DF-e log every exchange is written to.
 */

export const tpAmbOf = (filial: Filial): '1' | '2' => (filial.nfeEnvironment === 'HOMOLOGATION' ? '2' : '1');

/** Transport overrides for tests (short timeouts and back-off); production uses the configuration. */
let transportOverride: PostOptions | undefined;
export function setTransportOptions(options: PostOptions | undefined): void {
  transportOverride = options;
}

export async function authorityTarget(filial: Filial): Promise<AuthorityTarget & { label: string }> {
  const own = await readerOf(NO_UNIT).findOneBy(SefazEndpoint, { companyId: filial.companyId, filialId: filial.id });
  if (own)
    return {
      distUrl: own.distUrl,
      eventUrl: own.eventUrl,
      ca: own.caPem ? [own.caPem] : undefined,
      label: own.label,
      waitMs: own.waitSeconds === null ? undefined : own.waitSeconds * 1000,
    };
  const configured = sefazConfig.endpoints[filial.nfeEnvironment];
  return {
    distUrl: configured.dist,
    eventUrl: configured.event,
    label: filial.nfeEnvironment === 'HOMOLOGATION' ? 'national environment (homologação)' : 'national environment',
  };
}

/**
 * Where a filial's NF-e/NFC-e emission services are: its UF's authorizer (or SVC), or the simulator its
 * endpoint row names. A URL the filial set by hand for its environment and target wins over the tables;
 * the simulator (its own CA, one host for every service) takes no override.
 */
export async function issuerTarget(filial: Filial, contingency: Contingency | null): Promise<IssuerTarget> {
  const [own, settings] = await Promise.all([authorityTarget(filial), filialAuthoritySettings(filial.companyId, filial.id)]);
  const target = issuerTargetOf(filial, own, contingency);
  if (own.ca) return target;
  const overrides = overridesFor(settings, filial.nfeEnvironment, contingency ? 'CONTINGENCY' : 'AUTHORIZER');
  if (!Object.keys(overrides).length) return target;
  return { ...target, url: (s) => overrides[s] ?? target.url(s), label: `${target.label} (URLs set for the filial)` };
}

/** Points a filial at other endpoints (the local simulator); `null` returns it to the configuration. */
export async function setFilialEndpoint(
  companyId: number,
  filialId: number,
  endpoint: { distUrl: string; eventUrl: string; caPem: string | null; label: string; waitSeconds?: number | null } | null,
): Promise<void> {
  await inTransaction(NO_UNIT, async (em) => {
    await em.delete(SefazEndpoint, { companyId, filialId });
    if (endpoint) await em.insert(SefazEndpoint, { companyId, filialId, ...endpoint, waitSeconds: endpoint.waitSeconds ?? null });
  });
}

async function writeLog(filial: Filial, r: ExchangeRecord): Promise<void> {
  await inTransaction(NO_UNIT, (em) =>
    em.insert(DfeLog, {
      companyId: filial.companyId,
      filialId: filial.id,
      service: r.service,
      operation: r.operation.slice(0, 20),
      endpoint: r.endpoint.slice(0, 300),
      attempt: r.attempt,
      requestGz: zlib.gzipSync(Buffer.from(r.request, 'utf8')),
      responseGz: r.response === null ? null : zlib.gzipSync(Buffer.from(r.response, 'utf8')),
      httpStatus: r.httpStatus,
      cStat: r.cStat,
      xMotivo: r.xMotivo,
      error: r.error?.slice(0, 300) ?? null,
      durationMs: r.durationMs,
    }),
  );
}

export async function clientFor(filial: Filial): Promise<AuthorityClient> {
  const credentials = await loadCredentials(filial);
  return new AuthorityClient({
    national: await authorityTarget(filial),
    credentials,
    tpAmb: tpAmbOf(filial),
    document: filial.cnpj,
    uf: filial.uf,
    onExchange: (r) => writeLog(filial, r),
    transport: transportOverride,
  });
}
