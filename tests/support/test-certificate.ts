import fs from 'node:fs';
import path from 'node:path';
import { CertificateAuthority, createCertificateAuthority, issueCertificate } from '../../src/dev/sefaz-simulator/pki';

/*
 * A1-like signing certificates made at test time (the simulator's PKI helpers: native RSA keys,
 * node-forge X.509), subject in the ICP-Brasil style "<NAME>:<CNPJ>" plus the e-CNPJ otherName
 * (2.16.76.1.3.3). By default they are issued by the suite's test root (tests/env.js makes it and
 * installs it as NFE_TRUSTED_ROOTS), so the documents tests sign have a trusted signer; `ca` issues
 * under another authority (a root nobody installed), `selfSigned` makes the attacker's certificate.
 * One per process and subject; nothing is read from the repository.
 */

export interface TestCertificate {
  privateKeyPem: string;
  certificatePem: string;
  /** Base64 DER, as it appears in <X509Certificate>. */
  certificateBase64: string;
}

export interface TestCertificateOptions {
  /** The issuing authority (default: the suite's trusted test root). */
  ca?: CertificateAuthority;
  /** Issued by itself (subject = issuer, its own key). */
  selfSigned?: boolean;
  notBefore?: Date;
  notAfter?: Date;
}

let root: CertificateAuthority | null = null;

/** The suite's trusted test root (tests/env.js). */
export function testRootCa(): CertificateAuthority {
  if (root) return root;
  // Outside the suite (benchmarks) the root is made here, as tests/env.js makes it for the suite.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain script that sets the environment once
  if (!process.env.TEST_ROOT_CA_DIR) require('../test-root-ca');
  const dir = process.env.TEST_ROOT_CA_DIR;
  if (!dir) throw new Error('tests/test-root-ca.js did not make the test root CA (TEST_ROOT_CA_DIR)');
  root = {
    name: 'AC Raiz de Teste v1',
    keyPem: fs.readFileSync(path.join(dir, 'ac-raiz-teste.key'), 'utf8'),
    certPem: fs.readFileSync(path.join(dir, 'roots', 'ac-raiz-teste.pem'), 'utf8'),
  };
  return root;
}

const cache = new Map<string, TestCertificate>();
const caIds = new WeakMap<CertificateAuthority, number>();
let nextCaId = 1;

const derBase64 = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

export function testCertificate(cnpj = '11222333000181', name = 'EMPRESA TESTE LTDA', opts: TestCertificateOptions = {}): TestCertificate {
  const ca = opts.ca ?? (opts.selfSigned ? null : testRootCa());
  if (ca && !caIds.has(ca)) caIds.set(ca, nextCaId++);
  const key = `${cnpj}:${name}:${ca ? caIds.get(ca) : 'self'}:${opts.notBefore?.toISOString() ?? ''}:${opts.notAfter?.toISOString() ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const validity = {
    notBefore: opts.notBefore ?? new Date('2015-01-01T00:00:00Z'),
    notAfter: opts.notAfter ?? new Date('2040-01-01T00:00:00Z'),
  };
  const pair = ca ? issueCertificate(ca, { commonName: name, cnpj, ...validity }) : selfSigned(cnpj, name);
  const made = { privateKeyPem: pair.keyPem, certificatePem: pair.certPem, certificateBase64: derBase64(pair.certPem) };
  cache.set(key, made);
  return made;
}

/** The attacker's certificate: its own issuer (a one-certificate authority named "NAME:CNPJ"), any name it likes. */
function selfSigned(cnpj: string, name: string): { keyPem: string; certPem: string } {
  const ca = createCertificateAuthority(`${name}:${cnpj}`);
  return { keyPem: ca.keyPem, certPem: ca.certPem };
}
