import { expect } from 'chai';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { BankSimulator } from '../../src/dev/bank-simulator';
import { parseRemessa400Bradesco, parseRetorno400Bradesco } from '../../src/modules/collection/cnab/cnab400-bradesco';
import { parseRemessa400Santander, parseRetorno400Santander } from '../../src/modules/collection/cnab/cnab400-santander';
import { CnabParseError } from '../../src/modules/collection/cnab/record';
import { BankReturnOccurrence } from '../../src/modules/collection/entities/bank-return.entity';
import { Boleto } from '../../src/modules/collection/entities/boleto.entity';
import { ReceivableReceipt } from '../../src/modules/receivables/entities/receivable-receipt.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import {
  ACCOUNTS,
  billedReceivables,
  collectionSetup,
  createAccount,
  issueBoleto,
  remit,
  remittanceFile,
  SAMPLE_ACCOUNTS,
  simulatorAccount,
  uploadReturn,
} from './support';

/*
 * CNAB 400 of Bradesco and Santander (issue 46), through HTTP on both engines: an account of the
 * bank in CNAB 400, boletos, the remessa checked record by record against the bank's manual
 * (400 positions, record numbers, header, details, trailer, counts and sums), the local bank's
 * retornos in the same layout (entrada, rejeição, liquidação late with interest and fine, baixa,
 * payment after baixa, the same file again) applied once, and a malformed retorno refused whole.
 */

interface BankCase {
  code: string;
  account: Record<string, unknown>;
  /** The nosso número the files carry (no DV) and its DV, from the boleto's printed one. */
  nn: (printed: string) => { number: string; dv: string };
  parseRemessa: (content: string) => {
    titles: { nossoNumero: string; nossoNumeroDv: string; amount: Dec; movement: string; finePercent: Dec; payerDocument: string | null }[];
    registeredTotal: Dec;
    fileNumber: number;
  };
  /** Bank-specific checks of the remessa's records (header, details, trailer). */
  checkRemessa: (lines: string[], titles: { number: string; dv: string }[]) => void;
  /** Position (1-based, from–to) of the paid amount in a retorno detail, and the field name a problem gives. */
  paidAmount: [number, number, string];
  /** The bank's rejection reasons (Bradesco's of 2 digits, Santander's of 3). */
  reasons: string[];
  /** The bank's CNAB 400 code of a change of value, or null when the layout has none (422). */
  changeAmountCode: string | null;
}

/** DDMMAA of the day after a DDMMAA date. */
const dayAfter = (ddmmyy: string) => {
  const next = addCalendarDays(`20${ddmmyy.slice(4, 6)}-${ddmmyy.slice(2, 4)}-${ddmmyy.slice(0, 2)}`, 1);
  return next.slice(8, 10) + next.slice(5, 7) + next.slice(2, 4);
};

const CASES: BankCase[] = [
  {
    code: '237',
    account: { ...SAMPLE_ACCOUNTS['237'], name: 'Bradesco 400', layout: 'CNAB400', beneficiaryCode: '4567890' },
    nn: (printed) => {
      const [, rest] = printed.split('/');
      const [number, dv] = rest.split('-');
      return { number, dv };
    },
    parseRemessa: parseRemessa400Bradesco,
    checkRemessa: (lines, titles) => {
      const [h, ...rest] = lines;
      const details = rest.slice(0, -1);
      const trailer = rest[rest.length - 1];
      expect(h.slice(0, 26)).to.equal('01REMESSA01COBRANCA       ');
      expect(h.slice(26, 46), 'código da empresa').to.equal('00000000000004567890');
      expect(h.slice(76, 94)).to.equal('237BRADESCO       ');
      expect(h.slice(108, 117), 'MX + remessa number').to.equal('MX0000001');
      for (const [i, d] of details.entries()) {
        expect(d.slice(20, 37), 'identificação da empresa').to.equal('0009004270506511' + '9');
        expect(d.slice(65, 70), 'multa 2 %').to.equal('20200');
        expect(d.slice(70, 82), 'nosso número + DV').to.equal(titles[i].number + titles[i].dv);
        expect(d.slice(92, 94), 'the beneficiary prints the boleto').to.equal('2N');
        expect(d.slice(108, 110), 'ocorrência 01 remessa').to.equal('01');
        expect(d.slice(126, 139), 'valor').to.equal('0000000010000');
        expect(d.slice(156, 160), 'protestar em 5 dias').to.equal('0605');
        expect(d.slice(160, 173), 'juros por dia').to.equal('0000000000003');
        expect(d.slice(218, 234), 'CPF do pagador').to.equal('0100052998224725');
        expect(d.slice(326, 334), 'CEP').to.equal('01304001');
      }
      expect(trailer.slice(1, 394).trim()).to.equal('');
    },
    paidAmount: [254, 266, 'valor pago'],
    reasons: ['08'],
    changeAmountCode: '31',
  },
  {
    code: '033',
    account: { ...SAMPLE_ACCOUNTS['033'], name: 'Santander 400', layout: 'CNAB400' },
    nn: (printed) => {
      const [number, dv] = printed.split('-');
      return { number, dv };
    },
    parseRemessa: parseRemessa400Santander,
    checkRemessa: (lines, titles) => {
      const [h, ...rest] = lines;
      const details = rest.slice(0, -1);
      const trailer = rest[rest.length - 1];
      // Agência 1234, código do beneficiário 7654321, conta 12345678 without its last digit.
      const transmission = '1234' + '07654321' + '01234567';
      expect(h.slice(0, 26)).to.equal('01REMESSA01COBRANCA       ');
      expect(h.slice(26, 46), 'código de transmissão').to.equal(transmission);
      expect(h.slice(76, 94)).to.equal('033SANTANDER      ');
      expect(h.slice(391, 394), 'versão da remessa = file number').to.equal('001');
      for (const [i, d] of details.entries()) {
        expect(d.slice(1, 17), 'CNPJ of the beneficiary').to.match(/^02\d{14}$/);
        expect(d.slice(17, 37), 'código de transmissão').to.equal(transmission);
        expect(d.slice(62, 70), 'nosso número (7) + DV').to.equal(titles[i].number.slice(-7) + titles[i].dv);
        expect(d.slice(77, 82), 'multa 2 %').to.equal('40200');
        expect(d.slice(101, 107), 'multa from the day after the due date').to.equal(dayAfter(d.slice(120, 126)));
        expect(d.slice(107, 110), 'carteira 101 (rápida com registro), ocorrência 01').to.equal('501');
        expect(d.slice(126, 139), 'valor').to.equal('0000000010000');
        expect(d.slice(156, 160), 'protestar').to.equal('0600');
        expect(d.slice(218, 234), 'CPF do pagador').to.equal('0100052998224725');
        expect(d.slice(326, 334), 'CEP').to.equal('01304001');
        expect(d.slice(349, 351), 'UF').to.equal('SP');
        expect(d.slice(382, 385), 'complemento: last digit of the conta and its DV').to.equal('I84');
        expect(d.slice(391, 393), 'dias de protesto').to.equal('05');
      }
      expect(trailer.slice(1, 7), 'quantidade de documentos').to.equal('000004');
      expect(trailer.slice(7, 20), 'valor total').to.equal('0000000040000');
      expect(trailer.slice(20, 394)).to.equal('0'.repeat(374));
    },
    paidAmount: [254, 266, 'valor total recebido'],
    reasons: ['092'],
    changeAmountCode: null,
  },
];

describe('Collection: CNAB 400 of Bradesco and Santander with the local bank', function () {
  this.timeout(180_000);
  let t: TestTenant;
  let customerHash: string;
  let productHash: string;
  before(async () => {
    t = await createTestTenant();
    const setup = await collectionSetup(t);
    customerHash = setup.customer.hash;
    productHash = setup.product.hash;
  });

  async function boletos(accountHash: string, n: number) {
    const receivables = await billedReceivables(
      t,
      customerHash,
      productHash,
      n,
      Array.from({ length: n }, (_v, i) => 30 + i),
    );
    const out: { receivableId: string; boleto: Record<string, any> }[] = [];
    for (const r of receivables) {
      const res = await issueBoleto(t, r.id, { bankAccountId: accountHash });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      out.push({ receivableId: r.id, boleto: res.body });
    }
    return out;
  }

  it('Bradesco CNAB 400 needs the código da empresa (400 naming beneficiaryCode); Sicoob still has no CNAB 400 (422 LAYOUT_NOT_OFFERED)', async () => {
    const missing = await createAccount(t, { ...SAMPLE_ACCOUNTS['237'], name: 'Bradesco sem código', layout: 'CNAB400' });
    expectProblem(missing, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(missing.body.errors)).to.contain('beneficiaryCode').and.to.contain('código da empresa');
    const sicoob = await createAccount(t, { ...SAMPLE_ACCOUNTS['756'], name: 'Sicoob 400', layout: 'CNAB400' });
    expectProblem(sicoob, 422, 'LAYOUT_NOT_OFFERED');
  });

  it('Santander CNAB 400 with the código de transmissão the bank assigned: header and details carry it, a retorno of it is applied, one of another code refused', async () => {
    const code = '33330000123456789012';
    for (const bad of ['123', '1234567890123456789A']) {
      const res = await createAccount(t, {
        ...SAMPLE_ACCOUNTS['033'],
        name: 'Santander código ruim',
        layout: 'CNAB400',
        transmissionCode: bad,
      });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body.errors), bad).to.contain('transmissionCode');
    }
    const itau = await createAccount(t, { ...SAMPLE_ACCOUNTS['341'], name: 'Itaú com código', transmissionCode: code });
    expectProblem(itau, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(itau.body.errors)).to.contain('transmissionCode');

    const created = await createAccount(t, {
      ...SAMPLE_ACCOUNTS['033'],
      name: 'Santander 400 transmissão',
      layout: 'CNAB400',
      transmissionCode: code,
      nextNossoNumero: 500_001,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ transmissionCode: code, carteiraVariation: null });
    const account = created.body.id as string;
    await boletos(account, 2);
    const content = await remittanceFile(t, (await remit(t, account)).body.id);
    const lines = content.split('\r\n').slice(0, -1);
    expect(lines[0].slice(26, 46), 'header 27–46').to.equal(code);
    expect(lines.slice(1, -1).map((d) => d.slice(17, 37))).to.deep.equal([code, code]);

    const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
    sim.receiveRemessa(content, businessToday());
    const entries = sim.retorno(new Date());
    expect(entries.split('\r\n')[0].slice(26, 46)).to.equal(code);
    const other = entries
      .split('\r\n')
      .map((l, i) =>
        i === 0
          ? l.slice(0, 26) + '33330000999999999999' + l.slice(46)
          : l[0] === '1'
            ? l.slice(0, 17) + '33330000999999999999' + l.slice(37)
            : l,
      )
      .join('\r\n');
    const refused = await uploadReturn(t, account, other);
    expectProblem(refused, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(refused.body.errors)).to.contain('código de transmissão 33330000999999999999');
    const applied = await uploadReturn(t, account, entries);
    expect(applied.status, JSON.stringify(applied.body)).to.equal(201);
    expect(applied.body.summary).to.include({ APPLIED: 2 });

    // Once it has boletos the code names where they are registered: it can no longer change.
    const version = (await api().get(`${ACCOUNTS}/${account}`).set(t.headers())).body.version;
    expectProblem(
      await api().patch(`${ACCOUNTS}/${account}`).set(t.headers()).send({ transmissionCode: null, version }),
      422,
      'BANK_ACCOUNT_IN_USE',
    );
  });

  it('Santander CNAB 400 numbers titles up to 9,999,999 (its NN has 7 digits + DV): a higher next nosso número is 400', async () => {
    const res = await createAccount(t, {
      ...SAMPLE_ACCOUNTS['033'],
      name: 'Santander 400 alto',
      layout: 'CNAB400',
      nextNossoNumero: 10_000_000,
    });
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(res.body.errors)).to.contain('nextNossoNumero').and.to.contain('9999999');
  });

  it('bank codes become FEBRABAN’s, and a bank code that would read as another never passes through; a remessa whose trailer does not add up is refused', async () => {
    const account = {
      ...SAMPLE_ACCOUNTS['237'],
      bankCode: '237' as const,
      agencyDigit: '8',
      beneficiaryCode: '4567890',
      companyName: 'Loja',
      companyDocument: '11222333000181',
      carteira: '09',
    };
    const occurrence = (code: string) => ({
      code,
      nossoNumero: '00000000001',
      nossoNumeroDv: 'P',
      documentNumber: 'D1',
      // A hashid: its case matters, so no writer upper-cases it.
      companyRef: 'xK4rbPq9',
      dueDate: '2026-12-01',
      titleAmount: new Dec(100),
      bankFee: new Dec(0),
      reasons: [],
      charges: new Dec(0),
      discount: new Dec(0),
      rebate: new Dec(0),
      paidAmount: new Dec(0),
      creditedAmount: new Dec(0),
      occurrenceDate: '2026-12-01',
      creditDate: null,
    });
    const { BRADESCO_400 } = await import('../../src/modules/collection/cnab/cnab400-bradesco');
    const { SANTANDER_400 } = await import('../../src/modules/collection/cnab/cnab400-santander');
    // Write FEBRABAN 02, then put the bank's own codes in 109–110 as the bank would send them.
    const withCodes = (file: string, codes: string[]) =>
      file
        .split('\r\n')
        .map((l, i) => (i >= 1 && i <= codes.length ? l.slice(0, 108) + codes[i - 1] + l.slice(110) : l))
        .join('\r\n');
    const bradesco = BRADESCO_400.writeRetorno(account as never, 1, new Date(), ['02', '02', '02', '02', '02', '02'].map(occurrence));
    expect(parseRetorno400Bradesco(withCodes(bradesco, ['10', '15', '24', '25', '16', '22'])).occurrences.map((o) => o.code)).to.deep.equal(
      ['09', '06', '03', '19', '16', '22'],
    );
    const santanderAccount = {
      ...account,
      bankCode: '033' as const,
      agencyDigit: null,
      agency: '1234',
      account: '12345678',
      accountDigit: '4',
      beneficiaryCode: '7654321',
      carteira: '101',
    };
    const santander = SANTANDER_400.writeRetorno(
      santanderAccount as never,
      1,
      new Date(),
      ['02', '02', '02', '02', '02', '02'].map(occurrence),
    );
    expect(
      parseRetorno400Santander(withCodes(santander, ['07', '08', '17', '10', '25', '19'])).occurrences.map((o) => o.code),
    ).to.deep.equal(['06', '06', '06', '09', '19', '00']);
    // Itaú: 07/08 liquidações, 32 (baixa por ter sido protestado) FEBRABAN's 25, 64 an entrada; its 17 (alteração
    // rejeitada) and 25 (alegações do pagador) never read as ours; 10 (baixa por ter sido liquidado) recorded as is.
    const { ITAU_400, parseRetorno400Itau } = await import('../../src/modules/collection/cnab/cnab400-itau');
    const itauAccount = { ...account, ...SAMPLE_ACCOUNTS['341'], bankCode: '341' as const, agencyDigit: null };
    const itauOccurrence = (code: string) => ({ ...occurrence(code), nossoNumero: '00000001', nossoNumeroDv: '5' });
    const itau = ITAU_400.writeRetorno(itauAccount as never, 1, new Date(), ['02', '02', '02', '02', '02', '02', '02'].map(itauOccurrence));
    expect(parseRetorno400Itau(withCodes(itau, ['07', '08', '32', '64', '17', '25', '10'])).occurrences.map((o) => o.code)).to.deep.equal([
      '06',
      '06',
      '25',
      '02',
      '00',
      '00',
      '10',
    ]);
    // The local bank writes FEBRABAN's codes as Itaú's, and a payment after write-off (Itaú has none) as its liquidação.
    const itauOut = ITAU_400.writeRetorno(itauAccount as never, 2, new Date(), ['25', '17', '06'].map(itauOccurrence)).split('\r\n');
    expect(itauOut.slice(1, 4).map((l) => l.slice(108, 110))).to.deep.equal(['32', '06', '06']);
    for (const [name, file] of [
      ['Itaú', itau],
      ['Bradesco', bradesco],
      ['Santander', santander],
    ]) {
      expect(file.split('\r\n')[1].slice(37, 62), name).to.equal('xK4rbPq9'.padEnd(25, ' '));
    }

    const title = {
      ...occurrence('01'),
      movement: '01',
      issueDate: '2026-11-01',
      amount: new Dec(100),
      interestPerDay: new Dec(0),
      discountAmount: new Dec(0),
      discountDate: null,
      finePercent: new Dec(0),
      protestDays: null,
      writeOffDays: null,
      payer: {
        document: '52998224725',
        name: 'Maria',
        street: 'Rua A',
        district: 'Centro',
        postalCode: '01304001',
        city: 'São Paulo',
        uf: 'SP',
      },
    };
    const remessa = SANTANDER_400.writeRemessa(santanderAccount as never, 7, new Date(), [title, title]).content.split('\r\n');
    remessa[3] = remessa[3].slice(0, 7) + '0000000030000' + remessa[3].slice(20);
    try {
      parseRemessa400Santander(remessa.join('\r\n'));
      expect.fail('a trailer that does not add up must be refused');
    } catch (err) {
      expect(err).to.be.instanceOf(CnabParseError);
      expect((err as CnabParseError).problems).to.deep.include({
        line: 4,
        field: 'valor total dos títulos (8-20)',
        message: 'says 300.00, the details add up to 200.00',
      });
    }
  });

  for (const bank of CASES) {
    it(`${bank.code} CNAB 400: remessa record by record, the bank's retornos applied once (entrada, rejeição, late liquidação, baixa, payment after baixa, duplicates), a bad line refused whole`, async () => {
      const created = await createAccount(t, { ...bank.account, finePercent: 2, interestPerDayPercent: '0.0333', protestDays: 5 });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const account = created.body.id as string;
      const issued = await boletos(account, 4);
      const nns = issued.map((i) => bank.nn(i.boleto.nossoNumeroPrinted ?? i.boleto.nossoNumero));
      // The first title is paid five days late: its due date moved back as if issued earlier.
      const dueLate = addCalendarDays(businessToday(), -5);
      await dataSource.manager.update(Boleto, { id: decodeId('boleto', issued[0].boleto.id) }, { dueDate: dueLate });

      const remessa = await remit(t, account);
      expect(remessa.status, JSON.stringify(remessa.body)).to.equal(201);
      expect(remessa.body).to.include({ layout: 'CNAB400', fileNumber: 1, instructionCount: 4, totalAmount: 400, recordCount: 6 });
      const content = await remittanceFile(t, remessa.body.id);
      expect(content.endsWith('\r\n')).to.equal(true);
      const lines = content.split('\r\n').slice(0, -1);
      expect(lines.every((l) => l.length === 400)).to.equal(true);
      expect(lines.map((l) => l[0])).to.deep.equal(['0', '1', '1', '1', '1', '9']);
      expect(lines.map((l) => l.slice(394))).to.deep.equal(['000001', '000002', '000003', '000004', '000005', '000006']);
      bank.checkRemessa(lines, nns);
      const parsed = bank.parseRemessa(content);
      expect(parsed.fileNumber).to.equal(1);
      expect(parsed.registeredTotal.toFixed(2)).to.equal('400.00');
      expect(
        parsed.titles.map((x) => [
          x.movement,
          x.nossoNumero,
          x.nossoNumeroDv,
          x.amount.toFixed(2),
          x.finePercent.toFixed(2),
          x.payerDocument,
        ]),
      ).to.deep.equal(nns.map((n) => ['01', n.number, n.dv, '100.00', '2.00', '52998224725']));

      const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
      sim.refuse(nns[3].number, bank.reasons);
      sim.receiveRemessa(content, businessToday());
      const entries = sim.retorno(new Date());
      expect(
        entries
          .split('\r\n')
          .slice(0, -1)
          .every((l) => l.length === 400),
      ).to.equal(true);
      const first = await uploadReturn(t, account, entries);
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.summary).to.include({ APPLIED: 3, REFUSED: 1, DUPLICATE: 0 });
      expect((await api().get(`/api/collection/boletos/${issued[3].boleto.id}`).set(t.headers())).body).to.include({
        status: 'REFUSED',
        refusalReason: `rejeição motivos ${bank.reasons.join(', ')}`,
      });
      expect((await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers())).body.status).to.equal('REGISTERED');

      sim.pay(nns[0].number, { date: businessToday() });
      sim.pay(nns[1].number, { date: businessToday(), paidAmount: new Dec('40.00') });
      sim.writeOff(nns[2].number, businessToday());
      sim.pay(nns[2].number, { date: businessToday() });
      // The bank sends the entradas again with the day's movement (an overlapping file).
      const day = sim.retorno(new Date(), { repeatPrevious: true });

      // A malformed line first: refused naming line and field, nothing applied.
      const dayLines = day.split('\r\n');
      const [from, to, field] = bank.paidAmount;
      const target = dayLines.findIndex((l, i) => i > 0 && l[0] === '1' && /[1-9]/.test(l.slice(from - 1, to)));
      const broken = [...dayLines];
      broken[target] = broken[target].slice(0, from) + 'X' + broken[target].slice(from + 1);
      const before = await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId });
      const bad = await uploadReturn(t, account, broken.join('\r\n'));
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(bad.body.errors))
        .to.contain(`file line ${target + 1}`)
        .and.to.contain(`${field} (${from}-${to})`);
      expect(await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId })).to.equal(before);

      // The file of another beneficiary of the bank (its header's code or transmission differs): refused whole.
      const foreign = dayLines.map((l, i) => (i === 0 ? l.slice(0, 36) + (l[36] === '9' ? '8' : '9') + l.slice(37) : l)).join('\r\n');
      const stranger = await uploadReturn(t, account, foreign);
      expectProblem(stranger, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(stranger.body.errors)).to.match(/código da empresa|código de transmissão/);
      expect(await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId })).to.equal(before);

      const applied = await uploadReturn(t, account, day);
      expect(applied.status, JSON.stringify(applied.body)).to.equal(201);
      // 06 and 06 (partial) and 09 applied, the payment after baixa flagged, the four entradas again duplicates.
      expect(applied.body.summary).to.include({ APPLIED: 3, FLAGGED: 1, DUPLICATE: 4 });
      const again = await uploadReturn(t, account, day);
      expect(again.body.summary).to.include({ APPLIED: 0, FLAGGED: 0, DUPLICATE: 8 });

      const receipt = await dataSource.manager.findOneByOrFail(ReceivableReceipt, {
        receivableId: decodeId('receivable', issued[0].receivableId),
      });
      // 100.00 + multa 2 % (2.00) + juros 0.03/day × 5 (0.15); bank fee 2.50, credited the next day.
      expect({
        amount: receipt.amount.toFixed(2),
        fine: receipt.fine.toFixed(2),
        interest: receipt.interest.toFixed(2),
        total: receipt.total.toFixed(2),
        bankFee: receipt.bankFee.toFixed(2),
        creditDate: receipt.creditDate,
      }).to.deep.equal({
        amount: '100.00',
        fine: '2.00',
        interest: '0.15',
        total: '102.15',
        bankFee: '2.50',
        creditDate: addCalendarDays(businessToday(), 1),
      });
      const status = async (i: number) => (await api().get(`/api/collection/boletos/${issued[i].boleto.id}`).set(t.headers())).body;
      expect(await status(0)).to.include({ status: 'PAID', paidAmount: 102.15 });
      expect((await status(1)).status).to.equal('PARTIALLY_PAID');
      expect(await status(2)).to.include({ status: 'WRITTEN_OFF' });
      expect((await status(2)).reviewReason).to.match(/while the boleto is WRITTEN_OFF/);
      for (const [i, amount] of [
        [0, '100.00'],
        [1, '40.00'],
        [2, '0.00'],
        [3, '0.00'],
      ] as const) {
        const r = await dataSource.manager.findOneByOrFail(Receivable, { id: decodeId('receivable', issued[i].receivableId) });
        expect(r.receivedAmount.toFixed(2), `receivable ${i}`).to.equal(amount);
        expect(await dataSource.manager.countBy(ReceivableReceipt, { receivableId: r.id }), `receipts of ${i}`).to.equal(
          amount === '0.00' ? 0 : 1,
        );
      }

      // Instructions of the partly paid title in the next remessa, in the bank's codes.
      const url = `/api/collection/boletos/${issued[1].boleto.id}/instructions`;
      const change = await api().post(url).set(t.headers()).send({ kind: 'CHANGE_AMOUNT', amount: 60 });
      if (bank.changeAmountCode) expect(change.status, JSON.stringify(change.body)).to.equal(201);
      else expectProblem(change, 422, 'INSTRUCTION_NOT_IN_LAYOUT');
      const newDue = addCalendarDays(businessToday(), 40);
      expect((await api().post(url).set(t.headers()).send({ kind: 'CHANGE_DUE_DATE', dueDate: newDue })).status).to.equal(201);
      const next = await remit(t, account);
      expect(next.status, JSON.stringify(next.body)).to.equal(201);
      expect(next.body).to.include({ fileNumber: 2, totalAmount: 0 });
      const nextContent = await remittanceFile(t, next.body.id);
      const nextLines = nextContent.split('\r\n').slice(0, -1);
      expect(nextLines.slice(1, -1).map((l) => l.slice(108, 110))).to.deep.equal(
        bank.changeAmountCode ? [bank.changeAmountCode, '06'] : ['06'],
      );
      expect(bank.parseRemessa(nextContent).titles.map((x) => x.movement)).to.deep.equal(bank.changeAmountCode ? ['47', '06'] : ['06']);
      sim.receiveRemessa(nextContent, businessToday());
      const confirmed = await uploadReturn(t, account, sim.retorno(new Date()));
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(201);
      expect((await status(1)).dueDate).to.equal(newDue);
    });
  }
});
