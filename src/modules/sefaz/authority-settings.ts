import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { ConflictError } from '../../core/errors';
import type { OutboundService } from '../authority';
import { SefazAuthoritySetting } from './entities/sefaz-authority-setting.entity';

/*
 * A filial's authority settings (issue 44): URLs set by hand per environment, target (its UF's
 * authorizer or its SVC) and service, and the contingency policy of each model. The emission reads
 * them where it chooses a target (sefaz-connection.ts issuerTarget) and where it would enter
 * contingency (invoices' settle, nfce's transmission), so a change applies to the next call.
 */

export type UrlTarget = 'AUTHORIZER' | 'CONTINGENCY';
export interface UrlOverride {
  environment: 'PRODUCTION' | 'HOMOLOGATION';
  target: UrlTarget;
  service: OutboundService;
  url: string;
}
export type NfeContingencyPolicy = SefazAuthoritySetting['nfeContingency'];
export type NfceContingencyPolicy = SefazAuthoritySetting['nfceContingency'];

export interface AuthoritySettingsInput {
  urlOverrides: UrlOverride[];
  contingency: { nfe: NfeContingencyPolicy; nfce: NfceContingencyPolicy };
}

export interface FilialAuthoritySettings extends AuthoritySettingsInput {
  /** When they were last saved (null: the defaults, never saved). */
  updatedAt: Date | null;
}

export const DEFAULT_AUTHORITY_SETTINGS: FilialAuthoritySettings = {
  urlOverrides: [],
  contingency: { nfe: 'AUTOMATIC_SVC', nfce: 'AUTOMATIC_OFFLINE' },
  updatedAt: null,
};

const toSettings = (row: SefazAuthoritySetting | null): FilialAuthoritySettings =>
  row
    ? {
        urlOverrides: JSON.parse(row.urlOverrides) as UrlOverride[],
        contingency: { nfe: row.nfeContingency, nfce: row.nfceContingency },
        updatedAt: row.updatedAt,
      }
    : DEFAULT_AUTHORITY_SETTINGS;

export async function filialAuthoritySettings(companyId: number, filialId: number): Promise<FilialAuthoritySettings> {
  return toSettings(await readerOf(NO_UNIT).findOneBy(SefazAuthoritySetting, { companyId, filialId }));
}

/** The filial's URLs set by hand for one environment and target, by service. */
export function overridesFor(
  settings: FilialAuthoritySettings,
  environment: string,
  target: UrlTarget,
): Partial<Record<OutboundService, string>> {
  const out: Partial<Record<OutboundService, string>> = {};
  for (const o of settings.urlOverrides) if (o.environment === environment && o.target === target) out[o.service] = o.url;
  return out;
}

/** Replaces the filial's settings (the filial is checked by the route); audited. */
export async function saveAuthoritySettings(
  ctx: ActorContext,
  filialId: number,
  input: AuthoritySettingsInput,
): Promise<FilialAuthoritySettings> {
  const row = {
    urlOverrides: JSON.stringify(
      input.urlOverrides.map(({ environment, target, service, url }) => ({ environment, target, service, url })),
    ),
    nfeContingency: input.contingency.nfe,
    nfceContingency: input.contingency.nfce,
  };
  try {
    return await saveIn(ctx, filialId, row);
  } catch (err) {
    // Two first saves at once: the second meets the unique row of the first.
    if (isUniqueViolation(err)) throw new ConflictError('CONCURRENT_UPDATE', "The filial's authority settings changed concurrently; retry");
    throw err;
  }
}

function saveIn(
  ctx: ActorContext,
  filialId: number,
  row: Pick<SefazAuthoritySetting, 'urlOverrides' | 'nfeContingency' | 'nfceContingency'>,
): Promise<FilialAuthoritySettings> {
  return inTransaction(ctx, async (em) => {
    const current = await em.findOneBy(SefazAuthoritySetting, { companyId: ctx.companyId, filialId });
    if (current) await em.update(SefazAuthoritySetting, { id: current.id, companyId: ctx.companyId }, row);
    else await em.insert(SefazAuthoritySetting, { companyId: ctx.companyId, filialId, ...row });
    const saved = await em.findOneByOrFail(SefazAuthoritySetting, { companyId: ctx.companyId, filialId });
    const before = current
      ? { urlOverrides: current.urlOverrides, nfeContingency: current.nfeContingency, nfceContingency: current.nfceContingency }
      : {};
    await recordAudit(em, ctx, {
      entity: 'sefaz-authority-setting',
      entityId: saved.id,
      action: current ? 'UPDATED' : 'CREATED',
      changes: diff(before, row),
    });
    return toSettings(saved);
  });
}
