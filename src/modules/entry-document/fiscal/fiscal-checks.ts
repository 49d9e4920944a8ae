import type { Check } from '../entry-document.types';
import { expectedEntryOrigin } from './cfop-table';
import type { NfePurpose, OperationClass } from './fiscal.types';
import type { ResolvedLineFiscal } from './line-fiscal';
import { CLASS_EFFECTS, PURPOSES } from './operation-rules';

/** What the booking of the lines tells about a document: problems that block confirming it, and notes. */

export interface ReferencedDocument {
  accessKey: string;
  issuerDocument: string;
  model: string;
  series: string;
  number: string;
  /** AAMM of the key, as YYYY-MM. */
  issuedIn: string;
}

/** The fields an NF-e access key carries (cUF AAMM CNPJ mod série nNF tpEmis cNF cDV). */
export function describeAccessKey(key: string): ReferencedDocument {
  const strip = (s: string) => s.replace(/^0+(?=\d)/, '');
  return {
    accessKey: key,
    issuerDocument: key.slice(6, 20),
    model: key.slice(20, 22),
    series: strip(key.slice(22, 25)),
    number: strip(key.slice(25, 34)),
    issuedIn: `20${key.slice(2, 4)}-${key.slice(4, 6)}`,
  };
}

export interface FiscalLineView {
  lineNumber: number;
  cfop: string | null;
  fiscal: ResolvedLineFiscal;
}

/** Per-line findings: an entry CFOP nothing gives, a class nothing names, an entry CFOP of another origin. */
export function lineFiscalChecks(line: FiscalLineView): Check[] {
  const { lineNumber, cfop, fiscal } = line;
  const checks: Check[] = [];
  if (!fiscal.entryCfop && cfop) {
    checks.push({
      code: 'ENTRY_CFOP_UNRESOLVED',
      message: `Line ${lineNumber}: no rule gives an entry CFOP for the issuer's CFOP ${cfop}; set the line's entryCfop or add a company CFOP rule`,
      blocksConfirmation: true,
      lineNumber,
      details: { cfop },
    });
  }
  if (!fiscal.operationClass) {
    checks.push({
      code: 'OPERATION_CLASS_UNDETERMINED',
      message: `Line ${lineNumber}: the entry CFOP ${fiscal.entryCfop ?? '(none)'} names no operation; set the line's operationClass, choose a specific entry CFOP or add a rule with a class`,
      blocksConfirmation: true,
      lineNumber,
      details: { entryCfop: fiscal.entryCfop },
    });
  }
  const origin = expectedEntryOrigin(cfop);
  if (fiscal.entryCfop && origin && fiscal.entryCfop[0] !== origin) {
    checks.push({
      code: 'ENTRY_CFOP_ORIGIN_MISMATCH',
      message: `Line ${lineNumber}: the entry CFOP ${fiscal.entryCfop} does not match the origin of the issuer's CFOP ${cfop} (expected ${origin}xxx)`,
      blocksConfirmation: false,
      lineNumber,
    });
  }
  return checks;
}

/**
 * A customer's return (finNFe 4, or lines booked as returns of our sales) is not a purchase: one
 * blocking problem naming the documents it refers to and what to do instead.
 */
export function documentFiscalChecks(classes: (OperationClass | null)[], purpose: NfePurpose, referencedKeys: string[]): Check[] {
  const checks: Check[] = [];
  const returnLines = classes.flatMap((c, i) => (c && CLASS_EFFECTS[c].refused ? [i + 1] : []));
  if (returnLines.length) {
    const referenced = referencedKeys.map(describeAccessKey);
    const named = referenced.length
      ? referenced.map((r) => `NF-e ${r.series}/${r.number} of ${r.issuedIn} issued by ${r.issuerDocument} (key ${r.accessKey})`).join('; ')
      : 'no document (the invoice carries no NFref)';
    checks.push({
      code: 'CUSTOMER_RETURN_NOT_A_PURCHASE',
      message:
        `${purpose === '4' ? 'This invoice is a return (finNFe 4)' : `Lines ${returnLines.join(', ')} return goods we sold`}; it refers to ${named}. ` +
        'A customer return is not a purchase: register it with POST /api/returns/{filialId} against the sale it reverses (a devolução of our NF-e: POST /api/returns/{filialId}/imported-nfe books it from this XML), then delete this draft.',
      blocksConfirmation: true,
      details: {
        lines: returnLines,
        referencedDocuments: referenced,
        instead: 'POST /api/returns/{filialId}',
        importAsReturn: 'POST /api/returns/{filialId}/imported-nfe',
      },
    });
  }
  const returning = classes.flatMap((c, i) => (c === 'RETURN_OF_OURS' ? [i + 1] : []));
  if (returning.length) {
    const referenced = referencedKeys.map(describeAccessKey);
    checks.push({
      code: 'OUR_GOODS_RETURNING',
      message:
        `Lines ${returning.join(', ')} bring back goods of ours (retorno), referring to ${referenced.length ? referenced.map((r) => `NF-e ${r.series}/${r.number} of ${r.issuedIn} issued by ${r.issuerDocument}`).join('; ') : 'no document'}; ` +
        'they never left own stock, so they post nothing and nothing is owed',
      blocksConfirmation: false,
      details: { lines: returning, referencedDocuments: referenced },
    });
  }
  const rule = PURPOSES[purpose];
  if (rule.forcesClass === 'VALUE_ADJUSTMENT') {
    checks.push({
      code: 'VALUE_ONLY_DOCUMENT',
      message: `finNFe ${purpose} (${rule.name}): the document posts values only, never stock quantities${rule.payable ? '' : ', and creates no payable'}`,
      blocksConfirmation: false,
      details: { purpose, referencedDocuments: referencedKeys.map(describeAccessKey) },
    });
  }
  return checks;
}
