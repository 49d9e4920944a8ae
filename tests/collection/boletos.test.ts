import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addCalendarDays, businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { decodeBoleto } from '../../src/modules/collection/banks/barcode';
import { BoletoInstruction } from '../../src/modules/collection/entities/boleto-instruction.entity';
import { Boleto } from '../../src/modules/collection/entities/boleto.entity';
import { PixCharge } from '../../src/modules/collection/entities/pix-charge.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { parseBrCode } from './support/emv-reader';
import { auditRows, billedReceivables, collectionSetup, createAccount, eventRows, issueBoleto, SAMPLE_ACCOUNTS } from './support';

/*
 * Boletos of receivables (issue 46): POST/GET /receivables/:id/boleto, the nosso número sequence under
 * concurrency, the PDF whose barcode a scanner (zbarimg) reads back, instructions and cancellation.
 * Both engines (DB_URL).
 */
describe('Collection: boletos of receivables', function () {
  this.timeout(60_000);
  let t: TestTenant;
  let other: TestTenant;
  let accounts: Record<string, string>;
  let customerHash: string;
  let productHash: string;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    await makePaymentMethod(other, 'BOLETO', 'BANK_SLIP');
    const setup = await collectionSetup(t);
    customerHash = setup.customer.hash;
    productHash = setup.product.hash;
    accounts = {};
    for (const [code, body] of Object.entries(SAMPLE_ACCOUNTS)) {
      const res = await createAccount(t, {
        ...body,
        finePercent: 2,
        interestPerDayPercent: '0.0333',
        discountPercent: 5,
        discountDays: 3,
        protestDays: 5,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      accounts[code] = res.body.id;
    }
  });

  it('issues a boleto per bank: nosso número from the account sequence, barcode and linha that decode to the value and due date, audit and event', async () => {
    for (const code of Object.keys(SAMPLE_ACCOUNTS)) {
      const [r] = await billedReceivables(t, customerHash, productHash, 3, [30]);
      const res = await issueBoleto(t, r.id, { bankAccountId: accounts[code] });
      expect(res.status, `${code} ${JSON.stringify(res.body)}`).to.equal(201);
      expect(res.body).to.include({
        bankCode: code,
        status: 'PENDING_REGISTRATION',
        amount: 300,
        dueDate: r.dueDate,
        finePercent: 2,
        discountAmount: 15,
      });
      expect(res.body.discountDate).to.equal(addCalendarDays(r.dueDate as string, -3));
      expect(res.body.pendingInstructions).to.deep.equal([{ kind: 'REGISTER', dueDate: null, amount: null }]);
      const back = decodeBoleto(res.body.digitableLine, businessToday());
      expect(back.bankCode).to.equal(code);
      expect(back.amount.toFixed(2)).to.equal('300.00');
      expect(back.dueDate).to.equal(r.dueDate);
      expect(decodeBoleto(res.body.barcode, businessToday()).campoLivre).to.equal(back.campoLivre);
      const id = decodeId('boleto', res.body.id);
      const row = await dataSource.manager.findOneByOrFail(Boleto, { id });
      expect(row.sequence).to.equal(1);
      expect((await auditRows(t, 'boleto', id)).map((a) => a.action)).to.deep.equal(['CREATED']);
      expect((await eventRows(t, 'boleto', id)).map((e) => e.type)).to.deep.equal(['collection.boleto.issued']);
      const listed = await api().get(`/api/receivables/${r.id}/boleto`).set(t.headers());
      expect(listed.status).to.equal(200);
      expect(listed.body.data.map((b: { id: string }) => b.id)).to.deep.equal([res.body.id]);
      const account = await api().get(`/api/collection/bank-accounts/${accounts[code]}`).set(t.headers());
      expect(account.body.nextNossoNumero).to.equal(2);
    }
  });

  it('one standing boleto per receivable; concurrent issues on one account take distinct nosso números', async () => {
    const receivables = await billedReceivables(t, customerHash, productHash, 1, [10, 20, 30, 40, 50, 60]);
    const twice = await Promise.all([
      issueBoleto(t, receivables[0].id, { bankAccountId: accounts['341'] }),
      issueBoleto(t, receivables[0].id, { bankAccountId: accounts['341'] }),
    ]);
    expect(twice.map((r) => r.status).sort()).to.deep.equal([201, 409]);
    expectProblem(
      twice.find((r) => r.status === 409)!,
      409,
      'BOLETO_ALREADY_ISSUED',
    );
    const many = await Promise.all(receivables.slice(1).map((r) => issueBoleto(t, r.id, { bankAccountId: accounts['341'] })));
    expect(many.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201]);
    const numbers = [twice.find((r) => r.status === 201)!, ...many].map((r) => r.body.nossoNumero);
    expect(new Set(numbers).size).to.equal(6);
    const rows = await dataSource.manager.find(Boleto, {
      where: { companyId: t.companyId, bankAccountId: decodeId('bank-account', accounts['341']) },
    });
    expect(new Set(rows.map((r) => r.sequence)).size).to.equal(rows.length);
  });

  it('bad input, other tenants and filiais, acquirers and payers without a document are refused, nothing written', async () => {
    const [r] = await billedReceivables(t, customerHash, productHash, 1, [30]);
    const count = () => dataSource.manager.countBy(Boleto, { companyId: t.companyId });
    const before = await count();
    expectProblem(await issueBoleto(t, r.id, {}), 400, 'VALIDATION_ERROR');
    expectProblem(await issueBoleto(t, r.id, { bankAccountId: accounts['341'], dueDate: '2024-13-01' }), 400, 'VALIDATION_ERROR');
    expectProblem(
      await issueBoleto(t, r.id, { bankAccountId: accounts['341'], dueDate: addCalendarDays(businessToday(), -1) }),
      422,
      'BOLETO_DUE_DATE_PAST',
    );
    expectProblem(await issueBoleto(other, r.id, { bankAccountId: accounts['341'] }), 404, 'RECEIVABLE_NOT_FOUND');
    expectProblem(await issueBoleto(t, 'AAAAAAAA', { bankAccountId: accounts['341'] }), 404, 'RECEIVABLE_NOT_FOUND');
    const foreign = await createAccount(other, SAMPLE_ACCOUNTS['341']);
    expectProblem(await issueBoleto(t, r.id, { bankAccountId: foreign.body.id }), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectProblem(await issueBoleto(t, r.id, { bankAccountId: accounts['341'] }, t.headersWith({ filiais: [t.filialHashes[1]] }, 1)), 403);
    const second = await createAccount(t, { ...SAMPLE_ACCOUNTS['341'], filialId: t.filialHashes[1] });
    expectProblem(await issueBoleto(t, r.id, { bankAccountId: second.body.id }), 422, 'BANK_ACCOUNT_OTHER_FILIAL');
    const noDocument = await makeCustomer(t, { name: 'Sem Documento' });
    const [r2] = await billedReceivables(t, noDocument.hash, productHash, 1, [30]);
    expectProblem(await issueBoleto(t, r2.id, { bankAccountId: accounts['341'] }), 422, 'PAYER_DOCUMENT_MISSING');
    expectProblem(await api().get(`/api/collection/boletos/AAAAAAAA`).set(t.headers()), 404, 'BOLETO_NOT_FOUND');
    expect(await count()).to.equal(before);
  });

  it('instructions only for a registered title; a boleto no remessa carried can be cancelled, and then issued again', async () => {
    const [r] = await billedReceivables(t, customerHash, productHash, 1, [30]);
    const first = await issueBoleto(t, r.id, { bankAccountId: accounts['237'] });
    expectProblem(
      await api().post(`/api/collection/boletos/${first.body.id}/instructions`).set(t.headers()).send({ kind: 'WRITE_OFF' }),
      409,
      'BOLETO_PENDING_REGISTRATION',
    );
    expectProblem(
      await api().post(`/api/collection/boletos/${first.body.id}/instructions`).set(t.headers()).send({ kind: 'CHANGE_DUE_DATE' }),
      400,
      'VALIDATION_ERROR',
    );
    const cancelled = await api().post(`/api/collection/boletos/${first.body.id}/cancel`).set(t.headers());
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body).to.include({ status: 'CANCELLED' });
    expect(cancelled.body.pendingInstructions).to.deep.equal([]);
    expect(await dataSource.manager.countBy(BoletoInstruction, { boletoId: decodeId('boleto', first.body.id) })).to.equal(0);
    const again = await issueBoleto(t, r.id, { bankAccountId: accounts['237'] });
    expect(again.status).to.equal(201);
    expect(again.body.nossoNumero).to.not.equal(first.body.nossoNumero);
  });

  it('the PDF: ficha de compensação whose Interleaved 2 of 5 barcode zbarimg reads back as the 44 digits', async () => {
    const [r] = await billedReceivables(t, customerHash, productHash, 2, [30]);
    const issued = await issueBoleto(t, r.id, { bankAccountId: accounts['001'] });
    const res = await api()
      .get(`/api/collection/boletos/${issued.body.id}/pdf`)
      .set(t.headers())
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/application\/pdf/);
    const dir = mkdtempSync(path.join(tmpdir(), 'boleto-'));
    try {
      writeFileSync(path.join(dir, 'b.pdf'), res.body as Buffer);
      execFileSync('pdftoppm', ['-r', '300', '-png', '-f', '1', '-l', '1', path.join(dir, 'b.pdf'), path.join(dir, 'page')]);
      const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
      const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Si25.enable', path.join(dir, png)])
        .toString()
        .trim();
      expect(out).to.equal(issued.body.barcode);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expectProblem(await api().get(`/api/collection/boletos/${issued.body.id}/pdf`).set(other.headers()), 404, 'BOLETO_NOT_FOUND');
  });

  it('bolePix: an account with a Pix key prints a static Pix QR (txid from the nosso número) that zbarimg reads back and CRC-checks', async () => {
    const pix = await createAccount(t, { ...SAMPLE_ACCOUNTS['341'], name: 'Itaú bolePix', pixKey: 'cobranca@example.com' });
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const [r] = await billedReceivables(t, customerHash, productHash, 2, [30]);
    // The Pix merchant is the filial: without its city no BR Code can be made, so no boleto either.
    expectProblem(await issueBoleto(t, r.id, { bankAccountId: pix.body.id }), 422, 'BR_CODE_INVALID');
    expect(await dataSource.manager.countBy(Boleto, { companyId: t.companyId, receivableId: decodeId('receivable', r.id) })).to.equal(0);
    await dataSource.manager.update(
      Filial,
      { id: t.filialIds[0], companyId: t.companyId },
      { tradeName: 'Mercearia Boa Vista', municipalityName: 'São Paulo', postalCode: '01304001' },
    );
    const issued = await issueBoleto(t, r.id, { bankAccountId: pix.body.id });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    const row = await dataSource.manager.findOneByOrFail(Boleto, { id: decodeId('boleto', issued.body.id) });
    const txid = `BOL341${row.nossoNumero}`;
    const charges = await dataSource.manager.findBy(PixCharge, { companyId: t.companyId, receivableId: decodeId('receivable', r.id) });
    expect(charges.map((c) => [c.kind, c.status, c.txid, c.amount.toFixed(2)])).to.deep.equal([['STATIC', 'ACTIVE', txid, '200.00']]);
    expect((await eventRows(t, 'pix-charge', charges[0].id)).map((e) => e.type)).to.deep.equal(['collection.pix.charge-created']);
    const res = await api()
      .get(`/api/collection/boletos/${issued.body.id}/pdf`)
      .set(t.headers())
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).to.equal(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'bolepix-'));
    try {
      writeFileSync(path.join(dir, 'b.pdf'), res.body as Buffer);
      execFileSync('pdftoppm', ['-r', '300', '-png', '-f', '1', '-l', '1', path.join(dir, 'b.pdf'), path.join(dir, 'page')]);
      const png = path.join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.png'))!,
      );
      const qr = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', png]).toString().trim();
      const parsed = parseBrCode(qr);
      expect(parsed.crcOk).to.equal(true);
      expect(parsed.account).to.include({ '00': 'br.gov.bcb.pix', '01': 'cobranca@example.com' });
      expect(parsed.fields['54']).to.equal('200.00');
      expect(parsed.additional['05']).to.equal(txid);
      expect(qr).to.equal(charges[0].brCode);
      // The barcode still reads beside it.
      const bar = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Si25.enable', png]).toString().trim();
      expect(bar).to.equal(issued.body.barcode);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
