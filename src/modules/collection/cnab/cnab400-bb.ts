import { addCalendarDays } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import * as c from './cnab400';
import { alpha, ddmmyy, FileProblem, LineReader, money, num } from './record';

/*
 * CNAB 400 of Banco do Brasil for a convênio of 7 digits: remessa CBR641 ("Leiaute de arquivo —
 * remessa CNAB 400, convênios de 7 posições"), retorno CBR643. Header 0, detail 7 per title (the
 * nosso número of 17 = convênio + 10 digits, no DV), an optional record 5 (tipo de serviço 99) with
 * the fine percent after a detail, trailer 9; 400 positions, record number at 395–400. CBR641 has
 * no command to change a title's value. The variação da carteira (92–94) is the account's, which a
 * CNAB 400 account must have (banks.ts). The retorno's trailer carries the count and value of the
 * cobrança simples titles, checked against its details.
 */

const BANK = '001';

/** Our movements (FEBRABAN's) → CBR641 commands. */
const REMESSA: Record<string, string> = { '01': '01', '02': '02', '06': '06', '09': '09' };
/** The instructions this layout carries (FEBRABAN movement codes). */
export const BB400_MOVEMENTS = Object.keys(REMESSA);

/**
 * CBR643 commands → ours: 05 (liquidated without registration), 07 (liquidação por conta, a
 * partial payment), 08 (por saldo) and 15 (em cartório) are liquidações; 10 (baixa solicitada) a baixa.
 */
const RETORNO: Record<string, string> = {
  '02': '02',
  '03': '03',
  '05': '06',
  '06': '06',
  '07': '06',
  '08': '06',
  '15': '06',
  '09': '09',
  '10': '09',
  '14': '14',
  '19': '19',
};

const convenio = (a: CnabAccount) => {
  if (!a.beneficiaryCode || !/^\d{7}$/.test(a.beneficiaryCode)) throw new Error('BB CNAB 400 (CBR641) needs the convênio of 7 digits');
  return a.beneficiaryCode;
};

const variation = (a: CnabAccount) => {
  if (!a.carteiraVariation || !/^\d{3}$/.test(a.carteiraVariation))
    throw new Error('BB CNAB 400 (CBR641) needs the variação da carteira of 3 digits');
  return a.carteiraVariation;
};

const agencyAccount = (a: CnabAccount): [number, string][] => [
  [27, num(a.agency, 4)],
  [31, alpha(a.agencyDigit ?? '', 1)],
  [32, num(a.account, 8)],
  [40, alpha(a.accountDigit, 1)],
];

function header(a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): [number, string][] {
  const tail: [number, string][] =
    kind === 'REMESSA'
      ? [
          [108, alpha('', 22)],
          [130, num(convenio(a), 7)], // convênio líder
          [137, alpha('', 258)],
        ]
      : [
          [108, alpha('', 42)],
          [150, num(convenio(a), 7)],
          [157, alpha('', 238)],
        ];
  return [
    ...c.header400Start(kind),
    ...agencyAccount(a),
    [41, '000000'],
    ...c.headerBank400(a, BANK, 'BANCODOBRASIL', at),
    [101, num(fileNumber, 7)],
    ...tail,
  ];
}

/** Positions 18–38 of a detail, remessa and retorno alike: agência, conta and their DVs, the convênio. */
const company = (a: CnabAccount): [number, string][] => [
  [18, num(a.agency, 4)],
  [22, alpha(a.agencyDigit ?? '', 1)],
  [23, num(a.account, 8)],
  [31, alpha(a.accountDigit, 1)],
  [32, num(convenio(a), 7)],
];

export function writeRemessa400Bb(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): c.Remessa400File {
  const head = header(a, 'REMESSA', fileNumber, at);
  const doc = a.companyDocument.replace(/\D/g, '');
  const detail = (t: RemessaTitle): [number, string][] => [
    [1, '7'],
    ...c.inscription400(2, doc),
    ...company(a),
    [39, c.reference(t.companyRef, 25)],
    [64, num(t.nossoNumero, 17)],
    [81, '00'], // número da prestação
    [83, '00'], // grupo de valor
    [85, alpha('', 3)],
    [88, ' '], // no sacador avalista
    [89, alpha('', 3)], // prefixo do título
    [92, variation(a)], // variação da carteira
    [95, '0'], // conta caução
    [96, '000000'], // borderô
    [102, alpha('', 5)], // tipo de cobrança: simples
    [107, num(a.carteira ?? '', 2)],
    ...c.titleHead400(t, c.movementToBank(REMESSA, t.movement)),
    [140, BANK],
    [143, '0000'], // agência cobradora: chosen by the bank
    [147, ' '],
    // Instrução 06: protestar in the days of 392–393; 00: none.
    ...c.titleTerms400(t, [t.protestDays ? '06' : '00', '00']),
    ...c.payerAddress400(t.payer, 37),
    [352, alpha('', 40)],
    [392, num(t.protestDays ?? 0, 2)],
    [394, ' '],
  ];
  // The fine goes in a record 5 after its title (BB keeps no fine per carteira): percent, from the day after the due date.
  const fine = (t: RemessaTitle): [number, string][] => [
    [1, '5'],
    [2, '99'],
    [4, '2'],
    [5, ddmmyy(addCalendarDays(t.dueDate, 1))],
    [11, money(t.finePercent, 12)],
    [23, alpha('', 372)],
  ];
  const records = (t: RemessaTitle) => (t.movement === '01' && t.finePercent.gt(0) ? [detail(t), fine(t)] : [detail(t)]);
  return c.remessa400(c.records400(head, titles, records, c.blankTrailer400), titles);
}

export function writeRetorno400Bb(a: CnabAccount, fileNumber: number, at: Date, occurrences: Omit<RetornoOccurrence, 'line'>[]): string {
  const detail = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => [
    [1, '7'],
    [2, '00'],
    [4, num(0, 14)],
    ...company(a),
    [39, c.reference(o.companyRef, 25)],
    [64, num(o.nossoNumero, 17)],
    [81, '0'], // tipo de cobrança
    [82, '0'],
    [83, '0000'], // dias para cálculo
    [87, o.reasons.length ? num(o.reasons[0], 2) : '00'], // natureza do recebimento / motivo da recusa (03)
    [89, alpha('', 3)],
    [92, variation(a)], // variação da carteira
    [95, '0'],
    [96, '00000'], // taxa de desconto
    [101, '00000'], // taxa de IOF
    [106, ' '],
    [107, num(a.carteira ?? '', 2)],
    ...c.occurrenceHead400(o, RETORNO),
    [127, alpha('', 20)],
    ...c.occurrenceTitle400(o, BANK),
    [169, num(a.agency, 4)],
    [173, alpha(a.agencyDigit ?? '', 1)],
    [174, '01'],
    [176, ddmmyy(o.creditDate)],
    [182, money(o.bankFee, 7)],
    [189, num(0, 13)], // outras despesas
    [202, num(0, 13)], // juros do desconto
    [215, num(0, 13)], // IOF do desconto
    ...c.occurrenceAmounts400(o), // 280: outros recebimentos
    [293, num(0, 13)], // abatimento não aproveitado
    [306, money(o.creditedAmount, 13)], // valor do lançamento
    [319, '0'],
    [320, '0'],
    [321, num(0, 12)],
    [333, alpha('', 10)],
    [343, num(0, 48)],
    [391, ' '], // indicativo de autorização de liquidação parcial
    [392, ' '],
    [393, alpha('', 2)], // canal de liquidação
  ];
  // The trailer's count and value of the cobrança simples titles: this file's details.
  return c.file400(
    c.records400(
      header(a, 'RETORNO', fileNumber, at),
      occurrences,
      (o) => [detail(o)],
      (seq) => c.retornoTrailer400(BANK, occurrences, 0, seq),
    ),
  );
}

function readHeader(h: LineReader, kind: 'REMESSA' | 'RETORNO', problems: FileProblem[]) {
  c.checkHeader400(h, problems, kind, BANK, 'Banco do Brasil');
  return {
    bankCode: h.str(77, 79),
    agency: h.digits(27, 30, 'agência'),
    account: h.digits(32, 39, 'conta'),
    beneficiaryCode: kind === 'REMESSA' ? h.digits(130, 136, 'convênio líder') : h.digits(150, 156, 'convênio'),
    fileNumber: Number(h.digits(101, 107, 'file number')),
    kind: h.str(2, 2),
  };
}

export function parseRemessa400Bb(content: string): c.ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { header: h, details } = c.readFile400(content, problems, ['7', '5']);
  const envelope = readHeader(h, 'REMESSA', problems);
  const titles: c.RemessaTitle400[] = [];
  for (const [i, d] of details.entries()) {
    if (d.str(1, 1) === '5') {
      const title = titles[titles.length - 1];
      if (!title || details[i - 1]?.str(1, 1) !== '7') {
        problems.push({ line: d.line, field: 'record type (1)', message: 'a record 5 must follow its title’s detail 7' });
        continue;
      }
      d.expect(2, 3, 'tipo de serviço', '99');
      d.expect(4, 4, 'código da multa', '2');
      title.finePercent = d.money(11, 22, 'fine percent');
      continue;
    }
    const command = d.digits(109, 110, 'comando');
    const movement = c.movementFromBank(REMESSA, command);
    if (!Object.values(REMESSA).includes(command))
      problems.push({ line: d.line, field: 'comando (109-110)', message: `command "${command}" is not one we send` });
    c.payerRequired(d, problems);
    if (d.str(32, 38) !== envelope.beneficiaryCode)
      problems.push({ line: d.line, field: 'convênio (32-38)', message: `expected the header's ${envelope.beneficiaryCode}` });
    titles.push({
      line: d.line,
      movement,
      nossoNumero: d.digits(64, 80, 'nosso número'),
      nossoNumeroDv: '',
      documentNumber: d.str(111, 120).trim(),
      companyRef: d.str(39, 63).trim(),
      issueDate: d.date(151, 156, 'issue date') ?? '',
      dueDate: d.date(121, 126, 'due date') ?? '',
      amount: d.money(127, 139, 'amount'),
      discountAmount: d.money(180, 192, 'discount'),
      interestPerDay: d.money(161, 173, 'interest per day'),
      finePercent: new Dec(0),
      payerDocument: c.documentOf(d.str(221, 234)),
    });
  }
  return c.parsedRemessa400(envelope, titles, problems);
}

export function parseRetorno400Bb(content: string): c.ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { header: h, details, trailer } = c.readFile400(content, problems, ['7']);
  const envelope = readHeader(h, 'RETORNO', problems);
  let total = new Dec(0);
  const occurrences = details.map((d) => {
    const code = d.digits(109, 110, 'comando');
    const titleAmount = d.money(153, 165, 'title amount');
    const paidAmount = d.money(254, 266, 'paid amount');
    const bankFee = d.money(182, 188, 'bank fee');
    total = total.plus(titleAmount);
    return {
      line: d.line,
      code: c.occurrenceFromBank(RETORNO, code),
      nossoNumero: d.digits(64, 80, 'nosso número'),
      nossoNumeroDv: '',
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(39, 63).trim(),
      dueDate: d.date(147, 152, 'due date', true),
      titleAmount,
      bankFee,
      reasons: code === '03' ? c.reasonsOf(d.str(87, 88), 2) : [],
      charges: d.money(267, 279, 'juros de mora').plus(d.money(280, 292, 'outros recebimentos')),
      discount: d.money(241, 253, 'discount'),
      rebate: d.money(228, 240, 'abatimento'),
      paidAmount,
      creditedAmount: paidAmount.minus(bankFee),
      occurrenceDate: d.date(111, 116, 'occurrence date', true),
      creditDate: d.date(176, 181, 'credit date', true),
    };
  });
  const count = Number(trailer.digits(18, 25, 'title count'));
  if (count !== details.length)
    problems.push({ line: trailer.line, field: 'title count (18-25)', message: `${count}, the file has ${details.length} details` });
  const declared = trailer.money(26, 39, 'title value');
  if (!declared.eq(total))
    problems.push({
      line: trailer.line,
      field: 'title value (26-39)',
      message: `${declared.toFixed(2)}, the details sum ${total.toFixed(2)}`,
    });
  return c.parsedRetorno400(envelope, occurrences, problems);
}

export const BB_400: c.Cnab400Layout = {
  writeRemessa: writeRemessa400Bb,
  parseRemessa: parseRemessa400Bb,
  writeRetorno: writeRetorno400Bb,
  parseRetorno: parseRetorno400Bb,
  movements: BB400_MOVEMENTS,
};
