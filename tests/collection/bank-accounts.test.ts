import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { Sequence } from '../../src/core/sequence/sequence.entity';
import { BankAccount, nossoNumeroSequence } from '../../src/modules/collection/entities/bank-account.entity';
import { api } from '../support/api';
import { makePaymentMethod } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { ACCOUNTS, auditRows, createAccount, eventRows, SAMPLE_ACCOUNTS } from './support';

/*
 * Collection bank accounts (issue 46, SPEC §14): one per bank with agência/conta checked by the bank's
 * rule, the next nosso número that only moves forward, tenancy, versions, audit and events.
 * Both engines (DB_URL).
 */
describe('Collection: bank accounts /collection/bank-accounts', function () {
  this.timeout(30_000);
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    await makePaymentMethod(t, 'BOLETO', 'BANK_SLIP');
    await makePaymentMethod(other, 'BOLETO', 'BANK_SLIP');
  });

  const count = (tenant: TestTenant) => dataSource.manager.countBy(BankAccount, { companyId: tenant.companyId });

  it('creates an account of each of the six banks, check digits accepted, with its counters, audit and event', async () => {
    for (const [code, body] of Object.entries(SAMPLE_ACCOUNTS)) {
      const res = await createAccount(t, {
        ...body,
        finePercent: 2,
        interestPerDayPercent: '0.0333',
        instructions: ['Não receber após 30 dias'],
        pixKey: 'financeiro@example.com.br',
      });
      expect(res.status, `${code}: ${JSON.stringify(res.body)}`).to.equal(201);
      expect(res.body).to.include({
        bankCode: code,
        nextNossoNumero: 1,
        nextRemittanceNumber: 1,
        finePercent: 2,
        interestPerDayPercent: 0.0333,
        active: true,
        version: 1,
      });
      expect(res.body.instructions).to.deep.equal(['Não receber após 30 dias']);
      const id = decodeId('bank-account', res.body.id);
      const audit = await auditRows(t, 'bank-account', id);
      expect(audit.map((a) => a.action)).to.deep.equal(['CREATED']);
      const events = await eventRows(t, 'bank-account', id);
      expect(events.map((e) => e.type)).to.deep.equal(['collection.bank-account.created']);
    }
    const list = await api().get(ACCOUNTS).set(t.headers());
    expect(list.status).to.equal(200);
    expect(list.body.data.map((a: { bankCode: string }) => a.bankCode)).to.deep.equal(Object.keys(SAMPLE_ACCOUNTS));
  });

  it('refuses a wrong check digit, carteira or convênio per bank (400 naming the field) and a layout the bank does not offer (422), writing nothing', async () => {
    const before = await count(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...SAMPLE_ACCOUNTS['001'], accountDigit: '5' }, 'accountDigit'],
      [{ ...SAMPLE_ACCOUNTS['001'], agencyDigit: '3' }, 'agencyDigit'],
      [{ ...SAMPLE_ACCOUNTS['237'], accountDigit: '1' }, 'accountDigit'],
      [{ ...SAMPLE_ACCOUNTS['341'], accountDigit: '2' }, 'accountDigit'],
      [{ ...SAMPLE_ACCOUNTS['341'], agencyDigit: '1' }, 'agencyDigit'],
      [{ ...SAMPLE_ACCOUNTS['033'], accountDigit: '5' }, 'accountDigit'],
      [{ ...SAMPLE_ACCOUNTS['104'], accountDigit: '3' }, 'accountDigit'],
      [{ ...SAMPLE_ACCOUNTS['104'], carteira: '17' }, 'carteira'],
      [{ ...SAMPLE_ACCOUNTS['001'], beneficiaryCode: '123' }, 'beneficiaryCode'],
    ];
    for (const [body, field] of cases) {
      const res = await createAccount(t, body);
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body), field).to.contain(field);
    }
    expectProblem(await createAccount(t, { ...SAMPLE_ACCOUNTS['001'], bankCode: '748' }), 400);
    // A layout the bank does not publish (Sicoob collects by CNAB 240 only): a business rule.
    expectProblem(await createAccount(t, { ...SAMPLE_ACCOUNTS['756'], layout: 'CNAB400' }), 422, 'LAYOUT_NOT_OFFERED');
    expectProblem(await createAccount(t, { ...SAMPLE_ACCOUNTS['001'], paymentMethodCode: 'NOPE' }), 422, 'PAYMENT_METHOD_NOT_FOUND');
    expect(await count(t)).to.equal(before);
  });

  it("another tenant's account is 404; a filial the token does not grant is 403", async () => {
    const mine = await createAccount(t, SAMPLE_ACCOUNTS['341']);
    expectProblem(await api().get(`${ACCOUNTS}/${mine.body.id}`).set(other.headers()), 404, 'BANK_ACCOUNT_NOT_FOUND');
    expectProblem(
      await api().patch(`${ACCOUNTS}/${mine.body.id}`).set(other.headers()).send({ name: 'x', version: 1 }),
      404,
      'BANK_ACCOUNT_NOT_FOUND',
    );
    expectProblem(await api().delete(`${ACCOUNTS}/${mine.body.id}`).set(other.headers()), 404, 'BANK_ACCOUNT_NOT_FOUND');
    const onlySecond = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
    expectProblem(await api().get(`${ACCOUNTS}/${mine.body.id}`).set(onlySecond), 403);
    expectProblem(await createAccount(t, SAMPLE_ACCOUNTS['341'], onlySecond), 403);
    const listed = await api().get(ACCOUNTS).set(onlySecond);
    expect(listed.status).to.equal(200);
    expect(listed.body.data).to.deep.equal([]);
  });

  it('PATCH: version checked, next nosso número only forward, identity re-validated; DELETE removes an unused account', async () => {
    const created = await createAccount(t, { ...SAMPLE_ACCOUNTS['237'], nextNossoNumero: 500 });
    expect(created.body.nextNossoNumero).to.equal(500);
    const id = decodeId('bank-account', created.body.id);
    expect((await dataSource.manager.findOneByOrFail(Sequence, { companyId: t.companyId, name: nossoNumeroSequence(id) })).value).to.equal(
      499,
    );
    const url = `${ACCOUNTS}/${created.body.id}`;
    expectProblem(await api().patch(url).set(t.headers()).send({ name: 'x', version: 9 }), 409, 'STALE_VERSION');
    expectProblem(await api().patch(url).set(t.headers()).send({ accountDigit: '0', version: 1 }), 400, 'VALIDATION_ERROR');
    const ok = await api().patch(url).set(t.headers()).send({ name: 'Bradesco 2', nextNossoNumero: 900, protestDays: 5, version: 1 });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body).to.include({ name: 'Bradesco 2', nextNossoNumero: 900, protestDays: 5, version: 2 });
    expectProblem(await api().patch(url).set(t.headers()).send({ nextNossoNumero: 800, version: 2 }), 422, 'NOSSO_NUMERO_ALREADY_ISSUED');
    const audit = await auditRows(t, 'bank-account', id);
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
    expect(audit[1].changes).to.deep.include({ name: ['Bradesco cobrança', 'Bradesco 2'], nextNossoNumero: [null, 900] });
    const del = await api().delete(url).set(t.headers());
    expect(del.status).to.equal(204);
    expect(await dataSource.manager.findOneBy(BankAccount, { id })).to.equal(null);
    expectProblem(await api().get(url).set(t.headers()), 404, 'BANK_ACCOUNT_NOT_FOUND');
  });
});
