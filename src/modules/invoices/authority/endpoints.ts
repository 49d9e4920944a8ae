import type { Filial } from '../../tenancy/entities/filial.entity';
import { authorityTarget } from '../../sefaz/sefaz-connection';
import { OUTBOUND_PATHS, OutboundService } from '../../sefaz/xml/outbound';

/*
 * Where a filial's emission services are: its UF's authorizer, or in contingency the SVC its UF is
 * assigned to (SVC-AN or SVC-RS, NT 2013.007). A filial pointed at the local simulator (its own
 * endpoint row) uses the simulator's host for all of them, SVC under /svc-an and /svc-rs.
 */

export type Contingency = 'SVC-AN' | 'SVC-RS';

/** UFs whose contingency authorizer is SVC-RS; every other UF uses SVC-AN. */
const SVC_RS_UFS = new Set(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);
export const contingencyOf = (uf: string): Contingency => (SVC_RS_UFS.has(uf) ? 'SVC-RS' : 'SVC-AN');
export const emissionTypeOf = (c: Contingency | null): 1 | 6 | 7 => (c === 'SVC-AN' ? 6 : c === 'SVC-RS' ? 7 : 1);

/** Published hosts (production, homologação); paths follow the SVRS layout (OUTBOUND_PATHS). */
const HOSTS: Record<string, [string, string]> = {
  SP: ['https://nfe.fazenda.sp.gov.br', 'https://homologacao.nfe.fazenda.sp.gov.br'],
  SVRS: ['https://nfe.svrs.rs.gov.br', 'https://nfe-homologacao.svrs.rs.gov.br'],
  'SVC-AN': ['https://www.svc.fazenda.gov.br', 'https://hom.svc.fazenda.gov.br'],
  'SVC-RS': ['https://nfe.svrs.rs.gov.br', 'https://nfe-homologacao.svrs.rs.gov.br'],
};

export interface IssuerTarget {
  url: (service: OutboundService) => string;
  ca?: string[];
  label: string;
}

export async function issuerTarget(filial: Filial, contingency: Contingency | null): Promise<IssuerTarget> {
  const own = await authorityTarget(filial);
  if (own.ca) {
    const base = `${new URL(own.eventUrl).origin}${contingency ? `/${contingency.toLowerCase()}` : ''}`;
    return { url: (s) => `${base}${OUTBOUND_PATHS[s]}`, ca: own.ca, label: `${own.label}${contingency ? ` (${contingency})` : ''}` };
  }
  const host = HOSTS[contingency ?? (filial.uf in HOSTS ? filial.uf : 'SVRS')];
  const base = filial.nfeEnvironment === 'HOMOLOGATION' ? host[1] : host[0];
  return { url: (s) => `${base}${OUTBOUND_PATHS[s]}`, label: contingency ?? filial.uf };
}
