import { businessToday } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import { BANKS, BankCode } from '../banks/banks';
import { alpha, CnabParseError, ddmmyyyy, FileProblem, LineReader, linesOf, money, num, record } from './record';

/*
 * CNAB 240 of collection (FEBRABAN "Layout Padrão de Arquivos CNAB 240", v10.7, Cobrança):
 * file header (0), one lot (1), per title segments P (title), Q (payer) and R (fine) in a remessa,
 * T (title) and U (amounts) in a retorno, lot trailer (5), file trailer (9). Records are 240
 * positions, CRLF. The nosso número takes positions 38–57 of P and T: the bank's number and its
 * check digit, left-aligned. Bank-specific uses of the reserved areas are not filled.
 */

export const WIDTH_240 = 240;

export interface CnabAccount {
  bankCode: BankCode;
  agency: string;
  agencyDigit: string | null;
  account: string;
  accountDigit: string;
  beneficiaryCode: string | null;
  /** Banco do Brasil's variação da carteira (its CNAB 400, 92–94). */
  carteiraVariation?: string | null;
  /** Santander's código de transmissão when the bank assigned one (its CNAB 400; otherwise derived). */
  transmissionCode?: string | null;
  companyName: string;
  /** The beneficiary's CNPJ (14 digits). */
  companyDocument: string;
  /** The carteira (CNAB 400 carries it in each detail). */
  carteira?: string;
}

/** FEBRABAN movement codes of a remessa (segment P 16–17). */
export const REMESSA_MOVEMENT = { REGISTER: '01', WRITE_OFF: '02', CHANGE_DUE_DATE: '06', PROTEST: '09', CHANGE_AMOUNT: '47' } as const;

export interface RemessaTitle {
  movement: string;
  nossoNumero: string;
  nossoNumeroDv: string;
  documentNumber: string;
  /** Who the title is to the company (uso da empresa, 25): echoed back in the retorno. */
  companyRef: string;
  issueDate: string;
  dueDate: string;
  amount: Dec;
  interestPerDay: Dec;
  discountAmount: Dec;
  discountDate: string | null;
  finePercent: Dec;
  protestDays: number | null;
  writeOffDays: number | null;
  payer: { document: string; name: string; street: string; district: string; postalCode: string; city: string; uf: string };
}

export interface RetornoOccurrence {
  line: number;
  code: string;
  nossoNumero: string;
  nossoNumeroDv: string;
  documentNumber: string;
  companyRef: string;
  dueDate: string | null;
  titleAmount: Dec;
  bankFee: Dec;
  reasons: string[];
  charges: Dec;
  discount: Dec;
  rebate: Dec;
  paidAmount: Dec;
  creditedAmount: Dec;
  occurrenceDate: string | null;
  creditDate: string | null;
}

const hasNnDv = (bankCode: BankCode) => bankCode !== '001';
const nnField = (bankCode: BankCode, number: string, dv: string) => alpha(number + (hasNnDv(bankCode) ? dv : ''), 20);
const splitNn = (bankCode: BankCode, field: string) => {
  const s = field.trim();
  return hasNnDv(bankCode) ? { number: s.slice(0, -1), dv: s.slice(-1) } : { number: s, dv: '' };
};

const accountFields = (a: CnabAccount, at: number): [number, string][] => [
  [at, num(a.agency, 5)],
  [at + 5, alpha(a.agencyDigit ?? '', 1)],
  [at + 6, num(a.account, 12)],
  [at + 18, alpha(a.accountDigit, 1)],
  [at + 19, ' '],
];

function fileHeader(a: CnabAccount, kind: '1' | '2', fileNumber: number, at: Date): string {
  const iso = at.toISOString();
  return record(WIDTH_240, [
    [1, num(a.bankCode, 3)],
    [4, '0000'],
    [8, '0'],
    [9, alpha('', 9)],
    [18, '2'],
    [19, num(a.companyDocument, 14)],
    [33, alpha(a.beneficiaryCode ?? '', 20)],
    ...accountFields(a, 53),
    [73, alpha(a.companyName, 30)],
    [103, alpha(BANKS[a.bankCode].name, 30)],
    [133, alpha('', 10)],
    [143, kind],
    [144, ddmmyyyy(iso.slice(0, 10))],
    [152, iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19)],
    [158, num(fileNumber, 6)],
    [164, '107'],
    [167, '00000'],
    [172, alpha('', 20)],
    [192, alpha('', 20)],
    [212, alpha('', 29)],
  ]);
}

function lotHeader(a: CnabAccount, op: 'R' | 'T', fileNumber: number, at: Date): string {
  return record(WIDTH_240, [
    [1, num(a.bankCode, 3)],
    [4, '0001'],
    [8, '1'],
    [9, op],
    [10, '01'],
    [12, '  '],
    [14, '060'],
    [17, ' '],
    [18, '2'],
    [19, num(a.companyDocument, 15)],
    [34, alpha(a.beneficiaryCode ?? '', 20)],
    ...accountFields(a, 54),
    [74, alpha(a.companyName, 30)],
    [104, alpha('', 40)],
    [144, alpha('', 40)],
    [184, num(fileNumber, 8)],
    [192, ddmmyyyy(businessToday(at))],
    [200, '00000000'],
    [208, alpha('', 33)],
  ]);
}

const segmentStart = (a: CnabAccount, seq: number, segment: string, movement: string): [number, string][] => [
  [1, num(a.bankCode, 3)],
  [4, '0001'],
  [8, '3'],
  [9, num(seq, 5)],
  [14, segment],
  [15, ' '],
  [16, num(movement, 2)],
];

function lotTrailer(a: CnabAccount, records: number, titles: number, total: Dec): string {
  return record(WIDTH_240, [
    [1, num(a.bankCode, 3)],
    [4, '0001'],
    [8, '5'],
    [9, alpha('', 9)],
    [18, num(records, 6)],
    [24, num(titles, 6)],
    [30, money(total, 17)],
    [47, num(0, 6)],
    [53, num(0, 17)],
    [70, num(0, 6)],
    [76, num(0, 17)],
    [93, num(0, 6)],
    [99, num(0, 17)],
    [116, alpha('', 8)],
    [124, alpha('', 117)],
  ]);
}

function fileTrailer(a: CnabAccount, records: number): string {
  return record(WIDTH_240, [
    [1, num(a.bankCode, 3)],
    [4, '9999'],
    [8, '9'],
    [9, alpha('', 9)],
    [18, num(1, 6)],
    [24, num(records, 6)],
    [30, num(0, 6)],
    [36, alpha('', 205)],
  ]);
}

/** A remessa: P + Q (+ R with fine) per entry, P for every other instruction. */
export function writeRemessa240(
  a: CnabAccount,
  fileNumber: number,
  at: Date,
  titles: RemessaTitle[],
): { content: string; recordCount: number; totalAmount: Dec } {
  const lines = [fileHeader(a, '1', fileNumber, at), lotHeader(a, 'R', fileNumber, at)];
  let seq = 0;
  let total = new Dec(0);
  for (const t of titles) {
    const entry = t.movement === REMESSA_MOVEMENT.REGISTER;
    if (entry) total = total.plus(t.amount);
    lines.push(
      record(WIDTH_240, [
        ...segmentStart(a, ++seq, 'P', t.movement),
        ...accountFields(a, 18),
        [38, nnField(a.bankCode, t.nossoNumero, t.nossoNumeroDv)],
        [58, '1'],
        [59, '1'],
        [60, '1'],
        [61, '2'],
        [62, '2'],
        [63, alpha(t.documentNumber, 15)],
        [78, ddmmyyyy(t.dueDate)],
        [86, money(t.amount, 15)],
        [101, '00000'],
        [106, '0'],
        [107, '02'],
        [109, 'N'],
        [110, ddmmyyyy(t.issueDate)],
        [118, t.interestPerDay.gt(0) ? '1' : '3'],
        [119, t.interestPerDay.gt(0) ? ddmmyyyy(t.dueDate) : '00000000'],
        [127, money(t.interestPerDay, 15)],
        [142, t.discountAmount.gt(0) ? '1' : '0'],
        [143, ddmmyyyy(t.discountAmount.gt(0) ? t.discountDate : null)],
        [151, money(t.discountAmount, 15)],
        [166, num(0, 15)],
        [181, num(0, 15)],
        [196, alpha(t.companyRef, 25)],
        [221, t.protestDays ? '1' : '3'],
        [222, num(t.protestDays ?? 0, 2)],
        [224, t.writeOffDays ? '1' : '2'],
        [225, num(t.writeOffDays ?? 0, 3)],
        [228, '09'],
        [230, num(0, 10)],
        [240, ' '],
      ]),
    );
    if (!entry) continue;
    const doc = t.payer.document.replace(/\D/g, '');
    lines.push(
      record(WIDTH_240, [
        ...segmentStart(a, ++seq, 'Q', t.movement),
        [18, doc.length === 14 ? '2' : '1'],
        [19, num(doc, 15)],
        [34, alpha(t.payer.name, 40)],
        [74, alpha(t.payer.street, 40)],
        [114, alpha(t.payer.district, 15)],
        [129, num(t.payer.postalCode.replace(/\D/g, '').padEnd(8, '0').slice(0, 5), 5)],
        [134, num(t.payer.postalCode.replace(/\D/g, '').padEnd(8, '0').slice(5, 8), 3)],
        [137, alpha(t.payer.city, 15)],
        [152, alpha(t.payer.uf, 2)],
        [154, '0'],
        [155, num(0, 15)],
        [170, alpha('', 40)],
        [210, '000'],
        [213, alpha('', 20)],
        [233, alpha('', 8)],
      ]),
    );
    if (t.finePercent.gt(0)) {
      lines.push(
        record(WIDTH_240, [
          ...segmentStart(a, ++seq, 'R', t.movement),
          [18, '0'],
          [19, '00000000'],
          [27, num(0, 15)],
          [42, '0'],
          [43, '00000000'],
          [51, num(0, 15)],
          [66, '2'],
          [67, ddmmyyyy(t.dueDate)],
          [75, money(t.finePercent, 15)],
          [90, alpha('', 10)],
          [100, alpha('', 40)],
          [140, alpha('', 40)],
          [180, alpha('', 20)],
          [200, num(0, 8)],
          [208, '000'],
          [211, '00000'],
          [216, ' '],
          [217, num(0, 12)],
          [229, ' '],
          [230, ' '],
          [231, '0'],
          [232, alpha('', 9)],
        ]),
      );
    }
  }
  lines.push(lotTrailer(a, seq + 2, titles.filter((t) => t.movement === REMESSA_MOVEMENT.REGISTER).length, total));
  lines.push(fileTrailer(a, lines.length + 1));
  return { content: lines.join('\r\n') + '\r\n', recordCount: lines.length, totalAmount: total };
}

/** A retorno as a bank writes it: T + U per occurrence (the bank simulator's side). */
export function writeRetorno240(a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]): string {
  const lines = [fileHeader(a, '2', fileNumber, at), lotHeader(a, 'T', fileNumber, at)];
  let seq = 0;
  for (const o of occurrences) {
    lines.push(
      record(WIDTH_240, [
        ...segmentStart(a, ++seq, 'T', o.code),
        ...accountFields(a, 18),
        [38, nnField(a.bankCode, o.nossoNumero, o.nossoNumeroDv)],
        [58, '1'],
        [59, alpha(o.documentNumber, 15)],
        [74, ddmmyyyy(o.dueDate)],
        [82, money(o.titleAmount, 15)],
        [97, num(a.bankCode, 3)],
        [100, num(a.agency, 5)],
        [105, '0'],
        [106, alpha(o.companyRef, 25)],
        [131, '09'],
        [133, '0'],
        [134, num(0, 15)],
        [149, alpha('', 40)],
        [189, num(0, 10)],
        [199, money(o.bankFee, 15)],
        [214, alpha(o.reasons.join(''), 10)],
        [224, alpha('', 17)],
      ]),
    );
    lines.push(
      record(WIDTH_240, [
        ...segmentStart(a, ++seq, 'U', o.code),
        [18, money(o.charges, 15)],
        [33, money(o.discount, 15)],
        [48, money(o.rebate, 15)],
        [63, num(0, 15)],
        [78, money(o.paidAmount, 15)],
        [93, money(o.creditedAmount, 15)],
        [108, num(0, 15)],
        [123, num(0, 15)],
        [138, ddmmyyyy(o.occurrenceDate)],
        [146, ddmmyyyy(o.creditDate)],
        [154, alpha('', 4)],
        [158, num(0, 8)],
        [166, num(0, 15)],
        [181, alpha('', 30)],
        [211, '000'],
        [214, alpha('', 20)],
        [234, alpha('', 7)],
      ]),
    );
  }
  lines.push(lotTrailer(a, seq + 2, occurrences.length, new Dec(0)));
  lines.push(fileTrailer(a, lines.length + 1));
  return lines.join('\r\n') + '\r\n';
}

interface Envelope {
  bankCode: string;
  agency: string;
  account: string;
  fileNumber: number;
  kind: string;
}

/** The structure every CNAB 240 file must have: widths, record types in order, sequences, trailer counts. */
function readEnvelope(content: string, problems: FileProblem[]): { lines: string[]; envelope: Envelope; details: LineReader[] } {
  const lines = linesOf(content, WIDTH_240, problems);
  if (problems.length) throw new CnabParseError(problems);
  const readers = lines.map((l, i) => new LineReader(l, i + 1, problems));
  const type = (r: LineReader) => r.str(8, 8);
  const h = readers[0];
  if (type(h) !== '0') problems.push({ line: 1, field: 'record type (8)', message: 'the file must start with a file header (0)' });
  const envelope: Envelope = {
    bankCode: h.digits(1, 3, 'bank code'),
    agency: h.digits(53, 57, 'agência'),
    account: h.digits(59, 70, 'conta'),
    fileNumber: Number(h.digits(158, 163, 'file number')),
    kind: h.str(143, 143),
  };
  const last = readers[readers.length - 1];
  if (type(last) !== '9')
    problems.push({ line: last.line, field: 'record type (8)', message: 'the file must end with a file trailer (9)' });
  else if (Number(last.digits(24, 29, 'record count')) !== lines.length)
    problems.push({
      line: last.line,
      field: 'record count (24-29)',
      message: `says ${last.str(24, 29)}, the file has ${lines.length} records`,
    });
  if (readers.length < 4 || type(readers[1]) !== '1')
    problems.push({ line: 2, field: 'record type (8)', message: 'a lot header (1) must follow the file header' });
  const trailer = readers[readers.length - 2];
  const details = readers.slice(2, -2);
  if (trailer && type(trailer) !== '5')
    problems.push({ line: trailer.line, field: 'record type (8)', message: 'a lot trailer (5) must close the lot' });
  else if (trailer && Number(trailer.digits(18, 23, 'lot record count')) !== details.length + 2)
    problems.push({
      line: trailer.line,
      field: 'lot record count (18-23)',
      message: `says ${trailer.str(18, 23)}, the lot has ${details.length + 2} records`,
    });
  details.forEach((d, i) => {
    if (type(d) !== '3') problems.push({ line: d.line, field: 'record type (8)', message: 'expected a detail (3) inside the lot' });
    if (d.str(1, 3) !== envelope.bankCode)
      problems.push({ line: d.line, field: 'bank code (1-3)', message: `expected ${envelope.bankCode}` });
    if (Number(d.str(9, 13)) !== i + 1)
      problems.push({ line: d.line, field: 'record sequence (9-13)', message: `expected ${i + 1}, found ${d.str(9, 13)}` });
  });
  return { lines, envelope, details };
}

/** Reads a retorno, or throws CnabParseError naming each line and field that is wrong (nothing half-read). */
export function parseRetorno240(content: string): Envelope & { occurrences: RetornoOccurrence[] } {
  const problems: FileProblem[] = [];
  const { envelope, details } = readEnvelope(content, problems);
  if (envelope.kind !== '2') problems.push({ line: 1, field: 'remessa/retorno code (143)', message: 'not a retorno (2)' });
  const bankCode = envelope.bankCode as BankCode;
  if (!BANKS[bankCode]) problems.push({ line: 1, field: 'bank code (1-3)', message: `bank ${envelope.bankCode} is not supported` });
  const occurrences: RetornoOccurrence[] = [];
  for (let i = 0; i < details.length; i++) {
    const t = details[i];
    const u = details[i + 1];
    if (t.str(14, 14) !== 'T') {
      problems.push({ line: t.line, field: 'segment (14)', message: `expected segment T, found "${t.str(14, 14)}"` });
      continue;
    }
    if (!u || u.str(14, 14) !== 'U') {
      problems.push({ line: t.line + 1, field: 'segment (14)', message: 'a segment U must follow each segment T' });
      continue;
    }
    i++;
    const nn = BANKS[bankCode] ? splitNn(bankCode, t.str(38, 57)) : { number: '', dv: '' };
    if (!/^\d+$/.test(nn.number))
      problems.push({ line: t.line, field: 'nosso número (38-57)', message: `not a nosso número: "${t.str(38, 57).trim()}"` });
    occurrences.push({
      line: t.line,
      code: t.digits(16, 17, 'movement code'),
      nossoNumero: nn.number,
      nossoNumeroDv: nn.dv,
      documentNumber: t.str(59, 73).trim(),
      companyRef: t.str(106, 130).trim(),
      dueDate: t.date(74, 81, 'due date', true),
      titleAmount: t.money(82, 96, 'title amount'),
      bankFee: t.money(199, 213, 'bank fee'),
      reasons: (t.str(214, 223).match(/\S{2}/g) ?? []).filter((r) => r !== '00'),
      charges: u.money(18, 32, 'interest/fine'),
      discount: u.money(33, 47, 'discount'),
      rebate: u.money(48, 62, 'rebate'),
      paidAmount: u.money(78, 92, 'paid amount'),
      creditedAmount: u.money(93, 107, 'credited amount'),
      occurrenceDate: u.date(138, 145, 'occurrence date', true),
      creditDate: u.date(146, 153, 'credit date', true),
    });
  }
  if (problems.length) throw new CnabParseError(problems);
  return { ...envelope, occurrences };
}

/** Reads a remessa back (the bank simulator's side, and the record-by-record check of ours). */
export function parseRemessa240(content: string): Envelope & {
  titles: (Omit<RemessaTitle, 'payer' | 'discountDate' | 'protestDays' | 'writeOffDays'> & {
    line: number;
    payerDocument: string | null;
  })[];
  registeredTotal: Dec;
  lotTitleCount: number;
} {
  const problems: FileProblem[] = [];
  const { envelope, details, lines } = readEnvelope(content, problems);
  if (envelope.kind !== '1') problems.push({ line: 1, field: 'remessa/retorno code (143)', message: 'not a remessa (1)' });
  const bankCode = envelope.bankCode as BankCode;
  const titles: ReturnType<typeof parseRemessa240>['titles'] = [];
  let total = new Dec(0);
  for (const d of details) {
    const segment = d.str(14, 14);
    const current = titles[titles.length - 1];
    if (segment === 'Q' && current) {
      current.payerDocument = d.digits(19, 33, 'payer document').replace(/^0+(?=\d{11}$)|^0(?=\d{14}$)/, '');
      if (!/^\d+$/.test(d.str(19, 33)) || /^0+$/.test(d.str(19, 33)))
        problems.push({ line: d.line, field: 'payer document (19-33)', message: 'the payer’s CPF/CNPJ is required' });
      continue;
    }
    if (segment === 'R' && current) {
      current.finePercent = d.money(75, 89, 'fine');
      continue;
    }
    if (segment !== 'P') {
      problems.push({ line: d.line, field: 'segment (14)', message: `unexpected segment "${segment}"` });
      continue;
    }
    const nn = splitNn(bankCode, d.str(38, 57));
    const movement = d.digits(16, 17, 'movement code');
    const amount = d.money(86, 100, 'amount');
    if (movement === REMESSA_MOVEMENT.REGISTER) total = total.plus(amount);
    titles.push({
      line: d.line,
      movement,
      nossoNumero: nn.number,
      nossoNumeroDv: nn.dv,
      documentNumber: d.str(63, 77).trim(),
      companyRef: d.str(196, 220).trim(),
      issueDate: d.date(110, 117, 'issue date') ?? '',
      dueDate: d.date(78, 85, 'due date') ?? '',
      amount,
      discountAmount: d.money(151, 165, 'discount'),
      interestPerDay: d.money(127, 141, 'interest per day'),
      finePercent: new Dec(0),
      payerDocument: null,
    });
  }
  const trailer = new LineReader(lines[lines.length - 2], lines.length - 1, problems);
  const lotTitleCount = Number(trailer.digits(24, 29, 'title count'));
  const lotTotal = trailer.money(30, 46, 'total amount');
  if (!lotTotal.eq(total))
    problems.push({
      line: trailer.line,
      field: 'total amount (30-46)',
      message: `says ${lotTotal.toFixed(2)}, the entries add up to ${total.toFixed(2)}`,
    });
  const entries = titles.filter((t) => t.movement === REMESSA_MOVEMENT.REGISTER).length;
  if (lotTitleCount !== entries)
    problems.push({ line: trailer.line, field: 'title count (24-29)', message: `says ${lotTitleCount}, the lot registers ${entries}` });
  if (problems.length) throw new CnabParseError(problems);
  return { ...envelope, titles, registeredTotal: total, lotTitleCount };
}
