// The suite's ICP-Brasil stand-in: a root CA made at test time, installed as the trusted roots through
// the configuration (NFE_TRUSTED_ROOTS), exactly as an operator installs the AC Raiz certificates. The
// certificates tests sign with (tests/support/test-certificate.ts) are issued under it; its key stays
// in a temporary directory removed at exit. Nothing is read from or committed to the repository.
// tests/env.js loads it for the suite; benchmarks that sign with test certificates load it through
// tests/support/test-certificate.ts.
if (!process.env.NFE_TRUSTED_ROOTS) {
  const crypto = require('node:crypto');
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const forge = require('node-forge');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-icp-roots-'));
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${crypto.randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date('2010-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2045-01-01T00:00:00Z');
  const attrs = [
    { shortName: 'C', value: 'BR' },
    { shortName: 'O', value: 'ICP-Brasil (teste)' },
    { shortName: 'CN', value: 'AC Raiz de Teste v1' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }, { name: 'subjectKeyIdentifier' }]);
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  fs.mkdirSync(path.join(dir, 'roots'));
  fs.writeFileSync(path.join(dir, 'roots', 'ac-raiz-teste.pem'), forge.pki.certificateToPem(cert));
  fs.writeFileSync(path.join(dir, 'ac-raiz-teste.key'), keyPem, { mode: 0o600 });
  process.env.NFE_TRUSTED_ROOTS = path.join(dir, 'roots');
  process.env.TEST_ROOT_CA_DIR = dir;
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}
