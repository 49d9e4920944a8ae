import crypto from 'node:crypto';
import forge from 'node-forge';
import { OID_ICP_CNPJ } from '../../modules/sefaz';

/*
 * The simulator's own small PKI, built with node-forge: a CA, the HTTPS server certificate and
 * ICP-Brasil-shaped A1 client certificates ("NAME:CNPJ" common name plus the CNPJ otherName). Keys
 * come from node's native generator (forge's pure-JS RSA takes seconds per key).
 */

export interface KeyAndCert {
  keyPem: string;
  certPem: string;
}

export interface CertificateAuthority extends KeyAndCert {
  name: string;
}

const rsaKeyPair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
};

const serial = () => `01${crypto.randomBytes(15).toString('hex')}`;
const DAY = 24 * 3600 * 1000;

export function createCertificateAuthority(name = 'Simulador SEFAZ AC Raiz'): CertificateAuthority {
  const keys = rsaKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 3650 * DAY);
  const attrs = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'ICP-Brasil (simulado)' },
    { shortName: 'CN', value: name },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { name, keyPem: forge.pki.privateKeyToPem(keys.privateKey), certPem: forge.pki.certificateToPem(cert) };
}

/** subjectAltName with the ICP-Brasil CNPJ otherName: [0] { OID, [0] EXPLICIT OCTET STRING }. */
function cnpjAltName(cnpj: string): forge.asn1.Asn1 {
  const { asn1 } = forge;
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_ICP_CNPJ).getBytes()),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, cnpj)]),
    ]),
  ]);
}

export interface IssueOptions {
  commonName: string;
  /** Client (e-CNPJ A1) certificates carry the CNPJ in the name and the ICP-Brasil otherName. */
  cnpj?: string;
  /** Server certificates: host names / IPs it answers for. */
  hosts?: string[];
  notBefore?: Date;
  notAfter?: Date;
}

export function issueCertificate(ca: CertificateAuthority, opts: IssueOptions): KeyAndCert {
  const keys = rsaKeyPair();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = opts.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = opts.notAfter ?? new Date(Date.now() + 365 * DAY);
  cert.setSubject([
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'ICP-Brasil (simulado)' },
    { shortName: 'CN', value: opts.cnpj ? `${opts.commonName}:${opts.cnpj}` : opts.commonName },
  ]);
  cert.setIssuer(caCert.subject.attributes);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, nonRepudiation: !opts.hosts },
    { name: 'extKeyUsage', serverAuth: !!opts.hosts, clientAuth: !opts.hosts },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ];
  if (opts.hosts) {
    extensions.push({
      name: 'subjectAltName',
      altNames: opts.hosts.map((h) => (/^[\d.]+$/.test(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    });
  } else if (opts.cnpj) {
    extensions.push({ id: '2.5.29.17', name: 'subjectAltName', value: cnpjAltName(opts.cnpj) });
  }
  cert.setExtensions(extensions);
  cert.sign(forge.pki.privateKeyFromPem(ca.keyPem), forge.md.sha256.create());
  return { keyPem: forge.pki.privateKeyToPem(keys.privateKey), certPem: forge.pki.certificateToPem(cert) };
}

/** A PKCS#12 container like the ones authorities hand out (3DES, with the CA in the chain). */
export function toPfx(pair: KeyAndCert, password: string, chainPems: string[] = []): Buffer {
  const p12 = forge.pkcs12.toPkcs12Asn1(
    forge.pki.privateKeyFromPem(pair.keyPem),
    [forge.pki.certificateFromPem(pair.certPem), ...chainPems.map((p) => forge.pki.certificateFromPem(p))],
    password,
    {
      algorithm: '3des',
      friendlyName: 'certificado A1',
    },
  );
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/** A ready A1 certificate for a CNPJ, issued by the simulator's CA. */
export function issueA1(
  ca: CertificateAuthority,
  cnpj: string,
  name: string,
  password: string,
  validity: { notBefore?: Date; notAfter?: Date } = {},
): { pfx: Buffer; password: string } & KeyAndCert {
  const pair = issueCertificate(ca, { commonName: name, cnpj, ...validity });
  return { ...pair, pfx: toPfx(pair, password, [ca.certPem]), password };
}
