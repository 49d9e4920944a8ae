import crypto from 'node:crypto';
import { Document, DOMParser, Element, Node } from '@xmldom/xmldom';
import { C14nCanonicalization, findAncestorNs, SignedXml, toPem } from 'xml-crypto';
// Deep import, registered in docs/decisions/library-internals.md (the simulator's signature check).
import { findAncestorNsForElement } from 'xml-crypto/lib/utils';
import { hasDoctype } from './xml-document';
import { OutlineElement, readSignedOutline, SignedOutline } from './signed-outline';
import './xmldom-regex-cache';

/*
 * XMLDSig verification of an NF-e: the enveloped signature over infNFe that the layout prescribes
 * (C14N 2001, RSA-SHA1/SHA1; SHA-256 accepted), checked on the XML text exactly as received (a
 * re-serialised document no longer matches its digest) with the X509Certificate embedded in KeyInfo.
 *
 * Both halves are always checked and reported: the Reference digest of the canonical infNFe against
 * DigestValue, and the SignatureValue over the canonical SignedInfo. The text is read without a DOM
 * when the streaming outline can read it exactly as xmldom would (signed-outline.ts: sax, with the
 * C14N written on the fly), through xmldom and xml-crypto's canonicalizer and KeyInfo reader
 * otherwise; the checks below are written once over either reading (`DocumentView`). We locate the
 * nodes with plain walks instead of SignedXml.checkSignature's whole-document XPath queries, which
 * cost seconds on a 990-item invoice, and we accept only the one shape the layout allows: a single
 * Reference to "#" + infNFe/@Id, an element that occurs exactly once.
 *
 * Several authorities also sign the authorization protocol: nfeProc/protNFe then carries its own
 * Signature over infProt. The invoice's signature (the one enveloped in NFe, referencing infNFe)
 * decides validity; the protocol's is verified the same way and reported apart (`protocolSignature`).
 * A Signature anywhere else — inside infNFe, beside NFe, a second one in NFe or in protNFe — is
 * refused: the layout has no place for it, and an extra signature is how wrapping attacks start.
 * This proves the embedded certificate's key signed the document; who that signer is, and whether it
 * chains to ICP-Brasil, is signer-trust.ts's verdict over `certificates`.
 * A CT-e (CTe/infCte in cteProc, protCTe) has the same profile and goes through verifySignedDocument.
 *
 * The authority's messages (events, lots of events, NF-e lots, inutilização) are checked by the other
 * member of the family, verifyEnvelopedInDocument: every Signature of the message over its sibling
 * element, held to the exact profile the layouts fix (xmldsig-core-schema_v1.01.xsd), with
 * xml-crypto's verdicts and reasons — and, for the simulator, a node:crypto pass for the plain valid case.
 */

export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA1 = `${DSIG_NS}rsa-sha1`;
export const SHA1 = `${DSIG_NS}sha1`;
export const ENVELOPED = `${DSIG_NS}enveloped-signature`;

const DIGESTS: Record<string, string> = { [SHA1]: 'sha1', 'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256' };
const SIGNATURES: Record<string, string> = { [RSA_SHA1]: 'RSA-SHA1', 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256' };

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
  /** Base64 DER of every X509Certificate in KeyInfo, the signer's first (the chain the signer sent, if any): signer-trust.ts. */
  certificates: string[];
  /** The authority's signature over protNFe/infProt when the protocol carries one (null: it does not). */
  protocolSignature: EnvelopedSignatureResult | null;
}

/** The outcome of one enveloped signature (the invoice's, or the protocol's). */
export type EnvelopedSignatureResult = Omit<SignatureResult, 'protocolSignature'>;

const outcome = (
  status: SignatureStatus,
  reason: string | null,
  extra: Partial<EnvelopedSignatureResult> = {},
): EnvelopedSignatureResult => ({
  status,
  digestValid: null,
  signatureValid: null,
  reason,
  signatureAlgorithm: null,
  digestAlgorithm: null,
  digestValue: null,
  certificate: null,
  certificates: [],
  ...extra,
});

const result = (
  status: SignatureStatus,
  reason: string | null,
  protocolSignature: EnvelopedSignatureResult | null = null,
): SignatureResult => ({
  ...outcome(status, reason),
  protocolSignature,
});

function describeCertificate(pem: string | null): SignatureCertificate | null {
  if (!pem) return null;
  try {
    const cert = new crypto.X509Certificate(pem);
    return {
      subject: cert.subject.replace(/\n/g, ', '),
      issuer: cert.issuer.replace(/\n/g, ', '),
      serialNumber: cert.serialNumber,
      validFrom: cert.validFrom,
      validTo: cert.validTo,
    };
  } catch {
    return null;
  }
}

const pemByText = new Map<string, string>();

/** An X509Certificate's text as PEM (xml-crypto's toPem, which parses it to check it: ~0.5 ms), once per distinct text — the same signers sign every note. */
function pemOf(text: string): string {
  let pem = pemByText.get(text);
  if (pem === undefined) {
    pem = toPem(text, 'CERTIFICATE');
    if (pemByText.size >= 256) pemByText.delete(pemByText.keys().next().value!);
    pemByText.set(text, pem);
  }
  return pem;
}

/** Public keys of the certificates seen (a PEM → its key, null when unreadable). */
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

/**
 * What the checks read of a parsed document, over either reading of it: xmldom's DOM (`domView`) or
 * the streaming outline (`outlineView`, signed-outline.ts). The checks below are written once
 * against this, so both readings are held to the same rules.
 */
interface DocumentView<N> {
  root: N | null;
  /** The parent element (null for the root). */
  parent(node: N): N | null;
  /** Element children, in document order. */
  elements(node: N): N[];
  localName(node: N): string | null;
  namespaceURI(node: N): string | null;
  attribute(node: N, name: string): string | null;
  textContent(node: N): string;
  /** Inclusive C14N of the element, with the namespaces it inherits (xml-crypto's canonicalizer, or the same bytes). */
  canonical(node: N): string;
  /** The PEM of KeyInfo's first X509Certificate (xml-crypto's getCertFromKeyInfo); throws when it is no certificate. */
  certificate(keyInfo: N | null): string | null;
}

/** Every X509Certificate under KeyInfo, in document order, as base64 without whitespace. */
function keyInfoCertificates<N>(v: DocumentView<N>, keyInfo: N | undefined): string[] {
  const out: string[] = [];
  const walk = (node: N) => {
    for (const c of v.elements(node)) {
      if (v.localName(c) === 'X509Certificate') out.push(v.textContent(c).replace(/\s+/g, ''));
      else walk(c);
    }
  };
  if (keyInfo !== undefined) walk(keyInfo);
  return out;
}

function domView(doc: Document | null): DocumentView<Element> {
  return {
    root: doc?.documentElement ?? null,
    parent: (node) => (node.parentNode?.nodeType === 1 ? (node.parentNode as Element) : null),
    elements: (node) => {
      const out: Element[] = [];
      for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
      return out;
    },
    localName: (node) => node.localName,
    namespaceURI: (node) => node.namespaceURI,
    attribute: (node, name) => node.getAttribute(name),
    textContent: (node) => node.textContent ?? '',
    // xml-crypto types its DOM arguments with the browser's globals; xmldom nodes are what it runs on.
    canonical: canonicalThroughDom,
    certificate: (keyInfo) => SignedXml.getCertFromKeyInfo(keyInfo as never),
  };
}

/** The element's place as an XPath of positions (`/*[1]/*[3]`): it selects that one element, whatever the namespaces. */
function positionPath(node: Element): string {
  let path = '';
  for (let el: Element | null = node; el; el = el.parentNode?.nodeType === 1 ? (el.parentNode as Element) : null) {
    let position = 1;
    for (let s = el.previousSibling; s; s = s.previousSibling) if (s.nodeType === 1) position++;
    path = `/*[${position}]${path}`;
  }
  return path;
}

/**
 * Inclusive C14N of an element of xmldom's DOM with the namespaces it inherits: xml-crypto's
 * canonicalizer, the inherited namespaces by its findAncestorNs (the element located by its position).
 */
export function canonicalThroughDom(node: Element): string {
  // xml-crypto types its DOM arguments with the browser's globals; xmldom nodes are what it runs on.
  const ancestorNamespaces = findAncestorNs(node.ownerDocument as never, positionPath(node));
  return new C14nCanonicalization().process(node as never, { ancestorNamespaces }).toString();
}

/** Thrown when the outline lacks what a check asked for: the DOM then decides. */
class OutlineIncomplete extends Error {}

function outlineView(outline: SignedOutline): DocumentView<OutlineElement> & { incomplete: boolean } {
  const view = {
    incomplete: false,
    root: outline.root,
    parent: (node: OutlineElement) => node.parent,
    elements: (node: OutlineElement) => node.children,
    localName: (node: OutlineElement) => node.localName,
    namespaceURI: (node: OutlineElement) => node.namespaceURI,
    attribute: (node: OutlineElement, name: string) =>
      Object.prototype.hasOwnProperty.call(node.attributes, name) ? node.attributes[name] : null,
    textContent: (node: OutlineElement) => {
      if (node.text === null) return missing();
      return node.text;
    },
    canonical: (node: OutlineElement) => {
      if (node.canonical === null) return missing();
      return node.canonical;
    },
    certificate: (keyInfo: OutlineElement | null) => {
      // getCertFromKeyInfo's `.//*[local-name(.)='X509Certificate']`: the first descendant in document order.
      const first = (node: OutlineElement): OutlineElement | null => {
        for (const c of node.children) {
          if (c.localName === 'X509Certificate') return c;
          const inner = first(c);
          if (inner) return inner;
        }
        return null;
      };
      const cert = keyInfo ? first(keyInfo) : null;
      return cert ? pemOf(view.textContent(cert)) : null;
    },
  };
  // Recorded as well as thrown: some reads sit inside a try of the checks (a failed read is a failed check there).
  const missing = (): never => {
    view.incomplete = true;
    throw new OutlineIncomplete();
  };
  return view;
}

function children<N>(v: DocumentView<N>, node: N, localName: string, ns = DSIG_NS): N[] {
  return v.elements(node).filter((c) => v.localName(c) === localName && v.namespaceURI(c) === ns);
}

function algorithm<N>(v: DocumentView<N>, parent: N | undefined, tag: string): string | null {
  const first = parent === undefined ? undefined : children(v, parent, tag)[0];
  return first === undefined ? null : (v.attribute(first, 'Algorithm') ?? null);
}
const textOf = <N>(v: DocumentView<N>, el: N | undefined) => (el ? v.textContent(el) : '').replace(/\s+/g, '');

/** In one walk of the document: every XMLDSig Signature element, and the elements of each Id value. */
function scan<N>(v: DocumentView<N>): { signatures: N[]; ids: Map<string, N[]> } {
  const signatures: N[] = [];
  const ids = new Map<string, N[]>();
  // The document's children are its root element (comments and PIs beside it are no elements).
  const visit = (list: N[], stack: N[]) => {
    for (let i = list.length - 1; i >= 0; i--) {
      const el = list[i];
      if (v.localName(el) === 'Signature' && v.namespaceURI(el) === DSIG_NS) signatures.push(el);
      const id = v.attribute(el, 'Id');
      if (id) ids.set(id, [...(ids.get(id) ?? []), el]);
      stack.push(el);
    }
  };
  const stack: N[] = [];
  if (v.root) visit([v.root], stack);
  while (stack.length) visit(v.elements(stack.pop()!), stack);
  return { signatures: signatures.reverse(), ids };
}

/** Element children by local name (any namespace: the NF-e elements are checked by position). */
function elements<N>(v: DocumentView<N>, node: N | null, localName: string): N[] {
  return node ? v.elements(node).filter((c) => v.localName(c) === localName) : [];
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
function verifyEnveloped<N>(
  v: DocumentView<N>,
  signature: N,
  parent: N,
  target: string,
  id: string,
  ids: Map<string, N[]>,
): EnvelopedSignatureResult {
  const signedInfo = children(v, signature, 'SignedInfo')[0];
  const references = signedInfo ? children(v, signedInfo, 'Reference') : [];
  const reference = references[0];
  const signatureAlgorithm = algorithm(v, signedInfo, 'SignatureMethod');
  const digestAlgorithm = algorithm(v, reference, 'DigestMethod');
  const digestValue = textOf(v, reference ? children(v, reference, 'DigestValue')[0] : undefined) || null;
  let certPem: string | null = null;
  const keyInfo = children(v, signature, 'KeyInfo')[0];
  try {
    certPem = v.certificate(keyInfo ?? null);
  } catch (err) {
    if (err instanceof OutlineIncomplete) throw err;
    // Not base64 DER (e.g. a redacted sample): no readable certificate, reported below.
    certPem = null;
  }
  const certificate = describeCertificate(certPem);
  const base = {
    signatureAlgorithm,
    digestAlgorithm,
    digestValue,
    certificate,
    certificates: certificate ? keyInfoCertificates(v, keyInfo) : [],
  };

  if (!signedInfo || references.length !== 1)
    return outcome('INVALID', 'The signature must have one SignedInfo with exactly one Reference', base);
  if (v.attribute(reference, 'URI') !== `#${id}`)
    return outcome('INVALID', `The signature references ${v.attribute(reference, 'URI')}, not #${id}`, base);
  const targets = ids.get(id) ?? [];
  if (targets.length !== 1 || v.localName(targets[0]) !== target || v.parent(targets[0]) !== parent) {
    return outcome('INVALID', `Id ${id} must identify exactly one ${target}, the signature's sibling`, base);
  }
  const transforms = children(v, children(v, reference, 'Transforms')[0] ?? reference, 'Transform').map(
    (t) => v.attribute(t, 'Algorithm') ?? '',
  );
  if (transforms.some((t) => t !== ENVELOPED && t !== C14N) || transforms[transforms.length - 1] !== C14N) {
    return outcome(
      'INVALID',
      `Unsupported transforms: ${transforms.join(', ') || 'none'} (the layout uses enveloped-signature + C14N)`,
      base,
    );
  }
  const hash = DIGESTS[digestAlgorithm ?? ''];
  const rsa = SIGNATURES[signatureAlgorithm ?? ''];
  if (!hash || !rsa || algorithm(v, signedInfo, 'CanonicalizationMethod') !== C14N) {
    return outcome(
      'INVALID',
      `Unsupported algorithms: ${algorithm(v, signedInfo, 'CanonicalizationMethod')}, ${signatureAlgorithm}, ${digestAlgorithm}`,
      base,
    );
  }
  if (!certPem || !base.certificate) return outcome('INVALID', 'No readable X509Certificate in KeyInfo', base);

  // Reference: the enveloped-signature transform removes nothing here (the Signature is the
  // target's sibling, checked above), then C14N.
  const digest = crypto.createHash(hash).update(v.canonical(targets[0])).digest('base64');
  const digestValid = !!digestValue && safeEqualBase64(digest, digestValue);

  let signatureValid = false;
  try {
    const value = Buffer.from(textOf(v, children(v, signature, 'SignatureValue')[0]), 'base64');
    signatureValid = value.length > 0 && crypto.verify(rsa, Buffer.from(v.canonical(signedInfo)), publicKeyOf(certPem) ?? certPem, value);
  } catch {
    signatureValid = false;
  }

  const checked = { ...base, digestValid, signatureValid };
  if (digestValid && signatureValid) return outcome('VALID', null, checked);
  if (!digestValid)
    return outcome('INVALID', `The digest of ${target} does not match DigestValue: the document was changed after signing`, checked);
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
function protocolSignatureOf<N>(
  v: DocumentView<N>,
  protocol: N | null,
  signatures: N[],
  ids: Map<string, N[]>,
  shape: SignedShape,
): EnvelopedSignatureResult | null {
  if (!protocol || !signatures.length) return null;
  if (signatures.length > 1) return outcome('INVALID', `${shape.protocol} carries more than one Signature`);
  const infProt = elements(v, protocol, 'infProt');
  const id = infProt.length === 1 ? v.attribute(infProt[0], 'Id') : null;
  if (!id) return outcome('INVALID', 'The protocol is signed but its infProt has no Id to reference');
  return verifyEnveloped(v, signatures[0], protocol, 'infProt', id, ids);
}

/**
 * Verifies the NF-e signature; `infNFeId` is infNFe/@Id ("NFe" + key), the only element it may sign.
 * The protocol's signature, when there is one, comes back as `protocolSignature`.
 */
export function verifyNfeSignature(xml: string, infNFeId: string): SignatureResult {
  return verifySignedDocument(xml, infNFeId, NFE_SIGNED_SHAPE);
}

/**
 * Verifies the enveloped signature of `shape.signed` (whose @Id is `signedId`), the only element it
 * may sign. The text is read by the streaming outline (signed-outline.ts) when it can be, through
 * xmldom's DOM otherwise; both readings go through the same checks and give the same outcome.
 */
export function verifySignedDocument(xml: string, signedId: string, shape: SignedShape): SignatureResult {
  // Never hand a DOCTYPE to a DOM parser (entity expansion); callers refuse such documents anyway.
  if (hasDoctype(xml)) return result('INVALID', 'XML with a DOCTYPE or ENTITY declaration is not accepted');
  const outline = readSignedOutline(xml, signedId, shape);
  if (outline) {
    const view = outlineView(outline);
    try {
      const checked = checkDocument(view, signedId, shape);
      if (!view.incomplete) return checked;
    } catch (err) {
      if (!(err instanceof OutlineIncomplete)) throw err;
    }
  }
  return verifyThroughDom(xml, signedId, shape);
}

/** The same checks over xmldom's DOM and xml-crypto's canonicalizer (what the outline is held to). */
export function verifyThroughDom(xml: string, signedId: string, shape: SignedShape): SignatureResult {
  if (hasDoctype(xml)) return result('INVALID', 'XML with a DOCTYPE or ENTITY declaration is not accepted');
  let doc: Document;
  try {
    doc = readDocument(xml);
  } catch (err) {
    return result('INVALID', `The XML could not be read for signature checking: ${(err as Error).message}`);
  }
  return checkDocument(domView(doc), signedId, shape);
}

function checkDocument<N>(v: DocumentView<N>, signedId: string, shape: SignedShape): SignatureResult {
  const { signatures, ids } = scan(v);
  const root = v.root;
  const rootName = root ? v.localName(root) : null;
  // The document: the root of a bare one, the wrapper's single child otherwise (the parsers read the same one).
  const containers = root && rootName === shape.container ? [root] : rootName === shape.proc ? elements(v, root, shape.container) : [];
  const container = containers.length === 1 ? containers[0] : null;
  const protocols = rootName === shape.proc ? elements(v, root, shape.protocol) : [];
  const protocol = protocols.length === 1 ? protocols[0] : null;

  const own = signatures.filter((s) => container && v.parent(s) === container);
  const ofProtocol = signatures.filter((s) => protocol && v.parent(s) === protocol);
  const protocolSignature = protocolSignatureOf(v, protocol, ofProtocol, ids, shape);
  const misplaced = signatures.filter((s) => !own.includes(s) && !ofProtocol.includes(s));
  if (misplaced.length) {
    const parent = v.parent(misplaced[0]);
    const where = (parent ? v.localName(parent) : null) ?? 'the document';
    return result(
      'INVALID',
      `A Signature inside ${where} is not where the layout allows one (${shape.container} and ${shape.protocol} only)`,
      protocolSignature,
    );
  }
  if (!own.length) {
    return result(
      'ABSENT',
      signatures.length
        ? `The ${shape.label} has no signature of its own (only the protocol is signed)`
        : `The ${shape.label} has no XMLDSig Signature`,
      protocolSignature,
    );
  }
  if (own.length > 1) return result('INVALID', `More than one Signature in ${shape.container}`, protocolSignature);
  return { ...verifyEnveloped(v, own[0], container!, shape.signed, signedId, ids), protocolSignature };
}

/** The outcome of one signature of an authority's message (verifyEnvelopedInDocument). */
export interface SignatureCheck {
  /** Id of the signed element. */
  id: string | null;
  valid: boolean;
  reason: string | null;
  /** Signer certificate (PEM) from KeyInfo. */
  certPem: string | null;
}

/** The element nodes of the authority's messages, read by local name whatever the namespace (as the authority reads them). */
const dom = domView(null);
const named = (node: Element | undefined, localName: string): Element[] => (node ? elements(dom, node, localName) : []);
const algorithmOf = (parent: Element | undefined, tag: string) => named(parent, tag)[0]?.getAttribute('Algorithm') ?? null;

/**
 * KeyInfo's certificate as xml-crypto's SignedXml.getCertFromKeyInfo reads it (its first X509Certificate
 * descendant, as PEM), without an XPath evaluation: each costs ~0.1 ms of setup alone.
 */
function certFromKeyInfo(keyInfo: Element | undefined): string | null {
  const first = (node: Element): Element | undefined => {
    for (const c of dom.elements(node)) {
      if (c.localName === 'X509Certificate') return c;
      const inner = first(c);
      if (inner) return inner;
    }
    return undefined;
  };
  const cert = keyInfo ? first(keyInfo) : undefined;
  return cert ? pemOf(cert.textContent ?? '') : null;
}

/** The namespaces in scope that SignedXml hands its C14N for a subset (xml-crypto's own helper). */
const ancestorNamespacesOf = findAncestorNsForElement as unknown as (el: Element) => { prefix: string; namespaceURI: string }[];

const DSIG_NAMES = new Set([
  'Signature',
  'SignedInfo',
  'CanonicalizationMethod',
  'SignatureMethod',
  'Reference',
  'DigestValue',
  'SignatureValue',
  'KeyInfo',
  'X509Certificate',
]);
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
  const signedInfo = named(signature, 'SignedInfo')[0];
  const reference = named(signedInfo, 'Reference')[0];
  const digestValue = named(reference, 'DigestValue')[0];
  const signatureValue = named(signature, 'SignatureValue')[0];
  if (!signedInfo || !digestValue || !signatureValue) return null;
  const valueNodes = Array.from(signatureValue.childNodes);
  if (valueNodes.length !== 1 || valueNodes[0].nodeType !== 3) return null;
  for (let n: Node | null = signature.parentNode; n; n = n.parentNode) if (n === signed) return null;
  const key = publicKeyOf(certPem);
  if (!key) return null;
  type C14nInput = Parameters<C14nCanonicalization['process']>;
  const c14n = (el: Element) => {
    const options: Record<string, unknown> = {
      ancestorNamespaces: ancestorNamespacesOf(el),
      defaultNsForPrefix: SignedXml.defaultNsForPrefix,
      signatureNode: signature,
    };
    return new C14nCanonicalization().process(el as unknown as C14nInput[0], options as C14nInput[1]);
  };
  const digest = crypto.createHash('sha1').update(c14n(signed), 'utf8').digest();
  if (!digest.equals(Buffer.from(digestValue.textContent ?? '', 'base64'))) return null;
  const value = ((valueNodes[0] as unknown as { data: string }).data ?? '').replace(/\r?\n/g, '');
  return crypto.createVerify('RSA-SHA1').update(c14n(signedInfo)).verify(key, value, 'base64') ? true : null;
}

/** Checks one enveloped signature of a message: layout rules first, then digest and SignatureValue (xml-crypto, or node:crypto directly when `direct`). */
function checkMessageSignature(xml: string, doc: Document, signature: Element, signedLocalName: string, direct: boolean): SignatureCheck {
  const parent = signature.parentNode as Element | null;
  const signed = named(parent ?? undefined, signedLocalName)[0];
  const id = signed?.getAttribute('Id') ?? null;
  const fail = (reason: string, certPem: string | null = null): SignatureCheck => ({ id, valid: false, reason, certPem });
  if (!signed || !id) return fail(`The Signature has no sibling ${signedLocalName} with an Id`);
  const signedInfo = named(signature, 'SignedInfo')[0];
  const references = named(signedInfo, 'Reference');
  if (references.length !== 1) return fail('The signature must have exactly one Reference');
  if (references[0].getAttribute('URI') !== `#${id}`)
    return fail(`The signature references ${references[0].getAttribute('URI')}, not #${id}`);
  if (algorithmOf(signedInfo, 'CanonicalizationMethod') !== C14N) return fail('CanonicalizationMethod must be C14N 1.0');
  if (algorithmOf(signedInfo, 'SignatureMethod') !== RSA_SHA1) return fail('SignatureMethod must be RSA-SHA1');
  if (algorithmOf(references[0], 'DigestMethod') !== SHA1) return fail('DigestMethod must be SHA-1');
  const transforms = named(named(references[0], 'Transforms')[0] ?? references[0], 'Transform').map((t) => t.getAttribute('Algorithm'));
  if (transforms.length !== 2 || transforms[0] !== ENVELOPED || transforms[1] !== C14N)
    return fail('Transforms must be enveloped-signature then C14N 1.0');
  const certPem = certFromKeyInfo(named(signature, 'KeyInfo')[0]);
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
 * Verifies every enveloped signature over `signedLocalName` in an authority's message (an event, a
 * lot of up to 20 events, an NF-e or a lot of them, an inutNFe), `doc` being `xml` parsed, on the text
 * exactly as received. `direct`: a signature of the plain shape is established valid with node:crypto
 * (verifiedDirectly) and xml-crypto is asked only otherwise; the local authority simulator uses it
 * (issue 51), the service keeps xml-crypto's pass.
 */
export function verifyEnvelopedInDocument(
  xml: string,
  doc: Document,
  signedLocalName: string,
  opts: { direct?: boolean } = {},
): SignatureCheck[] {
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature')) as Element[];
  return signatures.map((s) => checkMessageSignature(xml, doc, s, signedLocalName, !!opts.direct));
}
