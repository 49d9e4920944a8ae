import { addCalendarDays } from '../../../core/business-date';
import { Dec, round } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import * as c from './cnab400';
import { alpha, ddmmyy, FileProblem, LineReader, money, num } from './record';

/*
 * CNAB 400 of Caixa's SIGCB ("Leiaute de Arquivo Eletrônico Padrão CNAB 400 — Cobrança Bancária
 * CAIXA, SIGCB"): header 0 naming agência + código do beneficiário (6, no conta), one detail 1 per
 * title with the nosso número of 17 (modalidade 14 + 15 digits, its DV not sent), trailer 9; 400
 * positions, record number at 395–400, the file's NSA at 390–394 of the header. The fine goes in
 * the detail as a value (352–367); protest or devolução is chosen at registration (instrução 1
 * with its days at 392–393). SIGCB 400 has no command for protesting a registered title or
 * changing its value: those instructions are refused for such accounts.
 */

const BANK = '104';
const BANK_NAME = 'C ECON FEDERAL';

/** Our movements (FEBRABAN's) → SIGCB 400 códigos de ocorrência of the remessa. */
const REMESSA: Record<string, string> = { '01': '01', '02': '02', '06': '05' };
export const CAIXA400_MOVEMENTS = Object.keys(REMESSA);

/**
 * SIGCB 400 retorno codes → ours: 01 entrada confirmada, 99 rejeição (motivo at 80–82), 21 and 22
 * (em cartório) liquidação, 02 baixa, 23 (por devolução) and 24 (franco pagamento) baixas, 25 baixa
 * por protesto, 05 vencimento alterado, 26 título enviado a cartório (protested).
 */
const RETORNO: Record<string, string> = {
  '01': '02',
  '99': '03',
  '21': '06',
  '22': '06',
  '02': '09',
  '23': '09',
  '24': '09',
  '25': '25',
  '05': '14',
  '26': '19',
};

const beneficiary = (a: CnabAccount) => {
  if (!a.beneficiaryCode || !/^\d{6}$/.test(a.beneficiaryCode))
    throw new Error('Caixa CNAB 400 (SIGCB) needs the código do beneficiário of 6 digits');
  return a.beneficiaryCode;
};

const header = (a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): [number, string][] => [
  ...c.header400Start(kind),
  [27, num(a.agency, 4)],
  [31, num(beneficiary(a), 6)],
  [37, alpha('', 10)],
  ...c.headerBank400(a, BANK, BANK_NAME, at),
  [101, alpha('', 289)],
  [390, num(fileNumber, 5)],
];

/** Positions 1–27 of a detail, remessa and retorno alike: type 1, the company's CNPJ, agência and código do beneficiário. */
const company = (a: CnabAccount): [number, string][] => [
  [1, '1'],
  ...c.inscription400(2, a.companyDocument.replace(/\D/g, '')),
  [18, num(a.agency, 4)],
  [22, num(beneficiary(a), 6)],
];

/** Instrução 1 and its days: protest after N days, else devolução (baixa) after N ≤ 99 days, else Caixa's default. */
function deadline(t: RemessaTitle): [string, number] {
  if (t.protestDays) return ['01', t.protestDays];
  if (t.writeOffDays && t.writeOffDays <= 99) return ['02', t.writeOffDays];
  return ['00', 0];
}

export function writeRemessa400Caixa(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): c.Remessa400File {
  const head = header(a, 'REMESSA', fileNumber, at);
  const detail = (t: RemessaTitle): [number, string][] => {
    const [instruction, days] = deadline(t);
    const fine = round(t.amount.times(t.finePercent).div(100), 'amount');
    return [
      ...company(a),
      [28, '2'], // the beneficiary prints the boleto
      [29, '0'], // and delivers it
      [30, '00'], // comissão de permanência: none
      [32, c.reference(t.companyRef, 25)],
      [57, num(t.nossoNumero, 17)],
      [74, alpha('', 3)],
      [77, alpha('', 30)], // mensagem
      [107, '01'], // carteira 01: cobrança registrada (RG)
      ...c.titleHead400(t, c.movementToBank(REMESSA, t.movement)),
      [140, BANK],
      [143, '00000'], // agência cobradora: by the payer's CEP
      // Espécie 01 (duplicata mercantil); IOF and abatimento none.
      ...c.titleTerms400(t, [instruction, '00']),
      ...c.payerAddress400(t.payer, 40),
      [352, ddmmyy(fine.gt(0) ? addCalendarDays(t.dueDate, 1) : null)], // multa from the day after the due date
      [358, money(fine, 10)],
      [368, alpha('', 22)], // sacador avalista
      [390, '00'], // instrução 3
      [392, num(days, 2)],
      [394, '1'], // moeda: real
    ];
  };
  return c.remessa400(
    c.records400(head, titles, (t) => [detail(t)], c.blankTrailer400),
    titles,
  );
}

export function writeRetorno400Caixa(a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]): string {
  const detail = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => [
    ...company(a),
    [28, alpha('', 4)],
    [32, c.reference(o.companyRef, 25)],
    [57, num(o.nossoNumero, 17)],
    [74, alpha('', 6)],
    [80, o.code === '03' ? num(o.reasons[0] ?? '0', 3) : '000'], // código de rejeição
    [83, alpha('', 24)],
    [107, '01'],
    ...c.occurrenceHead400(o, RETORNO),
    [127, alpha('', 20)],
    ...c.occurrenceTitle400(o, BANK),
    [169, num(a.agency, 5)], // agência cobradora
    [174, '01'],
    [176, money(o.bankFee, 13)],
    [189, alpha('', 26)],
    [215, num(0, 13)], // IOF
    ...c.occurrenceAmounts400(o), // 280: multa (zero: juros carries it)
    [293, '1'],
    [294, ddmmyy(o.creditDate)],
    [300, alpha('', 95)],
  ];
  return c.file400(c.records400(header(a, 'RETORNO', fileNumber, at), occurrences, (o) => [detail(o)], c.blankTrailer400));
}

function readHeader(h: LineReader, kind: 'REMESSA' | 'RETORNO', problems: FileProblem[]) {
  c.checkHeader400(h, problems, kind, BANK, 'Caixa');
  return {
    bankCode: h.str(77, 79),
    agency: h.digits(27, 30, 'agência'),
    account: null,
    beneficiaryCode: h.digits(31, 36, 'código do beneficiário'),
    fileNumber: Number(h.digits(390, 394, 'file number')),
    kind: h.str(2, 2),
  };
}

function sameBeneficiary(d: LineReader, beneficiaryCode: string, problems: FileProblem[]) {
  if (d.str(22, 27) !== beneficiaryCode)
    problems.push({
      line: d.line,
      field: 'código do beneficiário (22-27)',
      message: `expected the header's ${beneficiaryCode}, found "${d.str(22, 27)}"`,
    });
}

export function parseRemessa400Caixa(content: string): c.ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { header: h, details } = c.readFile400(content, problems);
  const envelope = readHeader(h, 'REMESSA', problems);
  const titles: c.RemessaTitle400[] = details.map((d) => {
    sameBeneficiary(d, envelope.beneficiaryCode, problems);
    const code = d.digits(109, 110, 'código de ocorrência');
    const movement = c.movementFromBank(REMESSA, code);
    if (!Object.values(REMESSA).includes(code))
      problems.push({ line: d.line, field: 'código de ocorrência (109-110)', message: `code "${code}" is not one we send` });
    c.payerRequired(d, problems);
    const amount = d.money(127, 139, 'amount');
    const fine = d.money(358, 367, 'fine');
    return {
      line: d.line,
      movement,
      nossoNumero: d.digits(57, 73, 'nosso número'),
      nossoNumeroDv: '',
      documentNumber: d.str(111, 120).trim(),
      companyRef: d.str(32, 56).trim(),
      issueDate: d.date(151, 156, 'issue date') ?? '',
      dueDate: d.date(121, 126, 'due date') ?? '',
      amount,
      discountAmount: d.money(180, 192, 'discount'),
      interestPerDay: d.money(161, 173, 'interest per day'),
      // The file carries the fine's value; as a percent of the title (what the bank charges when late).
      finePercent: amount.gt(0) ? fine.times(100).div(amount) : new Dec(0),
      payerDocument: c.documentOf(d.str(221, 234)),
    };
  });
  return c.parsedRemessa400(envelope, titles, problems);
}

export function parseRetorno400Caixa(content: string): c.ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { header: h, details } = c.readFile400(content, problems);
  const envelope = readHeader(h, 'RETORNO', problems);
  const occurrences = details.map((d) => {
    sameBeneficiary(d, envelope.beneficiaryCode, problems);
    const code = d.digits(109, 110, 'código de ocorrência');
    const paidAmount = d.money(254, 266, 'paid amount');
    const bankFee = d.money(176, 188, 'bank fee');
    const rejection = d.digits(80, 82, 'código de rejeição');
    return {
      line: d.line,
      code: c.occurrenceFromBank(RETORNO, code),
      nossoNumero: d.digits(57, 73, 'nosso número'),
      nossoNumeroDv: '',
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(32, 56).trim(),
      dueDate: d.date(147, 152, 'due date', true),
      titleAmount: d.money(153, 165, 'title amount'),
      bankFee,
      reasons: code === '99' && /^\d+$/.test(rejection) && Number(rejection) > 0 ? [String(Number(rejection)).padStart(2, '0')] : [],
      charges: d.money(267, 279, 'juros').plus(d.money(280, 292, 'multa')),
      discount: d.money(241, 253, 'discount'),
      rebate: d.money(228, 240, 'abatimento'),
      paidAmount,
      creditedAmount: paidAmount.minus(bankFee),
      occurrenceDate: d.date(111, 116, 'occurrence date', true),
      creditDate: d.date(294, 299, 'credit date', true),
    };
  });
  return c.parsedRetorno400(envelope, occurrences, problems);
}

export const CAIXA_400: c.Cnab400Layout = {
  writeRemessa: writeRemessa400Caixa,
  parseRemessa: parseRemessa400Caixa,
  writeRetorno: writeRetorno400Caixa,
  parseRetorno: parseRetorno400Caixa,
  movements: CAIXA400_MOVEMENTS,
};
