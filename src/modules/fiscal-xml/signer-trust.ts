import crypto, { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { nfeConfig } from '../../core/config/nfe';

/*
 * Who signed it (SPEC §2, issue 34 item 8). A valid XMLDSig only proves the embedded certificate's key
 * signed the document; the signer is trusted when that certificate
 *   - chains to a root the operator installed (NFE_TRUSTED_ROOTS: the ICP-Brasil "AC Raiz" certificates
 *     and the ACs under them, docs/operations.md), each link's signature verified and each issuer a CA;
 *   - names the issuer: the CNPJ root (first 8 characters) of the ICP-Brasil e-CNPJ (subjectAltName
 *     otherName 2.16.76.1.3.3, or the CN "NAME:CNPJ") equals emit/CNPJ's; an e-CPF (2.16.76.1.3.1) the emitter's CPF;
 *   - was valid when the document was signed (the protocol's dhRecbto, dhEmi without one).
 * Verdicts: TRUSTED; UNTRUSTED (self-signed, a chain ending at a root not installed, a broken link, another
 * company, expired or not yet valid); UNVERIFIABLE — the chain cannot be followed here because no roots are
 * installed or the certificate's issuing AC is not among them (the real ICP-Brasil samples on a machine
 * without the operator's roots). The checks never block staging; confirmation blocks on UNTRUSTED
 * (docs/decisions/signer-trust.md).
 *
 * Speed: the store is read and parsed once per process (reloadTrustStore after installing roots), and a
 * certificate set's chain outcome is cached by its bytes, so an invoice costs a hash and a map lookup
 * once its signer has been seen.
 */

export type SignerVerdict = 'TRUSTED' | 'UNTRUSTED' | 'UNVERIFIABLE';
export type SignerReason =
  | 'NO_TRUSTED_ROOTS'
  | 'CHAIN_NOT_VERIFIABLE'
  | 'SELF_SIGNED'
  | 'UNTRUSTED_ROOT'
  | 'CHAIN_BROKEN'
  | 'ISSUER_MISMATCH'
  | 'NO_SIGNER_DOCUMENT'
  | 'NOT_VALID_AT_SIGNING'
  | 'NO_CERTIFICATE';

export interface SignerTrust {
  verdict: SignerVerdict;
  /** Every reason found, most serious first (empty when TRUSTED). */
  reasons: SignerReason[];
  message: string;
  /** The CNPJ (or CPF) the certificate names, when it names one. */
  signerDocument: string | null;
  /** Subjects from the signer up to the trusted root (as far as the chain could be followed). */
  chain: string[];
}

interface TrustStore {
  configured: boolean;
  /** Certificates by subject DN (roots and intermediates). */
  bySubject: Map<string, X509Certificate[]>;
  /** Fingerprints of the installed self-signed roots. */
  roots: Set<string>;
  generation: number;
}

let store: TrustStore | null = null;
let generation = 0;
let extraRoots: string[] = [];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readCertificates(file: string): X509Certificate[] {
  const raw = fs.readFileSync(file);
  const text = raw.toString('latin1');
  const blocks = text.match(PEM_BLOCK);
  if (blocks) return blocks.map((b) => new X509Certificate(b));
  return [new X509Certificate(raw)];
}

const selfSigned = (c: X509Certificate) => c.checkIssued(c) && c.verify(c.publicKey);

function buildStore(pems: X509Certificate[], configured: boolean): TrustStore {
  const bySubject = new Map<string, X509Certificate[]>();
  const roots = new Set<string>();
  for (const c of pems) {
    if (!c.ca) continue;
    bySubject.set(c.subject, [...(bySubject.get(c.subject) ?? []), c]);
    if (selfSigned(c)) roots.add(c.fingerprint256);
  }
  return { configured, bySubject, roots, generation: ++generation };
}

function loadStore(): TrustStore {
  const source = nfeConfig.trustedRoots;
  const certs: X509Certificate[] = extraRoots.map((p) => new X509Certificate(p));
  if (source) {
    const stat = fs.statSync(source);
    const files = stat.isDirectory()
      ? fs
          .readdirSync(source)
          .filter((f) => /\.(pem|crt|cer|der)$/i.test(f))
          .sort()
          .map((f) => path.join(source, f))
      : [source];
    for (const f of files) certs.push(...readCertificates(f));
  }
  return buildStore(certs, !!source || extraRoots.length > 0);
}

function trustStore(): TrustStore {
  if (!store) store = loadStore();
  return store;
}

/** Reads NFE_TRUSTED_ROOTS again (after the operator installs or renews certificates). */
export function reloadTrustStore(): void {
  store = null;
  chainCache.clear();
}

/**
 * Adds CA certificates (PEM) to the trusted store of this process: an authority the deployment itself
 * runs (the local simulator's CA in the embedded demo and the tests) is trusted like an installed root.
 */
export function trustCertificateAuthority(pem: string): void {
  if (extraRoots.includes(pem)) return;
  extraRoots = [...extraRoots, pem];
  reloadTrustStore();
}

/** Forgets the CAs added by trustCertificateAuthority (a test of the store without them). */
export function untrustAddedAuthorities(): string[] {
  const before = extraRoots;
  extraRoots = [];
  reloadTrustStore();
  return before;
}

interface ChainOutcome {
  /** null: the chain reached an installed root. */
  problem: 'NO_TRUSTED_ROOTS' | 'CHAIN_NOT_VERIFIABLE' | 'SELF_SIGNED' | 'UNTRUSTED_ROOT' | 'CHAIN_BROKEN' | null;
  chain: string[];
  leaf: { subject: string; cn: string | null; validFrom: Date; validTo: Date; ecnpj: string | null; ecpf: string | null };
}

const chainCache = new Map<string, ChainOutcome>();
const CACHE_LIMIT = 2000;

const MAX_DEPTH = 8;
const oneLine = (dn: string) => dn.replace(/\n/g, ', ');

/** Walks from the signer to an installed root through the document's own certificates and the store. */
function followChain(leaf: X509Certificate, embedded: X509Certificate[], ts: TrustStore): Pick<ChainOutcome, 'problem' | 'chain'> {
  const chain = [oneLine(leaf.subject)];
  let current = leaf;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (ts.roots.has(current.fingerprint256)) return { problem: null, chain };
    const named = [...embedded.filter((c) => c.subject === current.issuer && c !== current), ...(ts.bySubject.get(current.issuer) ?? [])];
    const issuer = named.find((c) => c.ca && current.checkIssued(c) && current.verify(c.publicKey));
    if (!issuer) {
      if (selfSigned(current)) return { problem: current === leaf ? 'SELF_SIGNED' : 'UNTRUSTED_ROOT', chain };
      if (named.length) return { problem: 'CHAIN_BROKEN', chain };
      return { problem: ts.configured ? 'CHAIN_NOT_VERIFIABLE' : 'NO_TRUSTED_ROOTS', chain };
    }
    if (issuer.fingerprint256 === current.fingerprint256) return { problem: 'UNTRUSTED_ROOT', chain };
    chain.push(oneLine(issuer.subject));
    current = issuer;
  }
  return { problem: 'CHAIN_BROKEN', chain };
}

// DER of OBJECT IDENTIFIER 2.16.76.1.3.3 (ICP-Brasil e-CNPJ: the company's CNPJ) and 2.16.76.1.3.1 (e-CPF: birth date, CPF, …).
const OID_CNPJ = Buffer.from([0x06, 0x05, 0x60, 0x4c, 0x01, 0x03, 0x03]);
const OID_PERSON = Buffer.from([0x06, 0x05, 0x60, 0x4c, 0x01, 0x03, 0x01]);

/** The string value of the otherName whose type-id starts at `at` ([0] EXPLICIT, then a string type). */
function otherNameValue(der: Buffer, oid: Buffer): string | null {
  const at = der.indexOf(oid);
  if (at < 0) return null;
  let i = at + oid.length;
  const readLength = (): number => {
    const first = der[i++];
    if (first < 0x80) return first;
    let n = 0;
    for (let k = 0; k < (first & 0x7f); k++) n = (n << 8) | der[i++];
    return n;
  };
  if (der[i++] !== 0xa0) return null;
  readLength();
  const tag = der[i++];
  // OCTET STRING, UTF8String, PrintableString, IA5String.
  if (![0x04, 0x0c, 0x13, 0x16].includes(tag)) return null;
  const len = readLength();
  return der.subarray(i, i + len).toString('latin1');
}

function describeLeaf(leaf: X509Certificate): ChainOutcome['leaf'] {
  const der = leaf.raw;
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(leaf.subject)?.[1] ?? null;
  const cnpj = otherNameValue(der, OID_CNPJ)?.trim().toUpperCase() ?? null;
  // e-CPF data: birth date (8), CPF (11), NIS (11), RG… (DOC-ICP-04 §7.1.2).
  const person = otherNameValue(der, OID_PERSON);
  const cpf = person && /^\d{8}(\d{11})/.exec(person)?.[1];
  return {
    subject: oneLine(leaf.subject),
    cn,
    validFrom: new Date(leaf.validFrom),
    validTo: new Date(leaf.validTo),
    ecnpj: cnpj && /^[0-9A-Z]{12}\d{2}$/.test(cnpj) ? cnpj : null,
    ecpf: cpf && cpf !== '00000000000' ? cpf : null,
  };
}

function chainOf(certificates: readonly string[]): ChainOutcome | null {
  const ts = trustStore();
  const key = `${ts.generation}:${crypto.createHash('sha256').update(certificates.join('|')).digest('base64')}`;
  const cached = chainCache.get(key);
  if (cached) return cached;
  let parsed: X509Certificate[];
  try {
    parsed = certificates.map((b64) => new X509Certificate(Buffer.from(b64, 'base64')));
  } catch {
    return null;
  }
  const [leaf, ...embedded] = parsed;
  const outcome: ChainOutcome = { ...followChain(leaf, embedded, ts), leaf: describeLeaf(leaf) };
  if (chainCache.size >= CACHE_LIMIT) chainCache.delete(chainCache.keys().next().value!);
  chainCache.set(key, outcome);
  return outcome;
}

/** The document the certificate names: its e-CNPJ otherName, else the CN's ":CNPJ" / ":CPF" suffix, else an e-CPF. */
function signerDocumentOf(leaf: ChainOutcome['leaf']): string | null {
  if (leaf.ecnpj) return leaf.ecnpj;
  const suffix = leaf.cn ? /:([0-9A-Z]{12}\d{2}|\d{11})\s*$/.exec(leaf.cn.toUpperCase())?.[1] : undefined;
  return suffix ?? leaf.ecpf;
}

const CHAIN_MESSAGES: Record<NonNullable<ChainOutcome['problem']>, string> = {
  NO_TRUSTED_ROOTS: 'no ICP-Brasil roots are installed (NFE_TRUSTED_ROOTS), so the chain is not verifiable',
  CHAIN_NOT_VERIFIABLE: 'its issuing AC is not among the installed certificates, so the chain is not verifiable',
  SELF_SIGNED: 'it is self-signed',
  UNTRUSTED_ROOT: 'its chain ends at a root that is not installed as trusted',
  CHAIN_BROKEN: 'a link of its chain does not verify (an issuer by that name did not sign it)',
};

export interface SignerSubject {
  /** Base64 DER of KeyInfo's certificates, the signer's first. */
  certificates: readonly string[];
  /** emit/CNPJ or emit/CPF. */
  issuerDocument: string | null;
  /** When the document was signed (protocol dhRecbto, else dhEmi). */
  signedAt: string | Date | null;
  /** NF-e avulsa: the authority signs for the issuer, so the CNPJ root is not the issuer's. */
  avulsa?: boolean;
}

/** The verdict on the signer of a document whose XMLDSig verified. */
export function evaluateSigner(s: SignerSubject): SignerTrust {
  const outcome = s.certificates.length ? chainOf(s.certificates) : null;
  if (!outcome)
    return {
      verdict: 'UNTRUSTED',
      reasons: ['NO_CERTIFICATE'],
      message: 'No readable signer certificate',
      signerDocument: null,
      chain: [],
    };
  const reasons: SignerReason[] = [];
  const problems: string[] = [];
  const untrustedChain = outcome.problem === 'SELF_SIGNED' || outcome.problem === 'UNTRUSTED_ROOT' || outcome.problem === 'CHAIN_BROKEN';
  if (untrustedChain) {
    reasons.push(outcome.problem!);
    problems.push(CHAIN_MESSAGES[outcome.problem!]);
  }

  const signerDocument = signerDocumentOf(outcome.leaf);
  const issuer = (s.issuerDocument ?? '').toUpperCase();
  if (!s.avulsa) {
    if (!signerDocument) {
      reasons.push('NO_SIGNER_DOCUMENT');
      problems.push('the certificate names no CNPJ (otherName 2.16.76.1.3.3 or CN "NAME:CNPJ")');
    } else {
      const same =
        issuer.length === 11
          ? signerDocument === issuer
          : signerDocument.length === 14 && signerDocument.slice(0, 8) === issuer.slice(0, 8);
      if (!same) {
        reasons.push('ISSUER_MISMATCH');
        problems.push(`it names ${signerDocument}, whose CNPJ root is not the issuer's (${issuer || 'none'})`);
      }
    }
  }
  const at = s.signedAt ? new Date(s.signedAt) : null;
  if (at && !Number.isNaN(at.getTime()) && (at < outcome.leaf.validFrom || at > outcome.leaf.validTo)) {
    reasons.push('NOT_VALID_AT_SIGNING');
    problems.push(
      `it was not valid at signing (${at.toISOString()}; valid ${outcome.leaf.validFrom.toISOString()} to ${outcome.leaf.validTo.toISOString()})`,
    );
  }

  const base = { signerDocument, chain: outcome.chain };
  if (reasons.length)
    return {
      verdict: 'UNTRUSTED',
      reasons,
      message: `The signer's certificate (${outcome.leaf.subject}) is not trusted: ${problems.join('; ')}`,
      ...base,
    };
  if (outcome.problem) {
    return {
      verdict: 'UNVERIFIABLE',
      reasons: [outcome.problem],
      message: `The signer's certificate names the issuer, but ${CHAIN_MESSAGES[outcome.problem]}`,
      ...base,
    };
  }
  return {
    verdict: 'TRUSTED',
    reasons: [],
    message: `Signed by ${outcome.leaf.subject}, chained to ${outcome.chain[outcome.chain.length - 1]}`,
    ...base,
  };
}
