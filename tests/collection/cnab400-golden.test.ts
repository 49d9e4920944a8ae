import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import type { CnabAccount, RemessaTitle, RetornoOccurrence } from '../../src/modules/collection/cnab/cnab240';
import type { Cnab400Layout } from '../../src/modules/collection/cnab/cnab400';
import { BB_400 } from '../../src/modules/collection/cnab/cnab400-bb';
import { BRADESCO_400 } from '../../src/modules/collection/cnab/cnab400-bradesco';
import { CAIXA_400 } from '../../src/modules/collection/cnab/cnab400-caixa';
import { ITAU_400 } from '../../src/modules/collection/cnab/cnab400-itau';
import { SANTANDER_400 } from '../../src/modules/collection/cnab/cnab400-santander';
import { CnabParseError } from '../../src/modules/collection/cnab/record';

/*
 * Each bank's CNAB 400 pinned byte for byte: the remessa and retorno its layout writes for fixed
 * titles and occurrences, what its readers make of them, and the problems they name in files
 * spoiled field by field. The expected text was written by the layouts as they stood before the
 * shared parts were folded into cnab400.ts (issue 49): a change of any byte is a change of the file
 * a bank receives or of what we read from one.
 */

const AT = new Date('2026-11-20T15:00:00Z');
const COMPANY = { companyName: 'Comércio Exemplo Ltda', companyDocument: '11222333000181' };

const ACCOUNTS: Record<string, CnabAccount> = {
  '341': {
    bankCode: '341',
    agency: '1234',
    agencyDigit: null,
    account: '12345',
    accountDigit: '1',
    beneficiaryCode: null,
    carteira: '109',
    ...COMPANY,
  },
  '237': {
    bankCode: '237',
    agency: '0427',
    agencyDigit: '8',
    account: '0506511',
    accountDigit: '9',
    beneficiaryCode: '4455667',
    carteira: '09',
    ...COMPANY,
  },
  '033': {
    bankCode: '033',
    agency: '1234',
    agencyDigit: null,
    account: '12345678',
    accountDigit: '4',
    beneficiaryCode: '7654321',
    carteira: '101',
    ...COMPANY,
  },
  '001': {
    bankCode: '001',
    agency: '2359',
    agencyDigit: '0',
    account: '30416',
    accountDigit: '6',
    beneficiaryCode: '1234567',
    carteiraVariation: '019',
    carteira: '17',
    ...COMPANY,
  },
  '104': {
    bankCode: '104',
    agency: '1234',
    agencyDigit: null,
    account: '00112345678',
    accountDigit: '2',
    beneficiaryCode: '123456',
    carteira: 'RG',
    ...COMPANY,
  },
};

const LAYOUTS: [string, Cnab400Layout][] = [
  ['341', ITAU_400],
  ['237', BRADESCO_400],
  ['033', SANTANDER_400],
  ['001', BB_400],
  ['104', CAIXA_400],
];

/** The nosso número each bank's files carry (digits and DV) for title n. */
const NN: Record<string, (n: number) => [string, string]> = {
  '341': (n) => [String(n).padStart(8, '0'), String(n % 10)],
  '237': (n) => [String(n).padStart(11, '0'), n === 2 ? 'P' : String(n % 10)],
  '033': (n) => [String(n).padStart(12, '0'), String(n % 10)],
  '001': (n) => ['1234567' + String(n).padStart(10, '0'), ''],
  '104': (n) => ['14' + String(n).padStart(15, '0'), ''],
};

const payer = (n: number): RemessaTitle['payer'] =>
  n === 1
    ? {
        document: '529.982.247-25',
        name: 'Maria da Silva Comércio e Representações Ltda ME',
        street: 'Rua Augusta, 1500 — apto 12',
        district: 'Consolação',
        postalCode: '01304-001',
        city: 'São Paulo',
        uf: 'SP',
      }
    : {
        document: '11.222.333/0001-81',
        name: 'José Açougue',
        street: 'Av. Brasil 10',
        district: 'Centro',
        postalCode: '20040',
        city: 'Rio de Janeiro',
        uf: 'RJ',
      };

function titles(bank: string, movements: readonly string[]): RemessaTitle[] {
  return movements.map((movement, i) => {
    const n = i + 1;
    const [nossoNumero, nossoNumeroDv] = NN[bank](n);
    return {
      movement,
      nossoNumero,
      nossoNumeroDv,
      documentNumber: `NF-${1000 + n}/${n}`,
      companyRef: n % 2 ? 'xK4rbPq9' : 'Zq7-ção',
      issueDate: '2026-11-01',
      dueDate: `2026-12-${String(n + 9).padStart(2, '0')}`,
      amount: new Dec(n === 1 ? '1234.56' : String(100 * n + 0.07)),
      interestPerDay: new Dec(n === 2 ? '0' : '0.41'),
      discountAmount: new Dec(n === 1 ? '12.5' : '0'),
      discountDate: n === 1 ? '2026-12-05' : null,
      finePercent: new Dec(n === 3 ? '0' : '2'),
      protestDays: n === 1 ? 5 : null,
      writeOffDays: n === 2 ? 30 : n === 3 ? 120 : null,
      payer: payer(n),
    };
  });
}

/** FEBRABAN codes, the acted-on ones and some that are the bank's own or nobody's. */
const CODES = ['02', '03', '06', '09', '14', '17', '19', '25', '28', '44'];

function occurrences(bank: string, codes: string[]): Omit<RetornoOccurrence, 'line'>[] {
  return codes.map((code, i) => {
    const n = i + 1;
    const [nossoNumero, nossoNumeroDv] = NN[bank](n);
    const paid = code === '06' || code === '17';
    return {
      code,
      nossoNumero,
      nossoNumeroDv,
      documentNumber: `NF-${1000 + n}/${n}`,
      companyRef: n % 2 ? 'xK4rbPq9' : 'Zq7-ção',
      dueDate: n === 4 ? null : `2026-12-${String(n + 9).padStart(2, '0')}`,
      titleAmount: new Dec(String(100 * n + 0.07)),
      bankFee: new Dec(n % 3 ? '2.5' : '0'),
      reasons: code === '03' ? ['17', '48'] : code === '02' ? ['04'] : [],
      charges: new Dec(paid ? '3.21' : '0'),
      discount: new Dec(n === 3 ? '1.1' : '0'),
      rebate: new Dec(n === 5 ? '0.5' : '0'),
      paidAmount: new Dec(paid ? String(100 * n + 3.28) : '0'),
      creditedAmount: new Dec(paid ? String(100 * n + 0.78) : '0'),
      occurrenceDate: '2026-12-15',
      creditDate: paid ? '2026-12-16' : null,
    };
  });
}

/** What a reader gives back, as plain text (Dec as its digits). */
const plain = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (v instanceof Dec ? `Dec(${v.toString()})` : v));

/** The problems a reader names, or what it threw. */
function problemsOf(read: () => unknown): string {
  try {
    read();
    return 'read';
  } catch (err) {
    return err instanceof CnabParseError ? plain(err.problems) : `threw ${(err as Error).message}`;
  }
}

/** Spoils a file: a character at (line, 1-based position) replaced. */
function spoil(file: string, edits: [number, number, string][]): string {
  const lines = file.split('\r\n');
  for (const [line, at, text] of edits) lines[line] = lines[line].slice(0, at - 1) + text + lines[line].slice(at - 1 + text.length);
  return lines.join('\r\n');
}

/** Every 400-position record spoiled in the same places: the record type, the bank, a money field, a date, a sequence number, a short line. */
const SPOILS: [number, number, string][][] = [
  [[0, 2, '9']],
  [[0, 77, '999']],
  [
    [1, 109, 'X1'],
    [1, 127, 'ABC'],
  ],
  [
    [1, 111, '3213'],
    [2, 147, '9999'],
  ],
  [[2, 395, '000009']],
  [[1, 1, '8']],
  [
    [1, 18, '9'],
    [1, 25, '9'],
    [1, 57, '9'],
    [1, 71, 'Q'],
    [1, 82, 'x'],
    [1, 221, '00000000000000'],
  ],
];

function golden(bank: string, layout: Cnab400Layout) {
  const account = ACCOUNTS[bank];
  const remessa = layout.writeRemessa(account, 42, AT, titles(bank, layout.movements));
  // The codes the bank has a code for (the others the writer refuses: pinned too).
  const codes = CODES.filter((c) => problemsOf(() => layout.writeRetorno(account, 1, AT, occurrences(bank, [c]))) === 'read');
  const retorno = layout.writeRetorno(account, 1043, AT, occurrences(bank, codes));
  const empty = layout.writeRetorno(account, 7, AT, []);
  return {
    codes,
    remessa: remessa.content,
    remessaTotals: plain({ recordCount: remessa.recordCount, totalAmount: remessa.totalAmount }),
    retorno,
    empty,
    parsedRemessa: plain(layout.parseRemessa(remessa.content)),
    parsedRetorno: plain(layout.parseRetorno(retorno)),
    parsedEmpty: plain(layout.parseRetorno(empty)),
    spoiledRemessa: SPOILS.map((s) => problemsOf(() => layout.parseRemessa(spoil(remessa.content, s)))),
    spoiledRetorno: SPOILS.map((s) => problemsOf(() => layout.parseRetorno(spoil(retorno, s)))),
    short: problemsOf(() => layout.parseRetorno(retorno.replace(/.\r\n/, '\r\n'))),
    refusals: [
      ...CODES.filter((c) => !codes.includes(c)).map((c) => problemsOf(() => layout.writeRetorno(account, 1, AT, occurrences(bank, [c])))),
      problemsOf(() =>
        layout.writeRemessa(
          { ...account, carteira: undefined, beneficiaryCode: null, carteiraVariation: null },
          1,
          AT,
          titles(bank, ['01']),
        ),
      ),
      problemsOf(() => layout.writeRemessa(account, 1, AT, titles(bank, ['47']))),
    ],
  };
}

/** Written by the layouts at f7e65a1 (before issue 49's folding). */
const EXPECTED: Record<string, ReturnType<typeof golden>> = {
  '341': {
    codes: ['02', '03', '06', '09', '14', '17', '19', '25', '28', '44'],
    remessa:
      '01REMESSA01COBRANCA       123400123451        COMERCIO EXEMPLO LTDA         341BANCO ITAU SA  201126        00042                                                                                                                                                                                                                                                                                         000001\r\n10211222333000181123400123451    0000xK4rbPq9                 000000010000000000000109                     I31NF-1001/1 10122600000001234563410000001N011126090000000000000410512260000000001250000000000000000000000000000100052998224725MARIA DA SILVA COMERCIO E REPR          RUA AUGUSTA, 1500   APTO 12             CONSOLACAO  01304001SAO PAULO      SP                                  10122605 000002\r\n10211222333000181123400123451    0000Zq7-  o                  000000020000000000000109                     I01NF-1002/2 11122600000000200073410000001N011126000000000000000000000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                  00000000 000003\r\n10211222333000181123400123451    0000xK4rbPq9                 000000030000000000000109                     I02NF-1003/3 12122600000000300073410000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                  12122600 000004\r\n10211222333000181123400123451    0000Zq7-  o                  000000040000000000000109                     I06NF-1004/4 13122600000000400073410000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                  13122600 000005\r\n10211222333000181123400123451    0000xK4rbPq9                 000000050000000000000109                     I09NF-1005/5 14122600000000500073410000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                  14122600 000006\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000007\r\n',
    remessaTotals: '{"recordCount":7,"totalAmount":"200.07"}',
    retorno:
      '02RETORNO01COBRANCA       123400123451        COMERCIO EXEMPLO LTDA         341BANCO ITAU SA  201126        01043                                                                                                                                                                                                                                                                                         000001\r\n10211222333000181123400123451        xK4rbPq9                 00000001            109000000011             I02151226NF-1001/1 00000001            101226000000001000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                     04               000002\r\n10211222333000181123400123451        Zq7-  o                  00000002            109000000022             I03151226NF-1002/2 00000002            111226000000002000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                     1748             000003\r\n10211222333000181123400123451        xK4rbPq9                 00000003            109000000033             I06151226NF-1003/3 00000003            121226000000003000734112340010000000000000                          000000000000000000000000000000000000110000000003032800000000003210000000000000   1612260000      0000000000000                                                                      000004\r\n10211222333000181123400123451        Zq7-  o                  00000004            109000000044             I09151226NF-1004/4 00000004            000000000000004000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000005\r\n10211222333000181123400123451        xK4rbPq9                 00000005            109000000055             I14151226NF-1005/5 00000005            141226000000005000734112340010000000000250                          000000000000000000000000500000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000006\r\n10211222333000181123400123451        Zq7-  o                  00000006            109000000066             I06151226NF-1006/6 00000006            151226000000006000734112340010000000000000                          000000000000000000000000000000000000000000000006032800000000003210000000000000   1612260000      0000000000000                                                                      000007\r\n10211222333000181123400123451        xK4rbPq9                 00000007            109000000077             I19151226NF-1007/7 00000007            161226000000007000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000008\r\n10211222333000181123400123451        Zq7-  o                  00000008            109000000088             I32151226NF-1008/8 00000008            171226000000008000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000009\r\n10211222333000181123400123451        xK4rbPq9                 00000009            109000000099             I28151226NF-1009/9 00000009            181226000000009000734112340010000000000000                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000010\r\n10211222333000181123400123451        Zq7-  o                  00000010            109000000100             I44151226NF-1010/1000000010            191226000000010000734112340010000000000250                          000000000000000000000000000000000000000000000000000000000000000000000000000000   0000000000      0000000000000                                                                      000011\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000012\r\n',
    empty:
      '02RETORNO01COBRANCA       123400123451        COMERCIO EXEMPLO LTDA         341BANCO ITAU SA  201126        00007                                                                                                                                                                                                                                                                                         000001\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000002\r\n',
    parsedRemessa:
      '{"bankCode":"341","agency":"1234","account":"12345","fileNumber":42,"kind":"1","titles":[{"line":2,"movement":"47","nossoNumero":"00000001","nossoNumeroDv":"","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-10","amount":"1234.56","discountAmount":"12.5","interestPerDay":"0.41","finePercent":"0","payerDocument":"52998224725"},{"line":3,"movement":"01","nossoNumero":"00000002","nossoNumeroDv":"","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-11","amount":"200.07","discountAmount":"0","interestPerDay":"0","finePercent":"0","payerDocument":"11222333000181"},{"line":4,"movement":"02","nossoNumero":"00000003","nossoNumeroDv":"","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-12","amount":"300.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"},{"line":5,"movement":"06","nossoNumero":"00000004","nossoNumeroDv":"","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-13","amount":"400.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"},{"line":6,"movement":"09","nossoNumero":"00000005","nossoNumeroDv":"","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-14","amount":"500.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"}],"registeredTotal":"200.07","lotTitleCount":1}',
    parsedRetorno:
      '{"bankCode":"341","agency":"1234","account":"12345","fileNumber":1043,"kind":"2","occurrences":[{"line":2,"code":"02","nossoNumero":"00000001","nossoNumeroDv":"1","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","dueDate":"2026-12-10","titleAmount":"100.07","bankFee":"2.5","reasons":["04"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":3,"code":"03","nossoNumero":"00000002","nossoNumeroDv":"2","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","dueDate":"2026-12-11","titleAmount":"200.07","bankFee":"2.5","reasons":["17","48"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":4,"code":"06","nossoNumero":"00000003","nossoNumeroDv":"3","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","dueDate":"2026-12-12","titleAmount":"300.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"1.1","rebate":"0","paidAmount":"303.28","creditedAmount":"303.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":5,"code":"09","nossoNumero":"00000004","nossoNumeroDv":"4","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","dueDate":null,"titleAmount":"400.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":6,"code":"14","nossoNumero":"00000005","nossoNumeroDv":"5","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","dueDate":"2026-12-14","titleAmount":"500.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0.5","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":7,"code":"06","nossoNumero":"00000006","nossoNumeroDv":"6","documentNumber":"NF-1006/6","companyRef":"Zq7-  o","dueDate":"2026-12-15","titleAmount":"600.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"0","rebate":"0","paidAmount":"603.28","creditedAmount":"603.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":8,"code":"19","nossoNumero":"00000007","nossoNumeroDv":"7","documentNumber":"NF-1007/7","companyRef":"xK4rbPq9","dueDate":"2026-12-16","titleAmount":"700.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":9,"code":"25","nossoNumero":"00000008","nossoNumeroDv":"8","documentNumber":"NF-1008/8","companyRef":"Zq7-  o","dueDate":"2026-12-17","titleAmount":"800.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":10,"code":"28","nossoNumero":"00000009","nossoNumeroDv":"9","documentNumber":"NF-1009/9","companyRef":"xK4rbPq9","dueDate":"2026-12-18","titleAmount":"900.07","bankFee":"0","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"0","occurrenceDate":"2026-12-15","creditDate":null},{"line":11,"code":"44","nossoNumero":"00000010","nossoNumeroDv":"0","documentNumber":"NF-1010/10","companyRef":"Zq7-  o","dueDate":"2026-12-19","titleAmount":"1000.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null}]}',
    parsedEmpty: '{"bankCode":"341","agency":"1234","account":"12345","fileNumber":7,"kind":"2","occurrences":[]}',
    spoiledRemessa: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a remessa (1)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Itaú file"}]',
      '[{"line":2,"field":"occurrence code (109-110)","message":"expected digits, found \\"X1\\""},{"line":2,"field":"amount (127-139)","message":"expected digits, found \\"ABC0000123456\\""}]',
      'read',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":2,"field":"payer document (221-234)","message":"the payer’s CPF/CNPJ is required"}]',
    ],
    spoiledRetorno: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a retorno (2)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Itaú file"}]',
      '[{"line":2,"field":"occurrence code (109-110)","message":"expected digits, found \\"X1\\""}]',
      '[{"line":2,"field":"occurrence date (111-116)","message":"not a date: \\"321326\\""},{"line":3,"field":"due date (147-152)","message":"not a date: \\"999926\\""}]',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      'read',
    ],
    short: '[{"line":1,"field":"record","message":"399 positions, a CNAB 400 record has 400"}]',
    refusals: ['threw CNAB 400 needs the carteira', 'read'],
  },
  '237': {
    codes: ['02', '03', '06', '09', '14', '17', '19', '28', '44'],
    remessa:
      '01REMESSA01COBRANCA       00000000000004455667COMERCIO EXEMPLO LTDA         237BRADESCO       201126        MX0000042                                                                                                                                                                                                                                                                                     000001\r\n1000000000000000000000090042705065119xK4rbPq9                 0002020000000000001100000000002N              31NF-1001/1 10122600000001234560000000001N011126060500000000000410512260000000001250000000000000000000000000000100052998224725MARIA DA SILVA COMERCIO E REPRESENTACOESRUA AUGUSTA, 1500   APTO 12 CONSOLACAO S            01304001                                                            000002\r\n1000000000000000000000090042705065119Zq7-  o                  0002020000000000002P00000000002N              01NF-1002/2 11122600000000200070000000001N011126000000000000000000000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10 CENTRO RIO DE JANEIRO/RJ              20040000                                                            000003\r\n1000000000000000000000090042705065119xK4rbPq9                 0000000000000000003300000000002N              02NF-1003/3 12122600000000300070000000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10 CENTRO RIO DE JANEIRO/RJ              20040000                                                            000004\r\n1000000000000000000000090042705065119Zq7-  o                  0002020000000000004400000000002N              06NF-1004/4 13122600000000400070000000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10 CENTRO RIO DE JANEIRO/RJ              20040000                                                            000005\r\n1000000000000000000000090042705065119xK4rbPq9                 0002020000000000005500000000002N              09NF-1005/5 14122600000000500070000000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10 CENTRO RIO DE JANEIRO/RJ              20040000                                                            000006\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000007\r\n',
    remessaTotals: '{"recordCount":7,"totalAmount":"200.07"}',
    retorno:
      '02RETORNO01COBRANCA       00000000000004455667COMERCIO EXEMPLO LTDA         237BRADESCO       2011260160000001043                                                                                                                                                                                                                                                                          201126         000001\r\n1021122233300018100000090042705065119xK4rbPq9                 000000000000000000110000000000000000000000 00902151226NF-1001/1 000000000011        101226000000001000723700427  000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00000400000000                                        00                        000002\r\n1021122233300018100000090042705065119Zq7-  o                  0000000000000000002P0000000000000000000000 00903151226NF-1002/2 00000000002P        111226000000002000723700427  000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00001748000000                                        00                        000003\r\n1021122233300018100000090042705065119xK4rbPq9                 000000000000000000330000000000000000000000 00906151226NF-1003/3 000000000033        121226000000003000723700427  000000000000000000000000000000000000000000000000000000000000000000000000000110000000003032800000000003210000000000000   161226             00000000000000                                        00                        000004\r\n1021122233300018100000090042705065119Zq7-  o                  000000000000000000440000000000000000000000 00909151226NF-1004/4 000000000044        000000000000004000723700427  000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00000000000000                                        00                        000005\r\n1021122233300018100000090042705065119xK4rbPq9                 000000000000000000550000000000000000000000 00914151226NF-1005/5 000000000055        141226000000005000723700427  000000000025000000000000000000000000000000000000000000000000000500000000000000000000000000000000000000000000000000000   000000             00000000000000                                        00                        000006\r\n1021122233300018100000090042705065119Zq7-  o                  000000000000000000660000000000000000000000 00917151226NF-1006/6 000000000066        151226000000006000723700427  000000000000000000000000000000000000000000000000000000000000000000000000000000000000006032800000000003210000000000000   161226             00000000000000                                        00                        000007\r\n1021122233300018100000090042705065119xK4rbPq9                 000000000000000000770000000000000000000000 00919151226NF-1007/7 000000000077        161226000000007000723700427  000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00000000000000                                        00                        000008\r\n1021122233300018100000090042705065119Zq7-  o                  000000000000000000880000000000000000000000 00928151226NF-1008/8 000000000088        171226000000008000723700427  000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00000000000000                                        00                        000009\r\n1021122233300018100000090042705065119xK4rbPq9                 000000000000000000990000000000000000000000 00944151226NF-1009/9 000000000099        181226000000009000723700427  000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000             00000000000000                                        00                        000010\r\n9201237          000000090000000045006300001043                                                                                                                                                                                                                                                                                                                                                           000011\r\n',
    empty:
      '02RETORNO01COBRANCA       00000000000004455667COMERCIO EXEMPLO LTDA         237BRADESCO       2011260160000000007                                                                                                                                                                                                                                                                          201126         000001\r\n9201237          000000000000000000000000000007                                                                                                                                                                                                                                                                                                                                                           000002\r\n',
    parsedRemessa:
      '{"bankCode":"237","agency":"00427","account":"0506511","beneficiaryCode":"4455667","fileNumber":42,"kind":"1","titles":[{"line":2,"movement":"47","nossoNumero":"00000000001","nossoNumeroDv":"1","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-10","amount":"1234.56","discountAmount":"12.5","interestPerDay":"0.41","finePercent":"2","payerDocument":"52998224725"},{"line":3,"movement":"01","nossoNumero":"00000000002","nossoNumeroDv":"P","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-11","amount":"200.07","discountAmount":"0","interestPerDay":"0","finePercent":"2","payerDocument":"11222333000181"},{"line":4,"movement":"02","nossoNumero":"00000000003","nossoNumeroDv":"3","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-12","amount":"300.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"},{"line":5,"movement":"06","nossoNumero":"00000000004","nossoNumeroDv":"4","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-13","amount":"400.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"2","payerDocument":"11222333000181"},{"line":6,"movement":"09","nossoNumero":"00000000005","nossoNumeroDv":"5","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-14","amount":"500.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"2","payerDocument":"11222333000181"}],"registeredTotal":"200.07","lotTitleCount":1}',
    parsedRetorno:
      '{"bankCode":"237","agency":"00427","account":"0506511","beneficiaryCode":"4455667","fileNumber":1043,"kind":"2","occurrences":[{"line":2,"code":"02","nossoNumero":"00000000001","nossoNumeroDv":"1","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","dueDate":"2026-12-10","titleAmount":"100.07","bankFee":"2.5","reasons":["04"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":3,"code":"03","nossoNumero":"00000000002","nossoNumeroDv":"P","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","dueDate":"2026-12-11","titleAmount":"200.07","bankFee":"2.5","reasons":["17","48"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":4,"code":"06","nossoNumero":"00000000003","nossoNumeroDv":"3","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","dueDate":"2026-12-12","titleAmount":"300.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"1.1","rebate":"0","paidAmount":"303.28","creditedAmount":"303.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":5,"code":"09","nossoNumero":"00000000004","nossoNumeroDv":"4","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","dueDate":null,"titleAmount":"400.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":6,"code":"14","nossoNumero":"00000000005","nossoNumeroDv":"5","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","dueDate":"2026-12-14","titleAmount":"500.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0.5","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":7,"code":"17","nossoNumero":"00000000006","nossoNumeroDv":"6","documentNumber":"NF-1006/6","companyRef":"Zq7-  o","dueDate":"2026-12-15","titleAmount":"600.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"0","rebate":"0","paidAmount":"603.28","creditedAmount":"603.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":8,"code":"19","nossoNumero":"00000000007","nossoNumeroDv":"7","documentNumber":"NF-1007/7","companyRef":"xK4rbPq9","dueDate":"2026-12-16","titleAmount":"700.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":9,"code":"28","nossoNumero":"00000000008","nossoNumeroDv":"8","documentNumber":"NF-1008/8","companyRef":"Zq7-  o","dueDate":"2026-12-17","titleAmount":"800.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":10,"code":"44","nossoNumero":"00000000009","nossoNumeroDv":"9","documentNumber":"NF-1009/9","companyRef":"xK4rbPq9","dueDate":"2026-12-18","titleAmount":"900.07","bankFee":"0","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"0","occurrenceDate":"2026-12-15","creditDate":null}]}',
    parsedEmpty: '{"bankCode":"237","agency":null,"account":null,"beneficiaryCode":"4455667","fileNumber":7,"kind":"2","occurrences":[]}',
    spoiledRemessa: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a remessa (1)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Bradesco file"}]',
      '[{"line":2,"field":"identificação da ocorrência (109-110)","message":"expected digits, found \\"X1\\""},{"line":2,"field":"valor do título (127-139)","message":"expected digits, found \\"ABC0000123456\\""}]',
      'read',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":3,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":4,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":5,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":6,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":2,"field":"payer document (221-234)","message":"the payer’s CPF/CNPJ is required"},{"line":2,"field":"nosso número (71-81)","message":"expected digits, found \\"Q0000000001\\""}]',
    ],
    spoiledRetorno: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a retorno (2)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Bradesco file"}]',
      '[{"line":2,"field":"identificação da ocorrência (109-110)","message":"expected digits, found \\"X1\\""}]',
      '[{"line":2,"field":"data da ocorrência (111-116)","message":"not a date: \\"321326\\""},{"line":3,"field":"vencimento (147-152)","message":"not a date: \\"999926\\""}]',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":3,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":4,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":5,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":6,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":7,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":8,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":9,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":10,"field":"identificação da empresa (21-37)","message":"agência/conta 00427/0506511, the file\'s first title is of 90427/0506511"},{"line":2,"field":"nosso número DV (82)","message":"not a check digit: \\"x\\""},{"line":2,"field":"nosso número (71-81)","message":"expected digits, found \\"Q0000000001\\""}]',
    ],
    short: '[{"line":1,"field":"record","message":"399 positions, a CNAB 400 record has 400"}]',
    refusals: [
      'threw the layout has no code for occurrence 25',
      'threw Bradesco CNAB 400 needs the código da empresa (beneficiaryCode)',
      'read',
    ],
  },
  '033': {
    codes: ['02', '03', '06', '09', '14', '17', '19', '28', '44'],
    remessa:
      '01REMESSA01COBRANCA       12340765432101234567COMERCIO EXEMPLO LTDA         033SANTANDER      2011260000000000000000                                                                                                                                                                                                                                                                                   042000001\r\n1021122233300018112340765432101234567xK4rbPq9                 00000011000000 40200000000000000000    111226501NF-1001/1 10122600000001234560330000001N011126060000000000000410512260000000001250000000000000000000000000000100052998224725MARIA DA SILVA COMERCIO E REPRESENTACOESRUA AUGUSTA, 1500   APTO 12             CONSOLACAO  01304001SAO PAULO      SP                               I84      05 000002\r\n1021122233300018112340765432101234567Zq7-  o                  00000022000000 40200000000000000000    121226502NF-1002/2 11122600000000200070330000001N011126000000000000000000000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                               I84      00 000003\r\n1021122233300018112340765432101234567xK4rbPq9                 00000033000000 00000000000000000000    000000506NF-1003/3 12122600000000300070330000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                               I84      00 000004\r\n1021122233300018112340765432101234567Zq7-  o                  00000044000000 40200000000000000000    141226509NF-1004/4 13122600000000400070330000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                               I84      00 000005\r\n9000004000000021347700000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006\r\n',
    remessaTotals: '{"recordCount":6,"totalAmount":"1234.56"}',
    retorno:
      '02RETORNO01COBRANCA       12340765432101234567COMERCIO EXEMPLO LTDA         033SANTANDER      2011260000000000000000                                                                                                                                                                                                                                                                                   043000001\r\n1021122233300018112340765432101234567xK4rbPq9                 00000011                                     502151226NF-1001/1 0000001100004000000 10122600000000100070330123401000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000002\r\n1021122233300018112340765432101234567Zq7-  o                  00000022                                     503151226NF-1002/2 0000002200017048000 11122600000000200070330123401000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000003\r\n1021122233300018112340765432101234567xK4rbPq9                 00000033                                     506151226NF-1003/3 0000003300000000000 12122600000000300070330123401000000000000000000000000000000000000000000000000000000000000000000000000000110000000003032800000000003210000000000000   161226                                                                                  84      043000004\r\n1021122233300018112340765432101234567Zq7-  o                  00000044                                     509151226NF-1004/4 0000004400000000000 00000000000000400070330123401000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000005\r\n1021122233300018112340765432101234567xK4rbPq9                 00000055                                     514151226NF-1005/5 0000005500000000000 14122600000000500070330123401000000000025000000000000000000000000000000000000000000000000000500000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000006\r\n1021122233300018112340765432101234567Zq7-  o                  00000066                                     506151226NF-1006/6 0000006600000000000 15122600000000600070330123401000000000000000000000000000000000000000000000000000000000000000000000000000000000000006032800000000003210000000000000   161226                                                                                  84      043000007\r\n1021122233300018112340765432101234567xK4rbPq9                 00000077                                     525151226NF-1007/7 0000007700000000000 16122600000000700070330123401000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000008\r\n1021122233300018112340765432101234567Zq7-  o                  00000088                                     528151226NF-1008/8 0000008800000000000 17122600000000800070330123401000000000025000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000009\r\n1021122233300018112340765432101234567xK4rbPq9                 00000099                                     544151226NF-1009/9 0000009900000000000 18122600000000900070330123401000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000   000000                                                                                  84      043000010\r\n9201033          000000090000000045006300000000                                                                                                                                                                                                                                                                                                                                                           000011\r\n',
    empty:
      '02RETORNO01COBRANCA       12340765432101234567COMERCIO EXEMPLO LTDA         033SANTANDER      2011260000000000000000                                                                                                                                                                                                                                                                                   007000001\r\n9201033          000000000000000000000000000000                                                                                                                                                                                                                                                                                                                                                           000002\r\n',
    parsedRemessa:
      '{"bankCode":"033","agency":"1234","account":"012345678","beneficiaryCode":"7654321","transmissionCode":"12340765432101234567","fileNumber":42,"kind":"1","titles":[{"line":2,"movement":"01","nossoNumero":"000000000001","nossoNumeroDv":"1","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-10","amount":"1234.56","discountAmount":"12.5","interestPerDay":"0.41","finePercent":"2","payerDocument":"52998224725"},{"line":3,"movement":"02","nossoNumero":"000000000002","nossoNumeroDv":"2","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-11","amount":"200.07","discountAmount":"0","interestPerDay":"0","finePercent":"2","payerDocument":"11222333000181"},{"line":4,"movement":"06","nossoNumero":"000000000003","nossoNumeroDv":"3","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-12","amount":"300.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"},{"line":5,"movement":"09","nossoNumero":"000000000004","nossoNumeroDv":"4","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-13","amount":"400.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"2","payerDocument":"11222333000181"}],"registeredTotal":"1234.56","lotTitleCount":1}',
    parsedRetorno:
      '{"bankCode":"033","agency":"1234","account":"012345678","beneficiaryCode":"7654321","transmissionCode":"12340765432101234567","fileNumber":43,"kind":"2","occurrences":[{"line":2,"code":"02","nossoNumero":"000000000001","nossoNumeroDv":"1","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","dueDate":"2026-12-10","titleAmount":"100.07","bankFee":"2.5","reasons":["004"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":3,"code":"03","nossoNumero":"000000000002","nossoNumeroDv":"2","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","dueDate":"2026-12-11","titleAmount":"200.07","bankFee":"2.5","reasons":["017","048"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":4,"code":"06","nossoNumero":"000000000003","nossoNumeroDv":"3","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","dueDate":"2026-12-12","titleAmount":"300.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"1.1","rebate":"0","paidAmount":"303.28","creditedAmount":"303.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":5,"code":"09","nossoNumero":"000000000004","nossoNumeroDv":"4","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","dueDate":null,"titleAmount":"400.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":6,"code":"14","nossoNumero":"000000000005","nossoNumeroDv":"5","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","dueDate":"2026-12-14","titleAmount":"500.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0.5","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":7,"code":"06","nossoNumero":"000000000006","nossoNumeroDv":"6","documentNumber":"NF-1006/6","companyRef":"Zq7-  o","dueDate":"2026-12-15","titleAmount":"600.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"0","rebate":"0","paidAmount":"603.28","creditedAmount":"603.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":8,"code":"19","nossoNumero":"000000000007","nossoNumeroDv":"7","documentNumber":"NF-1007/7","companyRef":"xK4rbPq9","dueDate":"2026-12-16","titleAmount":"700.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":9,"code":"28","nossoNumero":"000000000008","nossoNumeroDv":"8","documentNumber":"NF-1008/8","companyRef":"Zq7-  o","dueDate":"2026-12-17","titleAmount":"800.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":10,"code":"44","nossoNumero":"000000000009","nossoNumeroDv":"9","documentNumber":"NF-1009/9","companyRef":"xK4rbPq9","dueDate":"2026-12-18","titleAmount":"900.07","bankFee":"0","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"0","occurrenceDate":"2026-12-15","creditDate":null}]}',
    parsedEmpty:
      '{"bankCode":"033","agency":"1234","account":null,"beneficiaryCode":"7654321","transmissionCode":"12340765432101234567","fileNumber":7,"kind":"2","occurrences":[]}',
    spoiledRemessa: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a remessa (1)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Santander file"}]',
      '[{"line":2,"field":"código de ocorrência (109-110)","message":"expected digits, found \\"X1\\""},{"line":2,"field":"valor do título (127-139)","message":"expected digits, found \\"ABC0000123456\\""},{"line":6,"field":"valor total dos títulos (8-20)","message":"says 2134.77, the details add up to 900.21"}]',
      'read',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":2,"field":"código de transmissão (18-37)","message":"\\"92340769432101234567\\", the header\'s is \\"12340765432101234567\\""},{"line":2,"field":"payer document (221-234)","message":"the payer’s CPF/CNPJ is required"},{"line":2,"field":"percentual de multa (79-82)","message":"expected digits, found \\"020x\\""}]',
    ],
    spoiledRetorno: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a retorno (2)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Santander file"}]',
      '[{"line":2,"field":"código de ocorrência (109-110)","message":"expected digits, found \\"X1\\""}]',
      '[{"line":2,"field":"data da ocorrência (111-116)","message":"not a date: \\"321326\\""},{"line":3,"field":"vencimento (147-152)","message":"not a date: \\"999926\\""}]',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":2,"field":"código de transmissão (18-37)","message":"\\"92340769432101234567\\", the header\'s is \\"12340765432101234567\\""}]',
    ],
    short: '[{"line":1,"field":"record","message":"399 positions, a CNAB 400 record has 400"}]',
    refusals: [
      'threw the layout has no code for occurrence 25',
      'threw Santander CNAB 400 needs the código do beneficiário',
      'threw the layout cannot carry movement 47',
    ],
  },
  '001': {
    codes: ['02', '03', '06', '09', '14', '17', '19', '28', '44'],
    remessa:
      '01REMESSA01COBRANCA       23590000304166000000COMERCIO EXEMPLO LTDA         001BANCODOBRASIL  2011260000042                      1234567                                                                                                                                                                                                                                                                  000001\r\n70211222333000181235900003041661234567xK4rbPq9                 123456700000000010000       0190000000     1701NF-1001/1 10122600000001234560010000 01N011126060000000000000410512260000000001250000000000000000000000000000100052998224725MARIA DA SILVA COMERCIO E REPRESENTAC   RUA AUGUSTA, 1500   APTO 12             CONSOLACAO  01304001SAO PAULO      SP                                        05 000002\r\n5992111226000000000200                                                                                                                                                                                                                                                                                                                                                                                    000003\r\n70211222333000181235900003041661234567Zq7-  o                  123456700000000020000       0190000000     1702NF-1002/2 11122600000000200070010000 01N011126000000000000000000000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                        00 000004\r\n70211222333000181235900003041661234567xK4rbPq9                 123456700000000030000       0190000000     1706NF-1003/3 12122600000000300070010000 01N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                        00 000005\r\n70211222333000181235900003041661234567Zq7-  o                  123456700000000040000       0190000000     1709NF-1004/4 13122600000000400070010000 01N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ                                        00 000006\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000007\r\n',
    remessaTotals: '{"recordCount":7,"totalAmount":"1234.56"}',
    retorno:
      '02RETORNO01COBRANCA       23590000304166000000COMERCIO EXEMPLO LTDA         001BANCODOBRASIL  2011260001043                                          1234567                                                                                                                                                                                                                                              000001\r\n70000000000000000235900003041661234567xK4rbPq9                 1234567000000000100000004   01900000000000 1702151226NF-1001/1                     101226000000001000700123590010000000000250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000002\r\n70000000000000000235900003041661234567Zq7-  o                  1234567000000000200000017   01900000000000 1703151226NF-1002/2                     111226000000002000700123590010000000000250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000003\r\n70000000000000000235900003041661234567xK4rbPq9                 1234567000000000300000000   01900000000000 1706151226NF-1003/3                     121226000000003000700123590011612260000000000000000000000000000000000000000000000000000000000000000000001100000000030328000000000032100000000000000000000000000000000003007800000000000000          000000000000000000000000000000000000000000000000    000004\r\n70000000000000000235900003041661234567Zq7-  o                  1234567000000000400000000   01900000000000 1709151226NF-1004/4                     000000000000004000700123590010000000000250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000005\r\n70000000000000000235900003041661234567xK4rbPq9                 1234567000000000500000000   01900000000000 1714151226NF-1005/5                     141226000000005000700123590010000000000250000000000000000000000000000000000000000000000000005000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000006\r\n70000000000000000235900003041661234567Zq7-  o                  1234567000000000600000000   01900000000000 1706151226NF-1006/6                     151226000000006000700123590011612260000000000000000000000000000000000000000000000000000000000000000000000000000000060328000000000032100000000000000000000000000000000006007800000000000000          000000000000000000000000000000000000000000000000    000007\r\n70000000000000000235900003041661234567xK4rbPq9                 1234567000000000700000000   01900000000000 1719151226NF-1007/7                     161226000000007000700123590010000000000250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000008\r\n70000000000000000235900003041661234567Zq7-  o                  1234567000000000800000000   01900000000000 1728151226NF-1008/8                     171226000000008000700123590010000000000250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000009\r\n70000000000000000235900003041661234567xK4rbPq9                 1234567000000000900000000   01900000000000 1744151226NF-1009/9                     181226000000009000700123590010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000          000000000000000000000000000000000000000000000000    000010\r\n9201001          000000090000000045006300000000                                                                                                                                                                                                                                                                                                                                                           000011\r\n',
    empty:
      '02RETORNO01COBRANCA       23590000304166000000COMERCIO EXEMPLO LTDA         001BANCODOBRASIL  2011260000007                                          1234567                                                                                                                                                                                                                                              000001\r\n9201001          000000000000000000000000000000                                                                                                                                                                                                                                                                                                                                                           000002\r\n',
    parsedRemessa:
      '{"bankCode":"001","agency":"2359","account":"00030416","beneficiaryCode":"1234567","fileNumber":42,"kind":"1","titles":[{"line":2,"movement":"01","nossoNumero":"12345670000000001","nossoNumeroDv":"","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-10","amount":"1234.56","discountAmount":"12.5","interestPerDay":"0.41","finePercent":"2","payerDocument":"52998224725"},{"line":4,"movement":"02","nossoNumero":"12345670000000002","nossoNumeroDv":"","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-11","amount":"200.07","discountAmount":"0","interestPerDay":"0","finePercent":"0","payerDocument":"11222333000181"},{"line":5,"movement":"06","nossoNumero":"12345670000000003","nossoNumeroDv":"","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-12","amount":"300.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"},{"line":6,"movement":"09","nossoNumero":"12345670000000004","nossoNumeroDv":"","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-13","amount":"400.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"}],"registeredTotal":"1234.56","lotTitleCount":1}',
    parsedRetorno:
      '{"bankCode":"001","agency":"2359","account":"00030416","beneficiaryCode":"1234567","fileNumber":1043,"kind":"2","occurrences":[{"line":2,"code":"02","nossoNumero":"12345670000000001","nossoNumeroDv":"","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","dueDate":"2026-12-10","titleAmount":"100.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":3,"code":"03","nossoNumero":"12345670000000002","nossoNumeroDv":"","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","dueDate":"2026-12-11","titleAmount":"200.07","bankFee":"2.5","reasons":["17"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":4,"code":"06","nossoNumero":"12345670000000003","nossoNumeroDv":"","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","dueDate":"2026-12-12","titleAmount":"300.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"1.1","rebate":"0","paidAmount":"303.28","creditedAmount":"303.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":5,"code":"09","nossoNumero":"12345670000000004","nossoNumeroDv":"","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","dueDate":null,"titleAmount":"400.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":6,"code":"14","nossoNumero":"12345670000000005","nossoNumeroDv":"","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","dueDate":"2026-12-14","titleAmount":"500.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0.5","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":7,"code":"06","nossoNumero":"12345670000000006","nossoNumeroDv":"","documentNumber":"NF-1006/6","companyRef":"Zq7-  o","dueDate":"2026-12-15","titleAmount":"600.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"0","rebate":"0","paidAmount":"603.28","creditedAmount":"603.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":8,"code":"19","nossoNumero":"12345670000000007","nossoNumeroDv":"","documentNumber":"NF-1007/7","companyRef":"xK4rbPq9","dueDate":"2026-12-16","titleAmount":"700.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":9,"code":"28","nossoNumero":"12345670000000008","nossoNumeroDv":"","documentNumber":"NF-1008/8","companyRef":"Zq7-  o","dueDate":"2026-12-17","titleAmount":"800.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":10,"code":"44","nossoNumero":"12345670000000009","nossoNumeroDv":"","documentNumber":"NF-1009/9","companyRef":"xK4rbPq9","dueDate":"2026-12-18","titleAmount":"900.07","bankFee":"0","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"0","occurrenceDate":"2026-12-15","creditDate":null}]}',
    parsedEmpty:
      '{"bankCode":"001","agency":"2359","account":"00030416","beneficiaryCode":"1234567","fileNumber":7,"kind":"2","occurrences":[]}',
    spoiledRemessa: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a remessa (1)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Banco do Brasil file"}]',
      '[{"line":2,"field":"comando (109-110)","message":"expected digits, found \\"X1\\""},{"line":2,"field":"comando (109-110)","message":"command \\"X1\\" is not one we send"},{"line":2,"field":"amount (127-139)","message":"expected digits, found \\"ABC0000123456\\""}]',
      'read',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (7 or 5), found \\"8\\""},{"line":3,"field":"record type (1)","message":"a record 5 must follow its title’s detail 7"}]',
      '[{"line":2,"field":"payer document (221-234)","message":"the payer’s CPF/CNPJ is required"},{"line":2,"field":"nosso número (64-80)","message":"expected digits, found \\"1234567Q000000001\\""}]',
    ],
    spoiledRetorno: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a retorno (2)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Banco do Brasil file"}]',
      '[{"line":2,"field":"comando (109-110)","message":"expected digits, found \\"X1\\""}]',
      '[{"line":2,"field":"occurrence date (111-116)","message":"not a date: \\"321326\\""},{"line":3,"field":"due date (147-152)","message":"not a date: \\"999926\\""}]',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (7), found \\"8\\""}]',
      '[{"line":2,"field":"nosso número (64-80)","message":"expected digits, found \\"1234567Q000000001\\""}]',
    ],
    short: '[{"line":1,"field":"record","message":"399 positions, a CNAB 400 record has 400"}]',
    refusals: [
      'threw the layout has no code for occurrence 25',
      'threw BB CNAB 400 (CBR641) needs the convênio of 7 digits',
      'threw the layout cannot carry movement 47',
    ],
  },
  '104': {
    codes: ['02', '03', '06', '09', '14', '17', '19', '25', '28', '44'],
    remessa:
      '01REMESSA01COBRANCA       1234123456          COMERCIO EXEMPLO LTDA         104C ECON FEDERAL 201126                                                                                                                                                                                                                                                                                                 00042000001\r\n1021122233300018112341234562000xK4rbPq9                 14000000000000001                                 0101NF-1001/1 10122600000001234561040000001N011126010000000000000410512260000000001250000000000000000000000000000100052998224725MARIA DA SILVA COMERCIO E REPRESENTACOESRUA AUGUSTA, 1500   APTO 12             CONSOLACAO  01304001SAO PAULO      SP1112260000002469                      00051000002\r\n1021122233300018112341234562000Zq7-  o                  14000000000000002                                 0102NF-1002/2 11122600000000200071040000001N011126020000000000000000000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ1212260000000400                      00301000003\r\n1021122233300018112341234562000xK4rbPq9                 14000000000000003                                 0105NF-1003/3 12122600000000300071040000001N011126000000000000000410000000000000000000000000000000000000000000000211222333000181JOSE ACOUGUE                            AV. BRASIL 10                           CENTRO      20040000RIO DE JANEIRO RJ0000000000000000                      00001000004\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000005\r\n',
    remessaTotals: '{"recordCount":5,"totalAmount":"1234.56"}',
    retorno:
      '02RETORNO01COBRANCA       1234123456          COMERCIO EXEMPLO LTDA         104C ECON FEDERAL 201126                                                                                                                                                                                                                                                                                                 01043000001\r\n102112223330001811234123456    xK4rbPq9                 14000000000000001      000                        0101151226NF-1001/1                     101226000000001000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000002\r\n102112223330001811234123456    Zq7-  o                  14000000000000002      017                        0199151226NF-1002/2                     111226000000002000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000003\r\n102112223330001811234123456    xK4rbPq9                 14000000000000003      000                        0121151226NF-1003/3                     121226000000003000710401234010000000000000                          0000000000000000000000000000000000001100000000030328000000000032100000000000001161226                                                                                               000004\r\n102112223330001811234123456    Zq7-  o                  14000000000000004      000                        0102151226NF-1004/4                     000000000000004000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000005\r\n102112223330001811234123456    xK4rbPq9                 14000000000000005      000                        0105151226NF-1005/5                     141226000000005000710401234010000000000250                          0000000000000000000000005000000000000000000000000000000000000000000000000000001000000                                                                                               000006\r\n102112223330001811234123456    Zq7-  o                  14000000000000006      000                        0121151226NF-1006/6                     151226000000006000710401234010000000000000                          0000000000000000000000000000000000000000000000060328000000000032100000000000001161226                                                                                               000007\r\n102112223330001811234123456    xK4rbPq9                 14000000000000007      000                        0126151226NF-1007/7                     161226000000007000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000008\r\n102112223330001811234123456    Zq7-  o                  14000000000000008      000                        0125151226NF-1008/8                     171226000000008000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000009\r\n102112223330001811234123456    xK4rbPq9                 14000000000000009      000                        0128151226NF-1009/9                     181226000000009000710401234010000000000000                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000010\r\n102112223330001811234123456    Zq7-  o                  14000000000000010      000                        0144151226NF-1010/10                    191226000000010000710401234010000000000250                          0000000000000000000000000000000000000000000000000000000000000000000000000000001000000                                                                                               000011\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000012\r\n',
    empty:
      '02RETORNO01COBRANCA       1234123456          COMERCIO EXEMPLO LTDA         104C ECON FEDERAL 201126                                                                                                                                                                                                                                                                                                 00007000001\r\n9                                                                                                                                                                                                                                                                                                                                                                                                         000002\r\n',
    parsedRemessa:
      '{"bankCode":"104","agency":"1234","account":null,"beneficiaryCode":"123456","fileNumber":42,"kind":"1","titles":[{"line":2,"movement":"01","nossoNumero":"14000000000000001","nossoNumeroDv":"","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-10","amount":"1234.56","discountAmount":"12.5","interestPerDay":"0.41","finePercent":"1.999902799377916018662519440124416796267","payerDocument":"52998224725"},{"line":3,"movement":"02","nossoNumero":"14000000000000002","nossoNumeroDv":"","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","issueDate":"2026-11-01","dueDate":"2026-12-11","amount":"200.07","discountAmount":"0","interestPerDay":"0","finePercent":"1.999300244914280001999300244914280001999","payerDocument":"11222333000181"},{"line":4,"movement":"06","nossoNumero":"14000000000000003","nossoNumeroDv":"","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","issueDate":"2026-11-01","dueDate":"2026-12-12","amount":"300.07","discountAmount":"0","interestPerDay":"0.41","finePercent":"0","payerDocument":"11222333000181"}],"registeredTotal":"1234.56","lotTitleCount":1}',
    parsedRetorno:
      '{"bankCode":"104","agency":"1234","account":null,"beneficiaryCode":"123456","fileNumber":1043,"kind":"2","occurrences":[{"line":2,"code":"02","nossoNumero":"14000000000000001","nossoNumeroDv":"","documentNumber":"NF-1001/1","companyRef":"xK4rbPq9","dueDate":"2026-12-10","titleAmount":"100.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":3,"code":"03","nossoNumero":"14000000000000002","nossoNumeroDv":"","documentNumber":"NF-1002/2","companyRef":"Zq7-  o","dueDate":"2026-12-11","titleAmount":"200.07","bankFee":"2.5","reasons":["17"],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":4,"code":"06","nossoNumero":"14000000000000003","nossoNumeroDv":"","documentNumber":"NF-1003/3","companyRef":"xK4rbPq9","dueDate":"2026-12-12","titleAmount":"300.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"1.1","rebate":"0","paidAmount":"303.28","creditedAmount":"303.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":5,"code":"09","nossoNumero":"14000000000000004","nossoNumeroDv":"","documentNumber":"NF-1004/4","companyRef":"Zq7-  o","dueDate":null,"titleAmount":"400.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":6,"code":"14","nossoNumero":"14000000000000005","nossoNumeroDv":"","documentNumber":"NF-1005/5","companyRef":"xK4rbPq9","dueDate":"2026-12-14","titleAmount":"500.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0.5","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":7,"code":"06","nossoNumero":"14000000000000006","nossoNumeroDv":"","documentNumber":"NF-1006/6","companyRef":"Zq7-  o","dueDate":"2026-12-15","titleAmount":"600.07","bankFee":"0","reasons":[],"charges":"3.21","discount":"0","rebate":"0","paidAmount":"603.28","creditedAmount":"603.28","occurrenceDate":"2026-12-15","creditDate":"2026-12-16"},{"line":8,"code":"19","nossoNumero":"14000000000000007","nossoNumeroDv":"","documentNumber":"NF-1007/7","companyRef":"xK4rbPq9","dueDate":"2026-12-16","titleAmount":"700.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":9,"code":"25","nossoNumero":"14000000000000008","nossoNumeroDv":"","documentNumber":"NF-1008/8","companyRef":"Zq7-  o","dueDate":"2026-12-17","titleAmount":"800.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null},{"line":10,"code":"28","nossoNumero":"14000000000000009","nossoNumeroDv":"","documentNumber":"NF-1009/9","companyRef":"xK4rbPq9","dueDate":"2026-12-18","titleAmount":"900.07","bankFee":"0","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"0","occurrenceDate":"2026-12-15","creditDate":null},{"line":11,"code":"44","nossoNumero":"14000000000000010","nossoNumeroDv":"","documentNumber":"NF-1010/10","companyRef":"Zq7-  o","dueDate":"2026-12-19","titleAmount":"1000.07","bankFee":"2.5","reasons":[],"charges":"0","discount":"0","rebate":"0","paidAmount":"0","creditedAmount":"-2.5","occurrenceDate":"2026-12-15","creditDate":null}]}',
    parsedEmpty: '{"bankCode":"104","agency":"1234","account":null,"beneficiaryCode":"123456","fileNumber":7,"kind":"2","occurrences":[]}',
    spoiledRemessa: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a remessa (1)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Caixa file"}]',
      '[{"line":2,"field":"código de ocorrência (109-110)","message":"expected digits, found \\"X1\\""},{"line":2,"field":"código de ocorrência (109-110)","message":"code \\"X1\\" is not one we send"},{"line":2,"field":"amount (127-139)","message":"expected digits, found \\"ABC0000123456\\""}]',
      'read',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":2,"field":"código do beneficiário (22-27)","message":"expected the header\'s 123456, found \\"123956\\""},{"line":2,"field":"payer document (221-234)","message":"the payer’s CPF/CNPJ is required"},{"line":2,"field":"nosso número (57-73)","message":"expected digits, found \\"94000000000000Q01\\""}]',
    ],
    spoiledRetorno: [
      '[{"line":1,"field":"remessa/retorno (2)","message":"not a retorno (2)"}]',
      '[{"line":1,"field":"bank code (77-79)","message":"not a Caixa file"}]',
      '[{"line":2,"field":"código de ocorrência (109-110)","message":"expected digits, found \\"X1\\""}]',
      '[{"line":2,"field":"occurrence date (111-116)","message":"not a date: \\"321326\\""},{"line":3,"field":"due date (147-152)","message":"not a date: \\"999926\\""}]',
      '[{"line":3,"field":"record sequence (395-400)","message":"expected 3, found 000009"}]',
      '[{"line":2,"field":"record type (1)","message":"expected a detail (1), found \\"8\\""}]',
      '[{"line":2,"field":"código do beneficiário (22-27)","message":"expected the header\'s 123456, found \\"123956\\""},{"line":2,"field":"código de rejeição (80-82)","message":"expected digits, found \\"00x\\""},{"line":2,"field":"nosso número (57-73)","message":"expected digits, found \\"94000000000000Q01\\""}]',
    ],
    short: '[{"line":1,"field":"record","message":"399 positions, a CNAB 400 record has 400"}]',
    refusals: ['threw Caixa CNAB 400 (SIGCB) needs the código do beneficiário of 6 digits', 'threw the layout cannot carry movement 47'],
  },
};

describe('Collection: each bank’s CNAB 400 pinned byte for byte (remessa, retorno, their reading)', () => {
  for (const [bank, layout] of LAYOUTS) {
    it(`${bank}: the files written and what is read of them, spoiled ones too, are the pinned ones`, () => {
      const actual = golden(bank, layout);
      expect(actual).to.deep.equal(EXPECTED[bank]);
    });
  }
});
