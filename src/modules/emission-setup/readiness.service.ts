import { sefazConfig } from '../../core/config/sefaz';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { NotFoundError } from '../../core/errors';
import { approximateTaxTableOf, saleRulesSummary } from '../fiscal';
import { businessToday } from '../../core/business-date';
import { ContingencyState, currentContingency, InvoiceSeries, listSeries } from '../outbound-nfe';
import { getNfceConfiguration } from '../nfce';
import { authorizerOf, contingencyOf } from '../authority';
import type { Authorizer, Contingency, OutboundService } from '../authority';
import {
  authorityTarget,
  daysLeft,
  filialAuthoritySettings,
  FilialAuthoritySettings,
  getCertificate,
  issuerTarget,
  saveAuthoritySettings,
  SefazCertificate,
} from '../sefaz';
import type { AuthoritySettingsInput } from '../sefaz';
import { Filial, getFilialFiscalProfile } from '../tenancy';

/*
 * What a filial of one's own needs before its first NF-e / NFC-e (issue 44), as Bling, Tiny and the
 * nfephp/ACBr emitters ask it on their first screen: certificate, IE, address, CRT, série, the
 * authority it reaches, CSC, tax rules. Each check names what is missing and the route that sets it,
 * so a first note never sits SENT without a word (docs/decisions/first-note-setup.md).
 */

export type CheckStatus = 'OK' | 'MISSING' | 'WARNING';
export type DocumentModel = 'NFE' | 'NFCE';

export interface ReadinessCheck {
  code:
    | 'CERTIFICATE'
    | 'STATE_REGISTRATION'
    | 'ADDRESS'
    | 'CRT'
    | 'SERIES'
    | 'ENDPOINT'
    | 'CONTINGENCY'
    | 'CSC'
    | 'TAX_RULES'
    | 'APPROXIMATE_TAXES';
  status: CheckStatus;
  message: string;
  /** The route that sets it (null when nothing is to do). */
  fix: string | null;
  /** The documents it holds back when MISSING. */
  documents: DocumentModel[];
}

export interface Readiness {
  filial: Filial;
  ready: { nfe: boolean; nfce: boolean };
  checks: ReadinessCheck[];
}

const BOTH: DocumentModel[] = ['NFE', 'NFCE'];
const DAY_WARNING = 30;

const crtOf = (f: Filial) => (f.taxRegime === 'SIMPLES_NACIONAL' ? (f.simplesExcessSublimit ? 2 : 1) : 3);
const CRT_NAMES = { 1: 'Simples Nacional', 2: 'Simples Nacional over the sublimit', 3: 'regime normal' } as const;

export async function loadFilialOf(ctx: TenantContext, filialId: number): Promise<Filial> {
  const profile = await getFilialFiscalProfile(readerOf(ctx), ctx.companyId, filialId);
  if (!profile) throw new NotFoundError('Filial');
  return profile.filial;
}

function certificateCheck(filial: Filial, cert: SefazCertificate | null, path: string, now: Date): ReadinessCheck {
  const fix = `PUT /api/entry-document/nfe/certificado/${path}`;
  const base = { code: 'CERTIFICATE' as const, documents: BOTH };
  if (!cert)
    return {
      ...base,
      status: 'MISSING',
      message: 'The filial has no A1 certificate: every document is signed with it and it authenticates the calls to the authority',
      fix,
    };
  const days = daysLeft(cert.validTo, now);
  if (new Date(cert.validTo).getTime() <= now.getTime())
    return { ...base, status: 'MISSING', message: `The certificate expired on ${new Date(cert.validTo).toISOString().slice(0, 10)}`, fix };
  if (new Date(cert.validFrom).getTime() > now.getTime())
    return { ...base, status: 'MISSING', message: `The certificate is valid only from ${new Date(cert.validFrom).toISOString()}`, fix };
  if (!cert.cnpj || filial.cnpj.length !== 14 || cert.cnpj.slice(0, 8) !== filial.cnpj.slice(0, 8)) {
    return {
      ...base,
      status: 'MISSING',
      message: `The certificate's CNPJ ${cert.cnpj ?? '(none)'} is not of the filial's company (${filial.cnpj.slice(0, 8)})`,
      fix,
    };
  }
  if (cert.trust !== null && cert.trust !== 'TRUSTED') {
    if (filial.nfeEnvironment === 'PRODUCTION')
      return {
        ...base,
        status: 'MISSING',
        message: `A PRODUCTION filial needs an ICP-Brasil certificate: ${cert.trustWarning ?? cert.trust}`,
        fix,
      };
    return { ...base, status: 'WARNING', message: `Accepted for homologação only: ${cert.trustWarning ?? cert.trust}`, fix };
  }
  if (days <= DAY_WARNING)
    return {
      ...base,
      status: 'WARNING',
      message: `The certificate expires in ${days} day(s), on ${new Date(cert.validTo).toISOString().slice(0, 10)}: renew it`,
      fix,
    };
  return {
    ...base,
    status: 'OK',
    message: `A1 of ${cert.cnpj}, valid until ${new Date(cert.validTo).toISOString().slice(0, 10)} (${days} days)`,
    fix: null,
  };
}

export interface AuthorityView {
  authorizer: Authorizer;
  contingencyAuthorizer: Contingency;
  /** Where the filial's NF-e go now: its UF's authorizer, or its own endpoint (the local simulator). */
  target: { label: string; simulator: boolean; urls: Partial<Record<OutboundService, string>> };
  contingencyTarget: { label: string; urls: Partial<Record<OutboundService, string>> };
  /** URLs set by hand and the contingency policy (sefaz's authority settings). */
  settings: FilialAuthoritySettings;
  /** The contingency the filial is in now (automatic or an operator's), or null. */
  openContingency: ContingencyState | null;
}

const SERVICES: OutboundService[] = [
  'AUTORIZACAO',
  'RET_AUTORIZACAO',
  'CONSULTA_PROTOCOLO',
  'STATUS_SERVICO',
  'INUTILIZACAO',
  'RECEPCAO_EVENTO',
];

function urlsOf(target: { url: (s: OutboundService) => string }): Partial<Record<OutboundService, string>> {
  const out: Partial<Record<OutboundService, string>> = {};
  for (const s of SERVICES) {
    try {
      out[s] = target.url(s);
    } catch {
      // The authorizer does not offer it (SVC-AN: no NFeInutilizacao4).
    }
  }
  return out;
}

async function authorityOf(filial: Filial): Promise<AuthorityView> {
  const [own, normal, svc, settings, openContingency] = await Promise.all([
    authorityTarget(filial),
    issuerTarget(filial, null),
    issuerTarget(filial, contingencyOf(filial.uf)),
    filialAuthoritySettings(filial.companyId, filial.id),
    currentContingency(filial.companyId, filial.id, false),
  ]);
  return {
    settings,
    openContingency,
    authorizer: authorizerOf(filial.uf),
    contingencyAuthorizer: contingencyOf(filial.uf),
    target: { label: normal.label, simulator: !!own.ca, urls: urlsOf(normal) },
    contingencyTarget: { label: svc.label, urls: urlsOf(svc) },
  };
}

function endpointCheck(filial: Filial, authority: AuthorityView, path: string): ReadinessCheck {
  const base = { code: 'ENDPOINT' as const, documents: BOTH };
  const where = `${authority.target.label} (${authority.target.urls.AUTORIZACAO})`;
  if (authority.target.simulator) {
    if (filial.nfeEnvironment === 'PRODUCTION') {
      return {
        ...base,
        status: 'WARNING',
        message: `A PRODUCTION filial points at ${where}: its documents have no fiscal value there`,
        fix: `DELETE /api/settings/filial/${path}/simulator`,
      };
    }
    return { ...base, status: 'OK', message: `NF-e and NFC-e go to ${where}`, fix: null };
  }
  if (sefazConfig.simulator.enabled) {
    return {
      ...base,
      status: 'WARNING',
      message: `NF-e go to ${where}, the real ${filial.nfeEnvironment === 'HOMOLOGATION' ? 'homologação' : 'production'} authority; this deployment runs the local simulator, which the filial is not attached to`,
      fix: `POST /api/settings/filial/${path}/simulator`,
    };
  }
  return { ...base, status: 'OK', message: `NF-e go to ${where}; in contingency to ${authority.contingencyTarget.label}`, fix: null };
}

const NFE_POLICY = {
  AUTOMATIC_SVC: 'NF-e enter SVC by themselves when the authorizer answers 108/109',
  MANUAL: 'NF-e wait for an operator to enter SVC (POST …/contingency)',
};
const NFCE_POLICY = {
  AUTOMATIC_OFFLINE: 'unanswered NFC-e are signed again offline (tpEmis 9)',
  NONE: 'unanswered NFC-e wait SIGNED for the authority (no offline notes)',
};

function contingencyCheck(filial: Filial, authority: AuthorityView, path: string): ReadinessCheck {
  const base = { code: 'CONTINGENCY' as const, documents: BOTH };
  const { settings, openContingency: open } = authority;
  const policy = `${NFE_POLICY[settings.contingency.nfe]}; ${NFCE_POLICY[settings.contingency.nfce]}`;
  if (open) {
    return {
      ...base,
      status: 'WARNING',
      message: `In contingency ${open.mode} since ${open.since.toISOString()} (${open.reason}): new NF-e go to ${authority.contingencyTarget.label}. ${policy}`,
      fix: `DELETE /api/settings/filial/${path}/contingency`,
    };
  }
  const unused = authority.target.simulator && settings.urlOverrides.length;
  const own = settings.urlOverrides.filter((o) => o.environment === filial.nfeEnvironment).length;
  if (unused) {
    return {
      ...base,
      status: 'WARNING',
      message: `${settings.urlOverrides.length} URL(s) set by hand are not used while the filial is attached to the simulator. ${policy}`,
      fix: `PUT /api/settings/filial/${path}/authority`,
    };
  }
  return { ...base, status: 'OK', message: `${policy}${own ? `; ${own} URL(s) of ${filial.nfeEnvironment} set by hand` : ''}`, fix: null };
}

function seriesCheck(series: InvoiceSeries[], path: string): ReadinessCheck {
  const nfe = series.filter((s) => s.model === 55);
  const current = nfe.find((s) => s.isDefault) ?? nfe[0];
  const fix = `PUT /api/invoices/series/${path}`;
  if (!current) {
    return {
      code: 'SERIES',
      status: 'WARNING',
      message:
        'No NF-e série: the first NF-e creates série 1 from number 1. A company that issued NF-e before (another system) sets its série and next number first',
      fix,
      documents: ['NFE'],
    };
  }
  return {
    code: 'SERIES',
    status: 'OK',
    message: `NF-e série ${current.series}, next number ${current.nextNumber}`,
    fix: null,
    documents: ['NFE'],
  };
}

/**
 * Lei 12.741/2012 art. 1: a sale to a consumer declares its approximate taxes. Without the UF's IBPT
 * table in force the document would say nothing true: a WARNING (the authority does not reject it,
 * the consumer-protection law is what is broken), for the documents that go to consumers.
 */
function approximateTaxCheck(filial: Filial, t: Awaited<ReturnType<typeof approximateTaxTableOf>>): ReadinessCheck {
  const base = { code: 'APPROXIMATE_TAXES' as const, documents: BOTH, fix: `POST /api/fiscal/approximate-taxes?uf=${filial.uf}` };
  if (t.valid)
    return {
      ...base,
      status: 'OK',
      message: `IBPT table ${[t.valid.tableKey, t.valid.tableVersion].filter(Boolean).join(' ')} of ${filial.uf}, valid until ${t.valid.validTo}`,
      fix: null,
    };
  return {
    ...base,
    status: 'WARNING',
    message: t.loaded
      ? `The IBPT table of ${filial.uf} is out of force: consumer documents cannot declare the Lei 12.741 approximate taxes until a current one is loaded`
      : `No IBPT table of ${filial.uf} is loaded: consumer documents cannot declare the Lei 12.741 approximate taxes`,
  };
}

export async function filialReadiness(
  ctx: TenantContext,
  filialId: number,
  path: string,
  now = new Date(),
): Promise<Readiness & { authority: AuthorityView }> {
  const filial = await loadFilialOf(ctx, filialId);
  const [cert, series, nfce, rules, authority, ibpt] = await Promise.all([
    getCertificate(ctx.companyId, filialId).catch((err: unknown) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    }),
    listSeries(ctx, filialId),
    getNfceConfiguration(ctx, filialId),
    saleRulesSummary(readerOf(ctx), ctx.companyId),
    authorityOf(filial),
    approximateTaxTableOf(readerOf(ctx), ctx.companyId, filial.uf, businessToday()),
  ]);
  const settings = `PATCH /api/settings/filial/${path}`;
  const crt = crtOf(filial);
  const checks: ReadinessCheck[] = [
    certificateCheck(filial, cert, path, now),
    filial.stateRegistration
      ? { code: 'STATE_REGISTRATION', status: 'OK', message: `IE ${filial.stateRegistration} (${filial.uf})`, fix: null, documents: BOTH }
      : {
          code: 'STATE_REGISTRATION',
          status: 'MISSING',
          message: `The filial has no IE (inscrição estadual) of ${filial.uf}: emit/IE is required`,
          fix: settings,
          documents: BOTH,
        },
    filial.municipalityCode && filial.addressStreet
      ? {
          code: 'ADDRESS',
          status: 'OK',
          message: `${filial.addressStreet}, ${filial.addressNumber} — ${filial.municipalityName}/${filial.uf} (${filial.municipalityCode})`,
          fix: null,
          documents: BOTH,
        }
      : {
          code: 'ADDRESS',
          status: 'MISSING',
          message: 'The filial has no address with its IBGE municipality code (enderEmit)',
          fix: settings,
          documents: BOTH,
        },
    crt !== 3 && filial.simplesCreditRate === null
      ? {
          code: 'CRT',
          status: 'WARNING',
          message: `CRT ${crt} (${CRT_NAMES[crt]}) from taxRegime; simplesCreditRate (pCredSN) is not set: sales to contributors under CSOSN 101 need it`,
          fix: settings,
          documents: ['NFE'],
        }
      : {
          code: 'CRT',
          status: 'OK',
          message: `CRT ${crt} (${CRT_NAMES[crt]}) from taxRegime ${filial.taxRegime}`,
          fix: null,
          documents: BOTH,
        },
    seriesCheck(series, path),
    endpointCheck(filial, authority, path),
    contingencyCheck(filial, authority, path),
    nfce.configuration
      ? {
          code: 'CSC',
          status: 'OK',
          message: `NFC-e série ${nfce.configuration.series}, next number ${nfce.nextNumber ?? 1}, QR code v${nfce.configuration.qrVersion}${nfce.configuration.cscId ? `, CSC id ${nfce.configuration.cscId}` : ''}`,
          fix: null,
          documents: ['NFCE'],
        }
      : {
          code: 'CSC',
          status: 'MISSING',
          message: 'NFC-e is not configured: série, CSC id and token (QR code v2) or QR code v3, the UF’s QR and consultation URLs',
          fix: `PUT /api/nfce/configuration/${path}`,
          documents: ['NFCE'],
        },
    rules.saleRules > 0
      ? {
          code: 'TAX_RULES',
          status: 'OK',
          message: `${rules.taxGroups} tax group(s), ${rules.saleRules} SALE rule(s)`,
          fix: null,
          documents: BOTH,
        }
      : {
          code: 'TAX_RULES',
          status: 'MISSING',
          message: rules.taxGroups
            ? 'No active SALE rule in the company’s tax groups: the tax engine has no CFOP/CST for a sale'
            : 'The company has no tax group and no SALE rule: the tax engine has no CFOP/CST for a sale',
          fix: 'POST /api/fiscal/tax-groups, POST /api/fiscal/operations',
          documents: BOTH,
        },
    approximateTaxCheck(filial, ibpt),
  ];
  const blocks = (m: DocumentModel) => checks.some((c) => c.status === 'MISSING' && c.documents.includes(m));
  return { filial, ready: { nfe: !blocks('NFE'), nfce: !blocks('NFCE') }, checks, authority };
}

export interface AuthoritySettingsView {
  filial: Filial;
  authority: AuthorityView;
  series: InvoiceSeries[];
  nfce: { series: number; qrVersion: number; cscId: number | null; cscToken: string | null } | null;
}

/** GET /settings/filial/:filialId/authority: where the filial's documents go and what numbers them. */
export async function authoritySettings(ctx: TenantContext, filialId: number): Promise<AuthoritySettingsView> {
  const filial = await loadFilialOf(ctx, filialId);
  const [authority, series, nfce] = await Promise.all([
    authorityOf(filial),
    listSeries(ctx, filialId),
    getNfceConfiguration(ctx, filialId),
  ]);
  return { filial, authority, series, nfce: nfce.configuration };
}

/** PUT /settings/filial/:filialId/authority: the URLs set by hand and the contingency policy, replaced; answers the settings as GET does. */
export async function putAuthoritySettings(
  ctx: TenantContext,
  filialId: number,
  input: AuthoritySettingsInput,
): Promise<AuthoritySettingsView> {
  await loadFilialOf(ctx, filialId);
  await saveAuthoritySettings(ctx, filialId, input);
  return authoritySettings(ctx, filialId);
}
