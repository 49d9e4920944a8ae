import { sum, toJsonNumber } from '../../../core/decimal';
import type { Report, ReportCheck, SignatureResult } from '../../fiscal-xml';
import {
  accessKeyBase,
  accessKeyCheckDigit,
  accessKeyFieldMismatches,
  AUTHORIZED_STATUSES,
  check,
  hasValidCheckDigit,
  isAccessKeyFormat,
  reportOf,
  skipped,
} from '../../fiscal-xml';
import type { ParsedCte } from './cte-types';

/*
 * Every rule SPEC §4b sets for a staged CT-e, each listed with its outcome, in the shape of the NF-e
 * validation report. A FAIL marked `blocking` refuses staging (422 naming the first one, with the
 * whole report); the others are warnings the preview and the detail show.
 */

export type CteCheckName =
  | 'ROOT'
  | 'MODEL'
  | 'ACCESS_KEY_CHECK_DIGIT'
  | 'ACCESS_KEY_FIELDS'
  | 'PROTOCOL'
  | 'PROTOCOL_KEY'
  | 'PROTOCOL_DIGEST'
  | 'SIGNATURE'
  | 'PAYER'
  | 'ENVIRONMENT'
  | 'COMPONENTS'
  | 'BILLING';

/** One rule of the CT-e report (fiscal-xml/report.ts), in the shape of the NF-e report's. */
export type CteValidationCheck = ReportCheck<CteCheckName>;

export type CteValidationReport = Report<CteValidationCheck>;

/** The filial the CT-e is checked against: it must be the payer (tomador) in its environment. */
export interface PayerContext {
  document: string;
  environment: 'PRODUCTION' | 'HOMOLOGATION';
}

const ENVIRONMENT_CODE: Record<PayerContext['environment'], string> = { PRODUCTION: '1', HOMOLOGATION: '2' };
const money = (d: { toString(): string } | null) => (d === null ? null : toJsonNumber(d.toString(), 2));

function keyChecks(cte: ParsedCte): CteValidationCheck[] {
  const key = cte.accessKey;
  const format = isAccessKeyFormat(key);
  // The CT-e key has the NF-e's layout: cUF AAMM CNPJ mod serie nCT tpEmis cCT cDV.
  const fields = {
    ufCode: cte.ide.ufCode,
    issuedAt: cte.ide.issuedAt,
    issuerDocument: cte.issuer.document ?? '',
    model: cte.ide.model,
    series: cte.ide.series,
    number: cte.ide.number,
    emissionType: cte.ide.emissionType,
    randomCode: cte.ide.randomCode,
  };
  const mismatches = accessKeyFieldMismatches(key, fields).map((m) => (m === 'nNF' ? 'nCT' : m === 'cNF' ? 'cCT' : m));
  if (format && cte.ide.checkDigit !== key[43]) mismatches.push('cDV');
  return [
    check('ACCESS_KEY_CHECK_DIGIT', format && hasValidCheckDigit(key), {
      blocking: true,
      code: 'CTE_ACCESS_KEY_INVALID',
      ok: 'The access key has 44 characters (digits, letters where the CNPJ is alphanumeric) and a valid mod-11 check digit',
      failed: !format
        ? `The access key "${key}" is not a 44-character access key`
        : `The access key check digit is ${key[43]}; mod 11 gives ${accessKeyCheckDigit(key.slice(0, 43))}`,
      details: { accessKey: key },
    }),
    check('ACCESS_KEY_FIELDS', mismatches.length === 0, {
      blocking: true,
      code: 'CTE_ACCESS_KEY_INVALID',
      ok: 'The access key matches cUF, AAMM, emitter CNPJ, mod, serie, nCT, tpEmis, cCT and cDV',
      failed: `The access key does not match the CT-e's ${mismatches.join(', ')}`,
      details: { expectedPrefix: accessKeyBase(fields), mismatches },
    }),
  ];
}

function protocolChecks(cte: ParsedCte, signature: SignatureResult): CteValidationCheck[] {
  const prot = cte.protocol;
  if (!prot) {
    return [
      check('PROTOCOL', false, {
        blocking: true,
        code: 'CTE_PROTOCOL_MISSING',
        ok: '',
        failed: 'The XML carries no authorization protocol (protCTe)',
      }),
      skipped('PROTOCOL_KEY', 'No protocol'),
      skipped('PROTOCOL_DIGEST', 'No protocol'),
    ];
  }
  const out: CteValidationCheck[] = [
    check('PROTOCOL', prot.status !== null && AUTHORIZED_STATUSES.includes(prot.status), {
      blocking: true,
      code: 'CTE_NOT_AUTHORIZED',
      ok: `Authorized: cStat ${prot.status} (protocol ${prot.protocolNumber})`,
      failed: `The CT-e is not authorized: cStat ${prot.status ?? 'absent'} ${prot.reason ?? ''}`.trim(),
      details: { cStat: prot.status, xMotivo: prot.reason, nProt: prot.protocolNumber, dhRecbto: prot.receivedAt },
    }),
    check('PROTOCOL_KEY', prot.accessKey === cte.accessKey, {
      blocking: true,
      code: 'CTE_PROTOCOL_MISMATCH',
      ok: 'protCTe/chCTe is the CT-e access key',
      failed: `protCTe/chCTe ${prot.accessKey ?? '(absent)'} is not the CT-e access key`,
    }),
  ];
  if (!signature.digestValue || signature.status === 'ABSENT') out.push(skipped('PROTOCOL_DIGEST', 'No signature digest to compare'));
  else {
    out.push(
      check('PROTOCOL_DIGEST', prot.digestValue === signature.digestValue, {
        blocking: false,
        code: 'CTE_PROTOCOL_DIGEST_MISMATCH',
        ok: 'protCTe/digVal equals the signature DigestValue',
        failed: 'protCTe/digVal differs from the signature DigestValue: the protocol was issued for another version of the document',
        details: { digVal: prot.digestValue, digestValue: signature.digestValue },
      }),
    );
  }
  return out;
}

function signatureCheck(signature: SignatureResult): CteValidationCheck {
  const details = {
    status: signature.status,
    digestValid: signature.digestValid,
    signatureValid: signature.signatureValid,
    certificate: signature.certificate,
  };
  if (signature.status === 'ABSENT')
    return check('SIGNATURE', false, {
      blocking: true,
      code: 'CTE_SIGNATURE_MISSING',
      ok: '',
      failed: 'The CT-e is not signed (no XMLDSig Signature)',
      details,
    });
  return check('SIGNATURE', signature.status === 'VALID', {
    blocking: true,
    code: 'CTE_SIGNATURE_INVALID',
    ok: 'The XMLDSig signature is valid (digest and SignatureValue, embedded certificate)',
    failed: signature.reason ?? 'The XMLDSig signature is not valid',
    details,
  });
}

function payerChecks(cte: ParsedCte, filial: PayerContext | null): CteValidationCheck[] {
  if (!filial) return [skipped('PAYER', 'No filial given (x-filial-id)'), skipped('ENVIRONMENT', 'No filial given (x-filial-id)')];
  const payer = cte.payer;
  const label = payer
    ? `${payer.role} ${payer.document ?? '(no document)'}`
    : `toma ${cte.ide.payerCode ?? '(absent)'}, a party the CT-e does not carry`;
  return [
    check('PAYER', !!payer?.document && payer.documentKind !== 'FOREIGN' && payer.document === filial.document, {
      blocking: true,
      code: 'CTE_PAYER_MISMATCH',
      ok: `The payer (toma: ${label}) is this filial`,
      failed: `The payer of the freight (toma: ${label}) is not this filial (${filial.document})`,
      details: { payerRole: payer?.role ?? null, payerDocument: payer?.document ?? null, filialDocument: filial.document },
    }),
    check('ENVIRONMENT', cte.ide.environment === ENVIRONMENT_CODE[filial.environment], {
      blocking: true,
      code: 'CTE_ENVIRONMENT_MISMATCH',
      ok: `tpAmb ${cte.ide.environment} matches the filial's ${filial.environment} environment`,
      failed: `tpAmb ${cte.ide.environment} does not match the filial's ${filial.environment} environment`,
      details: { tpAmb: cte.ide.environment, filialEnvironment: filial.environment },
    }),
  ];
}

function valueChecks(cte: ParsedCte): CteValidationCheck[] {
  const { serviceTotal, components } = cte.values;
  const comps = sum(components.map((c) => c.value));
  const out: CteValidationCheck[] = [
    components.length
      ? check('COMPONENTS', comps.eq(serviceTotal), {
          blocking: false,
          code: 'CTE_COMPONENTS_MISMATCH',
          ok: 'The components (Comp/vComp) add up to vTPrest',
          failed: `The components add up to ${comps.toFixed(2)}; vTPrest is ${serviceTotal.toFixed(2)}`,
          details: { components: money(comps), vTPrest: money(serviceTotal) },
        })
      : skipped('COMPONENTS', 'No components (Comp)'),
  ];
  const b = cte.billing;
  if (!b?.installments.length) out.push(skipped('BILLING', 'No installments (cobr/dup): one payable at the entry date for vRec'));
  else {
    const dups = sum(b.installments.map((d) => d.amount));
    const expected = b.invoice?.net ?? cte.values.receivable;
    out.push(
      check('BILLING', dups.eq(expected) && b.installments.every((d) => d.dueDate !== null), {
        blocking: false,
        code: 'CTE_BILLING_MISMATCH',
        ok: 'The installments (cobr/dup) add up to what is billed and carry due dates',
        failed: `The installments add up to ${dups.toFixed(2)} (billed ${expected.toFixed(2)}) or lack a due date: one payable at the entry date for vRec instead`,
        details: { installments: money(dups), billed: money(expected) },
      }),
    );
  }
  return out;
}

export function buildCteReport(cte: ParsedCte, signature: SignatureResult, filial: PayerContext | null): CteValidationReport {
  const checks: CteValidationCheck[] = [
    check('ROOT', cte.root === 'cteProc', {
      blocking: false,
      code: 'CTE_BARE_DOCUMENT',
      ok: 'cteProc: the CT-e with its authorization protocol',
      failed: 'A bare CTe without cteProc: it carries no protocol',
    }),
    check('MODEL', cte.ide.model === '57', {
      blocking: true,
      code: 'CTE_MODEL_NOT_SUPPORTED',
      ok: 'Model 57 (CT-e)',
      failed: `Model ${cte.ide.model} is not a CT-e (57)`,
    }),
    ...keyChecks(cte),
    ...protocolChecks(cte, signature),
    signatureCheck(signature),
    ...payerChecks(cte, filial),
    ...valueChecks(cte),
  ];
  return reportOf(checks);
}
