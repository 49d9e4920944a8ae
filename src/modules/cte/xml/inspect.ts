import type { SignatureResult, SignedShape } from '../../fiscal-xml';
import { assertNoDoctype, verifySignedDocument } from '../../fiscal-xml';
import { parseCte } from './cte-parser';
import type { ParsedCte } from './cte-types';
import { buildCteReport, CteValidationReport, PayerContext } from './cte-validation';

export interface CteInspection {
  cte: ParsedCte;
  signature: SignatureResult;
  report: CteValidationReport;
}

/** The CT-e profile of XMLDSig: the enveloped signature of CTe over infCte, the authority's optionally in protCTe (NF-e's rules otherwise). */
export const CTE_SIGNED_SHAPE: SignedShape = { container: 'CTe', signed: 'infCte', proc: 'cteProc', protocol: 'protCTe', label: 'CT-e' };

/** XML text → parsed CT-e, signature outcome and validation report against the payer filial (no database). */
export async function inspectCteXml(xml: string, payer: PayerContext | null): Promise<CteInspection> {
  assertNoDoctype(xml);
  const cte = await parseCte(xml);
  // A CT-e is a few kilobytes: checked in the request's thread.
  const signature = verifySignedDocument(xml, `CTe${cte.accessKey}`, CTE_SIGNED_SHAPE);
  return { cte, signature, report: buildCteReport(cte, signature, payer) };
}
