import crypto from 'node:crypto';
import forge from 'node-forge';
import { CNPJ_PATTERN } from '../../../core/br-documents';

/*
 * A1 certificates (PKCS#12 .pfx + password) read with node-forge, which also opens the legacy
 * RC2/3DES containers ICP-Brasil authorities still issue and OpenSSL 3 refuses. The TLS client and
 * the XML signer get PEM key + certificate from here.
 */

/** ICP-Brasil otherName carrying the holder's CNPJ (DOC-ICP-04). */
export const OID_ICP_CNPJ = '2.16.76.1.3.3';

export interface ParsedCertificate {
  keyPem: string;
  certPem: string;
  /** Other certificates of the container (intermediates), sent along in the TLS handshake. */
  chainPems: string[];
  subject: string;
  issuer: string;
  /** Holder's CNPJ: ICP-Brasil otherName, else the "NAME:CNPJ" common name. */
  cnpj: string | null;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the DER certificate, hex. */
  fingerprint: string;
}

export type PfxFailure = 'PASSWORD' | 'UNREADABLE' | 'NO_KEY';

export class PfxError extends Error {
  constructor(
    public readonly failure: PfxFailure,
    message: string,
  ) {
    super(message);
  }
}

const describeName = (attrs: forge.pki.CertificateField[]) =>
  attrs.map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`).join(', ');

function cnpjFromAltNames(cert: forge.pki.Certificate): string | null {
  const ext = cert.getExtension('subjectAltName') as { altNames?: { type: number; value: unknown }[] } | undefined;
  for (const alt of ext?.altNames ?? []) {
    if (alt.type !== 0 || !Array.isArray(alt.value)) continue;
    const [oid, wrapped] = alt.value as forge.asn1.Asn1[];
    if (!oid || forge.asn1.derToOid(oid.value as string) !== OID_ICP_CNPJ) continue;
    // [0] EXPLICIT wraps a string type (OCTET STRING or PrintableString) holding the 14 characters
    // (digits, or an alphanumeric CNPJ).
    const inner = Array.isArray(wrapped?.value) ? (wrapped.value as forge.asn1.Asn1[])[0] : undefined;
    const cnpj = typeof inner?.value === 'string' ? inner.value.replace(/[^0-9A-Za-z]/g, '').toUpperCase() : '';
    if (CNPJ_PATTERN.test(cnpj)) return cnpj;
  }
  return null;
}

function cnpjOf(cert: forge.pki.Certificate): string | null {
  const fromAlt = cnpjFromAltNames(cert);
  if (fromAlt) return fromAlt;
  const cn = (cert.subject.getField('CN') as { value?: string } | null)?.value;
  const m = cn ? /:([0-9A-Z]{12}\d{2})\s*$/.exec(cn) : null; // CNPJ_PATTERN at the end of "NAME:CNPJ"
  return m ? m[1] : null;
}

const sameKey = (key: forge.pki.rsa.PrivateKey, cert: forge.pki.Certificate) => {
  const pub = cert.publicKey as forge.pki.rsa.PublicKey;
  return pub?.n?.equals?.(key.n) ?? false;
};

export function parsePfx(pfx: Buffer, password: string): ParsedCertificate {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary')));
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = (err as Error).message ?? '';
    if (/password|MAC could not be verified|decrypt/i.test(message)) throw new PfxError('PASSWORD', 'The certificate password is wrong');
    throw new PfxError('UNREADABLE', 'The file is not a readable PKCS#12 (.pfx) certificate');
  }
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keys = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag), ...bags(forge.pki.oids.keyBag)]
    .map((b) => b.key as forge.pki.rsa.PrivateKey | undefined)
    .filter((k): k is forge.pki.rsa.PrivateKey => !!k);
  const certs = bags(forge.pki.oids.certBag)
    .map((b) => b.cert)
    .filter((c): c is forge.pki.Certificate => !!c);
  if (!keys.length) throw new PfxError('NO_KEY', 'The certificate file has no private key');
  const key = keys[0];
  const leaf = certs.find((c) => sameKey(key, c));
  if (!leaf) throw new PfxError('NO_KEY', 'No certificate in the file matches its private key');
  const certPem = forge.pki.certificateToPem(leaf);
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(leaf)).getBytes();
  return {
    keyPem: forge.pki.privateKeyToPem(key),
    certPem,
    chainPems: certs.filter((c) => c !== leaf).map((c) => forge.pki.certificateToPem(c)),
    subject: describeName(leaf.subject.attributes),
    issuer: describeName(leaf.issuer.attributes),
    cnpj: cnpjOf(leaf),
    serialNumber: leaf.serialNumber,
    notBefore: leaf.validity.notBefore,
    notAfter: leaf.validity.notAfter,
    fingerprint: crypto.createHash('sha256').update(Buffer.from(der, 'binary')).digest('hex'),
  };
}

/** The holder's CNPJ stated by a PEM certificate (a signer's, a TLS peer's). */
export function cnpjOfCertificatePem(pem: string): string | null {
  try {
    return cnpjOf(forge.pki.certificateFromPem(pem));
  } catch {
    return null;
  }
}
