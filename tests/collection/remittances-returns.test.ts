import { expect } from 'chai';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { decodeId } from '../../src/core/hashids';
import { BankSimulator } from '../../src/dev/bank-simulator';
import { decodeBoleto } from '../../src/modules/collection/banks/barcode';
import { parseRemessa240 } from '../../src/modules/collection/cnab/cnab240';
import { parseRemessa400Itau } from '../../src/modules/collection/cnab/cnab400-itau';
import { BankReturnOccurrence } from '../../src/modules/collection/entities/bank-return.entity';
import { BoletoInstruction } from '../../src/modules/collection/entities/boleto-instruction.entity';
import { Boleto } from '../../src/modules/collection/entities/boleto.entity';
import { Remittance } from '../../src/modules/collection/entities/remittance.entity';
import { ReceivableReceipt } from '../../src/modules/receivables/entities/receivable-receipt.entity';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { api } from '../support/api';
import { makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import {
  auditRows,
  billedReceivables,
  collectionSetup,
  createAccount,
  eventRows,
  issueBoleto,
  remit,
  remittanceFile,
  SAMPLE_ACCOUNTS,
  simulatorAccount,
  uploadReturn,
} from './support';

/*
 * Remessa and retorno (issue 46): remessas of every bank validated record by record, never the same
 * instruction in two files (concurrency), retornos from the local bank simulator applied once per
 * occurrence (the same file twice, overlapping files, payment after write-off, a bad file), and a day
 * of retornos that leaves every receivable settled once to the cent. Both engines (DB_URL).
 */
describe('Collection: remessa and retorno (CNAB 240) with the local bank', function () {
  this.timeout(120_000);
  let t: TestTenant;
  let other: TestTenant;
  let customerHash: string;
  let productHash: string;
  const accounts: Record<string, string> = {};
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    await makePaymentMethod(other, 'BOLETO', 'BANK_SLIP');
    const setup = await collectionSetup(t);
    customerHash = setup.customer.hash;
    productHash = setup.product.hash;
    for (const [code, body] of Object.entries(SAMPLE_ACCOUNTS)) {
      const res = await createAccount(t, { ...body, finePercent: 2, interestPerDayPercent: '0.0333', protestDays: 5, writeOffDays: 60 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      accounts[code] = res.body.id;
    }
  });

  /** `n` receivables of `quantity` × 100.00 each with a boleto on the account. */
  async function boletos(accountHash: string, n: number, quantity = 1) {
    const receivables = await billedReceivables(
      t,
      customerHash,
      productHash,
      quantity * n,
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

  it('a remessa per bank validates record by record: 240 positions, sequences, counts and the sum of the titles; its number follows the account', async () => {
    for (const code of Object.keys(SAMPLE_ACCOUNTS)) {
      const issued = await boletos(accounts[code], 2, 1);
      const res = await remit(t, accounts[code]);
      expect(res.status, `${code} ${JSON.stringify(res.body)}`).to.equal(201);
      expect(res.body).to.include({ fileNumber: 1, instructionCount: 2, totalAmount: 200, layout: 'CNAB240' });
      const content = await remittanceFile(t, res.body.id);
      const lines = content.split('\r\n').slice(0, -1);
      expect(content.endsWith('\r\n')).to.equal(true);
      expect(lines.every((l) => l.length === 240)).to.equal(true);
      expect(lines.map((l) => l[7])).to.deep.equal(['0', '1', '3', '3', '3', '3', '3', '3', '5', '9']);
      expect(lines.slice(2, -2).map((l) => l.slice(8, 13))).to.deep.equal(['00001', '00002', '00003', '00004', '00005', '00006']);
      expect(lines.slice(2, -2).map((l) => l[13])).to.deep.equal(['P', 'Q', 'R', 'P', 'Q', 'R']);
      expect(lines[lines.length - 2].slice(17, 23)).to.equal('000008');
      expect(lines[lines.length - 1].slice(23, 29)).to.equal('000010');
      expect(lines.every((l) => l.slice(0, 3) === code)).to.equal(true);
      const parsed = parseRemessa240(content);
      expect(parsed.fileNumber).to.equal(1);
      expect(parsed.registeredTotal.toFixed(2)).to.equal('200.00');
      const printed = issued.map((i) => i.boleto.nossoNumero as string);
      expect(parsed.titles.map((x) => x.nossoNumero + x.nossoNumeroDv)).to.deep.equal(
        printed.map((p) => p.replace(/^\d+\//, '').replace('-', '')),
      );
      expect(parsed.titles.map((x) => x.payerDocument)).to.deep.equal(['52998224725', '52998224725']);
      expectProblem(await remit(t, accounts[code]), 422, 'NO_PENDING_INSTRUCTIONS');
      const account = await api().get(`/api/collection/bank-accounts/${accounts[code]}`).set(t.headers());
      expect(account.body.nextRemittanceNumber).to.equal(2);
      const id = decodeId('remittance', res.body.id);
      expect((await auditRows(t, 'remittance', id)).map((a) => a.action)).to.deep.equal(['CREATED']);
      expect((await eventRows(t, 'remittance', id)).map((e) => e.type)).to.deep.equal(['collection.remittance.created']);
    }
    expectProblem(await remit(other, accounts['001']), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectProblem(await api().get(`/api/collection/remittances/AAAAAAAA`).set(t.headers()), 404, 'REMITTANCE_NOT_FOUND');
  });

  it('two remessas at once never carry the same instruction', async () => {
    await boletos(accounts['341'], 6, 1);
    const both = await Promise.all([remit(t, accounts['341']), remit(t, accounts['341'])]);
    const made = both.filter((r) => r.status === 201);
    for (const r of both.filter((x) => x.status !== 201)) expectProblem(r, 422, 'NO_PENDING_INSTRUCTIONS');
    expect(made.reduce((n, r) => n + r.body.instructionCount, 0)).to.equal(6);
    const rows = await dataSource.manager.find(BoletoInstruction, {
      where: { companyId: t.companyId, bankAccountId: decodeId('bank-account', accounts['341']) },
    });
    expect(rows.every((r) => r.remittanceId !== null)).to.equal(true);
    const files = await Promise.all(made.map((r) => remittanceFile(t, r.body.id)));
    const carried = files.flatMap((f) => parseRemessa240(f).titles.map((x) => x.nossoNumero));
    expect(new Set(carried).size).to.equal(carried.length);
    expect(new Set(made.map((r) => r.body.fileNumber)).size).to.equal(made.length);
  });

  it('retornos from the simulator: entrada, rejeição with reason, liquidação late with interest and fine, the same file twice, an overlap, payment after write-off, unknown nosso número', async () => {
    const account = accounts['237'];
    const issued = await boletos(account, 4, 1);
    // The first title is a week late when paid: its due date moved back as if issued earlier.
    const late = decodeId('boleto', issued[0].boleto.id);
    const dueLate = addCalendarDays(businessToday(), -5);
    await dataSource.manager.update(Boleto, { id: late }, { dueDate: dueLate });
    const bank = new BankSimulator(await simulatorAccount(t, account));
    const nn = (i: number) => (issued[i].boleto.nossoNumero as string).replace(/^\d+\//, '').split('-')[0];
    bank.refuse(nn(3), ['08', '45']);
    const remessa = await remit(t, account);
    bank.receiveRemessa(await remittanceFile(t, remessa.body.id), businessToday());
    const first = await uploadReturn(t, account, bank.retorno(new Date()));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.summary).to.include({ APPLIED: 3, REFUSED: 1, DUPLICATE: 0 });
    const refused = await api().get(`/api/collection/boletos/${issued[3].boleto.id}`).set(t.headers());
    expect(refused.body).to.include({ status: 'REFUSED', refusalReason: 'rejeição motivos 08, 45' });
    expect((await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers())).body.status).to.equal('REGISTERED');

    bank.pay(nn(0), { date: businessToday() });
    bank.pay(nn(1), { date: businessToday(), paidAmount: new Dec('40.00') });
    bank.writeOff(nn(2), businessToday());
    const payments = bank.retorno(new Date());
    const applied = await uploadReturn(t, account, payments);
    expect(applied.status, JSON.stringify(applied.body)).to.equal(201);
    expect(applied.body.summary).to.include({ APPLIED: 3, DUPLICATE: 0 });
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
    }).to.deep.equal({
      amount: '100.00',
      fine: '2.00',
      interest: '0.15',
      total: '102.15',
      bankFee: '2.50',
    });
    expect(receipt.receiptDate).to.equal(businessToday());
    expect(receipt.creditDate).to.equal(addCalendarDays(businessToday(), 1));
    expect((await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers())).body).to.include({
      status: 'PAID',
      paidAmount: 102.15,
    });
    expect((await api().get(`/api/collection/boletos/${issued[1].boleto.id}`).set(t.headers())).body.status).to.equal('PARTIALLY_PAID');
    expect((await api().get(`/api/collection/boletos/${issued[2].boleto.id}`).set(t.headers())).body.status).to.equal('WRITTEN_OFF');

    // The same file again, and a file overlapping it: duplicates, no second receipt.
    const again = await uploadReturn(t, account, payments);
    expect(again.body.summary).to.include({ APPLIED: 0, DUPLICATE: 3 });
    bank.pay(nn(2), { date: businessToday() });
    const overlap = await uploadReturn(t, account, bank.retorno(new Date(), { repeatPrevious: true, duplicateWithin: true }));
    expect(overlap.status, JSON.stringify(overlap.body)).to.equal(201);
    expect(overlap.body.summary).to.include({ APPLIED: 0, FLAGGED: 1, DUPLICATE: 4 });
    const flagged = (await api().get(`/api/collection/boletos/${issued[2].boleto.id}`).set(t.headers())).body;
    expect(flagged.status).to.equal('WRITTEN_OFF');
    expect(flagged.reviewReason).to.match(/while the boleto is WRITTEN_OFF/);
    const receipts = await dataSource.manager.find(ReceivableReceipt, {
      where: { companyId: t.companyId, receivableId: decodeId('receivable', issued[2].receivableId) },
    });
    expect(receipts).to.have.length(0);
    expect(await dataSource.manager.countBy(ReceivableReceipt, { receivableId: decodeId('receivable', issued[0].receivableId) })).to.equal(
      1,
    );
    const events = await eventRows(t, 'boleto', late);
    expect(events.map((e) => e.type)).to.deep.equal(['collection.boleto.issued', 'collection.boleto.registered', 'collection.boleto.paid']);

    // A title the account never issued.
    const stranger = new BankSimulator(await simulatorAccount(t, account));
    stranger.titles.set('99999999999', {
      nossoNumero: '99999999999',
      nossoNumeroDv: '1',
      documentNumber: 'X',
      companyRef: '',
      dueDate: businessToday(),
      amount: new Dec(10),
      interestPerDay: new Dec(0),
      finePercent: new Dec(0),
      discountAmount: new Dec(0),
      status: 'OPEN',
      paid: new Dec(0),
    });
    stranger.pay('99999999999', { date: businessToday() });
    const unknown = await uploadReturn(t, account, stranger.retorno(new Date()));
    expect(unknown.body.summary).to.include({ UNKNOWN: 1 });
    expect(unknown.body.occurrences[0].reason).to.match(/no boleto of this account/);
  });

  it('a retorno that does not parse names line and field and applies nothing; another account’s file, another tenant → refused', async () => {
    const account = accounts['756'];
    const issued = await boletos(account, 1, 1);
    const bank = new BankSimulator(await simulatorAccount(t, account));
    bank.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
    bank.pay((issued[0].boleto.nossoNumero as string).split('-')[0], { date: businessToday() });
    const good = bank.retorno(new Date());
    const lines = good.split('\r\n');
    // Line 6 (the second U): the paid amount with a letter in it; line 4 (a U) cut short.
    const broken = [...lines];
    broken[5] = broken[5].slice(0, 80) + 'X' + broken[5].slice(81);
    const before = await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId });
    const res = await uploadReturn(t, account, broken.join('\r\n'));
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(res.body.errors)).to.contain('file line 6').and.to.contain('paid amount (78-92)');
    const short = [...lines];
    short[3] = short[3].slice(0, 200);
    const res2 = await uploadReturn(t, account, short.join('\r\n'));
    expectProblem(res2, 400, 'VALIDATION_ERROR');
    expect(JSON.stringify(res2.body.errors)).to.contain('file line 4').and.to.contain('200 positions');
    expectProblem(await uploadReturn(t, accounts['104'], good), 400, 'VALIDATION_ERROR');
    expectProblem(await uploadReturn(other, account, good), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expect(await dataSource.manager.countBy(BankReturnOccurrence, { companyId: t.companyId })).to.equal(before);
    expect((await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers())).body.status).to.equal(
      'PENDING_REGISTRATION',
    );
    // The good file, twice at once: applied once.
    const both = await Promise.all([uploadReturn(t, account, good), uploadReturn(t, account, good)]);
    expect(both.map((r) => r.status)).to.deep.equal([201, 201]);
    expect(both.map((r) => r.body.summary.APPLIED).sort()).to.deep.equal([0, 2]);
    expect(await dataSource.manager.countBy(ReceivableReceipt, { receivableId: decodeId('receivable', issued[0].receivableId) })).to.equal(
      1,
    );
  });

  it('a day of retornos (entradas, partial payments, duplicates, overlaps, a title paid twice) leaves every receivable settled once to the cent', async () => {
    const account = accounts['033'];
    const issued = await boletos(account, 12, 1);
    const bank = new BankSimulator(await simulatorAccount(t, account));
    const nn = (i: number) => (issued[i].boleto.nossoNumero as string).split('-')[0];
    bank.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
    const files = [bank.retorno(new Date())];
    const expected = new Map<number, Dec>();
    const day = businessToday();
    // Morning: 0–3 paid in full, 4–5 in part (30.00 and 55.55).
    for (const i of [0, 1, 2, 3]) bank.pay(nn(i), { date: day });
    bank.pay(nn(4), { date: day, paidAmount: new Dec('30.00') });
    bank.pay(nn(5), { date: day, paidAmount: new Dec('55.55') });
    files.push(bank.retorno(new Date(), { duplicateWithin: true }));
    // Noon: the morning file again (overlap), the rest of 4, title 0 paid a second time (at another
    // agency, booked on the previous day: another occurrence by the key, which the same amount on the
    // same day would not be).
    bank.pay(nn(4), { date: day, paidAmount: new Dec('70.00') });
    bank.pay(nn(0), { date: addCalendarDays(day, -1), paidAmount: new Dec('100.00'), bankFee: new Dec('1.00') });
    files.push(bank.retorno(new Date(), { repeatPrevious: true }));
    // Evening: 6–8 paid, the first file resent.
    for (const i of [6, 7, 8]) bank.pay(nn(i), { date: day });
    files.push(bank.retorno(new Date()), files[0], files[1]);
    for (const [i, amount] of [0, 1, 2, 3, 6, 7, 8].map((i) => [i, '100.00'] as const)) expected.set(i, new Dec(amount));
    expected.set(4, new Dec('100.00'));
    expected.set(5, new Dec('55.55'));
    for (const i of [9, 10, 11]) expected.set(i, new Dec(0));
    for (const f of files) {
      const res = await uploadReturn(t, account, f);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    for (const [i, amount] of expected) {
      const r = await dataSource.manager.findOneByOrFail(Receivable, { id: decodeId('receivable', issued[i].receivableId) });
      expect(r.receivedAmount.toFixed(2), `receivable ${i}`).to.equal(amount.toFixed(2));
      const receipts = await dataSource.manager.find(ReceivableReceipt, { where: { receivableId: r.id } });
      expect(receipts.reduce((s, x) => s.plus(x.amount), new Dec(0)).toFixed(2), `receipts of ${i}`).to.equal(amount.toFixed(2));
      expect(receipts.length, `receipts of ${i}`).to.equal(i === 4 ? 2 : amount.gt(0) ? 1 : 0);
      expect(r.status).to.equal(amount.eq(100) ? 'RECEIVED' : amount.gt(0) ? 'PARTIALLY_RECEIVED' : 'OPEN');
    }
    const paidTwice = await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers());
    expect(paidTwice.body.status).to.equal('PAID');
    expect(paidTwice.body.reviewReason).to.match(/while the boleto is PAID/);
    // The first test's remessa and this day's one.
    expect(
      await dataSource.manager.countBy(Remittance, { companyId: t.companyId, bankAccountId: decodeId('bank-account', account) }),
    ).to.equal(2);
  });

  it('Itaú CNAB 400: the remessa validates record by record (400 positions, numbered 1…n, header and trailer) and its retorno applies once', async () => {
    const created = await createAccount(t, { ...SAMPLE_ACCOUNTS['341'], name: 'Itaú 400', layout: 'CNAB400', finePercent: 2 });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const account = created.body.id;
    const issued = await boletos(account, 3, 1);
    const remessa = await remit(t, account);
    expect(remessa.status, JSON.stringify(remessa.body)).to.equal(201);
    expect(remessa.body).to.include({ layout: 'CNAB400', fileNumber: 1, instructionCount: 3, totalAmount: 300, recordCount: 5 });
    const content = await remittanceFile(t, remessa.body.id);
    const lines = content.split('\r\n').slice(0, -1);
    expect(lines.every((l) => l.length === 400)).to.equal(true);
    expect(lines.map((l) => l[0])).to.deep.equal(['0', '1', '1', '1', '9']);
    expect(lines.map((l) => l.slice(394))).to.deep.equal(['000001', '000002', '000003', '000004', '000005']);
    expect(lines[0].slice(1, 26)).to.equal('1REMESSA01COBRANCA       ');
    const parsed = parseRemessa400Itau(content);
    expect(parsed.registeredTotal.toFixed(2)).to.equal('300.00');
    expect(parsed.titles.map((x) => x.nossoNumero)).to.deep.equal(issued.map((i) => (i.boleto.nossoNumero as string).slice(4, 12)));
    // The uso da empresa is the boleto's hashid in its case (an upper-cased hashid is another id).
    expect(parsed.titles.map((x) => x.companyRef)).to.deep.equal(issued.map((i) => i.boleto.id));
    const bank = new BankSimulator(await simulatorAccount(t, account), 'CNAB400');
    bank.receiveRemessa(content, businessToday());
    bank.pay(parsed.titles[0].nossoNumero, { date: businessToday() });
    const file = bank.retorno(new Date());
    expect(
      file
        .split('\r\n')
        .slice(0, -1)
        .every((l) => l.length === 400),
    ).to.equal(true);
    const first = await uploadReturn(t, account, file);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.summary).to.include({ APPLIED: 4 });
    const again = await uploadReturn(t, account, file);
    expect(again.body.summary).to.include({ APPLIED: 0, DUPLICATE: 4 });
    expect((await api().get(`/api/collection/boletos/${issued[0].boleto.id}`).set(t.headers())).body.status).to.equal('PAID');
    expect(await dataSource.manager.countBy(ReceivableReceipt, { receivableId: decodeId('receivable', issued[0].receivableId) })).to.equal(
      1,
    );
    const bad = file.replace(/\r\n1/, '\r\nX');
    expectProblem(await uploadReturn(t, account, bad), 400, 'VALIDATION_ERROR');
  });

  it('instructions travel in the next remessa (06 due date, 09 protest) and the bank’s confirmations move the boleto: new due date and barcode, PROTESTED', async () => {
    const account = accounts['104'];
    const [{ boleto }] = await boletos(account, 1, 1);
    const bank = new BankSimulator(await simulatorAccount(t, account));
    bank.receiveRemessa(await remittanceFile(t, (await remit(t, account)).body.id), businessToday());
    expect((await uploadReturn(t, account, bank.retorno(new Date()))).body.summary).to.include({ APPLIED: 1 });
    const newDue = addCalendarDays(businessToday(), 45);
    const url = `/api/collection/boletos/${boleto.id}/instructions`;
    expect((await api().post(url).set(t.headers()).send({ kind: 'CHANGE_DUE_DATE', dueDate: newDue })).status).to.equal(201);
    expectProblem(
      await api().post(url).set(t.headers()).send({ kind: 'CHANGE_DUE_DATE', dueDate: newDue }),
      409,
      'INSTRUCTION_ALREADY_PENDING',
    );
    const protest = await api().post(url).set(t.headers()).send({ kind: 'PROTEST' });
    expect(protest.body.pendingInstructions.map((p: { kind: string }) => p.kind)).to.deep.equal(['CHANGE_DUE_DATE', 'PROTEST']);
    const remessa = await remit(t, account);
    expect(remessa.body).to.include({ fileNumber: 3, instructionCount: 2, totalAmount: 0 });
    const content = await remittanceFile(t, remessa.body.id);
    expect(parseRemessa240(content).titles.map((x) => [x.movement, x.dueDate])).to.deep.equal([
      ['06', newDue],
      ['09', boleto.dueDate],
    ]);
    bank.receiveRemessa(content, businessToday());
    const confirmations = await uploadReturn(t, account, bank.retorno(new Date()));
    expect(confirmations.body.occurrences.map((o: { code: string; outcome: string }) => [o.code, o.outcome])).to.deep.equal([
      ['14', 'APPLIED'],
      ['19', 'APPLIED'],
    ]);
    const after = (await api().get(`/api/collection/boletos/${boleto.id}`).set(t.headers())).body;
    expect(after).to.include({ status: 'PROTESTED', dueDate: newDue });
    expect(after.pendingInstructions).to.deep.equal([]);
    expect(after.digitableLine).to.not.equal(boleto.digitableLine);
    expect(decodeBoleto(after.digitableLine, businessToday()).dueDate).to.equal(newDue);
  });
});
