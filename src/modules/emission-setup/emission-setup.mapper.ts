import { encodeId } from '../../core/hashids';
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
  series: a.series.map((s) => ({ model: s.model, series: s.series, nextNumber: s.nextNumber, isDefault: s.isDefault })),
  nfce: a.nfce ? { series: a.nfce.series, qrVersion: a.nfce.qrVersion, cscId: a.nfce.cscId, cscTokenSet: !!a.nfce.cscToken } : null,
});
