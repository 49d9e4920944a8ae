import { parseNfe } from './nfe-parser';
import type { ParsedNfe } from './nfe-types';
import { verifyNfeSignature, SignatureResult } from './signature';
import { buildValidationReport, RecipientContext, ValidationReport } from './validation-report';

export interface NfeInspection {
  nfe: ParsedNfe;
  signature: SignatureResult;
  report: ValidationReport;
  /** Milliseconds spent reading the XML into the invoice (the rest is signature and checks). */
  parseMs: number;
}

/** XML text → parsed invoice, signature outcome and validation report (no database). */
export async function inspectNfeXml(xml: string, recipient: RecipientContext | null): Promise<NfeInspection> {
  const t0 = performance.now();
  const nfe = await parseNfe(xml);
  const parseMs = performance.now() - t0;
  const signature = verifyNfeSignature(xml, `NFe${nfe.accessKey}`);
  return { nfe, signature, report: buildValidationReport(nfe, signature, recipient), parseMs };
}
