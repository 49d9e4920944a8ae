/*
 * The fiscal-XML core's front door: what the NF-e and CT-e readers (nfe, cte), the issuing paths
 * (invoices, nfce), the authority (sefaz, sefaz-simulator) and returns share about Brazilian fiscal
 * XML: the 44-character access key, the hardened XML parse (no DOCTYPE), the layout reader, the
 * XMLDSig check of a signed document (and of the authority's signed messages) and its signer's chain,
 * and the validation reports' building blocks. It depends on no other module.
 */
export {
  accessKeyBase,
  accessKeyCheckDigit,
  accessKeyFieldMismatches,
  accessKeyRandomCode,
  ACCESS_KEY_PATTERN,
  buildAccessKey,
  hasValidCheckDigit,
  isAccessKeyFormat,
  isAvulsaSeries,
} from './access-key';
export type { AccessKeyFields } from './access-key';
export { assertNoDoctype, hasDoctype, parseXml, readXml } from './xml-document';
export { asArray, attrOf, childAt, DATE, DATE_TIME, DECIMAL, descendants, Reader, textAt, voidingId } from './xml-reader';
export type { XNode } from './xml-reader';
export {
  C14N,
  DSIG_NS,
  ENVELOPED,
  NFE_SIGNED_SHAPE,
  RSA_SHA1,
  SHA1,
  verifyEnvelopedInDocument,
  verifyNfeSignature,
  verifySignedDocument,
  verifyThroughDom,
} from './signature';
export type {
  EnvelopedSignatureResult,
  SignatureCertificate,
  SignatureCheck,
  SignatureResult,
  SignatureStatus,
  SignedShape,
} from './signature';
export { evaluateSigner, reloadTrustStore, trustCertificateAuthority, untrustAddedAuthorities } from './signer-trust';
export type { SignerReason, SignerSubject, SignerTrust, SignerVerdict } from './signer-trust';
export { parseNfe, readNfe } from './nfe/nfe-parser';
export type * from './nfe/nfe-types';
export { AUTHORIZED_STATUSES, check, reportOf, skipped } from './report';
export type { CheckOptions, CheckOutcome, Report, ReportCheck } from './report';
