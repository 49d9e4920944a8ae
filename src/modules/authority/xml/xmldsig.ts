import crypto from 'node:crypto';
import type { Document, Element, Node } from '@xmldom/xmldom';
import { C14nCanonicalization, SignedXml, toPem } from 'xml-crypto';
// Deep import, registered in docs/decisions/library-internals.md (the simulator's signature check).
import { findAncestorNsForElement } from 'xml-crypto/lib/utils';
import { childElements, findFirst, parseDom } from './dom';

/*
 * XMLDSig as the NF-e layouts pin it (xmldsig-core-schema_v1.01.xsd uses `fixed=`): enveloped
 * signature right after the signed element, inclusive C14N 1.0, RSA-SHA1 and SHA-1, exactly the two
 * transforms enveloped-signature + C14N, the signer's X509Certificate in KeyInfo.
 *
 * The NF-e module verifies invoices (signature over infNFe under NFe); events sign infEvento under
 * evento, so this module signs and verifies any such element. Sign a standalone document in the NF-e
 * namespace, before it is embedded in a lot or an envelope: inclusive C14N would otherwise pull the
 * envelope's namespace declarations into the digest.
 */

export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
export const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export interface SigningCredentials {
  keyPem: string;
  certPem: string;
}

/** A filial's certificate as the authority's calls use it: the key signs and the chain goes on the TLS handshake. */
export interface Credentials extends SigningCredentials {
  chainPems: string[];
  /** SHA-256 of the certificate: names it in logs instead of the certificate itself. */
  fingerprint: string;
}

/** Signs the element `signedLocalName` (which carries the Id) and places the Signature right after it. */
export function signEnveloped(xml: string, signedLocalName: 'infEvento' | 'infNFe', credentials: SigningCredentials): string {
  const sig = new SignedXml({
    privateKey: credentials.keyPem,
    publicCert: credentials.certPem,
    signatureAlgorithm: RSA_SHA1,
    canonicalizationAlgorithm: C14N,
  });
  const xpath = `//*[local-name()='${signedLocalName}']`;
  sig.addReference({ xpath, transforms: [ENVELOPED, C14N], digestAlgorithm: SHA1 });
  sig.computeSignature(xml, { location: { reference: xpath, action: 'after' } });
  return sig.getSignedXml();
}

export interface SignatureCheck {
  /** Id of the signed element. */
  id: string | null;
  valid: boolean;
  reason: string | null;
  /** Signer certificate (PEM) from KeyInfo. */
  certPem: string | null;
}

const algorithm = (parent: Element | undefined, tag: string) => (parent ? (childElements(parent, tag)[0]?.getAttribute('Algorithm') ?? null) : null);

const pemByText = new Map<string, string>();

/**
 * KeyInfo's certificate as xml-crypto's SignedXml.getCertFromKeyInfo reads it (its first X509Certificate
 * descendant, as PEM), without an XPath evaluation: each costs ~0.1 ms of setup alone.
 */
function certFromKeyInfo(keyInfo: Element | undefined): string | null {
  const cert = keyInfo ? findFirst(keyInfo, 'X509Certificate') : undefined;
  if (!cert || cert === keyInfo) return null;
  // toPem parses the certificate to check it (~0.5 ms): once per distinct text (the same signers sign every note).
  const text = cert.textContent ?? '';
  let pem = pemByText.get(text);
  if (pem === undefined) {
    pem = toPem(text, 'CERTIFICATE');
    if (pemByText.size >= 256) pemByText.delete(pemByText.keys().next().value!);
    pemByText.set(text, pem);
  }
  return pem;
}

/** Public keys of the certificates seen (a PEM → its key, null when unreadable): the same few signers sign every note. */
const publicKeys = new Map<string, crypto.KeyObject | null>();
function publicKeyOf(certPem: string): crypto.KeyObject | null {
  let key = publicKeys.get(certPem);
  if (key === undefined) {
    try {
      key = new crypto.X509Certificate(certPem).publicKey;
    } catch {
      key = null;
    }
    if (publicKeys.size >= 256) publicKeys.delete(publicKeys.keys().next().value!);
    publicKeys.set(certPem, key);
  }
  return key;
}

/** The namespaces in scope that SignedXml hands its C14N for a subset (xml-crypto's own helper). */
const ancestorNamespacesOf = findAncestorNsForElement as unknown as (el: Element) => { prefix: string; namespaceURI: string }[];

const DSIG_NAMES = new Set(['Signature', 'SignedInfo', 'CanonicalizationMethod', 'SignatureMethod', 'Reference', 'DigestValue', 'SignatureValue', 'KeyInfo', 'X509Certificate']);
const ID_ATTRIBUTES = ['Id', 'ID', 'id'];

/**
 * The valid case without xml-crypto's pass (three parses of the document and an XPath scan per Id
 * attribute name: ~7 ms of an NF-e): the same canonicalization (xml-crypto's C14N class, with the
 * ancestor namespaces and options SignedXml passes), SHA-1 and RSA-SHA1 with node:crypto. Only for a
 * document of the plain shape, where SignedXml.checkSignature must come to the same result: one
 * Signature with one of each of its parts, the referenced Id on the signed element alone, no
 * enveloped Signature inside it. true: valid; null: not established here — the caller asks
 * xml-crypto, so every refusal (and its reason) is xml-crypto's as before.
 */
function verifiedDirectly(doc: Document, signature: Element, signed: Element, id: string, certPem: string): true | null {
  if (id.includes("'")) return null;
  const counts = new Map<string, number>();
  let idHolders = 0;
  const walk = (el: Element) => {
    const name = el.localName ?? '';
    if (DSIG_NAMES.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    // SignedXml counts an element once per Id attribute name it matches (of any namespace).
    for (const idName of ID_ATTRIBUTES) {
      for (let i = 0; i < el.attributes.length; i++) {
        const a = el.attributes[i];
        if ((a.localName ?? a.nodeName) === idName && a.value === id) {
          idHolders++;
          break;
        }
      }
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walk(c as Element);
  };
  walk(doc.documentElement as unknown as Element);
  if ([...DSIG_NAMES].some((n) => counts.get(n) !== 1) || idHolders !== 1) return null;
  const signedInfo = childElements(signature, 'SignedInfo')[0];
  const reference = signedInfo ? childElements(signedInfo, 'Reference')[0] : undefined;
  const digestValue = reference ? childElements(reference, 'DigestValue')[0] : undefined;
  const signatureValue = childElements(signature, 'SignatureValue')[0];
  if (!signedInfo || !digestValue || !signatureValue) return null;
  const valueNodes = Array.from(signatureValue.childNodes);
  if (valueNodes.length !== 1 || valueNodes[0].nodeType !== 3) return null;
  for (let n: Node | null = signature.parentNode; n; n = n.parentNode) if (n === signed) return null;
  const key = publicKeyOf(certPem);
  if (!key) return null;
  type C14nInput = Parameters<C14nCanonicalization['process']>;
  const c14n = (el: Element) => {
    const options: Record<string, unknown> = { ancestorNamespaces: ancestorNamespacesOf(el), defaultNsForPrefix: SignedXml.defaultNsForPrefix, signatureNode: signature };
    return new C14nCanonicalization().process(el as unknown as C14nInput[0], options as C14nInput[1]);
  };
  const digest = crypto.createHash('sha1').update(c14n(signed), 'utf8').digest();
  if (!digest.equals(Buffer.from(digestValue.textContent ?? '', 'base64'))) return null;
  const value = ((valueNodes[0] as unknown as { data: string }).data ?? '').replace(/\r?\n/g, '');
  return crypto.createVerify('RSA-SHA1').update(c14n(signedInfo)).verify(key, value, 'base64') ? true : null;
}

/** Checks one enveloped signature: layout rules first, then digest and SignatureValue (xml-crypto, or node:crypto directly when `direct`). */
function checkOne(xml: string, doc: Document, signature: Element, signedLocalName: string, direct: boolean): SignatureCheck {
  const parent = signature.parentNode as Element | null;
  const signed = parent ? childElements(parent, signedLocalName)[0] : undefined;
  const id = signed?.getAttribute('Id') ?? null;
  const fail = (reason: string, certPem: string | null = null): SignatureCheck => ({ id, valid: false, reason, certPem });
  if (!signed || !id) return fail(`The Signature has no sibling ${signedLocalName} with an Id`);
  const signedInfo = childElements(signature, 'SignedInfo')[0];
  const references = signedInfo ? childElements(signedInfo, 'Reference') : [];
  if (references.length !== 1) return fail('The signature must have exactly one Reference');
  if (references[0].getAttribute('URI') !== `#${id}`) return fail(`The signature references ${references[0].getAttribute('URI')}, not #${id}`);
  if (algorithm(signedInfo, 'CanonicalizationMethod') !== C14N) return fail('CanonicalizationMethod must be C14N 1.0');
  if (algorithm(signedInfo, 'SignatureMethod') !== RSA_SHA1) return fail('SignatureMethod must be RSA-SHA1');
  if (algorithm(references[0], 'DigestMethod') !== SHA1) return fail('DigestMethod must be SHA-1');
  const transforms = childElements(childElements(references[0], 'Transforms')[0] ?? references[0], 'Transform').map((t) => t.getAttribute('Algorithm'));
  if (transforms.length !== 2 || transforms[0] !== ENVELOPED || transforms[1] !== C14N) return fail('Transforms must be enveloped-signature then C14N 1.0');
  const certPem = certFromKeyInfo(childElements(signature, 'KeyInfo')[0]);
  if (!certPem) return fail('No X509Certificate in KeyInfo');
  if (!publicKeyOf(certPem)) return fail('The X509Certificate in KeyInfo cannot be read', certPem);
  if (direct && verifiedDirectly(doc, signature, signed, id, certPem)) return { id, valid: true, reason: null, certPem };
  const verifier = new SignedXml({ publicCert: certPem });
  try {
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    if (verifier.checkSignature(xml)) return { id, valid: true, reason: null, certPem };
    return fail(`The digest of ${signedLocalName} does not match DigestValue: changed after signing`, certPem);
  } catch (err) {
    const message = (err as Error).message;
    return fail(/invalid signature/i.test(message) ? 'The SignatureValue does not verify with the embedded certificate' : message, certPem);
  }
}

/**
 * Verifies every enveloped signature over `signedLocalName` in the document (an event, a lot of up to
 * 20 events, an NF-e), on the text exactly as received. `direct`: a signature of the plain shape is
 * established valid with node:crypto (verifiedDirectly) and xml-crypto is asked only otherwise; the
 * local authority simulator uses it (issue 51), the service keeps xml-crypto's pass.
 */
export function verifyEnvelopedSignatures(xml: string, signedLocalName: 'infEvento' | 'infNFe' | 'infInut', opts: { direct?: boolean } = {}): SignatureCheck[] {
  const doc = parseDom(xml);
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature')) as Element[];
  return signatures.map((s) => checkOne(xml, doc, s, signedLocalName, !!opts.direct));
}
