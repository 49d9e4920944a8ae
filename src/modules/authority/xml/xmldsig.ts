import crypto from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { childElements, parseDom } from './dom';

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

/** Checks one enveloped signature: layout rules first, then digest and SignatureValue with xml-crypto. */
function checkOne(xml: string, signature: Element, signedLocalName: string): SignatureCheck {
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
  const certPem = SignedXml.getCertFromKeyInfo(childElements(signature, 'KeyInfo')[0] ?? null);
  if (!certPem) return fail('No X509Certificate in KeyInfo');
  try {
    new crypto.X509Certificate(certPem);
  } catch {
    return fail('The X509Certificate in KeyInfo cannot be read', certPem);
  }
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
 * 20 events, an NF-e), on the text exactly as received.
 */
export function verifyEnvelopedSignatures(xml: string, signedLocalName: 'infEvento' | 'infNFe' | 'infInut'): SignatureCheck[] {
  const doc = parseDom(xml);
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature')) as Element[];
  return signatures.map((s) => checkOne(xml, s, signedLocalName));
}
