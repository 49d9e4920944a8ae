import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import {
  blankTrailer400,
  Cnab400Layout,
  carteiraOf,
  checkHeader400,
  documentOf,
  failOn,
  file400,
  header400Start,
  inscriptionType,
  movementFromBank,
  movementToBank,
  occurrenceFromBank,
  occurrenceToBank,
  ParsedRemessa400,
  ParsedRetorno400,
  readFile400,
  reasonsOf,
  reference,
  Remessa400File,
  remessaTotals,
  sequenceField,
  WIDTH_400,
} from './cnab400';
import { alpha, ddmmyy, FileProblem, money, num, record } from './record';

/*
 * CNAB 400 of Itaú (manual "Cobrança Itaú — CNAB 400", remessa and retorno): header 0, one detail
 * 1 per instruction or occurrence, trailer 9, 400 positions, the record number at 395–400. The fine
 * record (type 2) is not sent: Itaú's multa is set with the bank per carteira. Itaú's retorno codes
 * become FEBRABAN's (the table below) so the retorno is applied by the same rules as CNAB 240
 * (returns.service.ts).
 */

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

function header(a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): string {
  return record(WIDTH_400, [
    ...header400Start(kind),
    [27, num(a.agency, 4)],
    [31, '00'],
    [33, num(a.account, 5)],
    [38, alpha(a.accountDigit, 1)],
    [39, alpha('', 8)],
    [47, alpha(a.companyName, 30)],
    [77, '341'],
    [80, alpha('BANCO ITAU SA', 15)],
    [95, ddmmyy(at.toISOString().slice(0, 10))],
    [101, alpha('', 8)],
    [109, num(fileNumber, 5)],
    [114, alpha('', 281)],
    sequenceField(1),
  ]);
}

export function writeRemessa400Itau(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): Remessa400File {
  const lines = [header(a, 'REMESSA', fileNumber, at)];
  for (const t of titles) {
    const doc = t.payer.document.replace(/\D/g, '');
    lines.push(
      record(WIDTH_400, [
        [1, '1'],
        [2, '02'],
        [4, num(a.companyDocument, 14)],
        [18, num(a.agency, 4)],
        [22, '00'],
        [24, num(a.account, 5)],
        [29, alpha(a.accountDigit, 1)],
        [30, alpha('', 4)],
        [34, '0000'],
        [38, reference(t.companyRef, 25)],
        [63, num(t.nossoNumero, 8)],
        [71, num(0, 13)],
        [84, num(carteiraOf(a.carteira), 3)],
        [87, alpha('', 21)],
        [108, 'I'],
        [109, movementToBank(REMESSA, t.movement)],
        [111, alpha(t.documentNumber, 10)],
        [121, ddmmyy(t.dueDate)],
        [127, money(t.amount, 13)],
        [140, '341'],
        [143, '00000'],
        [148, '01'],
        [150, 'N'],
        [151, ddmmyy(t.issueDate)],
        [157, t.protestDays ? '09' : '00'],
        [159, '00'],
        [161, money(t.interestPerDay, 13)],
        [174, ddmmyy(t.discountAmount.gt(0) ? t.discountDate : null)],
        [180, money(t.discountAmount, 13)],
        [193, num(0, 13)],
        [206, num(0, 13)],
        [219, inscriptionType(doc)],
        [221, num(doc, 14)],
        [235, alpha(t.payer.name, 30)],
        [265, alpha('', 10)],
        [275, alpha(t.payer.street, 40)],
        [315, alpha(t.payer.district, 12)],
        [327, num(t.payer.postalCode.replace(/\D/g, '').padEnd(8, '0'), 8)],
        [335, alpha(t.payer.city, 15)],
        [350, alpha(t.payer.uf, 2)],
        [352, alpha('', 30)],
        [382, alpha('', 4)],
        [386, ddmmyy(t.interestPerDay.gt(0) ? t.dueDate : null)],
        [392, num(t.protestDays ?? 0, 2)],
        [394, ' '],
        sequenceField(lines.length + 1),
      ]),
    );
  }
  lines.push(blankTrailer400(lines.length + 1));
  return { content: file400(lines), recordCount: lines.length, totalAmount: remessaTotals(titles).total };
}

export function writeRetorno400Itau(a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]): string {
  const lines = [header(a, 'RETORNO', fileNumber, at)];
  for (const o of occurrences) {
    lines.push(
      record(WIDTH_400, [
        [1, '1'],
        [2, '02'],
        [4, num(a.companyDocument, 14)],
        [18, num(a.agency, 4)],
        [22, '00'],
        [24, num(a.account, 5)],
        [29, alpha(a.accountDigit, 1)],
        [30, alpha('', 8)],
        [38, reference(o.companyRef, 25)],
        [63, num(o.nossoNumero, 8)],
        [71, alpha('', 12)],
        [83, num(carteiraOf(a.carteira), 3)],
        [86, num(o.nossoNumero, 8)],
        [94, alpha(o.nossoNumeroDv, 1)],
        [95, alpha('', 13)],
        [108, 'I'],
        [109, occurrenceToBank(RETORNO, o.code)],
        [111, ddmmyy(o.occurrenceDate)],
        [117, alpha(o.documentNumber, 10)],
        [127, num(o.nossoNumero, 8)],
        [135, alpha('', 12)],
        [147, ddmmyy(o.dueDate)],
        [153, money(o.titleAmount, 13)],
        [166, '341'],
        [169, num(a.agency, 4)],
        [173, '0'],
        [174, '01'],
        [176, money(o.bankFee, 13)],
        [189, alpha('', 26)],
        [215, num(0, 13)],
        [228, money(o.rebate, 13)],
        [241, money(o.discount, 13)],
        [254, money(o.paidAmount, 13)],
        [267, money(o.charges, 13)],
        [280, num(0, 13)],
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
        sequenceField(lines.length + 1),
      ]),
    );
  }
  lines.push(blankTrailer400(lines.length + 1));
  return file400(lines);
}

/** Itaú's header names the account: agência 27–30, conta 33–37; the file number at 109–113. */
function readItau(content: string, problems: FileProblem[], kind: 'REMESSA' | 'RETORNO') {
  const { header: h, details } = readFile400(content, problems);
  checkHeader400(h, problems, kind, '341', 'Itaú');
  const envelope = {
    bankCode: h.str(77, 79),
    agency: h.digits(27, 30, 'agência'),
    account: h.digits(33, 37, 'conta'),
    fileNumber: Number(h.digits(109, 113, 'file number')),
    kind: h.str(2, 2),
  };
  return { envelope, details };
}

export function parseRetorno400Itau(content: string): ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readItau(content, problems, 'RETORNO');
  const occurrences = details.map((d) => {
    return {
      line: d.line,
      code: occurrenceFromBank(RETORNO, d.digits(109, 110, 'occurrence code')),
      nossoNumero: d.digits(86, 93, 'nosso número'),
      nossoNumeroDv: d.str(94, 94),
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(38, 62).trim(),
      dueDate: d.date(147, 152, 'due date', true),
      titleAmount: d.money(153, 165, 'title amount'),
      bankFee: d.money(176, 188, 'bank fee'),
      reasons: reasonsOf(d.str(378, 385), 2),
      charges: d.money(267, 279, 'interest/fine'),
      discount: d.money(241, 253, 'discount'),
      rebate: d.money(228, 240, 'rebate'),
      paidAmount: d.money(254, 266, 'paid amount'),
      creditedAmount: d.money(254, 266, 'paid amount').minus(d.money(176, 188, 'bank fee')),
      occurrenceDate: d.date(111, 116, 'occurrence date', true),
      creditDate: d.date(296, 301, 'credit date', true),
    };
  });
  failOn(problems);
  return { ...envelope, occurrences };
}

export function parseRemessa400Itau(content: string): ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readItau(content, problems, 'REMESSA');
  const titles = details.map((d) => {
    const movement = movementFromBank(REMESSA, d.digits(109, 110, 'occurrence code'));
    const amount = d.money(127, 139, 'amount');
    if (/^0+$/.test(d.str(221, 234)))
      problems.push({ line: d.line, field: 'payer document (221-234)', message: 'the payer’s CPF/CNPJ is required' });
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
      payerDocument: documentOf(d.str(221, 234)),
    };
  });
  failOn(problems);
  const totals = remessaTotals(titles);
  return { ...envelope, titles, registeredTotal: totals.total, lotTitleCount: totals.count };
}

export const ITAU_400: Cnab400Layout = {
  writeRemessa: writeRemessa400Itau,
  parseRemessa: parseRemessa400Itau,
  writeRetorno: writeRetorno400Itau,
  parseRetorno: parseRetorno400Itau,
  movements: Object.keys(REMESSA),
};
