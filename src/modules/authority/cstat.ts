import { AppError, BusinessRuleError, UpstreamError } from '../../core/errors';

/*
 * What the authority's status codes mean to this service (protocol notes §3.2, §4.2). Codes the
 * authority uses for its own trouble become 502/503; any other code is a rejection of what was
 * asked (422), always with cStat/xMotivo in the problem document.
 */

export type DistOutcome = 'DOCUMENTS' | 'NOTHING_NEW' | 'BLOCKED' | 'REJECTED' | 'AUTHORITY_FAILURE';
export type EventOutcome = 'REGISTERED' | 'DUPLICATE' | 'REJECTED' | 'AUTHORITY_FAILURE';

/** 108/109 service stopped, 999 uncatalogued error. */
const AUTHORITY_FAILURES = new Set(['108', '109', '999']);

export function distOutcome(cStat: string): DistOutcome {
  if (cStat === '138') return 'DOCUMENTS';
  if (cStat === '137') return 'NOTHING_NEW';
  if (cStat === '656') return 'BLOCKED';
  return AUTHORITY_FAILURES.has(cStat) ? 'AUTHORITY_FAILURE' : 'REJECTED';
}

export function eventOutcome(cStat: string): EventOutcome {
  if (cStat === '135' || cStat === '136') return 'REGISTERED';
  if (cStat === '573') return 'DUPLICATE';
  return AUTHORITY_FAILURES.has(cStat) ? 'AUTHORITY_FAILURE' : 'REJECTED';
}

/** The problem for an answer that is neither success nor a handled case. */
export function authorityAnswerError(cStat: string, xMotivo: string, what: string): AppError {
  const extensions = { cStat, xMotivo };
  if (cStat === '108' || cStat === '109')
    return new UpstreamError(
      'upstream_unavailable',
      'SEFAZ_UNAVAILABLE',
      `${what}: the authority's service is stopped (${cStat} ${xMotivo})`,
      extensions,
    );
  if (AUTHORITY_FAILURES.has(cStat))
    return new UpstreamError('upstream_failure', 'SEFAZ_FAILURE', `${what}: the authority failed (${cStat} ${xMotivo})`, extensions);
  return new BusinessRuleError('SEFAZ_REJECTED', `${what}: rejected by the authority (${cStat} ${xMotivo})`, extensions);
}
