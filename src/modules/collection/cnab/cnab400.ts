import { businessToday } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import { alpha, CnabParseError, ddmmyy, FileProblem, LineReader, linesOf, money, num, record } from './record';

/*
 * What every bank's CNAB 400 of collection shares (Itaú, Bradesco, Santander, Banco do Brasil,
 * Caixa): 400 positions, CRLF, a header (0) saying REMESSA/RETORNO and COBRANCA at 1–26, details
 * (type 1, BB's 7 and 5), a trailer (9), the record number at 395–400 counting from 1. Each bank's
 * file (cnab400-<bank>.ts) holds only its positions and how its codes map onto the FEBRABAN codes
 * returns.service.ts acts on.
 */

export const WIDTH_400 = 400;

/** Positions 1–26 of a CNAB 400 header: type 0, 1 remessa / 2 retorno, the literal, service 01 COBRANCA. */
export const header400Start = (kind: 'REMESSA' | 'RETORNO'): [number, string][] => [
  [1, '0'],
  [2, kind === 'REMESSA' ? '1' : '2'],
  [3, kind],
  [10, '01'],
  [12, alpha('COBRANCA', 15)],
];

/** The record number closing every record. */
export const sequenceField = (seq: number): [number, string] => [395, num(seq, 6)];

/** The trailer of layouts whose trailer carries nothing but its number. */
export const blankTrailer400 = (seq: number) => record(WIDTH_400, [[1, '9'], [2, alpha('', 393)], sequenceField(seq)]);

/** Records joined by CRLF, the last one ended too. */
export const file400 = (lines: string[]) => lines.join('\r\n') + '\r\n';

/** The company's reference (the boleto's hashid: its case matters), left-aligned and blank-filled, not upper-cased as alpha() would. */
export const reference = (value: string, length: number): string =>
  value
    .replace(/[^\x20-\x7e]/g, ' ')
    .slice(0, length)
    .padEnd(length, ' ');

/** CPF (01) or CNPJ (02): the inscription type of a document. */
export const inscriptionType = (document: string) => (document.replace(/\D/g, '').length === 14 ? '02' : '01');

/** A CPF of 11 digits or a CNPJ of 14 out of a 14-position field. */
export const documentOf = (field: string) => field.replace(/^000(?=\d{11}$)/, '');

export const carteiraOf = (carteira: string | undefined) => {
  if (!carteira) throw new Error('CNAB 400 needs the carteira');
  return carteira;
};

/** Where a CNAB 400 file is of (the account it names and its number). Null agência/conta: the file does not say (a retorno without details of a bank that names the account only in them). */
export interface Envelope400 {
  bankCode: string;
  agency: string | null;
  account: string | null;
  fileNumber: number;
  kind: string;
  /** The bank's code of the beneficiary when the header carries one (Bradesco's código da empresa). */
  beneficiaryCode?: string | null;
  /** Santander's código de transmissão as the header carries it (20 digits). */
  transmissionCode?: string;
}

/** What a remessa writer gives back: the file, its records, the value of the titles sent for registration. */
export type Remessa400File = { content: string; recordCount: number; totalAmount: Dec };

/** The value of the titles a remessa sends for registration (movement 01), and how many. */
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

/** A title of a remessa as read back (the bank simulator's side and the check of our own files). */
export type RemessaTitle400 = Omit<RemessaTitle, 'payer' | 'discountDate' | 'protestDays' | 'writeOffDays'> & {
  line: number;
  payerDocument: string | null;
};

export interface ParsedRemessa400 extends Envelope400 {
  titles: RemessaTitle400[];
  registeredTotal: Dec;
  lotTitleCount: number;
}

export type ParsedRetorno400 = Envelope400 & { occurrences: RetornoOccurrence[] };

/**
 * The structure every CNAB 400 file must have: widths, a header first, a trailer last, details of
 * the layout's types between (1, or BB's 7 and 5), record numbers 1…n. Throws at once on widths
 * (positions of a short line mean nothing); collects the rest.
 */
export function readFile400(
  content: string,
  problems: FileProblem[],
  detailTypes: readonly string[] = ['1'],
): { header: LineReader; details: LineReader[]; trailer: LineReader } {
  const lines = linesOf(content, WIDTH_400, problems);
  if (problems.length) throw new CnabParseError(problems);
  const readers = lines.map((l, i) => new LineReader(l, i + 1, problems));
  const header = readers[0];
  if (header.str(1, 1) !== '0') problems.push({ line: 1, field: 'record type (1)', message: 'the file must start with a header (0)' });
  const trailer = readers[readers.length - 1];
  if (readers.length < 2 || trailer.str(1, 1) !== '9')
    problems.push({ line: trailer.line, field: 'record type (1)', message: 'the file must end with a trailer (9)' });
  readers.forEach((r, i) => {
    if (Number(r.str(395, 400)) !== i + 1 || !/^\d{6}$/.test(r.str(395, 400)))
      problems.push({ line: r.line, field: 'record sequence (395-400)', message: `expected ${i + 1}, found ${r.str(395, 400)}` });
  });
  const details = readers.slice(1, -1);
  for (const d of details) {
    if (!detailTypes.includes(d.str(1, 1)))
      problems.push({
        line: d.line,
        field: 'record type (1)',
        message: `expected a detail (${detailTypes.join(' or ')}), found "${d.str(1, 1)}"`,
      });
  }
  return { header, details, trailer };
}

/** The header's kind and bank, checked against what the reader expects. */
export function checkHeader400(
  header: LineReader,
  problems: FileProblem[],
  kind: 'REMESSA' | 'RETORNO',
  bankCode: string,
  bankName: string,
): void {
  const code = kind === 'REMESSA' ? '1' : '2';
  if (header.str(2, 2) !== code) problems.push({ line: 1, field: 'remessa/retorno (2)', message: `not a ${kind.toLowerCase()} (${code})` });
  if (header.str(77, 79) !== bankCode) problems.push({ line: 1, field: 'bank code (77-79)', message: `not a ${bankName} file` });
}

/** Throws the collected problems, if any (nothing half-read leaves a reader). */
export function failOn(problems: FileProblem[]): void {
  if (problems.length) throw new CnabParseError(problems);
}

/** FEBRABAN codes returns.service.ts acts on: a bank code equal to one of these must be mapped, never passed through. */
const ACTED_ON = new Set(['02', '03', '06', '09', '14', '17', '19', '25']);
/** What an unmapped bank code that collides with an acted-on one becomes: recorded, not acted on (no FEBRABAN code is 00). */
export const OTHER_OCCURRENCE = '00';

/**
 * A bank's retorno code as the FEBRABAN code the retorno service applies: the bank's table first;
 * a code not in it passes through unless it would be mistaken for one the service acts on.
 */
export function occurrenceFromBank(table: Record<string, string>, code: string): string {
  if (table[code]) return table[code];
  return ACTED_ON.has(code) ? OTHER_OCCURRENCE : code;
}

/**
 * The inverse, for the simulator's retornos: the bank's same code when it means the same, else the
 * lowest bank code read as it (not the first key: JS lists keys like '10' before '02'). A payment
 * after write-off (17) at a bank that has no such code comes as its liquidação: the service flags a
 * liquidação of a written-off boleto alike.
 */
export function occurrenceToBank(table: Record<string, string>, code: string): string {
  if (table[code] === code) return code;
  const found = Object.keys(table)
    .sort()
    .find((bank) => table[bank] === code);
  if (found) return found;
  if (code === '17') return occurrenceToBank(table, '06');
  if (ACTED_ON.has(code)) throw new Error(`the layout has no code for occurrence ${code}`);
  return code;
}

/** A remessa's movement (FEBRABAN) as the bank's occurrence code, and back. */
export function movementToBank(table: Record<string, string>, movement: string): string {
  const code = table[movement];
  if (!code) throw new Error(`the layout cannot carry movement ${movement}`);
  return code;
}
export function movementFromBank(table: Record<string, string>, code: string): string {
  return Object.entries(table).find(([, bank]) => bank === code)?.[0] ?? code;
}

/**
 * The retorno trailer of Bradesco, Santander and BB: 9, 2 (retorno), 01 (cobrança), the bank, the
 * count and value of the titles (cobrança simples, 18–25 / 26–39) and the aviso bancário (40–47).
 */
export function retornoTrailer400(
  bankCode: string,
  occurrences: Pick<RetornoOccurrence, 'titleAmount'>[],
  aviso: number,
  seq: number,
): string {
  const total = occurrences.reduce((sum, o) => sum.plus(o.titleAmount), new Dec(0));
  return record(WIDTH_400, [
    [1, '9'],
    [2, '2'],
    [3, '01'],
    [5, bankCode],
    [8, alpha('', 10)],
    [18, num(occurrences.length, 8)],
    [26, money(total, 14)],
    [40, num(aviso, 8)],
    [48, alpha('', 347)],
    sequenceField(seq),
  ]);
}

/** Reasons given as fixed-width codes (2 or 3 digits), zeros meaning none. */
export const reasonsOf = (field: string, width: number) =>
  (field.match(new RegExp(`\\S{${width}}`, 'g')) ?? []).filter((r) => !/^0+$/.test(r));

/** A detail of a retorno names one account: all of them must name the same. */
export function sameAccount(
  details: LineReader[],
  read: (d: LineReader) => { agency: string; account: string },
  problems: FileProblem[],
  field: string,
): { agency: string | null; account: string | null } {
  if (!details.length) return { agency: null, account: null };
  const first = read(details[0]);
  for (const d of details.slice(1)) {
    const other = read(d);
    if (Number(other.agency) !== Number(first.agency) || Number(other.account) !== Number(first.account))
      problems.push({
        line: d.line,
        field,
        message: `agência/conta ${other.agency}/${other.account}, the file's first title is of ${first.agency}/${first.account}`,
      });
  }
  return first;
}

/** The writers and readers of one bank's CNAB 400, and the remessa movements (FEBRABAN) it can carry. */
export interface Cnab400Layout {
  writeRemessa: (a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]) => Remessa400File;
  parseRemessa: (content: string) => ParsedRemessa400;
  writeRetorno: (a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]) => string;
  parseRetorno: (content: string) => ParsedRetorno400;
  movements: readonly string[];
}

/** Positions 47–100 of every bank's header: the company's name, the bank's code and name, the file's date. */
export const headerBank400 = (a: CnabAccount, bankCode: string, bankName: string, at: Date): [number, string][] => [
  [47, alpha(a.companyName, 30)],
  [77, bankCode],
  [80, alpha(bankName, 15)],
  [95, ddmmyy(businessToday(at))],
];

/** A CPF/CNPJ (digits) and its inscription type (01 CPF, 02 CNPJ) before it (positions 2–17 or 219–234 of a detail). */
export const inscription400 = (at: number, digits: string): [number, string][] => [
  [at, inscriptionType(digits)],
  [at + 2, num(digits, 14)],
];

/** Positions 109–139 of a remessa detail: the bank's occurrence code, the document number, the due date, the value. */
export const titleHead400 = (t: RemessaTitle, code: string): [number, string][] => [
  [109, code],
  [111, alpha(t.documentNumber, 10)],
  [121, ddmmyy(t.dueDate)],
  [127, money(t.amount, 13)],
];

/**
 * Positions 148–234 of a remessa detail: espécie 01 (duplicata mercantil), aceite N, the issue
 * date, the bank's two instructions, the interest per day, the discount, no IOF or abatimento,
 * the payer's CPF/CNPJ.
 */
export const titleTerms400 = (t: RemessaTitle, instructions: [string, string]): [number, string][] => [
  [148, '01'],
  [150, 'N'],
  [151, ddmmyy(t.issueDate)],
  [157, instructions[0]],
  [159, instructions[1]],
  [161, money(t.interestPerDay, 13)],
  [174, ddmmyy(t.discountAmount.gt(0) ? t.discountDate : null)],
  [180, money(t.discountAmount, 13)],
  [193, num(0, 13)],
  [206, num(0, 13)],
  ...inscription400(219, t.payer.document.replace(/\D/g, '')),
];

/** Positions 235–351 of a remessa detail as most banks have them: the payer's name (its bank's length, blank to 40), street, district, CEP, city, UF. */
export const payerAddress400 = (p: RemessaTitle['payer'], nameLength: number): [number, string][] => [
  [235, alpha(p.name, nameLength)],
  ...(nameLength < 40 ? [[235 + nameLength, alpha('', 40 - nameLength)] as [number, string]] : []),
  [275, alpha(p.street, 40)],
  [315, alpha(p.district, 12)],
  [327, num(p.postalCode.replace(/\D/g, '').padEnd(8, '0'), 8)],
  [335, alpha(p.city, 15)],
  [350, alpha(p.uf, 2)],
];

/** Positions 109–126 of a retorno detail: the bank's occurrence code, its date, the document number. */
export const occurrenceHead400 = (o: Omit<RetornoOccurrence, 'line'>, table: Record<string, string>): [number, string][] => [
  [109, occurrenceToBank(table, o.code)],
  [111, ddmmyy(o.occurrenceDate)],
  [117, alpha(o.documentNumber, 10)],
];

/** Positions 147–168 of a retorno detail: the due date, the title's value, the bank. */
export const occurrenceTitle400 = (o: Omit<RetornoOccurrence, 'line'>, bankCode: string): [number, string][] => [
  [147, ddmmyy(o.dueDate)],
  [153, money(o.titleAmount, 13)],
  [166, bankCode],
];

/** Positions 228–292 of a retorno detail: abatimento, desconto, valor pago, juros (with the fine: the service splits them), a zero after. */
export const occurrenceAmounts400 = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => [
  [228, money(o.rebate, 13)],
  [241, money(o.discount, 13)],
  [254, money(o.paidAmount, 13)],
  [267, money(o.charges, 13)],
  [280, num(0, 13)],
];

/** The payer's CPF/CNPJ (221–234) every bank requires of a title. */
export function payerRequired(d: LineReader, problems: FileProblem[]): void {
  if (/^0+$/.test(d.str(221, 234)))
    problems.push({ line: d.line, field: 'payer document (221-234)', message: 'the payer’s CPF/CNPJ is required' });
}

/** A remessa as read: its titles once no problem was found, the value and count sent for registration. */
export function parsedRemessa400(envelope: Envelope400, titles: RemessaTitle400[], problems: FileProblem[]): ParsedRemessa400 {
  failOn(problems);
  const totals = remessaTotals(titles);
  return { ...envelope, titles, registeredTotal: totals.total, lotTitleCount: totals.count };
}

/** A retorno as read: its occurrences once no problem was found. */
export function parsedRetorno400(envelope: Envelope400, occurrences: RetornoOccurrence[], problems: FileProblem[]): ParsedRetorno400 {
  failOn(problems);
  return { ...envelope, occurrences };
}

/** A bank's layout: its writers and readers, and the movements its remessa table carries. */
export const layout400 = (
  remessaTable: Record<string, string>,
  writeRemessa: Cnab400Layout['writeRemessa'],
  parseRemessa: Cnab400Layout['parseRemessa'],
  writeRetorno: Cnab400Layout['writeRetorno'],
  parseRetorno: Cnab400Layout['parseRetorno'],
): Cnab400Layout => ({ writeRemessa, parseRemessa, writeRetorno, parseRetorno, movements: Object.keys(remessaTable) });

/**
 * A CNAB 400 file's records: the header, each item's records (a title's detail, BB's record 5
 * after it), the trailer; the record number laid at 395–400 of each.
 */
export function records400<T>(
  header: [number, string][],
  items: readonly T[],
  detail: (item: T) => [number, string][][],
  trailer: (seq: number) => string,
): string[] {
  const lines = [record(WIDTH_400, [...header, sequenceField(1)])];
  for (const item of items) for (const fields of detail(item)) lines.push(record(WIDTH_400, [...fields, sequenceField(lines.length + 1)]));
  lines.push(trailer(lines.length + 1));
  return lines;
}

/** A remessa's records as the file, its record count and the value sent for registration. */
export const remessa400 = (lines: string[], titles: RemessaTitle[]): Remessa400File => ({
  content: file400(lines),
  recordCount: lines.length,
  totalAmount: remessaTotals(titles).total,
});
