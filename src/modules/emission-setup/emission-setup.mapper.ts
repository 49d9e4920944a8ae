import { encodeId } from '../../core/hashids';
import type { ContingencyState } from '../outbound-nfe';
import type { AuthoritySettingsView, Readiness } from './readiness.service';

export const toReadinessDto = (r: Readiness) => ({
  filialId: encodeId('filial', r.filial.id),
  environment: r.filial.nfeEnvironment,
  ready: r.ready,
  missing: r.checks.filter((c) => c.status === 'MISSING').map((c) => c.code),
  checks: r.checks.map((c) => ({ code: c.code, status: c.status, message: c.message, fix: c.fix, documents: c.documents })),
});

export const toAuthorityDto = (a: AuthoritySettingsView) => ({
  filialId: encodeId('filial', a.filial.id),
  uf: a.filial.uf,
  environment: a.filial.nfeEnvironment,
  authorizer: a.authority.authorizer,
  contingencyAuthorizer: a.authority.contingencyAuthorizer,
  target: a.authority.target,
  contingencyTarget: a.authority.contingencyTarget,
  urlOverrides: a.authority.settings.urlOverrides,
  contingency: {
    nfe: a.authority.settings.contingency.nfe,
    nfce: a.authority.settings.contingency.nfce,
    open: a.authority.openContingency
      ? {
          mode: a.authority.openContingency.mode,
          since: a.authority.openContingency.since.toISOString(),
          reason: a.authority.openContingency.reason,
        }
      : null,
  },
  series: a.series.map((s) => ({ model: s.model, series: s.series, nextNumber: s.nextNumber, isDefault: s.isDefault })),
  nfce: a.nfce ? { series: a.nfce.series, qrVersion: a.nfce.qrVersion, cscId: a.nfce.cscId, cscTokenSet: !!a.nfce.cscToken } : null,
});

export const toContingencyDto = (filialId: number, c: ContingencyState) => ({
  filialId: encodeId('filial', filialId),
  mode: c.mode,
  since: c.since.toISOString(),
  reason: c.reason,
});
