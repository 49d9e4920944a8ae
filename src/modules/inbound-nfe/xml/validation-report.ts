import type { TaxReformRule } from '../../../core/config/tax-reform';
import { toJsonNumber } from '../../../core/decimal';
import type { EnvelopedSignatureResult, Report, ReportCheck, SignatureResult, SignerSubject, SignerTrust } from '../../fiscal-xml';
import {
  accessKeyBase,
  accessKeyCheckDigit,
  accessKeyFieldMismatches,
  AUTHORIZED_STATUSES,
  check,
  evaluateSigner,
  hasValidCheckDigit,
  isAccessKeyFormat,
  isAvulsaSeries,
  reportOf,
  skipped,
} from '../../fiscal-xml';
import type { ParsedNfe } from '../../fiscal-xml';
import { checkReformTotals } from './reform-totals';
import { checkTotals } from './totals';

/*
 * Every rule SPEC §4 sets for an inbound NF-e, each listed with its outcome. A FAIL marked `blocking`
 * stops staging and importing (422 with this report); other FAILs are warnings the preview shows
 * (totals differences block later, at the entry document's confirmation). The protocol's own
 * signature, when the authority signed it, is reported apart (a warning). The tax-reform totals
 * (IBSCBSTot, ISTot, vItem, vNFTot) follow the rule of the document's year (core/config/tax-reform.ts):
 * warnings in 2026, SKIPPED for documents without the PL_010 groups.
 */

export type CheckName =
  | 'ROOT'
  | 'LAYOUT_VERSION'
  | 'MODEL'
  | 'ACCESS_KEY_CHECK_DIGIT'
  | 'ACCESS_KEY_FIELDS'
  | 'PROTOCOL'
  | 'PROTOCOL_KEY'
  | 'PROTOCOL_DIGEST'
  | 'SIGNATURE'
  | 'SIGNER'
  | 'PROTOCOL_SIGNATURE'
  | 'RECIPIENT'
  | 'ENVIRONMENT'
  | 'ITEMS_TOTAL'
  | 'ITEM_CHARGES'
  | 'INVOICE_TOTAL'
  | 'IBSCBS_TOTAL'
  | 'IS_TOTAL'
  | 'ITEM_VALUE'
  | 'INVOICE_TOTAL_WITH_TAXES';

/** One rule of the NF-e report (fiscal-xml/report.ts). */
export type ValidationCheck = ReportCheck<CheckName>;

export type ValidationReport = Report<ValidationCheck>;

/** What the report checks the invoice against: the filial it is addressed to. */
export interface RecipientContext {
  /** The filial's CNPJ (or CPF). */
  document: string;
  environment: 'PRODUCTION' | 'HOMOLOGATION';
}

const ENVIRONMENT_CODE: Record<RecipientContext['environment'], string> = { PRODUCTION: '1', HOMOLOGATION: '2' };
const amount = (d: { toString(): string }) => toJsonNumber(d.toString(), 2);

function accessKeyChecks(nfe: ParsedNfe): ValidationCheck[] {
  const key = nfe.accessKey;
  const format = isAccessKeyFormat(key);
  const computed = format ? accessKeyCheckDigit(key.slice(0, 43)) : null;
  const fields = {
    ufCode: nfe.ide.ufCode,
    issuedAt: nfe.ide.issuedAt,
    issuerDocument: nfe.issuer.document ?? '',
    model: nfe.ide.model,
    series: nfe.ide.series,
    number: nfe.ide.number,
    emissionType: nfe.ide.emissionType,
    randomCode: nfe.ide.randomCode,
  };
  const mismatches = accessKeyFieldMismatches(key, fields);
  if (format && nfe.ide.checkDigit !== key[43]) mismatches.push('cDV');
  const avulsa = isAvulsaSeries(nfe.ide.series);
  return [
    check('ACCESS_KEY_CHECK_DIGIT', format && hasValidCheckDigit(key), {
      blocking: true,
      code: 'NFE_ACCESS_KEY_INVALID',
      ok: 'The access key has the 44-character layout and a valid mod-11 check digit',
      failed: !format
        ? `The access key "${key}" is not 44 characters (cUF, AAMM, CNPJ/CPF, mod, serie, nNF, tpEmis, cNF, cDV)`
        : `The access key check digit is ${key[43]}; mod 11 gives ${computed}`,
      details: { accessKey: key, checkDigit: format ? key[43] : null, computedCheckDigit: computed },
    }),
    check('ACCESS_KEY_FIELDS', mismatches.length === 0, {
      blocking: true,
      code: 'NFE_ACCESS_KEY_INVALID',
      ok: avulsa
        ? "The access key matches cUF, AAMM, mod, serie, nNF, tpEmis, cNF and cDV (NF-e avulsa: the key holds the issuing authority's CNPJ)"
        : 'The access key matches cUF, AAMM, emitter document, mod, serie, nNF, tpEmis, cNF and cDV',
      failed: `The access key does not match the invoice's ${mismatches.join(', ')}`,
      details: { expectedPrefix: accessKeyBase(fields), mismatches, avulsa },
    }),
  ];
}

function protocolChecks(nfe: ParsedNfe, signature: SignatureResult): ValidationCheck[] {
  const digestValue = signature.digestValue;
  const prot = nfe.protocol;
  if (!prot) {
    return [
      check('PROTOCOL', false, {
        blocking: true,
        code: 'NFE_PROTOCOL_MISSING',
        ok: '',
        failed: 'The XML carries no authorization protocol (protNFe)',
      }),
      skipped('PROTOCOL_KEY', 'No protocol'),
      skipped('PROTOCOL_DIGEST', 'No protocol'),
    ];
  }
  const authorized = prot.status !== null && AUTHORIZED_STATUSES.includes(prot.status);
  const out: ValidationCheck[] = [
    check('PROTOCOL', authorized, {
      blocking: true,
      code: 'NFE_NOT_AUTHORIZED',
      ok: `Authorized: cStat ${prot.status} (protocol ${prot.protocolNumber})`,
      failed: `The NF-e is not authorized: cStat ${prot.status ?? 'absent'} ${prot.reason ?? ''}`.trim(),
      details: { cStat: prot.status, xMotivo: prot.reason, nProt: prot.protocolNumber, dhRecbto: prot.receivedAt },
    }),
    check('PROTOCOL_KEY', prot.accessKey === nfe.accessKey, {
      blocking: true,
      code: 'NFE_PROTOCOL_MISMATCH',
      ok: 'protNFe/chNFe is the invoice access key',
      failed: `protNFe/chNFe ${prot.accessKey ?? '(absent)'} is not the invoice access key`,
    }),
  ];
  if (!digestValue || signature.status === 'ABSENT') out.push(skipped('PROTOCOL_DIGEST', 'No signature digest to compare'));
  else {
    out.push(
      check('PROTOCOL_DIGEST', prot.digestValue === digestValue, {
        blocking: false,
        code: 'NFE_PROTOCOL_DIGEST_MISMATCH',
        ok: 'protNFe/digVal equals the signature DigestValue',
        failed: 'protNFe/digVal differs from the signature DigestValue: the protocol was issued for another version of the document',
        details: { digVal: prot.digestValue, digestValue },
      }),
    );
  }
  return out;
}

const signatureDetails = (signature: EnvelopedSignatureResult) => ({
  status: signature.status,
  digestValid: signature.digestValid,
  signatureValid: signature.signatureValid,
  signatureAlgorithm: signature.signatureAlgorithm,
  digestAlgorithm: signature.digestAlgorithm,
  certificate: signature.certificate,
});

/** The authority's signature over the protocol: verified and reported, never blocking (the invoice's own decides). */
function protocolSignatureCheck(signature: SignatureResult): ValidationCheck {
  const prot = signature.protocolSignature;
  if (!prot) return skipped('PROTOCOL_SIGNATURE', 'The protocol is not signed by the authority (most are not)');
  return check('PROTOCOL_SIGNATURE', prot.status === 'VALID', {
    blocking: false,
    code: 'NFE_PROTOCOL_SIGNATURE_INVALID',
    ok: "The authority's signature over the protocol (infProt) is valid",
    failed: `The authority's signature over the protocol does not verify: ${prot.reason ?? 'invalid'}`,
    details: signatureDetails(prot),
  });
}

function signatureCheck(signature: SignatureResult): ValidationCheck {
  const details = signatureDetails(signature);
  if (signature.status === 'ABSENT') {
    return check('SIGNATURE', false, {
      blocking: true,
      code: 'NFE_SIGNATURE_MISSING',
      ok: '',
      failed: 'The NF-e is not signed (no XMLDSig Signature)',
      details,
    });
  }
  return check('SIGNATURE', signature.status === 'VALID', {
    blocking: true,
    code: 'NFE_SIGNATURE_INVALID',
    ok: 'The XMLDSig signature is valid (digest and SignatureValue, embedded certificate)',
    failed: signature.reason ?? 'The XMLDSig signature is not valid',
    details,
  });
}

/** Problem codes of the SIGNER check by verdict (the stored report's check is what confirmation reads). */
export const SIGNER_CODES = { UNTRUSTED: 'NFE_SIGNER_UNTRUSTED', UNVERIFIABLE: 'NFE_SIGNER_CHAIN_NOT_VERIFIABLE' } as const;

/**
 * Who signed it (fiscal-xml/signer-trust.ts): a warning here — staging and importing go on — whose verdict the
 * inbound record keeps; an UNTRUSTED signer blocks the entry document's confirmation. Skipped when the
 * signature itself did not verify (SIGNATURE already blocks).
 */
export function signerCheck(
  signature: EnvelopedSignatureResult,
  subject: Omit<SignerSubject, 'certificates'>,
  label = 'NF-e',
): ValidationCheck {
  if (signature.status !== 'VALID') return skipped('SIGNER', 'The signature does not verify: its signer is not evaluated');
  const trust: SignerTrust = evaluateSigner({ ...subject, certificates: signature.certificates });
  return check('SIGNER', trust.verdict === 'TRUSTED', {
    blocking: false,
    code: trust.verdict === 'UNVERIFIABLE' ? SIGNER_CODES.UNVERIFIABLE : SIGNER_CODES.UNTRUSTED,
    ok: `The ${label}'s signer is trusted: ${trust.message}`,
    failed: trust.message,
    details: {
      verdict: trust.verdict,
      reasons: trust.reasons,
      signerDocument: trust.signerDocument,
      issuerDocument: subject.issuerDocument,
      chain: trust.chain,
    },
  });
}

function recipientChecks(nfe: ParsedNfe, filial: RecipientContext | null): ValidationCheck[] {
  if (!filial) return [skipped('RECIPIENT', 'No filial given (x-filial-id)'), skipped('ENVIRONMENT', 'No filial given (x-filial-id)')];
  const dest = nfe.recipient;
  const destLabel = dest ? `${dest.documentKind ?? 'no document'}${dest.document ? ` ${dest.document}` : ''}` : 'no recipient';
  return [
    check('RECIPIENT', !!dest?.document && dest.documentKind !== 'FOREIGN' && dest.document === filial.document, {
      blocking: true,
      code: 'NFE_RECIPIENT_MISMATCH',
      ok: `The recipient ${destLabel} is this filial`,
      failed: `The recipient (${destLabel}) is not this filial (${filial.document})`,
      details: { recipientKind: dest?.documentKind ?? null, recipientDocument: dest?.document ?? null, filialDocument: filial.document },
    }),
    check('ENVIRONMENT', nfe.ide.environment === ENVIRONMENT_CODE[filial.environment], {
      blocking: true,
      code: 'NFE_ENVIRONMENT_MISMATCH',
      ok: `tpAmb ${nfe.ide.environment} matches the filial's ${filial.environment} environment`,
      failed: `tpAmb ${nfe.ide.environment} (${nfe.ide.environment === '1' ? 'production' : 'homologation'}) does not match the filial's ${filial.environment} environment`,
      details: { tpAmb: nfe.ide.environment, filialEnvironment: filial.environment },
    }),
  ];
}

function totalsChecks(nfe: ParsedNfe): ValidationCheck[] {
  const t = checkTotals(nfe);
  return [
    check('ITEMS_TOTAL', t.productsMatch, {
      blocking: false,
      code: 'NFE_ITEMS_TOTAL_MISMATCH',
      ok: 'The items add up to ICMSTot/vProd',
      failed: `The items add up to ${t.itemSums.products.toFixed(2)}, ICMSTot/vProd is ${nfe.totals.products.toFixed(2)}`,
      details: { itemsProducts: amount(t.itemSums.products), vProd: amount(nfe.totals.products) },
    }),
    check('ITEM_CHARGES', t.chargeMismatches.length === 0, {
      blocking: false,
      code: 'NFE_ITEM_CHARGES_MISMATCH',
      ok: 'Item discounts, freight, insurance, other expenses, ST, FCP-ST, IPI and II add up to ICMSTot',
      failed: `Item sums differ from ICMSTot in ${t.chargeMismatches.map((m) => m.field).join(', ')}`,
      details: { mismatches: t.chargeMismatches.map((m) => ({ field: m.field, items: amount(m.items), total: amount(m.total) })) },
    }),
    check('INVOICE_TOTAL', t.invoiceMatches, {
      blocking: false,
      code: 'NFE_INVOICE_TOTAL_MISMATCH',
      ok: 'vNF = vProd − vDesc − vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol',
      failed: `vNF is ${nfe.totals.invoice.toFixed(2)}; the layout formula gives ${t.expectedInvoice.toFixed(2)}`,
      details: { vNF: amount(nfe.totals.invoice), expected: amount(t.expectedInvoice), reliefDeducted: amount(t.reliefDeducted) },
    }),
  ];
}

const SKIP_REFORM = 'No tax-reform groups (layout before PL_010)';

/** IBSCBSTot, ISTot, vItem and vNFTot against the items, under the rule of the document's year. */
function reformChecks(nfe: ParsedNfe, rules?: readonly TaxReformRule[]): ValidationCheck[] {
  const t = checkReformTotals(nfe, rules);
  if (!t.present)
    return (['IBSCBS_TOTAL', 'IS_TOTAL', 'ITEM_VALUE', 'INVOICE_TOTAL_WITH_TAXES'] as const).map((c) => skipped(c, SKIP_REFORM));
  const blocking = t.rule.totalsBlock;
  const rule = { year: t.year, fromYear: t.rule.fromYear, charged: t.rule.charged, itemValueConventions: t.rule.itemValueConventions };
  const out: ValidationCheck[] = [];
  const ib = t.ibsCbs;
  out.push(
    !ib.checked
      ? skipped('IBSCBS_TOTAL', 'No IBSCBS on the items and no IBSCBSTot')
      : check('IBSCBS_TOTAL', ib.ok, {
          blocking,
          code: 'NFE_IBSCBS_TOTAL_MISMATCH',
          ok: "IBSCBSTot equals the sum of the items' IBSCBS",
          failed: ib.presenceProblem ?? `IBSCBSTot differs from the sum of the items in ${ib.mismatches.map((m) => m.field).join(', ')}`,
          details: { mismatches: ib.mismatches.map((m) => ({ field: m.field, items: amount(m.items), total: amount(m.total) })), rule },
        }),
  );
  const is = t.selectiveTax;
  out.push(
    !is.checked
      ? skipped('IS_TOTAL', 'No IS on the items and no ISTot')
      : check('IS_TOTAL', is.ok, {
          blocking,
          code: 'NFE_IS_TOTAL_MISMATCH',
          ok: "ISTot/vIS equals the sum of the items' vIS",
          failed: is.presenceProblem ?? `ISTot/vIS is ${is.total!.toFixed(2)}; the items add up to ${is.items.toFixed(2)}`,
          details: { items: amount(is.items), total: is.total ? amount(is.total) : null, rule },
        }),
  );
  const iv = t.itemValues;
  out.push(
    !iv.checked
      ? skipped('ITEM_VALUE', 'No item carries vItem')
      : check('ITEM_VALUE', iv.ok, {
          blocking,
          code: 'NFE_ITEM_VALUE_MISMATCH',
          ok: `Every vItem follows the formula of NT 2025.002 VB01-10 (${iv.conventions.join(' or ')} the IBS/CBS/IS)`,
          failed: `vItem differs from its formula on line ${iv.mismatches.map((m) => m.lineNumber).join(', ')}`,
          details: {
            mismatches: iv.mismatches.map((m) => ({
              lineNumber: m.lineNumber,
              vItem: amount(m.itemValue),
              withoutTaxes: amount(m.withoutTaxes),
              withTaxes: amount(m.withTaxes),
            })),
            rule,
          },
        }),
  );
  const nt = t.invoiceWithTaxes;
  out.push(
    !nt.checked
      ? skipped('INVOICE_TOTAL_WITH_TAXES', 'No vNFTot')
      : check('INVOICE_TOTAL_WITH_TAXES', nt.matches, {
          blocking,
          code: 'NFE_INVOICE_TOTAL_WITH_TAXES_MISMATCH',
          ok:
            nt.convention === 'WITH_TAXES'
              ? "vNFTot = vNF + the items' IBS, CBS and IS (= Σ vItem)"
              : 'vNFTot = vNF: the IBS, CBS and IS are not added (= Σ vItem)',
          failed:
            nt.convention === null
              ? `vNFTot is ${nt.value!.toFixed(2)}; accepted for ${t.year}: ${rule.itemValueConventions.map((c) => (c === 'WITH_TAXES' ? `${nt.withTaxes.toFixed(2)} (with IBS/CBS/IS)` : `${nt.withoutTaxes.toFixed(2)} (vNF)`)).join(' or ')}`
              : `vNFTot is ${nt.value!.toFixed(2)} but the items' vItem add up to ${nt.sumOfItemValues!.toFixed(2)}`,
          details: {
            vNFTot: amount(nt.value!),
            vNF: amount(nt.withoutTaxes),
            withTaxes: amount(nt.withTaxes),
            sumOfItemValues: nt.sumOfItemValues ? amount(nt.sumOfItemValues) : null,
            convention: nt.convention,
            rule,
          },
        }),
  );
  return out;
}

/**
 * The full report; `filial` null skips the recipient and environment checks (they are then not
 * verified); `rules` replaces the configured tax-reform rules (tests).
 */
export function buildValidationReport(
  nfe: ParsedNfe,
  signature: SignatureResult,
  filial: RecipientContext | null,
  rules?: readonly TaxReformRule[],
): ValidationReport {
  const model = nfe.ide.model;
  const checks: ValidationCheck[] = [
    check('ROOT', nfe.root === 'nfeProc', {
      blocking: false,
      code: 'NFE_BARE_DOCUMENT',
      ok: 'nfeProc: the NF-e with its authorization protocol',
      failed: 'A bare NFe without nfeProc: accepted with a warning, but it carries no protocol',
    }),
    check('LAYOUT_VERSION', nfe.version === '4.00', {
      blocking: false,
      code: 'NFE_LEGACY_LAYOUT',
      ok: 'Layout 4.00',
      failed: `Layout ${nfe.version}: a legacy layout, read for history`,
    }),
    check('MODEL', model === '55', {
      blocking: true,
      code: model === '65' ? 'NFCE_NOT_A_PURCHASE_INVOICE' : 'NFE_MODEL_NOT_SUPPORTED',
      ok: 'Model 55 (NF-e)',
      failed: model === '65' ? 'Model 65 is an NFC-e, a consumer receipt: not a purchase invoice' : `Model ${model} is not an NF-e (55)`,
    }),
    ...accessKeyChecks(nfe),
    ...protocolChecks(nfe, signature),
    signatureCheck(signature),
    signerCheck(signature, {
      issuerDocument: nfe.issuer.document,
      signedAt: nfe.protocol?.receivedAt ?? nfe.ide.issuedAt,
      avulsa: isAvulsaSeries(nfe.ide.series),
    }),
    protocolSignatureCheck(signature),
    ...recipientChecks(nfe, filial),
    ...totalsChecks(nfe),
    ...reformChecks(nfe, rules),
  ];
  return reportOf(checks);
}
