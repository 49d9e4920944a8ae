import { SignedXml } from 'xml-crypto';
import { C14N, ENVELOPED, RSA_SHA1, SHA1, SigningCredentials } from '../../src/modules/authority';

/**
 * An independent signer for the tests: xml-crypto's SignedXml over any text (CDATA, character
 * references, line endings the service's builders never write), the layout's profile (enveloped,
 * C14N 1.0, RSA-SHA1, SHA-1), the Signature right after the signed element. The service signs with
 * authority/xml/xmldsig.ts's signer over canonical text; this signs what that one cannot be handed.
 */
export function signEnveloped(xml: string, signedLocalName: 'infEvento' | 'infNFe' | 'infInut', credentials: SigningCredentials): string {
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
