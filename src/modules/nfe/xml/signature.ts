import crypto from 'node:crypto';
import { Document, DOMParser, Element, Node } from '@xmldom/xmldom';
import { C14nCanonicalization, SignedXml } from 'xml-crypto';
import { findAncestorNsForElement } from 'xml-crypto/lib/utils';
import { hasDoctype } from './xml-document';
import './xmldom-regex-cache';

/*
 * XMLDSig verification of an NF-e: the enveloped signature over infNFe that the layout prescribes
 * (C14N 2001, RSA-SHA1/SHA1; SHA-256 accepted), checked on the XML text exactly as received (a
 * re-serialised document no longer matches its digest) with the X509Certificate embedded in KeyInfo.
 *
 * Both halves are always checked and reported: the Reference digest of the canonical infNFe against
 * DigestValue, and the SignatureValue over the canonical SignedInfo. The steps are xml-crypto's
 * (its C14N and enveloped-signature transforms, its KeyInfo certificate reader); we locate the nodes
 * with plain DOM walks instead of SignedXml.checkSignature's whole-document XPath queries, which cost
 * seconds on a 990-item invoice, and we accept only the one shape the layout allows: a single
 * Reference to "#" + infNFe/@Id, an element that occurs exactly once.
 *
 * Several authorities also sign the authorization protocol: nfeProc/protNFe then carries its own
 * Signature over infProt. The invoice's signature (the one enveloped in NFe, referencing infNFe)
 * decides validity; the protocol's is verified the same way and reported apart (`protocolSignature`).
 * A Signature anywhere else — inside infNFe, beside NFe, a second one in NFe or in protNFe — is
 * refused: the layout has no place for it, and an extra signature is how wrapping attacks start.
 * Trust is in the embedded certificate only: no ICP-Brasil chain check (see docs/decisions.md).
 * A CT-e (CTe/infCte in cteProc, protCTe) has the same profile and goes through verifySignedDocument.
 */

export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const ENVELOPED = `${DSIG_NS}enveloped-signature`;

const DIGESTS: Record<string, string> = { [`${DSIG_NS}sha1`]: 'sha1', 'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256' };
const SIGNATURES: Record<string, string> = { [`${DSIG_NS}rsa-sha1`]: 'RSA-SHA1', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256' };

export type SignatureStatus = 'VALID' | 'INVALID' | 'ABSENT';

export interface SignatureCertificate {
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
}

export interface SignatureResult {
  status: SignatureStatus;
  /** Digest of the canonical infNFe equals DigestValue (null: not reached). */
  digestValid: boolean | null;
  /** SignatureValue verifies over the canonical SignedInfo with the embedded key (null: not reached). */
  signatureValid: boolean | null;
  reason: string | null;
  signatureAlgorithm: string | null;
  digestAlgorithm: string | null;
  /** DigestValue as written (protNFe/digVal should equal it). */
  digestValue: string | null;
  certificate: SignatureCertificate | null;
  /** The authority's signature over protNFe/infProt when the protocol carries one (null: it does not). */
  protocolSignature: EnvelopedSignatureResult | null;
}

/** The outcome of one enveloped signature (the invoice's, or the protocol's). */
export type EnvelopedSignatureResult = Omit<SignatureResult, 'protocolSignature'>;

const outcome = (status: SignatureStatus, reason: string | null, extra: Partial<EnvelopedSignatureResult> = {}): EnvelopedSignatureResult => ({
  status,
  digestValid: null,
  signatureValid: null,
  reason,
  signatureAlgorithm: null,
  digestAlgorithm: null,
  digestValue: null,
  certificate: null,
  ...extra,
});

const result = (status: SignatureStatus, reason: string | null, protocolSignature: EnvelopedSignatureResult | null = null): SignatureResult => ({
  ...outcome(status, reason),
  protocolSignature,
});

function describeCertificate(pem: string | null): SignatureCertificate | null {
  if (!pem) return null;
  try {
    const cert = new crypto.X509Certificate(pem);
    return { subject: cert.subject.replace(/\n/g, ', '), issuer: cert.issuer.replace(/\n/g, ', '), serialNumber: cert.serialNumber, validFrom: cert.validFrom, validTo: cert.validTo };
  } catch {
    return null;
  }
}

function children(node: Node, localName: string, ns = DSIG_NS): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).localName === localName && (c as Element).namespaceURI === ns) out.push(c as Element);
  }
  return out;
}

const algorithm = (parent: Element | undefined, tag: string): string | null => (parent ? children(parent, tag)[0]?.getAttribute('Algorithm') ?? null : null);
const textOf = (el: Element | undefined) => (el?.textContent ?? '').replace(/\s+/g, '');

/** In one walk of the document: every XMLDSig Signature element, and the elements of each Id value. */
function scan(root: Node): { signatures: Element[]; ids: Map<string, Element[]> } {
  const signatures: Element[] = [];
  const ids = new Map<string, Element[]>();
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (let c = node.lastChild; c; c = c.previousSibling) {
      if (c.nodeType !== 1) continue;
      const el = c as Element;
      if (el.localName === 'Signature' && el.namespaceURI === DSIG_NS) signatures.push(el);
      const id = el.getAttribute('Id');
      if (id) ids.set(id, [...(ids.get(id) ?? []), el]);
      stack.push(c);
    }
  }
  return { signatures: signatures.reverse(), ids };
}

/** Element children by local name (any namespace: the NF-e elements are checked by position). */
function elements(node: Node | null, localName: string): Element[] {
  const out: Element[] = [];
  for (let c = node?.firstChild ?? null; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).localName === localName) out.push(c as Element);
  }
  return out;
}

/** Inclusive C14N of a subtree, with the namespaces it inherits (xml-crypto's canonicalizer). */
function canonical(node: Element): string {
  // xml-crypto types its DOM arguments with the browser's globals; xmldom nodes are what it runs on.
  return new C14nCanonicalization().process(node as never, { ancestorNamespaces: findAncestorNsForElement(node as never) }).toString();
}

function safeEqualBase64(a: string, b: string): boolean {
  const x = Buffer.from(a, 'base64');
  const y = Buffer.from(b, 'base64');
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

function readDocument(xml: string): Document {
  const errors: string[] = [];
  const doc = new DOMParser({
    // Node positions are not needed here, and recording them costs time on a 990-item document.
    locator: false,
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length) throw new Error(errors[0]);
  return doc;
}

/**
 * Checks one enveloped signature: `signature` is a child of `parent` and must reference "#" + `id`,
 * which must identify exactly one element, `parent`'s child `target`.
 */
function verifyEnveloped(signature: Element, parent: Element, target: string, id: string, ids: Map<string, Element[]>): EnvelopedSignatureResult {
  const signedInfo = children(signature, 'SignedInfo')[0];
  const references = signedInfo ? children(signedInfo, 'Reference') : [];
  const reference = references[0];
  const signatureAlgorithm = algorithm(signedInfo, 'SignatureMethod');
  const digestAlgorithm = algorithm(reference, 'DigestMethod');
  const digestValue = textOf(reference ? children(reference, 'DigestValue')[0] : undefined) || null;
  let certPem: string | null = null;
  try {
    certPem = SignedXml.getCertFromKeyInfo((children(signature, 'KeyInfo')[0] ?? null) as never);
  } catch {
    // Not base64 DER (e.g. a redacted sample): no readable certificate, reported below.
    certPem = null;
  }
  const base = { signatureAlgorithm, digestAlgorithm, digestValue, certificate: describeCertificate(certPem) };

  if (!signedInfo || references.length !== 1) return outcome('INVALID', 'The signature must have one SignedInfo with exactly one Reference', base);
  if (reference.getAttribute('URI') !== `#${id}`) return outcome('INVALID', `The signature references ${reference.getAttribute('URI')}, not #${id}`, base);
  const targets = ids.get(id) ?? [];
  if (targets.length !== 1 || targets[0].localName !== target || targets[0].parentNode !== parent) {
    return outcome('INVALID', `Id ${id} must identify exactly one ${target}, the signature's sibling`, base);
  }
  const transforms = children(children(reference, 'Transforms')[0] ?? reference, 'Transform').map((t) => t.getAttribute('Algorithm') ?? '');
  if (transforms.some((t) => t !== ENVELOPED && t !== C14N) || transforms[transforms.length - 1] !== C14N) {
    return outcome('INVALID', `Unsupported transforms: ${transforms.join(', ') || 'none'} (the layout uses enveloped-signature + C14N)`, base);
  }
  const hash = DIGESTS[digestAlgorithm ?? ''];
  const rsa = SIGNATURES[signatureAlgorithm ?? ''];
  if (!hash || !rsa || algorithm(signedInfo, 'CanonicalizationMethod') !== C14N) {
    return outcome('INVALID', `Unsupported algorithms: ${algorithm(signedInfo, 'CanonicalizationMethod')}, ${signatureAlgorithm}, ${digestAlgorithm}`, base);
  }
  if (!certPem || !base.certificate) return outcome('INVALID', 'No readable X509Certificate in KeyInfo', base);

  // Reference: the enveloped-signature transform removes nothing here (the Signature is the
  // target's sibling, checked above), then C14N.
  const digest = crypto.createHash(hash).update(canonical(targets[0])).digest('base64');
  const digestValid = !!digestValue && safeEqualBase64(digest, digestValue);

  let signatureValid = false;
  try {
    const value = Buffer.from(textOf(children(signature, 'SignatureValue')[0]), 'base64');
    signatureValid = value.length > 0 && crypto.verify(rsa, Buffer.from(canonical(signedInfo)), certPem, value);
  } catch {
    signatureValid = false;
  }

  const checked = { ...base, digestValid, signatureValid };
  if (digestValid && signatureValid) return outcome('VALID', null, checked);
  if (!digestValid) return outcome('INVALID', `The digest of ${target} does not match DigestValue: the document was changed after signing`, checked);
  return outcome('INVALID', 'The SignatureValue does not verify with the embedded certificate', checked);
}

/**
 * Where a fiscal document's signatures live: `container` holds the signed element and its Signature
 * (NF-e: NFe/infNFe; CT-e: CTe/infCte, the same XMLDSig profile), `proc` is the distribution wrapper
 * whose `protocol` child may carry the authority's signature over infProt.
 */
export interface SignedShape {
  container: string;
  signed: string;
  proc: string;
  protocol: string;
  /** The document's name in messages. */
  label: string;
}

export const NFE_SIGNED_SHAPE: SignedShape = { container: 'NFe', signed: 'infNFe', proc: 'nfeProc', protocol: 'protNFe', label: 'NF-e' };

/** The protocol's own signature (protNFe/Signature over infProt), when it has one. */
function protocolSignatureOf(protocol: Element | null, signatures: Element[], ids: Map<string, Element[]>, shape: SignedShape): EnvelopedSignatureResult | null {
  if (!protocol || !signatures.length) return null;
  if (signatures.length > 1) return outcome('INVALID', `${shape.protocol} carries more than one Signature`);
  const infProt = elements(protocol, 'infProt');
  const id = infProt.length === 1 ? infProt[0].getAttribute('Id') : null;
  if (!id) return outcome('INVALID', 'The protocol is signed but its infProt has no Id to reference');
  return verifyEnveloped(signatures[0], protocol, 'infProt', id, ids);
}

/**
 * Verifies the NF-e signature; `infNFeId` is infNFe/@Id ("NFe" + key), the only element it may sign.
 * The protocol's signature, when there is one, comes back as `protocolSignature`.
 */
export function verifyNfeSignature(xml: string, infNFeId: string): SignatureResult {
  return verifySignedDocument(xml, infNFeId, NFE_SIGNED_SHAPE);
}

/** Verifies the enveloped signature of `shape.signed` (whose @Id is `signedId`), the only element it may sign. */
export function verifySignedDocument(xml: string, signedId: string, shape: SignedShape): SignatureResult {
  // Never hand a DOCTYPE to a DOM parser (entity expansion); callers refuse such documents anyway.
  if (hasDoctype(xml)) return result('INVALID', 'XML with a DOCTYPE or ENTITY declaration is not accepted');
  let doc: Document;
  try {
    doc = readDocument(xml);
  } catch (err) {
    return result('INVALID', `The XML could not be read for signature checking: ${(err as Error).message}`);
  }
  const { signatures, ids } = scan(doc);
  const root = doc.documentElement;
  // The document: the root of a bare one, the wrapper's single child otherwise (the parsers read the same one).
  const containers = root?.localName === shape.container ? [root] : root?.localName === shape.proc ? elements(root, shape.container) : [];
  const container = containers.length === 1 ? containers[0] : null;
  const protocols = root?.localName === shape.proc ? elements(root, shape.protocol) : [];
  const protocol = protocols.length === 1 ? protocols[0] : null;

  const own = signatures.filter((s) => container && s.parentNode === container);
  const ofProtocol = signatures.filter((s) => protocol && s.parentNode === protocol);
  const protocolSignature = protocolSignatureOf(protocol, ofProtocol, ids, shape);
  const misplaced = signatures.filter((s) => !own.includes(s) && !ofProtocol.includes(s));
  if (misplaced.length) {
    const where = (misplaced[0].parentNode as Element | null)?.localName ?? 'the document';
    return result('INVALID', `A Signature inside ${where} is not where the layout allows one (${shape.container} and ${shape.protocol} only)`, protocolSignature);
  }
  if (!own.length) {
    return result('ABSENT', signatures.length ? `The ${shape.label} has no signature of its own (only the protocol is signed)` : `The ${shape.label} has no XMLDSig Signature`, protocolSignature);
  }
  if (own.length > 1) return result('INVALID', `More than one Signature in ${shape.container}`, protocolSignature);
  return { ...verifyEnveloped(own[0], container!, shape.signed, signedId, ids), protocolSignature };
}
