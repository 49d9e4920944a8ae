import { parseNfe } from '../../fiscal-xml';
import type { ParsedNfe } from '../../fiscal-xml';
import type { SignatureResult } from '../../fiscal-xml';
import { assertNoDoctype } from '../../fiscal-xml';
import { verifyNfeSignatureOffThread } from './signature-pool';
import { buildValidationReport, RecipientContext, ValidationReport } from './validation-report';

export interface NfeInspection {
  nfe: ParsedNfe;
  signature: SignatureResult;
  report: ValidationReport;
  /** Milliseconds spent reading the XML into the invoice (the rest is signature and checks). */
  parseMs: number;
}

const INF_NFE_ID = /<(?:[\w.-]+:)?infNFe\b[^>]*?\sId\s*=\s*["']([^"']*)["']/;

/**
 * XML text → parsed invoice, signature outcome and validation report (no database). The signature
 * check of a large document runs on the worker thread while this thread reads the invoice; it is
 * started with infNFe/@Id found in the text and redone with the parsed one should they differ.
 * `onParsed` is called with the invoice as soon as it is read, before the signature's outcome.
 */
export async function inspectNfeXml(
  xml: string,
  recipient: RecipientContext | null,
  onParsed?: (nfe: ParsedNfe) => void,
): Promise<NfeInspection> {
  assertNoDoctype(xml);
  const guessedId = INF_NFE_ID.exec(xml)?.[1] ?? null;
  const early = guessedId ? verifyNfeSignatureOffThread(xml, guessedId) : null;
  // A document that does not parse refuses the request; the early check's outcome is then moot.
  early?.catch(() => undefined);
  const t0 = performance.now();
  const nfe = await parseNfe(xml);
  const parseMs = performance.now() - t0;
  // Read-only work on the parsed invoice may start while the signature is still being checked.
  onParsed?.(nfe);
  const infNFeId = `NFe${nfe.accessKey}`;
  const signature = early && guessedId === infNFeId ? await early : await verifyNfeSignatureOffThread(xml, infNFeId);
  return { nfe, signature, report: buildValidationReport(nfe, signature, recipient), parseMs };
}
