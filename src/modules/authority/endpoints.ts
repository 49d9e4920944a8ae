import { OUTBOUND_PATHS, OutboundService } from './xml/outbound';

/*
 * Where a filial's NF-e (modelo 55, layout 4.00) emission services are: its UF's authorizer, or in
 * contingency the SVC its UF is assigned to. A filial pointed at the local simulator (its own endpoint
 * row) uses the simulator's host for all of them, SVC under /svc-an and /svc-rs.
 *
 * Source of the data below: Portal Nacional da NF-e, "Relação de Serviços Web" and "Autorizadores"
 * (https://www.nfe.fazenda.gov.br/portal/webServices.aspx and …/portal/disponibilidade.aspx), NF-e 4.00
 * services; SVC pairing per NT 2013.007 as published on the same portal. Cross-checked against the
 * endpoint tables open-source emitters ship (docs/decisions/nfe-authorizer-endpoints.md). Each
 * authorizer writes its own paths, so every service of every authorizer is listed in full.
 */

export type Contingency = 'SVC-AN' | 'SVC-RS';
export type Authorizer = 'AM' | 'BA' | 'GO' | 'MG' | 'MS' | 'MT' | 'PE' | 'PR' | 'RS' | 'SP' | 'SVAN' | 'SVRS' | Contingency;

export const UFS = [
  'AC',
  'AL',
  'AM',
  'AP',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MG',
  'MS',
  'MT',
  'PA',
  'PB',
  'PE',
  'PI',
  'PR',
  'RJ',
  'RN',
  'RO',
  'RR',
  'RS',
  'SC',
  'SE',
  'SP',
  'TO',
] as const;

/** UFs with their own authorizer; MA uses SVAN; every other UF uses SVRS. */
const OWN = new Set<string>(['AM', 'BA', 'GO', 'MG', 'MS', 'MT', 'PE', 'PR', 'RS', 'SP']);
export const authorizerOf = (uf: string): Authorizer => (OWN.has(uf) ? (uf as Authorizer) : uf === 'MA' ? 'SVAN' : 'SVRS');

/** UFs whose contingency authorizer is SVC-RS; every other UF uses SVC-AN. */
const SVC_RS_UFS = new Set(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);
export const contingencyOf = (uf: string): Contingency => (SVC_RS_UFS.has(uf) ? 'SVC-RS' : 'SVC-AN');
export const emissionTypeOf = (c: Contingency | null): 1 | 6 | 7 => (c === 'SVC-AN' ? 6 : c === 'SVC-RS' ? 7 : 1);

type Paths = Partial<Record<OutboundService, string>>;

/** The path families the authorizers use (appended to each host's base). */
const ANY_ASMX: Paths = {
  AUTORIZACAO: '/NFeAutorizacao4/NFeAutorizacao4.asmx',
  RET_AUTORIZACAO: '/NFeRetAutorizacao4/NFeRetAutorizacao4.asmx',
  CONSULTA_PROTOCOLO: '/NFeConsultaProtocolo4/NFeConsultaProtocolo4.asmx',
  STATUS_SERVICO: '/NFeStatusServico4/NFeStatusServico4.asmx',
  INUTILIZACAO: '/NFeInutilizacao4/NFeInutilizacao4.asmx',
  RECEPCAO_EVENTO: '/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx',
};
const JAVA: Paths = {
  AUTORIZACAO: '/NFeAutorizacao4',
  RET_AUTORIZACAO: '/NFeRetAutorizacao4',
  CONSULTA_PROTOCOLO: '/NFeConsultaProtocolo4',
  STATUS_SERVICO: '/NFeStatusServico4',
  INUTILIZACAO: '/NFeInutilizacao4',
  RECEPCAO_EVENTO: '/NFeRecepcaoEvento4',
};
/** AM and MT. */
const NFE_LOWER: Paths = {
  AUTORIZACAO: '/NfeAutorizacao4',
  RET_AUTORIZACAO: '/NfeRetAutorizacao4',
  CONSULTA_PROTOCOLO: '/NfeConsulta4',
  STATUS_SERVICO: '/NfeStatusServico4',
  INUTILIZACAO: '/NfeInutilizacao4',
  RECEPCAO_EVENTO: '/RecepcaoEvento4',
};
const SP_PATHS: Paths = {
  AUTORIZACAO: '/ws/nfeautorizacao4.asmx',
  RET_AUTORIZACAO: '/ws/nferetautorizacao4.asmx',
  CONSULTA_PROTOCOLO: '/ws/nfeconsultaprotocolo4.asmx',
  STATUS_SERVICO: '/ws/nfestatusservico4.asmx',
  INUTILIZACAO: '/ws/nfeinutilizacao4.asmx',
  RECEPCAO_EVENTO: '/ws/nferecepcaoevento4.asmx',
};
/** SVC-AN does not void numbers (inutilização is not a contingency service). */
const { INUTILIZACAO: _noVoiding, ...SVC_AN_PATHS } = ANY_ASMX;

interface AuthorizerHosts {
  /** [production, homologação] bases. */
  bases: [string, string];
  paths: Paths;
}

export const AUTHORIZERS: Record<Authorizer, AuthorizerHosts> = {
  AM: { bases: ['https://nfe.sefaz.am.gov.br/services2/services', 'https://homnfe.sefaz.am.gov.br/services2/services'], paths: NFE_LOWER },
  BA: { bases: ['https://nfe.sefaz.ba.gov.br/webservices', 'https://hnfe.sefaz.ba.gov.br/webservices'], paths: ANY_ASMX },
  GO: { bases: ['https://nfe.sefaz.go.gov.br/nfe/services', 'https://homolog.sefaz.go.gov.br/nfe/services'], paths: JAVA },
  MG: { bases: ['https://nfe.fazenda.mg.gov.br/nfe2/services', 'https://hnfe.fazenda.mg.gov.br/nfe2/services'], paths: JAVA },
  MS: { bases: ['https://nfe.fazenda.ms.gov.br/ws', 'https://homologacao.nfe.ms.gov.br/ws'], paths: JAVA },
  MT: {
    bases: ['https://nfe.sefaz.mt.gov.br/nfews/v2/services', 'https://homologacao.sefaz.mt.gov.br/nfews/v2/services'],
    paths: NFE_LOWER,
  },
  PE: {
    bases: ['https://nfe.sefaz.pe.gov.br/nfe-service/services', 'https://nfehomolog.sefaz.pe.gov.br/nfe-service/services'],
    paths: JAVA,
  },
  PR: { bases: ['https://nfe.sefa.pr.gov.br/nfe', 'https://homologacao.nfe.sefa.pr.gov.br/nfe'], paths: JAVA },
  RS: { bases: ['https://nfe.sefazrs.rs.gov.br', 'https://nfe-homologacao.sefazrs.rs.gov.br'], paths: OUTBOUND_PATHS },
  SP: { bases: ['https://nfe.fazenda.sp.gov.br', 'https://homologacao.nfe.fazenda.sp.gov.br'], paths: SP_PATHS },
  SVAN: { bases: ['https://www.sefazvirtual.fazenda.gov.br', 'https://hom.sefazvirtual.fazenda.gov.br'], paths: ANY_ASMX },
  SVRS: { bases: ['https://nfe.svrs.rs.gov.br', 'https://nfe-homologacao.svrs.rs.gov.br'], paths: OUTBOUND_PATHS },
  'SVC-AN': { bases: ['https://www.svc.fazenda.gov.br', 'https://hom.svc.fazenda.gov.br'], paths: SVC_AN_PATHS },
  'SVC-RS': { bases: ['https://nfe.svrs.rs.gov.br', 'https://nfe-homologacao.svrs.rs.gov.br'], paths: OUTBOUND_PATHS },
};

/** The URL of one service of one authorizer; an error for a service the authorizer does not offer. */
export function serviceUrl(authorizer: Authorizer, service: OutboundService, environment: 'PRODUCTION' | 'HOMOLOGATION'): string {
  const a = AUTHORIZERS[authorizer];
  const path = a.paths[service];
  if (!path) throw new Error(`${authorizer} does not offer ${service}`);
  return `${a.bases[environment === 'HOMOLOGATION' ? 1 : 0]}${path}`;
}

export interface IssuerTarget {
  url: (service: OutboundService) => string;
  ca?: string[];
  label: string;
}

/** Where a filial's own endpoint row points (the local simulator) or its configured national one. */
export interface OwnTarget {
  eventUrl: string;
  ca?: string[];
  label: string;
}

/** The issuer's target: with its own trusted CA (the simulator) its host serves every service; else the UF's authorizer. */
export function issuerTargetOf(
  filial: { uf: string; nfeEnvironment: string },
  own: OwnTarget,
  contingency: Contingency | null,
): IssuerTarget {
  if (own.ca) {
    const base = `${new URL(own.eventUrl).origin}${contingency ? `/${contingency.toLowerCase()}` : ''}`;
    return { url: (s) => `${base}${OUTBOUND_PATHS[s]}`, ca: own.ca, label: `${own.label}${contingency ? ` (${contingency})` : ''}` };
  }
  const authorizer = contingency ?? authorizerOf(filial.uf);
  const environment = filial.nfeEnvironment === 'HOMOLOGATION' ? 'HOMOLOGATION' : 'PRODUCTION';
  return {
    url: (s) => serviceUrl(authorizer, s, environment),
    label: authorizer === filial.uf ? filial.uf : `${filial.uf} via ${authorizer}`,
  };
}
