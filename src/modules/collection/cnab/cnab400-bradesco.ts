import { businessToday } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from './cnab240';
import * as c from './cnab400';
import { alpha, ddmmyy, FileProblem, LineReader, money, num } from './record';

/*
 * CNAB 400 of Bradesco (manual "Cobrança Bancária — Layout de Arquivo CNAB 400", remessa and
 * retorno). The header names the beneficiary by the código da empresa Bradesco assigns (27–46, the
 * account's `beneficiaryCode`), not by agência/conta: those travel in each detail as the
 * "identificação da empresa" (21–37: zero, carteira, agência, conta, DV). The nosso número is 11
 * digits and its DV (71–82); the multa goes in the detail itself (66–70), so the bank charges it.
 */

const BANK = '237';

/** FEBRABAN movement → Bradesco's identificação da ocorrência of the remessa (109–110). */
const REMESSA: Record<string, string> = { '01': '01', '02': '02', '06': '06', '09': '09', '47': '31' };

/**
 * Bradesco's retorno codes as the FEBRABAN ones returns.service.ts applies: 10 (baixado conforme
 * instrução da agência) is a baixa, 15 (liquidação em cartório) a liquidação, 24 (entrada rejeitada
 * por CEP) a rejeição, 25 (protesto falimentar confirmado) a protest; codes without an entry are
 * recorded only (16 pago em cheque waits for the cheque, 23 entrada em cartório, …).
 */
const RETORNO: Record<string, string> = {
  '02': '02',
  '03': '03',
  '06': '06',
  '09': '09',
  '14': '14',
  '17': '17',
  '19': '19',
  '28': '28',
  '10': '09',
  '15': '06',
  '24': '03',
  '25': '19',
};

const companyCode = (a: CnabAccount) => {
  if (!a.beneficiaryCode) throw new Error('Bradesco CNAB 400 needs the código da empresa (beneficiaryCode)');
  return num(a.beneficiaryCode, 20);
};

/** Identificação da empresa no banco (17): zero, carteira (3), agência (5), conta (7), DV. */
const companyId = (a: CnabAccount) =>
  '0' + num(c.carteiraOf(a.carteira), 3) + num(a.agency, 5) + num(a.account, 7) + alpha(a.accountDigit, 1);

function header(a: CnabAccount, kind: 'REMESSA' | 'RETORNO', fileNumber: number, at: Date): [number, string][] {
  const tail: [number, string][] =
    kind === 'REMESSA'
      ? [
          [101, alpha('', 8)],
          [109, 'MX'],
          [111, num(fileNumber, 7)],
          [118, alpha('', 277)],
        ]
      : [
          [101, '01600000'],
          [109, num(fileNumber, 5)],
          [114, alpha('', 266)],
          [380, ddmmyy(businessToday(at))],
          [386, alpha('', 9)],
        ];
  return [...c.header400Start(kind), [27, companyCode(a)], ...c.headerBank400(a, BANK, 'BRADESCO', at), ...tail];
}

/** Bradesco has no city/UF fields: the address line (40) carries street, district and city/UF. */
const address = (p: RemessaTitle['payer']) => [p.street, p.district, p.city && `${p.city}/${p.uf}`].filter(Boolean).join(' ');

export function writeRemessa400Bradesco(a: CnabAccount, fileNumber: number, at: Date, titles: RemessaTitle[]): c.Remessa400File {
  const detail = (t: RemessaTitle): [number, string][] => {
    const cep = t.payer.postalCode.replace(/\D/g, '').padEnd(8, '0');
    return [
      [1, '1'],
      // Débito automático (agência, razão, conta of the payer): not used.
      [2, num(0, 5)],
      [7, '0'],
      [8, num(0, 5)],
      [13, num(0, 7)],
      [20, '0'],
      [21, companyId(a)],
      [38, c.reference(t.companyRef, 25)],
      [63, '000'],
      [66, t.finePercent.gt(0) ? '2' : '0'],
      [67, money(t.finePercent, 4)],
      [71, num(t.nossoNumero, 11)],
      [82, alpha(t.nossoNumeroDv, 1)],
      [83, num(0, 10)],
      // 2: the beneficiary prints the boleto (ours, with its barcode and bolePix).
      [93, '2'],
      [94, 'N'],
      [95, alpha('', 10)],
      [105, ' '],
      [106, ' '],
      [107, alpha('', 2)],
      ...c.titleHead400(t, c.movementToBank(REMESSA, t.movement)),
      [140, '000'],
      [143, '00000'],
      // 06 protestar, the days in the second instruction.
      ...c.titleTerms400(t, [t.protestDays ? '06' : '00', num(t.protestDays ?? 0, 2)]),
      [235, alpha(t.payer.name, 40)],
      [275, alpha(address(t.payer), 40)],
      [315, alpha('', 12)],
      [327, cep.slice(0, 5)],
      [332, cep.slice(5, 8)],
      [335, alpha('', 60)],
    ];
  };
  return c.remessa400(
    c.records400(header(a, 'REMESSA', fileNumber, at), titles, (t) => [detail(t)], c.blankTrailer400),
    titles,
  );
}

export function writeRetorno400Bradesco(
  a: CnabAccount,
  fileNumber: number,
  at: Date,
  occurrences: Omit<RetornoOccurrence, 'line'>[],
): string {
  const detail = (o: Omit<RetornoOccurrence, 'line'>): [number, string][] => {
    const nn = num(o.nossoNumero, 11) + alpha(o.nossoNumeroDv, 1);
    return [
      [1, '1'],
      ...c.inscription400(2, a.companyDocument),
      [18, '000'],
      [21, companyId(a)],
      [38, c.reference(o.companyRef, 25)],
      [63, num(0, 8)],
      [71, nn],
      [83, num(0, 10)],
      [93, num(0, 12)],
      [105, ' '],
      [106, '00'],
      [108, c.carteiraOf(a.carteira).slice(-1)],
      ...c.occurrenceHead400(o, RETORNO),
      [127, alpha(nn, 20)],
      ...c.occurrenceTitle400(o, BANK),
      [169, num(a.agency, 5)],
      [174, '  '],
      [176, money(o.bankFee, 13)],
      [189, num(0, 13)],
      [202, num(0, 13)],
      [215, num(0, 13)],
      ...c.occurrenceAmounts400(o),
      [293, '  '],
      [295, ' '],
      [296, ddmmyy(o.creditDate)],
      [302, '   '],
      [305, alpha('', 10)],
      [315, '0000'],
      [319, num(o.reasons.join('').padEnd(10, '0').slice(0, 10), 10)],
      [329, alpha('', 40)],
      [369, '00'],
      [371, alpha('', 10)],
      [381, alpha('', 14)],
    ];
  };
  return c.file400(
    c.records400(
      header(a, 'RETORNO', fileNumber, at),
      occurrences,
      (o) => [detail(o)],
      (seq) => c.retornoTrailer400(BANK, occurrences, fileNumber, seq),
    ),
  );
}

/** Agência (25–29) and conta (30–36) of a detail's identificação da empresa. */
const accountOf = (d: LineReader) => ({ agency: d.str(25, 29), account: d.str(30, 36) });

function readBradesco(content: string, problems: FileProblem[], kind: 'REMESSA' | 'RETORNO') {
  const { header: h, details } = c.readFile400(content, problems);
  c.checkHeader400(h, problems, kind, BANK, 'Bradesco');
  const { agency, account } = c.sameAccount(details, accountOf, problems, 'identificação da empresa (21-37)');
  for (const d of details) {
    if (!/^\d{5}$/.test(d.str(25, 29)) || !/^\d{7}$/.test(d.str(30, 36)))
      problems.push({ line: d.line, field: 'identificação da empresa (21-37)', message: `not an agência/conta: "${d.str(21, 37)}"` });
  }
  return {
    envelope: {
      bankCode: h.str(77, 79),
      agency,
      account,
      beneficiaryCode: h.digits(27, 46, 'código da empresa').replace(/^0+(?=\d)/, ''),
      fileNumber: Number(kind === 'REMESSA' ? h.digits(111, 117, 'remessa number') : h.digits(109, 113, 'aviso bancário')),
      kind: h.str(2, 2),
    },
    details,
  };
}

export function parseRetorno400Bradesco(content: string): c.ParsedRetorno400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readBradesco(content, problems, 'RETORNO');
  const occurrences = details.map((d) => {
    const fee = d.money(176, 188, 'despesas de cobrança');
    const paid = d.money(254, 266, 'valor pago');
    const dv = d.str(82, 82);
    if (!/^[\dP]$/.test(dv)) problems.push({ line: d.line, field: 'nosso número DV (82)', message: `not a check digit: "${dv}"` });
    return {
      line: d.line,
      code: c.occurrenceFromBank(RETORNO, d.digits(109, 110, 'identificação da ocorrência')),
      nossoNumero: d.digits(71, 81, 'nosso número'),
      nossoNumeroDv: dv,
      documentNumber: d.str(117, 126).trim(),
      companyRef: d.str(38, 62).trim(),
      dueDate: d.date(147, 152, 'vencimento', true),
      titleAmount: d.money(153, 165, 'valor do título'),
      bankFee: fee,
      reasons: c.reasonsOf(d.str(319, 328), 2),
      charges: d.money(267, 279, 'juros de mora'),
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

export function parseRemessa400Bradesco(content: string): c.ParsedRemessa400 {
  const problems: FileProblem[] = [];
  const { envelope, details } = readBradesco(content, problems, 'REMESSA');
  const titles = details.map((d) => {
    const movement = c.movementFromBank(REMESSA, d.digits(109, 110, 'identificação da ocorrência'));
    const amount = d.money(127, 139, 'valor do título');
    c.payerRequired(d, problems);
    const fine = d.str(66, 66);
    if (fine !== '0' && fine !== '2')
      problems.push({ line: d.line, field: 'campo de multa (66)', message: `expected 0 or 2, found "${fine}"` });
    return {
      line: d.line,
      movement,
      nossoNumero: d.digits(71, 81, 'nosso número'),
      nossoNumeroDv: d.str(82, 82),
      documentNumber: d.str(111, 120).trim(),
      companyRef: d.str(38, 62).trim(),
      issueDate: d.date(151, 156, 'data de emissão') ?? '',
      dueDate: d.date(121, 126, 'vencimento') ?? '',
      amount,
      discountAmount: d.money(180, 192, 'desconto'),
      interestPerDay: d.money(161, 173, 'mora por dia'),
      finePercent: fine === '2' ? d.money(67, 70, 'percentual de multa') : new Dec(0),
      payerDocument: c.documentOf(d.digits(221, 234, 'payer document')),
    };
  });
  return c.parsedRemessa400(envelope, titles, problems);
}

export const BRADESCO_400 = c.layout400(
  REMESSA,
  writeRemessa400Bradesco,
  parseRemessa400Bradesco,
  writeRetorno400Bradesco,
  parseRetorno400Bradesco,
);
