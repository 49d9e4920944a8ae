import { expect } from 'chai';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { BankSimulator } from '../../src/dev/bank-simulator';
import { decodeBoleto } from '../../src/modules/collection/banks/barcode';
import { parseRemessa400Bb } from '../../src/modules/collection/cnab/cnab400-bb';
import { parseRemessa400Caixa } from '../../src/modules/collection/cnab/cnab400-caixa';
import { BankAccount } from '../../src/modules/collection/entities/bank-account.entity';
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
 * CNAB 400 of Banco do Brasil (CBR641 remessa / CBR643 retorno, convênio of 7, detail 7) and of
 * Caixa (SIGCB), through HTTP: the remessa validated record by record, the local bank's retornos
 * applied once per occurrence (twice → duplicate, overlaps), a late liquidação with interest and
 * fine settled to the cent, a malformed retorno refused naming line and field with nothing applied;
 * Sicoob stays CNAB 240 only (422). Both engines (DB_URL).
 */

const lines400 = (content: string) => {
  expect(content.endsWith('\r\n')).to.equal(true);
  const lines = content.split('\r\n').slice(0, -1);
  expect(
    lines.map((l) => l.length),
    'every record has 400 positions',
  ).to.deep.equal(lines.map(() => 400));
  expect(
    lines.map((l) => l.slice(394)),
    'records numbered 1…n',
  ).to.deep.equal(lines.map((_l, i) => String(i + 1).padStart(6, '0')));
  return lines;
};
const at = (line: string, from: number, to: number) => line.slice(from - 1, to);

interface BankCase {
  code: '001' | '104';
  name: string;
  detailType: string;
  /** The digits of the nosso número as the file carries them, from the boleto's printed one. */
  nn: (printed: string) => string;
  /** Positions of the nosso número in remessa and retorno details. */
  nnAt: [number, number];
  /** Positions of the company's reference (uso da empresa / controle do participante). */
  refAt: [number, number];
}

const CASES: BankCase[] = [
  { code: '001', name: 'Banco do Brasil CBR641/CBR643', detailType: '7', nn: (p) => p, nnAt: [64, 80], refAt: [39, 63] },
  { code: '104', name: 'Caixa SIGCB', detailType: '1', nn: (p) => p.split('-')[0], nnAt: [57, 73], refAt: [32, 56] },
];

describe('Collection: CNAB 400 of Banco do Brasil and Caixa with the local bank', function () {
  this.timeout(120_000);
  let t: TestTenant;
  let customerHash: string;
  let productHash: string;

  before(async () => {
    t = await createTestTenant();
    const setup = await collectionSetup(t);
    customerHash = setup.customer.hash;
    productHash = setup.product.hash;
  });

  // The accounts of a bank share agência/conta here (as one real account would): each starts its nosso número elsewhere.
  let nextRange = 0;
  async function account400(code: string, name: string) {
    const nextNossoNumero = ++nextRange * 1000 + 1;
    // BB's CNAB 400 needs the variação da carteira the bank assigned with the convênio (carteira 17 variação 019).
    const variation = code === '001' ? { carteiraVariation: '019' } : {};
    const res = await createAccount(t, {
      ...SAMPLE_ACCOUNTS[code],
      ...variation,
      name,
      layout: 'CNAB400',
      finePercent: 2,
      interestPerDayPercent: '0.0333',
      protestDays: 5,
      writeOffDays: 60,
      nextNossoNumero,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  }

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

  const boletoOf = async (id: string) => (await api().get(`/api/collection/boletos/${id}`).set(t.headers())).body;

  for (const bank of CASES) {
    describe(bank.name, () => {
      it('the remessa validates record by record: 400 positions, numbered, header and trailer, the titles, their sum and the fine', async () => {
        const account = await account400(bank.code, `${bank.code} 400 remessa`);
        const issued = await boletos(account, 3);
        const res = await remit(t, account);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        // BB: each title's detail 7 is followed by its fine record 5; Caixa carries the fine in the detail.
        const recordCount = bank.code === '001' ? 8 : 5;
        expect(res.body).to.include({ layout: 'CNAB400', fileNumber: 1, instructionCount: 3, totalAmount: 300, recordCount });
        const content = await remittanceFile(t, res.body.id);
        const lines = lines400(content);
        const details = lines.filter((l) => l[0] === bank.detailType);
        expect(lines.map((l) => l[0])).to.deep.equal(
          bank.code === '001' ? ['0', '7', '5', '7', '5', '7', '5', '9'] : ['0', '1', '1', '1', '9'],
        );
        const [head, tail] = [lines[0], lines[lines.length - 1]];
        expect(at(head, 1, 19)).to.equal('01REMESSA01COBRANCA');
        expect(at(head, 77, 79)).to.equal(bank.code);
        expect(tail.slice(1, 394).trim()).to.equal('');
        expect(details.map((d) => at(d, ...bank.nnAt))).to.deep.equal(issued.map((i) => bank.nn(i.boleto.nossoNumero)));
        expect(details.map((d) => at(d, 109, 110))).to.deep.equal(['01', '01', '01']);
        expect(details.map((d) => at(d, 121, 126))).to.deep.equal(
          issued.map((i) =>
            (i.boleto.dueDate as string)
              .split('-')
              .reverse()
              .join('')
              .replace(/^(\d{4})\d{2}(\d{2})$/, '$1$2'),
          ),
        );
        expect(details.reduce((s, d) => s + Number(at(d, 127, 139)), 0)).to.equal(30000);
        expect(
          details.every((d) => at(d, 140, 142) === bank.code && at(d, 221, 234) === '00052998224725' && at(d, 219, 220) === '01'),
        ).to.equal(true);
        // Juros per day: 0.0333 % of 100.00 → 0.03.
        expect(details.every((d) => at(d, 161, 173) === '0000000000003')).to.equal(true);
        expect(details.map((d) => at(d, ...bank.refAt).trim())).to.deep.equal(issued.map((i) => i.boleto.id));
        if (bank.code === '001') {
          expect(at(head, 27, 40)).to.equal('23590000304166');
          // Variação da carteira (92–94): the account's.
          expect(details.map((d) => at(d, 92, 94))).to.deep.equal(['019', '019', '019']);
          expect(at(head, 101, 107)).to.equal('0000001');
          expect(at(head, 130, 136)).to.equal('1234567');
          expect(details.every((d) => at(d, 32, 38) === '1234567' && at(d, 107, 108) === '17')).to.equal(true);
          // Protest in 5 days: instrução 06 with its days at 392–393.
          expect(details.every((d) => at(d, 157, 158) === '06' && at(d, 392, 393) === '05')).to.equal(true);
          const fines = lines.filter((l) => l[0] === '5');
          expect(fines.map((f) => [at(f, 2, 4), at(f, 11, 22)])).to.deep.equal(fines.map(() => ['992', '000000000200']));
          expect(fines.map((f) => at(f, 5, 10))).to.deep.equal(
            issued.map((i) =>
              addCalendarDays(i.boleto.dueDate, 1)
                .split('-')
                .reverse()
                .join('')
                .replace(/^(\d{4})\d{2}(\d{2})$/, '$1$2'),
            ),
          );
        } else {
          expect(at(head, 27, 36)).to.equal('1234123456');
          expect(at(head, 390, 394)).to.equal('00001');
          expect(details.every((d) => at(d, 22, 27) === '123456' && at(d, 107, 108) === '01' && at(d, 57, 58) === '14')).to.equal(true);
          // Fine 2 % of 100.00 as a value; protest (instrução 01) in 5 days; moeda 1.
          expect(details.every((d) => at(d, 358, 367) === '0000000200' && at(d, 157, 158) === '01' && at(d, 392, 394) === '051')).to.equal(
            true,
          );
        }
        const parsed = bank.code === '001' ? parseRemessa400Bb(content) : parseRemessa400Caixa(content);
        expect(parsed).to.include({ fileNumber: 1, lotTitleCount: 3, bankCode: bank.code });
        expect(parsed.registeredTotal.toFixed(2)).to.equal('300.00');
        expect(parsed.titles.map((x) => x.finePercent.toFixed(2))).to.deep.equal(['2.00', '2.00', '2.00']);
        expectProblem(await remit(t, account), 422, 'NO_PENDING_INSTRUCTIONS');
        // The second remessa takes the next number.
        await boletos(account, 1);
        const second = await remit(t, account);
        expect(second.body.fileNumber).to.equal(2);
        expect(
          bank.code === '001'
            ? at(lines400(await remittanceFile(t, second.body.id))[0], 101, 107)
            : at(lines400(await remittanceFile(t, second.body.id))[0], 390, 394),
        ).to.match(/^0+2$/);
      });

      it('retornos from the simulator: entrada, rejeição with reason, late liquidação with interest and fine, partial, baixa; the same file twice and an overlap apply nothing again', async () => {
        const account = await account400(bank.code, `${bank.code} 400 retorno`);
        const issued = await boletos(account, 4);
        // The first title is five days late when paid: its due date moved back as if issued earlier.
        const late = decodeId('boleto', issued[0].boleto.id);
        await dataSource.manager.update(Boleto, { id: late }, { dueDate: addCalendarDays(businessToday(), -5) });
        const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
        const nn = (i: number) => bank.nn(issued[i].boleto.nossoNumero);
        sim.refuse(nn(3), ['08']);
        sim.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
        const entries = sim.retorno(new Date());
        const entryLines = lines400(entries);
        // The bank's retorno carries the account's variação da carteira too (92–94).
        if (bank.code === '001') expect(entryLines.slice(1, -1).map((l) => at(l, 92, 94))).to.deep.equal(['019', '019', '019', '019']);
        expect(entryLines.map((l) => l[0])).to.deep.equal(['0', bank.detailType, bank.detailType, bank.detailType, bank.detailType, '9']);
        expect(at(entryLines[0], 1, 9)).to.equal('02RETORNO');
        // The bank's own codes in the file: BB 02/03, Caixa 01/99.
        expect(entryLines.slice(1, -1).map((l) => at(l, 109, 110))).to.deep.equal(
          bank.code === '001' ? ['02', '02', '02', '03'] : ['01', '01', '01', '99'],
        );
        if (bank.code === '001')
          expect([at(entryLines[5], 18, 25), at(entryLines[5], 26, 39)]).to.deep.equal(['00000004', '00000000040000']);
        const first = await uploadReturn(t, account, entries);
        expect(first.status, JSON.stringify(first.body)).to.equal(201);
        expect(first.body.summary).to.include({ APPLIED: 3, REFUSED: 1, DUPLICATE: 0, UNKNOWN: 0 });
        expect(first.body.occurrences.map((o: { code: string }) => o.code)).to.deep.equal(['02', '02', '02', '03']);
        expect(await boletoOf(issued[3].boleto.id)).to.include({ status: 'REFUSED', refusalReason: 'rejeição motivos 08' });
        expect((await boletoOf(issued[0].boleto.id)).status).to.equal('REGISTERED');

        sim.pay(nn(0), { date: businessToday() });
        sim.pay(nn(1), { date: businessToday(), paidAmount: new Dec('40.00') });
        sim.writeOff(nn(2), businessToday());
        const payments = sim.retorno(new Date());
        lines400(payments);
        const applied = await uploadReturn(t, account, payments);
        expect(applied.status, JSON.stringify(applied.body)).to.equal(201);
        expect(applied.body.summary).to.include({ APPLIED: 3, DUPLICATE: 0 });
        expect(applied.body.occurrences.map((o: { code: string }) => o.code)).to.deep.equal(['06', '06', '09']);
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
          receiptDate: receipt.receiptDate,
          creditDate: receipt.creditDate,
        }).to.deep.equal({
          amount: '100.00',
          fine: '2.00',
          interest: '0.15',
          total: '102.15',
          bankFee: '2.50',
          receiptDate: businessToday(),
          creditDate: addCalendarDays(businessToday(), 1),
        });
        expect(await boletoOf(issued[0].boleto.id)).to.include({ status: 'PAID', paidAmount: 102.15 });
        expect((await boletoOf(issued[1].boleto.id)).status).to.equal('PARTIALLY_PAID');
        expect((await boletoOf(issued[2].boleto.id)).status).to.equal('WRITTEN_OFF');

        // The same file again: duplicates. Then a payment after the write-off in a file overlapping the previous one.
        const again = await uploadReturn(t, account, payments);
        expect(again.body.summary).to.include({ APPLIED: 0, DUPLICATE: 3 });
        sim.pay(nn(2), { date: businessToday() });
        const overlap = await uploadReturn(t, account, sim.retorno(new Date(), { repeatPrevious: true, duplicateWithin: true }));
        expect(overlap.status, JSON.stringify(overlap.body)).to.equal(201);
        expect(overlap.body.summary).to.include({ APPLIED: 0, FLAGGED: 1, DUPLICATE: 4 });
        expect((await boletoOf(issued[2].boleto.id)).reviewReason).to.match(/while the boleto is WRITTEN_OFF/);
        // Every receivable settled once, to the cent.
        const expected = ['100.00', '40.00', '0.00', '0.00'];
        for (const [i, amount] of expected.entries()) {
          const r = await dataSource.manager.findOneByOrFail(Receivable, { id: decodeId('receivable', issued[i].receivableId) });
          expect(r.receivedAmount.toFixed(2), `receivable ${i}`).to.equal(amount);
          expect(await dataSource.manager.countBy(ReceivableReceipt, { receivableId: r.id }), `receipts of ${i}`).to.equal(
            amount === '0.00' ? 0 : 1,
          );
        }
      });

      it('a malformed retorno names line and field and applies nothing; another beneficiary’s file is refused; the good file twice at once applies once', async () => {
        const account = await account400(bank.code, `${bank.code} 400 bad file`);
        const issued = await boletos(account, 1);
        const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
        sim.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
        sim.pay(bank.nn(issued[0].boleto.nossoNumero), { date: businessToday() });
        const good = sim.retorno(new Date());
        const lines = good.split('\r\n');
        const before = await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId });
        // Line 3 (the liquidação): a letter in the paid amount.
        const broken = [...lines];
        broken[2] = broken[2].slice(0, 260) + 'X' + broken[2].slice(261);
        const res = await uploadReturn(t, account, broken.join('\r\n'));
        expectProblem(res, 400, 'VALIDATION_ERROR');
        expect(JSON.stringify(res.body.errors)).to.contain('file line 3').and.to.contain('paid amount (254-266)');
        // Line 2 cut short.
        const short = [...lines];
        short[1] = short[1].slice(0, 399);
        const res2 = await uploadReturn(t, account, short.join('\r\n'));
        expectProblem(res2, 400, 'VALIDATION_ERROR');
        expect(JSON.stringify(res2.body.errors)).to.contain('file line 2').and.to.contain('399 positions');
        // A detail out of sequence.
        const renumbered = [...lines];
        renumbered[2] = renumbered[2].slice(0, 394) + '000009';
        expect(JSON.stringify((await uploadReturn(t, account, renumbered.join('\r\n'))).body.errors))
          .to.contain('file line 3')
          .and.to.contain('record sequence (395-400)');
        if (bank.code === '001') {
          // The trailer's value of the titles does not match the details.
          const trailer = lines.length - 2;
          const wrongSum = [...lines];
          wrongSum[trailer] = wrongSum[trailer].slice(0, 25) + '00000000099999' + wrongSum[trailer].slice(39);
          const res3 = await uploadReturn(t, account, wrongSum.join('\r\n'));
          expectProblem(res3, 400, 'VALIDATION_ERROR');
          expect(JSON.stringify(res3.body.errors))
            .to.contain(`file line ${trailer + 1}`)
            .and.to.contain('title value (26-39)');
        }
        // The header of another convênio / beneficiário: the file is of another account.
        const other = [...lines];
        other[0] =
          bank.code === '001'
            ? other[0].slice(0, 149) + '7654321' + other[0].slice(156)
            : other[0].slice(0, 30) + '654321' + other[0].slice(36);
        const res4 = await uploadReturn(t, account, other.join('\r\n'));
        expectProblem(res4, 400, 'VALIDATION_ERROR');
        expect(JSON.stringify(res4.body.errors)).to.contain('código do beneficiário');
        expect(await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId })).to.equal(before);
        expect((await boletoOf(issued[0].boleto.id)).status).to.equal('PENDING_REGISTRATION');
        const both = await Promise.all([uploadReturn(t, account, good), uploadReturn(t, account, good)]);
        expect(both.map((r) => r.status)).to.deep.equal([201, 201]);
        expect(both.map((r) => r.body.summary.APPLIED).sort()).to.deep.equal([0, 2]);
        expect(
          await dataSource.manager.countBy(ReceivableReceipt, { receivableId: decodeId('receivable', issued[0].receivableId) }),
        ).to.equal(1);
        expect((await boletoOf(issued[0].boleto.id)).status).to.equal('PAID');
      });

      it('a day of retornos (partial payments, duplicates within a file, an overlap, files resent, a title paid twice) leaves every receivable settled once to the cent', async () => {
        const account = await account400(bank.code, `${bank.code} 400 day`);
        const issued = await boletos(account, 8);
        const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
        const nn = (i: number) => bank.nn(issued[i].boleto.nossoNumero);
        sim.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
        const day = businessToday();
        const files = [sim.retorno(new Date())];
        // Morning: 0–2 in full, 3 and 4 in part.
        for (const i of [0, 1, 2]) sim.pay(nn(i), { date: day });
        sim.pay(nn(3), { date: day, paidAmount: new Dec('30.00') });
        sim.pay(nn(4), { date: day, paidAmount: new Dec('55.55') });
        files.push(sim.retorno(new Date(), { duplicateWithin: true }));
        // Noon: the morning again (overlap), the rest of 3, title 0 paid a second time (booked the day before).
        sim.pay(nn(3), { date: day, paidAmount: new Dec('70.00') });
        sim.pay(nn(0), { date: addCalendarDays(day, -1), paidAmount: new Dec('100.00'), bankFee: new Dec('1.00') });
        files.push(sim.retorno(new Date(), { repeatPrevious: true }));
        // Evening: 5 paid; the first two files resent.
        sim.pay(nn(5), { date: day });
        files.push(sim.retorno(new Date()), files[0], files[1]);
        const summary: Record<string, number> = {};
        for (const f of files) {
          lines400(f);
          const res = await uploadReturn(t, account, f);
          expect(res.status, JSON.stringify(res.body)).to.equal(201);
          for (const [k, v] of Object.entries(res.body.summary as Record<string, number>)) summary[k] = (summary[k] ?? 0) + v;
        }
        // 8 entradas + 7 payments applied; the second payment of 0 flagged; everything seen again a duplicate
        // (5 repeated within the morning file, 5 of the overlap, the 8 + 10 of the two files resent).
        expect(summary).to.include({ APPLIED: 15, FLAGGED: 1, REFUSED: 0, UNKNOWN: 0, DUPLICATE: 5 + 5 + 8 + 10 });
        const expected = ['100.00', '100.00', '100.00', '100.00', '55.55', '100.00', '0.00', '0.00'];
        for (const [i, amount] of expected.entries()) {
          const r = await dataSource.manager.findOneByOrFail(Receivable, { id: decodeId('receivable', issued[i].receivableId) });
          expect(r.receivedAmount.toFixed(2), `receivable ${i}`).to.equal(amount);
          const receipts = await dataSource.manager.find(ReceivableReceipt, { where: { receivableId: r.id } });
          expect(receipts.reduce((sum, x) => sum.plus(x.amount), new Dec(0)).toFixed(2), `receipts of ${i}`).to.equal(amount);
          expect(receipts.length, `receipts of ${i}`).to.equal(i === 3 ? 2 : amount === '0.00' ? 0 : 1);
          expect(r.status).to.equal(amount === '100.00' ? 'RECEIVED' : amount === '0.00' ? 'OPEN' : 'PARTIALLY_RECEIVED');
        }
        const paidTwice = await boletoOf(issued[0].boleto.id);
        expect(paidTwice.status).to.equal('PAID');
        expect(paidTwice.reviewReason).to.match(/while the boleto is PAID/);
      });

      it('a bank code we do not act on is recorded, never read as our code of the same digits (BB 25 dispensar juros ≠ protestado; Caixa 09 alteração ≠ baixa)', async () => {
        const account = await account400(bank.code, `${bank.code} 400 codes`);
        const [{ boleto }] = await boletos(account, 1);
        const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
        sim.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
        const lines = sim.retorno(new Date()).split('\r\n');
        const foreign = bank.code === '001' ? '25' : '09';
        lines[1] = lines[1].slice(0, 108) + foreign + lines[1].slice(110);
        const res = await uploadReturn(t, account, lines.join('\r\n'));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body.occurrences.map((o: { code: string; outcome: string }) => [o.code, o.outcome])).to.deep.equal([['00', 'IGNORED']]);
        expect((await boletoOf(boleto.id)).status).to.equal('PENDING_REGISTRATION');
      });

      it('instructions: the due date change travels in the bank’s command and comes back confirmed; one the layout has no command for is 422', async () => {
        const account = await account400(bank.code, `${bank.code} 400 instructions`);
        const [{ boleto }] = await boletos(account, 1);
        const sim = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
        sim.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
        expect((await uploadReturn(t, account, sim.retorno(new Date()))).body.summary).to.include({ APPLIED: 1 });
        const url = `/api/collection/boletos/${boleto.id}/instructions`;
        expectProblem(await api().post(url).set(t.headers()).send({ kind: 'CHANGE_AMOUNT', amount: 50 }), 422, 'INSTRUCTION_NOT_IN_LAYOUT');
        if (bank.code === '104')
          expectProblem(await api().post(url).set(t.headers()).send({ kind: 'PROTEST' }), 422, 'INSTRUCTION_NOT_IN_LAYOUT');
        const newDue = addCalendarDays(businessToday(), 45);
        expect((await api().post(url).set(t.headers()).send({ kind: 'CHANGE_DUE_DATE', dueDate: newDue })).status).to.equal(201);
        if (bank.code === '001') expect((await api().post(url).set(t.headers()).send({ kind: 'PROTEST' })).status).to.equal(201);
        const remessa = await remit(t, account);
        expect(remessa.body).to.include({ fileNumber: 2, totalAmount: 0 });
        const content = await remittanceFile(t, remessa.body.id);
        const details = lines400(content).filter((l) => l[0] === bank.detailType);
        // BB: 06 alteração de vencimento, 09 protestar; Caixa: 05 alteração de vencimento.
        expect(details.map((d) => at(d, 109, 110))).to.deep.equal(bank.code === '001' ? ['06', '09'] : ['05']);
        sim.receiveRemessa(content, businessToday());
        const confirmations = await uploadReturn(t, account, sim.retorno(new Date()));
        expect(confirmations.body.occurrences.map((o: { code: string; outcome: string }) => [o.code, o.outcome])).to.deep.equal(
          bank.code === '001'
            ? [
                ['14', 'APPLIED'],
                ['19', 'APPLIED'],
              ]
            : [['14', 'APPLIED']],
        );
        const after = await boletoOf(boleto.id);
        expect(after).to.include({ status: bank.code === '001' ? 'PROTESTED' : 'REGISTERED', dueDate: newDue });
        expect(decodeBoleto(after.digitableLine, businessToday()).dueDate).to.equal(newDue);
      });
    });
  }

  it('BB CNAB 400 needs the variação da carteira: without it 400 naming carteiraVariation (on create and on change), a malformed one 400, another bank’s 400; nothing written', async () => {
    const accounts = () => dataSource.manager.countBy(BankAccount, { companyId: t.companyId });
    const before = await accounts();
    const missing = await createAccount(t, { ...SAMPLE_ACCOUNTS['001'], name: 'BB 400 sem variação', layout: 'CNAB400' });
    expectProblem(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['carteiraVariation']);
    expect(JSON.stringify(missing.body.errors)).to.contain('variação da carteira');
    for (const bad of ['19', '0190', 'abc']) {
      const res = await createAccount(t, {
        ...SAMPLE_ACCOUNTS['001'],
        name: 'BB 400 variação ruim',
        layout: 'CNAB400',
        carteiraVariation: bad,
      });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body.errors), bad).to.contain('carteiraVariation');
    }
    const itau = await createAccount(t, { ...SAMPLE_ACCOUNTS['341'], name: 'Itaú com variação', carteiraVariation: '019' });
    expectProblem(itau, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(itau.body.errors)).to.contain('carteiraVariation');
    expect(await accounts()).to.equal(before);

    // A BB CNAB 240 account needs none; changed to CNAB 400 it does, and a CNAB 400 account cannot drop it.
    const bb240 = await createAccount(t, { ...SAMPLE_ACCOUNTS['001'], name: 'BB 240' });
    expect(bb240.status, JSON.stringify(bb240.body)).to.equal(201);
    expect(bb240.body.carteiraVariation).to.equal(null);
    const url = `${ACCOUNTS}/${bb240.body.id}`;
    const toLayout = await api().patch(url).set(t.headers()).send({ layout: 'CNAB400', version: 1 });
    expectProblem(toLayout, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(toLayout.body.errors)).to.contain('carteiraVariation');
    const changed = await api().patch(url).set(t.headers()).send({ layout: 'CNAB400', carteiraVariation: '019', version: 1 });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ layout: 'CNAB400', carteiraVariation: '019', version: 2 });
    const dropped = await api().patch(url).set(t.headers()).send({ carteiraVariation: null, version: 2 });
    expectProblem(dropped, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(dropped.body.errors)).to.contain('carteiraVariation');
    expect((await api().get(url).set(t.headers())).body).to.include({ carteiraVariation: '019', version: 2 });
  });

  it('the variação da carteira is part of the account once it has boletos: changing it is 422 BANK_ACCOUNT_IN_USE (giving one to an account that had none is allowed)', async () => {
    const account = await account400('001', 'BB 400 identidade');
    await boletos(account, 1);
    const url = `${ACCOUNTS}/${account}`;
    const current = (await api().get(url).set(t.headers())).body;
    expectProblem(
      await api().patch(url).set(t.headers()).send({ carteiraVariation: '027', version: current.version }),
      422,
      'BANK_ACCOUNT_IN_USE',
    );
    const renamed = await api()
      .patch(url)
      .set(t.headers())
      .send({ name: 'BB 400 renomeada', carteiraVariation: '019', version: current.version });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    expect(renamed.body).to.include({ carteiraVariation: '019', name: 'BB 400 renomeada' });
    // An account from before the field (no variação, its files said 000) may be given one despite its boletos.
    await dataSource.manager.update(BankAccount, { id: decodeId('bank-account', account) }, { carteiraVariation: null });
    const given = await api().patch(url).set(t.headers()).send({ carteiraVariation: '027', version: renamed.body.version });
    expect(given.status, JSON.stringify(given.body)).to.equal(200);
    expect(given.body.carteiraVariation).to.equal('027');
    expectProblem(
      await api().patch(url).set(t.headers()).send({ carteiraVariation: '019', version: given.body.version }),
      422,
      'BANK_ACCOUNT_IN_USE',
    );
  });

  it('Sicoob publishes CNAB 240 only: an account asking for CNAB 400 is 422, on create and on change, writing nothing', async () => {
    const res = await createAccount(t, { ...SAMPLE_ACCOUNTS['756'], layout: 'CNAB400' });
    expectProblem(res, 422, 'LAYOUT_NOT_OFFERED');
    expect(res.body.detail).to.match(/Sicoob collects by CNAB240 only/);
    const sicoob = await createAccount(t, { ...SAMPLE_ACCOUNTS['756'], name: 'Sicoob 240' });
    expect(sicoob.status, JSON.stringify(sicoob.body)).to.equal(201);
    expectProblem(
      await api().patch(`${ACCOUNTS}/${sicoob.body.id}`).set(t.headers()).send({ layout: 'CNAB400', version: sicoob.body.version }),
      422,
      'LAYOUT_NOT_OFFERED',
    );
    expect((await api().get(`${ACCOUNTS}/${sicoob.body.id}`).set(t.headers())).body.layout).to.equal('CNAB240');
  });
});
