import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { api } from '../support/api';
import { makeCustomer, makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * The tax engine's cache of the company's master data (issue 51, rule-data-cache.ts): a change through
 * any route is seen by the next computation, and so is one committed by another replica — the version
 * row decides, read from the database with every computation, never an in-process flag.
 */
describe('Tax engine cache of rules and rates', () => {
  let t: TestTenant;
  let productHash: string;
  let customerHash: string;
  let taxGroupHash: string;
  let ruleId: number;

  const preview = async () => {
    const res = await api()
      .post('/api/fiscal/preview')
      .set(t.headers())
      .send({ customerId: customerHash, date: '2026-06-15', items: [{ productId: productHash, quantity: 1, unitPrice: 100 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.items[0];
  };
  const ruleRow = () => dataSource.manager.findOneByOrFail(FiscalOperationRule, { id: ruleId });

  before(async () => {
    t = await createTestTenant();
    const product = await makeProduct(t, { ncm: '61091000' });
    const customer = await makeCustomer(t);
    const setup = await setupFiscalData(t, {
      filiais: [0],
      products: [{ id: product.id, cest: '2806300' }],
      customers: [{ id: customer.id, uf: 'SP', contributor: true }],
    });
    productHash = product.hash;
    customerHash = customer.hash;
    taxGroupHash = setup.taxGroupHash;
    // An SP contributor buying inside SP: SALE / INTERNAL / contributor.
    const rule = await dataSource.manager.findOneByOrFail(FiscalOperationRule, {
      companyId: t.companyId,
      taxGroupId: setup.taxGroupId,
      operation: 'SALE',
      destination: 'INTERNAL',
      contributor: true,
    });
    ruleId = rule.id;
  });

  it('a rule, a UF rate, a tax group and an ST agreement changed through their routes: the next preview computes with them', async () => {
    expect((await preview()).icms).to.deep.include({ cst: '00', rate: 18, value: 18 });

    // The rule fixes its own rate: 100 × 12 % = 12.00.
    const patched = await api()
      .patch(`/api/fiscal/operations/${encodeId('fiscal-rule', ruleId)}`)
      .set(t.headers())
      .send({ version: (await ruleRow()).version, icmsRate: 12 });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect((await preview()).icms).to.deep.include({ rate: 12, value: 12 });

    // Back to the UF's rate; then the company's SP rate for this tax group: 100 × 7 % = 7.00.
    await api()
      .patch(`/api/fiscal/operations/${encodeId('fiscal-rule', ruleId)}`)
      .set(t.headers())
      .send({ version: (await ruleRow()).version, icmsRate: null });
    expect((await preview()).icms).to.deep.include({ rate: 18, value: 18 });
    const rate = await api().post('/api/fiscal/uf-rates').set(t.headers()).send({
      uf: 'SP',
      taxGroupId: taxGroupHash,
      validFrom: '2026-01-01',
      internalRate: 7,
      source: 'RICMS/SP (cache test)',
      sourceDate: '2026-01-01',
    });
    expect(rate.status, JSON.stringify(rate.body)).to.equal(201);
    const withRate = await preview();
    expect(withRate.icms).to.deep.include({ rate: 7, value: 7 });
    expect(withRate.rule.ratesSource).to.contain('RICMS/SP (cache test)');

    // The tax group's code is in the line's rule description.
    const group = await api().get(`/api/fiscal/tax-groups/${taxGroupHash}`).set(t.headers());
    const renamed = await api()
      .patch(`/api/fiscal/tax-groups/${taxGroupHash}`)
      .set(t.headers())
      .send({ version: group.body.version, code: 'RENOMEADO' });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    expect((await preview()).rule.description).to.contain('tax group RENOMEADO');

    // ST by agreement: the rule asks the agreements, none → no ST; one created → ST with its MVA.
    await api()
      .patch(`/api/fiscal/operations/${encodeId('fiscal-rule', ruleId)}`)
      .set(t.headers())
      .send({ version: (await ruleRow()).version, icmsCst: '10', stMode: 'AGREEMENT', cfop: '5401' });
    expect((await preview()).icms).to.deep.include({ cst: '00', st: null });
    const agreement = await api()
      .post('/api/fiscal/st-agreements')
      .set(t.headers())
      .send({ originUf: 'SP', destinationUf: 'SP', ncmPrefix: '6109', mva: 40, validFrom: '2026-01-01', source: 'Protocolo (cache test)' });
    expect(agreement.status, JSON.stringify(agreement.body)).to.equal(201);
    const withSt = await preview();
    expect(withSt.icms.cst).to.equal('10');
    expect(withSt.icms.st).to.deep.include({ mva: 40 });
  });

  it('a change committed by another replica (the row and the version bumped in its transaction, nothing in this process) is seen by the next preview', async () => {
    const before = (await preview()).icms.rate;
    const other = before === 5 ? 6 : 5;
    // What another replica's PATCH commits: the rule's row and the version row, in one transaction.
    await dataSource.transaction(async (em) => {
      await em.update(FiscalOperationRule, { id: ruleId }, { icmsRate: () => `${other}` } as never);
      await em.query(
        dataSource.options.type === 'better-sqlite3'
          ? 'INSERT INTO fiscal_data_version (company_id, version) VALUES (?, 1) ON CONFLICT (company_id) DO UPDATE SET version = version + 1'
          : 'INSERT INTO fiscal_data_version (company_id, version) VALUES (?, 1) ON DUPLICATE KEY UPDATE version = version + 1',
        [t.companyId],
      );
    });
    expect((await preview()).icms.rate).to.equal(other);
  });

  it('the cache is used: a row changed behind the version’s back (no write path does that) is not read again until the version moves', async () => {
    const cached = (await preview()).icms.rate;
    await dataSource.manager.update(FiscalOperationRule, { id: ruleId }, { icmsRate: () => '3' } as never);
    expect((await preview()).icms.rate, 'served from the cache').to.equal(cached);
    await dataSource.manager.query('UPDATE fiscal_data_version SET version = version + 1 WHERE company_id = ?', [t.companyId]);
    expect((await preview()).icms.rate).to.equal(3);
  });
});
