import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import * as c from './cnab400';
import { alpha, ddmmyy, FileProblem, money, num } from './record';

/*
 * CNAB 400 of Itaú (manual "Cobrança Itaú — CNAB 400", remessa and retorno): header 0, one detail
 * 1 per instruction or occurrence, trailer 9, 400 positions, the record number at 395–400. The fine
 * record (type 2) is not sent: Itaú's multa is set with the bank per carteira. Itaú's retorno codes
 * become FEBRABAN's (the table below) so the retorno is applied by the same rules as CNAB 240
 * (returns.service.ts).
 */

const BANK = '341';

/** FEBRABAN movement → Itaú's código de ocorrência of the remessa (31: alteração de outros dados, the new value). */
const REMESSA: Record<string, string> = { '01': '01', '02': '02', '06': '06', '09': '09', '47': '31' };

/**
 * Itaú's retorno codes (the manual's nota 17) as the FEBRABAN ones returns.service.ts applies: 07
 * (liquidação parcial) and 08 (em cartório) are liquidações, 64 (entrada confirmada com rateio de
 * crédito) an entrada, 32 (baixa por ter sido protestado) FEBRABAN's 25. Itaú's 17 (alteração de
 * dados rejeitada) and 25 (alegações do pagador) mean nothing of ours: recorded only, as every other
 * code of theirs (10 baixa por ter sido liquidado follows the 06 that settled it; 59 SISPAG, 65
 * cheque awaiting clearance, 69 cheque devolvido and the tarifas are left to the operator).
 */
const RETORNO: Record<string, string> = {
  '02': '02',
  '03': '03',
  '06': '06',
  '09': '09',
  '14': '14',
  '19': '19',
  '07': '06',
  '08': '06',
  '64': '02',
  '32': '25',
};

const header = (a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): [number, string][] => [
  ...c.header400Start(kind),
  [27, num(a.agency, 4)],
  [31, '00'],
  [33, num(a.account, 5)],
  [38, alpha(a.accountDigit, 1)],
  [39, alpha('', 8)],
  ...c.headerBank400(a, BANK, 'BANCO ITAU SA', at),
  [101, alpha('', 8)],
  [109, num(fileNumber, 5)],
  [114, alpha('', 281)],
];

/** Positions 1–29 of a detail, remessa and retorno alike: type 1, the company's CNPJ, its agência and conta. */
const company = (a: CnabAccount): [number, string][] => [
  [1, '1'],
  [2, '02'],
  [4, num(a.companyDocument, 14)],
  [18, num(a.agency, 4)],
  [22, '00'],
  [24, num(a.account, 5)],
  [29, alpha(a.accountDigit, 1)],
];

export function writeRemessa400Itau(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): c.Remessa400File {
  const detail = (t: RemessaTitle): [number, string][] => [
    ...company(a),
    [30, alpha('', 4)],
    [34, '0000'],
    [38, c.reference(t.companyRef, 25)],
    [63, num(t.nossoNumero, 8)],
    [71, num(0, 13)],
    [84, num(c.carteiraOf(a.carteira), 3)],
    [87, alpha('', 21)],
    [108, 'I'],
    ...c.titleHead400(t, c.movementToBank(REMESSA, t.movement)),
    [140, BANK],
    [143, '00000'],
    ...c.titleTerms400(t, [t.protestDays ? '09' : '00', '00']),
    ...c.payerAddress400(t.payer, 30),
    [352, alpha('', 30)],
    [382, alpha('', 4)],
    [386, ddmmyy(t.interestPerDay.gt(0) ? t.dueDate : null)],
    [392, num(t.protestDays ?? 0, 2)],
    [394, ' '],
  ];
  return c.remessa400(
    c.records400(header(a, 'REMESSA', fileNumber, at), titles, (t) => [detail(t)], c.blankTrailer400),
    titles,
  );
}

export function writeRetorno400Itau(a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]): string {
  const detail = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => [
    ...company(a),
    [30, alpha('', 8)],
    [38, c.reference(o.companyRef, 25)],
    [63, num(o.nossoNumero, 8)],
    [71, alpha('', 12)],
    [83, num(c.carteiraOf(a.carteira), 3)],
    [86, num(o.nossoNumero, 8)],
    [94, alpha(o.nossoNumeroDv, 1)],
    [95, alpha('', 13)],
    [108, 'I'],
    ...c.occurrenceHead400(o, RETORNO),
    [127, num(o.nossoNumero, 8)],
    [135, alpha('', 12)],
    ...c.occurrenceTitle400(o, BANK),
    [169, num(a.agency, 4)],
    [173, '0'],
    [174, '01'],
    [176, money(o.bankFee, 13)],
    [189, alpha('', 26)],
    [215, num(0, 13)],
    ...c.occurrenceAmounts400(o),
    [293, ' '],
    [294, '  '],
    [296, ddmmyy(o.creditDate)],
    [302, '0000'],
    [306, alpha('', 6)],
    [312, num(0, 13)],
    [325, alpha('', 30)],
    [355, alpha('', 23)],
    [378, alpha(o.reasons.join(''), 8)],
    [386, alpha('', 7)],
    [393, '  '],
  ];
  return c.file400(c.records400(header(a, 'RETORNO', fileNumber, at), occurrences, (o) => [detail(o)], c.blankTrailer400));
}

/** Itaú's header names the account: agência 27–30, conta 33–37; the file number at 109–113. */
function readItau(content: string, problems: FileProblem[], kind: 'REMESSA' | 'RETORNO') {
  const { header: h, details } = c.readFile400(content, problems);
  c.checkHeader400(h, problems, kind, BANK, 'Itaú');
  const envelope = {
    bankCode: h.str(77, 79),
    agency: h.digits(27, 30, 'agência'),
    account: h.digits(33, 37, 'conta'),
    fileNumber: Number(h.digits(109, 113, 'file number')),
    kind: h.str(2, 2),
  };
  return { envelope, details };
}

export function parseRetorno400Itau(content: string): c.ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readItau(content, problems, 'RETORNO');
  const occurrences = details.map((d) => {
    return {
      line: d.line,
      code: c.occurrenceFromBank(RETORNO, d.digits(109, 110, 'occurrence code')),
      nossoNumero: d.digits(86, 93, 'nosso número'),
      nossoNumeroDv: d.str(94, 94),
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(38, 62).trim(),
      dueDate: d.date(147, 152, 'due date', true),
      titleAmount: d.money(153, 165, 'title amount'),
      bankFee: d.money(176, 188, 'bank fee'),
      reasons: c.reasonsOf(d.str(378, 385), 2),
      charges: d.money(267, 279, 'interest/fine'),
      discount: d.money(241, 253, 'discount'),
      rebate: d.money(228, 240, 'rebate'),
      paidAmount: d.money(254, 266, 'paid amount'),
      creditedAmount: d.money(254, 266, 'paid amount').minus(d.money(176, 188, 'bank fee')),
      occurrenceDate: d.date(111, 116, 'occurrence date', true),
      creditDate: d.date(296, 301, 'credit date', true),
    };
  });
  return c.parsedRetorno400(envelope, occurrences, problems);
}

export function parseRemessa400Itau(content: string): c.ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readItau(content, problems, 'REMESSA');
  const titles = details.map((d) => {
    const movement = c.movementFromBank(REMESSA, d.digits(109, 110, 'occurrence code'));
    const amount = d.money(127, 139, 'amount');
    c.payerRequired(d, problems);
    return {
      line: d.line,
      movement,
      nossoNumero: d.digits(63, 70, 'nosso número'),
      nossoNumeroDv: '',
      documentNumber: d.str(111, 120).trim(),
      companyRef: d.str(38, 62).trim(),
      issueDate: d.date(151, 156, 'issue date') ?? '',
      dueDate: d.date(121, 126, 'due date') ?? '',
      amount,
      discountAmount: d.money(180, 192, 'discount'),
      interestPerDay: d.money(161, 173, 'interest per day'),
      finePercent: new Dec(0),
      payerDocument: c.documentOf(d.str(221, 234)),
    };
  });
  return c.parsedRemessa400(envelope, titles, problems);
}

export const ITAU_400 = c.layout400(REMESSA, writeRemessa400Itau, parseRemessa400Itau, writeRetorno400Itau, parseRetorno400Itau);
