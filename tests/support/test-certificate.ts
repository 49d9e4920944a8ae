import crypto from 'node:crypto';
import forge from 'node-forge';

/*
 * An A1-like signing certificate made at test time: the RSA key comes from Node's native generator
 * (fast), the X.509 certificate is built and self-signed with node-forge, subject in the ICP-Brasil
 * style "<NAME>:<CNPJ>". One per process and CNPJ; nothing is read from disk.
 */

export interface TestCertificate {
  privateKeyPem: string;
  certificatePem: string;
  /** Base64 DER, as it appears in <X509Certificate>. */
  certificateBase64: string;
}

const cache = new Map<string, TestCertificate>();

export function testCertificate(cnpj = '11222333000181', name = 'EMPRESA TESTE LTDA'): TestCertificate {
  const key = `${cnpj}:${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  cert.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now + 365 * 24 * 3600 * 1000);
  const attrs = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'ICP-Brasil' },
    { shortName: 'OU', value: 'Test certificate' },
    { shortName: 'CN', value: `${name}:${cnpj}` },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, keyEncipherment: true },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKeyPem), forge.md.sha256.create());
  const certificatePem = forge.pki.certificateToPem(cert);
  const certificateBase64 = forge.util.encode64(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes());
  const made = { privateKeyPem, certificatePem, certificateBase64 };
  cache.set(key, made);
  return made;
}
