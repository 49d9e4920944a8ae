import crypto from 'node:crypto';
import { C14N, DSIG_NS, ENVELOPED, RSA_SHA1, SHA1, SignatureCheck, verifyEnvelopedInDocument } from '../../fiscal-xml';
import { parseDom } from './dom';

/*
 * The one signer of every document sent to the authority or written by the simulator (NF-e, NFC-e,
 * issuer events, manifestation, inutilização, the simulator's notes and events), and the check of the
 * signatures the authority's messages carry.
 *
 * XMLDSig as the NF-e layouts pin it (xmldsig-core-schema_v1.01.xsd uses `fixed=`): enveloped
 * signature right after the signed element, inclusive C14N 1.0, RSA-SHA1 and SHA-1, exactly the two
 * transforms enveloped-signature + C14N, the signer's X509Certificate in KeyInfo.
 *
 * Signing is computed on the canonical text the builder wrote: the digest is SHA-1 of the signed
 * element in canonical form (the inherited xmlns declared on it, as C14N writes a subset's apex) and
 * SignedInfo is written in canonical form too, so signing is one hash and one RSA operation — no
 * parse, no canonicaliser (issue 51). xmlsec1 and xml-crypto check it (tests/sefaz/signer.test.ts).
 * The signed element goes out in its standalone document in the NF-e namespace, before it is embedded
 * in a lot or an envelope: inclusive C14N would otherwise pull the envelope's declarations into the digest.
 */

export { C14N, ENVELOPED, RSA_SHA1, SHA1 };
export type { SignatureCheck };

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

export interface Signer {
  key: crypto.KeyObject;
  /** Base64 DER of the signer's certificate. */
  certificateBase64: string;
}

export function signerOf(keyPem: string, certPem: string): Signer {
  const certificateBase64 = certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return { key: crypto.createPrivateKey(keyPem), certificateBase64 };
}

const SPECIAL = /[&<>]/;
/** Text as C14N writes it in element content (& < > escaped, quotes as they are), for the builders' canonical text. */
export const canonicalText = (s: string) => (SPECIAL.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);

/** SignedInfo for one reference, in canonical form (the namespace declared on it, as C14N writes a subset's apex). */
function signedInfo(id: string, digest: string): string {
  return (
    `<SignedInfo xmlns="${DSIG_NS}"><CanonicalizationMethod Algorithm="${C14N}"></CanonicalizationMethod><SignatureMethod Algorithm="${RSA_SHA1}"></SignatureMethod>` +
    `<Reference URI="#${id}"><Transforms><Transform Algorithm="${ENVELOPED}"></Transform><Transform Algorithm="${C14N}"></Transform></Transforms>` +
    `<DigestMethod Algorithm="${SHA1}"></DigestMethod><DigestValue>${digest}</DigestValue></Reference></SignedInfo>`
  );
}

/**
 * The Signature element for the signed element `id` whose canonical text is `canonical`.
 * It is placed as the next sibling of the signed element; written with explicit end tags so that the
 * stored text is itself canonical.
 */
export function signatureFor(id: string, canonical: string, signer: Signer): { signature: string; digest: string } {
  const digest = crypto.createHash('sha1').update(canonical, 'utf8').digest('base64');
  const info = signedInfo(id, digest);
  const value = crypto.sign('sha1', Buffer.from(info, 'utf8'), signer.key).toString('base64');
  const signature =
    `<Signature xmlns="${DSIG_NS}">${info.replace(` xmlns="${DSIG_NS}"`, '')}<SignatureValue>${value}</SignatureValue>` +
    `<KeyInfo><X509Data><X509Certificate>${signer.certificateBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;
  return { signature, digest };
}

/** The signed NFe: the Signature right after infNFe. */
export function signNfe(unsignedNfe: string, accessKey: string, canonicalInfNFe: string, signer: Signer): { xml: string; digest: string } {
  const { signature, digest } = signatureFor(`NFe${accessKey}`, canonicalInfNFe, signer);
  const end = '</infNFe></NFe>';
  if (!unsignedNfe.endsWith(end)) throw new Error("signNfe expects the builder's NFe text");
  return { xml: `${unsignedNfe.slice(0, -'</NFe>'.length)}${signature}</NFe>`, digest };
}

/**
 * Verifies every enveloped signature over `signedLocalName` in an authority's message (an event, a
 * lot of up to 20 events, an NF-e, an inutNFe), on the text exactly as received: fiscal-xml's check
 * of messages (verifyEnvelopedInDocument) over the authority's parse. `direct`: the node:crypto pass
 * for the plain valid case (the simulator, issue 51).
 */
export function verifyEnvelopedSignatures(
  xml: string,
  signedLocalName: 'infEvento' | 'infNFe' | 'infInut',
  opts: { direct?: boolean } = {},
): SignatureCheck[] {
  return verifyEnvelopedInDocument(xml, parseDom(xml), signedLocalName, opts);
}
