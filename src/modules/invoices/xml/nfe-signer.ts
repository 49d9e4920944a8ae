import crypto from 'node:crypto';
import { C14N, ENVELOPED, RSA_SHA1, SHA1 } from '../../authority';

/*
 * The enveloped XMLDSig the authority requires (RSA-SHA1, SHA-1, C14N 1.0, transforms enveloped +
 * C14N, X509Certificate in KeyInfo), computed on the canonical text the builder wrote: the digest is
 * SHA-1 of infNFe in canonical form and SignedInfo is written in canonical form too, so signing is one
 * hash and one RSA operation — no parse, no canonicaliser. xmlsec1 and the inbound verifier check it.
 */

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export interface Signer {
  key: crypto.KeyObject;
  /** Base64 DER of the signer's certificate. */
  certificateBase64: string;
}

export function signerOf(keyPem: string, certPem: string): Signer {
  const certificateBase64 = certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return { key: crypto.createPrivateKey(keyPem), certificateBase64 };
}

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
