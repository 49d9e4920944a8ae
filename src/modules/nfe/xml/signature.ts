import crypto from 'node:crypto';
import { Document, DOMParser, Element, Node } from '@xmldom/xmldom';
import { C14nCanonicalization, SignedXml } from 'xml-crypto';
import { findAncestorNsForElement } from 'xml-crypto/lib/utils';
import { hasDoctype } from './xml-document';

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
 * Trust is in the embedded certificate only: no ICP-Brasil chain check (see docs/decisions.md).
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
}

const result = (status: SignatureStatus, reason: string | null, extra: Partial<SignatureResult> = {}): SignatureResult => ({
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

/** In one walk of the document: every XMLDSig Signature element, and every element with Id="<id>". */
function scan(root: Node, id: string): { signatures: Element[]; withId: Element[] } {
  const signatures: Element[] = [];
  const withId: Element[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (let c = node.lastChild; c; c = c.previousSibling) {
      if (c.nodeType !== 1) continue;
      const el = c as Element;
      if (el.localName === 'Signature' && el.namespaceURI === DSIG_NS) signatures.push(el);
      if (el.getAttribute('Id') === id) withId.push(el);
      stack.push(c);
    }
  }
  return { signatures: signatures.reverse(), withId };
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
 * The enveloped-signature shape of a fiscal document: the signed element and the element that holds
 * it and its Signature. NF-e: NFe/infNFe; CT-e: CTe/infCte (same XMLDSig profile).
 */
export interface SignedShape {
  container: string;
  signed: string;
  /** The document's name in messages. */
  label: string;
}

export const NFE_SIGNED_SHAPE: SignedShape = { container: 'NFe', signed: 'infNFe', label: 'NF-e' };

/** Verifies the NF-e signature; `infNFeId` is infNFe/@Id ("NFe" + key), the only element it may sign. */
export function verifyNfeSignature(xml: string, infNFeId: string): SignatureResult {
  return verifySignedDocument(xml, infNFeId, NFE_SIGNED_SHAPE);
}

/** Verifies the enveloped signature of `shape.signed` (whose @Id is `signedId`), the only element it may sign. */
export function verifySignedDocument(xml: string, signedId: string, shape: SignedShape): SignatureResult {
  const infNFeId = signedId;
  // Never hand a DOCTYPE to a DOM parser (entity expansion); callers refuse such documents anyway.
  if (hasDoctype(xml)) return result('INVALID', 'XML with a DOCTYPE or ENTITY declaration is not accepted');
  let doc: Document;
  try {
    doc = readDocument(xml);
  } catch (err) {
    return result('INVALID', `The XML could not be read for signature checking: ${(err as Error).message}`);
  }
  const { signatures, withId: targets } = scan(doc, infNFeId);
  if (!signatures.length) return result('ABSENT', `The ${shape.label} has no XMLDSig Signature`);
  if (signatures.length > 1) return result('INVALID', 'More than one Signature element');
  const signature = signatures[0];
  const nfe = signature.parentNode as Element | null;
  if (nfe?.localName !== shape.container) return result('INVALID', `The Signature is not the enveloped signature of ${shape.container}`);

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

  if (!signedInfo || references.length !== 1) return result('INVALID', 'The signature must have one SignedInfo with exactly one Reference', base);
  if (reference.getAttribute('URI') !== `#${infNFeId}`) return result('INVALID', `The signature references ${reference.getAttribute('URI')}, not #${infNFeId}`, base);
  if (targets.length !== 1 || targets[0].localName !== shape.signed || targets[0].parentNode !== nfe) {
    return result('INVALID', `Id ${infNFeId} must identify exactly one ${shape.signed}, the signature's sibling`, base);
  }
  const transforms = children(children(reference, 'Transforms')[0] ?? reference, 'Transform').map((t) => t.getAttribute('Algorithm') ?? '');
  if (transforms.some((t) => t !== ENVELOPED && t !== C14N) || transforms[transforms.length - 1] !== C14N) {
    return result('INVALID', `Unsupported transforms: ${transforms.join(', ') || 'none'} (the layout uses enveloped-signature + C14N)`, base);
  }
  const hash = DIGESTS[digestAlgorithm ?? ''];
  const rsa = SIGNATURES[signatureAlgorithm ?? ''];
  if (!hash || !rsa || algorithm(signedInfo, 'CanonicalizationMethod') !== C14N) {
    return result('INVALID', `Unsupported algorithms: ${algorithm(signedInfo, 'CanonicalizationMethod')}, ${signatureAlgorithm}, ${digestAlgorithm}`, base);
  }
  if (!certPem || !base.certificate) return result('INVALID', 'No readable X509Certificate in KeyInfo', base);

  // Reference: the enveloped-signature transform removes nothing here (the Signature is the signed element's
  // sibling, checked above), then C14N.
  const digest = crypto.createHash(hash).update(canonical(targets[0])).digest('base64');
  const digestValid = !!digestValue && safeEqualBase64(digest, digestValue);

  let signatureValid = false;
  try {
    const value = Buffer.from(textOf(children(signature, 'SignatureValue')[0]), 'base64');
    signatureValid = value.length > 0 && crypto.verify(rsa, Buffer.from(canonical(signedInfo)), certPem, value);
  } catch {
    signatureValid = false;
  }

  const outcome = { ...base, digestValid, signatureValid };
  if (digestValid && signatureValid) return result('VALID', null, outcome);
  if (!digestValid) return result('INVALID', `The digest of ${shape.signed} does not match DigestValue: the document was changed after signing`, outcome);
  return result('INVALID', 'The SignatureValue does not verify with the embedded certificate', outcome);
}
