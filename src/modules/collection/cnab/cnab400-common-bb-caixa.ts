import { Dec } from '../../../core/decimal';
import type { RemessaTitle, RetornoOccurrence } from './cnab240';
import { alpha, CnabParseError, FileProblem, LineReader, linesOf, num, record } from './record';

/*
 * What the CNAB 400 files of Banco do Brasil (CBR641/CBR643) and Caixa (SIGCB) share: one header 0,
 * detail records, one trailer 9, 400 positions, CRLF, the record's sequence at 395–400. Kept apart
 * from Itaú's file (cnab400-itau.ts) while that one is being factored into a common CNAB 400 module;
 * these helpers fold into it.
 */

export const WIDTH = 400;

/** A remessa title as the bank reads it back (the simulator and our own check of the file). */
export interface Remessa400Title {
  line: number;
  movement: string;
  nossoNumero: string;
  nossoNumeroDv: string;
  documentNumber: string;
  companyRef: string;
  issueDate: string;
  dueDate: string;
  amount: Dec;
  discountAmount: Dec;
  interestPerDay: Dec;
  finePercent: Dec;
  payerDocument: string;
}

export interface Envelope400 {
  bankCode: string;
  agency: string;
  /** The conta of the header, or null when the bank's header names the beneficiary by code instead (Caixa). */
  account: string | null;
  /** The convênio / código do beneficiário of the header, checked against the account's. */
  beneficiaryCode: string | null;
  fileNumber: number;
  kind: string;
}

export interface Parsed400Remessa extends Envelope400 {
  titles: Remessa400Title[];
  registeredTotal: Dec;
  lotTitleCount: number;
}

export interface Parsed400Retorno extends Envelope400 {
  occurrences: RetornoOccurrence[];
}

export type Writer400Result = { content: string; recordCount: number; totalAmount: Dec };

/** The bank's code for one of ours (FEBRABAN's, used by the services), or a clear error for a movement the layout lacks. */
export function toBank(table: Record<string, string>, code: string, what: string): string {
  const mapped = table[code];
  if (!mapped) throw new Error(`${what}: code ${code} has no equivalent in this layout`);
  return mapped;
}

/**
 * A bank's retorno code read as ours. Codes we do not act on are kept as the bank's own, unless
 * that code means something else among ours (e.g. Caixa 02 is a baixa, ours an entrada): those are
 * read as "00" (no action), so a bank code never triggers another bank's meaning.
 */
export function fromBank(table: Record<string, string>, code: string): string {
  if (table[code]) return table[code];
  return ACTED_ON.has(code) ? '00' : code;
}

/** Our occurrence codes returns.service.ts acts on. */
const ACTED_ON = new Set(['02', '03', '06', '09', '14', '17', '19', '25']);

export const trailer400 = (seq: number) =>
  record(WIDTH, [
    [1, '9'],
    [2, alpha('', 393)],
    [395, num(seq, 6)],
  ]);

/** The company's reference (a hashid: its case matters), left-aligned and blank-filled, not upper-cased as alpha() would. */
export const reference = (value: string, length: number): string =>
  value
    .replace(/[^\x20-\x7e]/g, ' ')
    .slice(0, length)
    .padEnd(length, ' ');

export const joinRecords = (lines: string[]) => lines.join('\r\n') + '\r\n';

/**
 * Splits a file into header, details and trailer, checking widths, the record types (the detail
 * types the layout allows) and the sequence 1…n at 395–400. Throws at once on a width problem
 * (positions of a short line mean nothing); collects the rest.
 */
export function readRecords(content: string, detailTypes: string[], problems: FileProblem[]): { header: LineReader; details: LineReader[]; trailer: LineReader } {
  const lines = linesOf(content, WIDTH, problems);
  if (problems.length) throw new CnabParseError(problems);
  const readers = lines.map((l, i) => new LineReader(l, i + 1, problems));
  const header = readers[0];
  const trailer = readers[readers.length - 1];
  if (header.str(1, 1) !== '0') problems.push({ line: 1, field: 'record type (1)', message: 'the file must start with a header (0)' });
  if (readers.length < 2 || trailer.str(1, 1) !== '9') problems.push({ line: trailer.line, field: 'record type (1)', message: 'the file must end with a trailer (9)' });
  readers.forEach((r, i) => {
    if (r.str(395, 400) !== num(i + 1, 6)) problems.push({ line: r.line, field: 'record sequence (395-400)', message: `expected ${num(i + 1, 6)}, found "${r.str(395, 400)}"` });
  });
  const details = readers.slice(1, -1);
  for (const d of details) {
    if (!detailTypes.includes(d.str(1, 1))) problems.push({ line: d.line, field: 'record type (1)', message: `expected a detail (${detailTypes.join(' or ')}), found "${d.str(1, 1)}"` });
  }
  return { header, details, trailer };
}

/** Reason codes of a rejection: two-digit codes, "00" meaning none. */
export const reasonCodes = (s: string): string[] => (s.match(/\d{2}/g) ?? []).filter((r) => r !== '00');

/** The remessa's own sums: the value of titles sent for registration, how many. */
export function remessaTotals(titles: Pick<RemessaTitle, 'movement' | 'amount'>[]): { total: Dec; count: number } {
  let total = new Dec(0);
  let count = 0;
  for (const t of titles) {
    if (t.movement !== '01') continue;
    total = total.plus(t.amount);
    count++;
  }
  return { total, count };
}

/** The payer's inscription type (01 CPF, 02 CNPJ) and the document, digits only. */
export function payerDocument(document: string): { type: string; digits: string } {
  const digits = document.replace(/\D/g, '');
  return { type: digits.length === 14 ? '02' : '01', digits };
}
