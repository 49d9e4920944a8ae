import { addCalendarDays } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import * as c from './cnab400';
import { alpha, ddmmyy, FileProblem, LineReader, money, num, record } from './record';

/*
 * CNAB 400 of Santander (manual "Layout de Cobrança – CNAB 400 posições", remessa and retorno).
 * Header and details name the beneficiary by the código de transmissão (20) the bank assigns: the
 * account's when it keeps one, otherwise derived as laravel-boleto does — agência (4), código do
 * beneficiário (8) and conta (8: the conta without its last digit, which goes with the conta's DV
 * in the complemento at 384–385, as the manual's "conta cobrança"). The nosso número has 7 digits
 * and its DV (63–70), so a CNAB 400 account numbers titles up to 9,999,999 (banks.ts); the
 * boleto's 12-digit NN is that number zero-filled and keeps the same módulo 11 DV. The remessa
 * carries the multa (78–82, from the day after the due date at 102–107); its trailer counts the
 * details and sums their values. The header has no file number: its "número da versão da remessa"
 * (392–394, optional, controlled by the bank) takes the file number modulo 1000.
 */

const BANK = '033';

/** FEBRABAN movement → Santander's código de ocorrência of the remessa; Santander's CNAB 400 has no change of value. */
const REMESSA: Record<string, string> = { '01': '01', '02': '02', '06': '06', '09': '09' };

/**
 * Santander's retorno codes as the FEBRABAN ones returns.service.ts applies: 07 (liquidação por
 * conta), 08 (por saldo) and 17 (liquidado em cartório) are liquidações, 10 (baixado conforme
 * instrução) a baixa, 25 (protestar título: instruction taken) the protest; the rest is recorded
 * only (01 título não existe, 15 enviado para cartório, 16 já baixado/liquidado, …). Santander has
 * no "liquidação após baixa": a payment of a written-off title comes as 06 and the service flags it.
 */
const RETORNO: Record<string, string> = {
  '02': '02',
  '03': '03',
  '06': '06',
  '09': '09',
  '14': '14',
  '07': '06',
  '08': '06',
  '17': '06',
  '10': '09',
  '25': '19',
};

/** Santander's código da carteira (108) of our carteiras: 5 rápida com registro, 4 sem registro, 1 eletrônica com registro, 6 caucionada rápida. */
const CARTEIRA_CODE: Record<string, string> = { '101': '5', '102': '4', '104': '1', '201': '6' };

const beneficiaryCode = (a: CnabAccount) => {
  if (!a.beneficiaryCode) throw new Error('Santander CNAB 400 needs the código do beneficiário');
  return a.beneficiaryCode;
};

/**
 * Código de transmissão: the one the bank assigned when the account has it; otherwise agência (4),
 * código do beneficiário (8), conta without its last digit (8), as laravel-boleto derives it.
 */
const transmissionCode = (a: CnabAccount) =>
  a.transmissionCode || num(a.agency, 4) + num(beneficiaryCode(a), 8) + num(a.account.slice(0, -1), 8);
/** The conta's last digit and its DV (384–385). */
const accountComplement = (a: CnabAccount) => a.account.slice(-1) + alpha(a.accountDigit, 1);

/** The 7 digits of a 12-digit nosso número that CNAB 400 carries (the rest must be zeros). */
function shortNn(nossoNumero: string): string {
  const digits = nossoNumero.replace(/^0+(?=\d{7}$)/, '').padStart(7, '0');
  if (digits.length !== 7) throw new Error(`nosso número ${nossoNumero} does not fit Santander's CNAB 400 (7 digits)`);
  return digits;
}

const header = (a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): [number, string][] => [
  ...c.header400Start(kind),
  [27, transmissionCode(a)],
  ...c.headerBank400(a, BANK, 'SANTANDER', at),
  [101, num(0, 16)],
  [117, alpha('', 275)],
  [392, num(fileNumber % 1000, 3)],
];

/** Positions 1–37 of a detail, remessa and retorno alike: type 1, the company's CNPJ, the código de transmissão. */
const company = (a: CnabAccount): [number, string][] => [[1, '1'], ...c.inscription400(2, a.companyDocument), [18, transmissionCode(a)]];

export function writeRemessa400Santander(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): c.Remessa400File {
  const head = header(a, 'REMESSA', fileNumber, at);
  const carteira = CARTEIRA_CODE[c.carteiraOf(a.carteira)];
  if (!carteira) throw new Error(`Santander carteira ${a.carteira} has no CNAB 400 code`);
  const detail = (t: RemessaTitle): [number, string][] => {
    const fine = t.finePercent.gt(0);
    return [
      ...company(a),
      [38, c.reference(t.companyRef, 25)],
      [63, shortNn(t.nossoNumero) + alpha(t.nossoNumeroDv, 1)],
      [71, '000000'],
      [77, ' '],
      // 4: multa as a percent, charged from the date at 102–107.
      [78, fine ? '4' : '0'],
      [79, money(t.finePercent, 4)],
      [83, '00'],
      [85, num(0, 13)],
      [98, alpha('', 4)],
      [102, ddmmyy(fine ? addCalendarDays(t.dueDate, 1) : null)],
      [108, carteira],
      ...c.titleHead400(t, c.movementToBank(REMESSA, t.movement)),
      [140, BANK],
      [143, '00000'],
      // 06 protestar (days at 392–393).
      ...c.titleTerms400(t, [t.protestDays ? '06' : '00', '00']),
      ...c.payerAddress400(t.payer, 40),
      [352, alpha('', 30)],
      [382, ' '],
      [383, 'I'],
      [384, accountComplement(a)],
      [386, alpha('', 6)],
      [392, num(t.protestDays ?? 0, 2)],
      [394, ' '],
    ];
  };
  // The trailer counts the details and sums the values of all of them.
  const all = titles.reduce((sum, t) => sum.plus(t.amount), new Dec(0));
  const trailer = (seq: number) =>
    record(c.WIDTH_400, [[1, '9'], [2, num(titles.length, 6)], [8, money(all, 13)], [21, num(0, 374)], c.sequenceField(seq)]);
  return c.remessa400(
    c.records400(head, titles, (t) => [detail(t)], trailer),
    titles,
  );
}

export function writeRetorno400Santander(
  a: CnabAccount,
  fileNumber: number,
  at: Date,
  occurrences: Omit<RetornoOccurrence, 'line'>[],
): string {
  const detail = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => {
    const nn = shortNn(o.nossoNumero) + alpha(o.nossoNumeroDv, 1);
    return [
      ...company(a),
      [38, c.reference(o.companyRef, 25)],
      [63, nn],
      [71, alpha('', 37)],
      [108, CARTEIRA_CODE[c.carteiraOf(a.carteira)] ?? '5'],
      // No "liquidação após baixa" at Santander: occurrenceToBank writes such a payment as its 06 (of a written-off title).
      ...c.occurrenceHead400(o, RETORNO),
      [127, nn],
      [135, '00'],
      [
        137,
        num(
          o.reasons
            .map((r) => num(r, 3))
            .join('')
            .padEnd(9, '0')
            .slice(0, 9),
          9,
        ),
      ],
      [146, ' '],
      ...c.occurrenceTitle400(o, BANK),
      [169, num(a.agency, 5)],
      [174, '01'],
      [176, money(o.bankFee, 13)],
      [189, num(0, 13)],
      [202, num(0, 13)],
      [215, num(0, 13)],
      // The simulator knows juros + multa as one charge: all of it as juros, multa zero.
      ...c.occurrenceAmounts400(o),
      [293, alpha('', 3)],
      [296, ddmmyy(o.creditDate)],
      [302, alpha('', 36)],
      [338, alpha('', 46)],
      [384, accountComplement(a)],
      [386, alpha('', 6)],
      [392, num(fileNumber % 1000, 3)],
    ];
  };
  return c.file400(
    c.records400(
      header(a, 'RETORNO', fileNumber, at),
      occurrences,
      (o) => [detail(o)],
      (seq) => c.retornoTrailer400(BANK, occurrences, 0, seq),
    ),
  );
}

/** The code de transmissão's parts; the conta is rebuilt from its first digits and the complemento's first digit. */
function accountOf(transmission: LineReader, from: number, complement: LineReader | undefined) {
  return {
    agency: transmission.str(from, from + 3),
    beneficiaryCode: transmission.str(from + 4, from + 11).replace(/^0+(?=\d)/, ''),
    account: complement ? transmission.str(from + 12, from + 19) + complement.str(384, 384) : null,
  };
}

function readSantander(content: string, problems: FileProblem[], kind: 'REMESSA' | 'RETORNO') {
  const { header: h, details, trailer } = c.readFile400(content, problems);
  c.checkHeader400(h, problems, kind, BANK, 'Santander');
  h.digits(27, 46, 'código de transmissão');
  const head = accountOf(h, 27, details[0]);
  for (const d of details) {
    if (d.str(18, 37) !== h.str(27, 46))
      problems.push({
        line: d.line,
        field: 'código de transmissão (18-37)',
        message: `"${d.str(18, 37)}", the header's is "${h.str(27, 46)}"`,
      });
    if (d.str(384, 385) !== details[0].str(384, 385))
      problems.push({
        line: d.line,
        field: 'complemento (384-385)',
        message: `"${d.str(384, 385)}", the first title's is "${details[0].str(384, 385)}"`,
      });
  }
  const version = h.str(392, 394);
  return {
    envelope: {
      bankCode: h.str(77, 79),
      agency: head.agency,
      account: head.account,
      beneficiaryCode: head.beneficiaryCode,
      transmissionCode: h.str(27, 46),
      fileNumber: /^\d{3}$/.test(version) ? Number(version) : 0,
      kind: h.str(2, 2),
    },
    details,
    trailer,
  };
}

/** The 12-digit nosso número of the boleto from the 7 of the file (63–69). */
const nnOf = (d: LineReader) => d.digits(63, 69, 'nosso número').padStart(12, '0');

export function parseRetorno400Santander(content: string): c.ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readSantander(content, problems, 'RETORNO');
  const occurrences = details.map((d) => {
    const fee = d.money(176, 188, 'tarifa de cobrança');
    const paid = d.money(254, 266, 'valor total recebido');
    return {
      line: d.line,
      code: c.occurrenceFromBank(RETORNO, d.digits(109, 110, 'código de ocorrência')),
      nossoNumero: nnOf(d),
      nossoNumeroDv: d.str(70, 70),
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(38, 62).trim(),
      dueDate: d.date(147, 152, 'vencimento', true),
      titleAmount: d.money(153, 165, 'valor do título'),
      bankFee: fee,
      reasons: c.reasonsOf(d.str(137, 145), 3),
      charges: d.money(267, 279, 'juros de mora').plus(d.money(280, 292, 'multa')),
      discount: d.money(241, 253, 'desconto'),
      rebate: d.money(228, 240, 'abatimento'),
      paidAmount: paid,
      creditedAmount: paid.minus(fee),
      occurrenceDate: d.date(111, 116, 'data da ocorrência', true),
      creditDate: d.date(296, 301, 'data do crédito', true),
    };
  });
  return c.parsedRetorno400(envelope, occurrences, problems);
}

export function parseRemessa400Santander(content: string): c.ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { envelope, details, trailer } = readSantander(content, problems, 'REMESSA');
  let all = new Dec(0);
  const titles = details.map((d) => {
    const movement = c.movementFromBank(REMESSA, d.digits(109, 110, 'código de ocorrência'));
    const amount = d.money(127, 139, 'valor do título');
    all = all.plus(amount);
    c.payerRequired(d, problems);
    const fine = d.str(78, 78);
    if (fine !== '0' && fine !== '4')
      problems.push({ line: d.line, field: 'código da multa (78)', message: `expected 0 or 4, found "${fine}"` });
    return {
      line: d.line,
      movement,
      nossoNumero: nnOf(d),
      nossoNumeroDv: d.str(70, 70),
      documentNumber: d.str(111, 120).trim(),
      companyRef: d.str(38, 62).trim(),
      issueDate: d.date(151, 156, 'data de emissão') ?? '',
      dueDate: d.date(121, 126, 'vencimento') ?? '',
      amount,
      discountAmount: d.money(180, 192, 'desconto'),
      interestPerDay: d.money(161, 173, 'mora por dia'),
      finePercent: fine === '4' ? d.money(79, 82, 'percentual de multa') : new Dec(0),
      payerDocument: c.documentOf(d.digits(221, 234, 'payer document')),
    };
  });
  // The trailer: how many details and the sum of their values.
  const count = Number(trailer.digits(2, 7, 'quantidade de documentos'));
  if (count !== details.length)
    problems.push({
      line: trailer.line,
      field: 'quantidade de documentos (2-7)',
      message: `says ${trailer.str(2, 7)}, the file has ${details.length} details`,
    });
  const sum = trailer.money(8, 20, 'valor total dos títulos');
  if (!sum.eq(all))
    problems.push({
      line: trailer.line,
      field: 'valor total dos títulos (8-20)',
      message: `says ${sum.toFixed(2)}, the details add up to ${all.toFixed(2)}`,
    });
  return c.parsedRemessa400(envelope, titles, problems);
}

export const SANTANDER_400 = c.layout400(
  REMESSA,
  writeRemessa400Santander,
  parseRemessa400Santander,
  writeRetorno400Santander,
  parseRetorno400Santander,
);
