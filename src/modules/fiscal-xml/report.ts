/*
 * The validation reports' building blocks, shared by the NF-e report (inbound-nfe/xml/validation-report.ts)
 * and the CT-e report (cte/xml/cte-validation.ts): every rule is listed with its outcome; a FAIL
 * marked `blocking` refuses the document, the other FAILs are warnings.
 */

export type CheckOutcome = 'PASS' | 'FAIL' | 'SKIPPED';

/** One rule of a report, named by the document's own list of check names. */
export interface ReportCheck<Name extends string> {
  check: Name;
  outcome: CheckOutcome;
  /** A failure of this check refuses the document (stage/import). */
  blocking: boolean;
  /** Problem code of the failure (null when it passed or was skipped). */
  code: string | null;
  message: string;
  details?: Record<string, unknown>;
}

export interface Report<C extends ReportCheck<string>> {
  /** No blocking failure. */
  valid: boolean;
  /** Codes of the blocking failures, in check order (the first one names a refusal). */
  blockingCodes: string[];
  /** Codes of the non-blocking failures. */
  warnings: string[];
  checks: C[];
}

/** The protocol's cStat meaning "authorized": 100, and 150 (authorized, issued in contingency out of time). */
export const AUTHORIZED_STATUSES = ['100', '150'];

export interface CheckOptions {
  blocking: boolean;
  code: string;
  ok: string;
  failed: string;
  details?: Record<string, unknown>;
}

/** A rule that passed or failed. */
export function check<Name extends string>(name: Name, pass: boolean, opts: CheckOptions): ReportCheck<Name> {
  return {
    check: name,
    outcome: pass ? 'PASS' : 'FAIL',
    blocking: !pass && opts.blocking,
    code: pass ? null : opts.code,
    message: pass ? opts.ok : opts.failed,
    ...(opts.details ? { details: opts.details } : {}),
  };
}

/** A rule that could not be checked (what it needs is absent). */
export const skipped = <Name extends string>(name: Name, message: string): ReportCheck<Name> => ({
  check: name,
  outcome: 'SKIPPED',
  blocking: false,
  code: null,
  message,
});

/** The report of a list of checks: valid when no blocking rule failed. */
export function reportOf<C extends ReportCheck<string>>(checks: C[]): Report<C> {
  const failures = checks.filter((c) => c.outcome === 'FAIL');
  const blockingCodes = [...new Set(failures.filter((c) => c.blocking).map((c) => c.code!))];
  return {
    valid: blockingCodes.length === 0,
    blockingCodes,
    warnings: [...new Set(failures.filter((c) => !c.blocking).map((c) => c.code!))],
    checks,
  };
}
