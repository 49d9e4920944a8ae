import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { QuickSaleConfiguration } from '../../src/modules/quick-sale/entities/quick-sale-configuration.entity';
import { api } from '../support/api';
import { makeCustomer, makePaymentMethod, makeSeller } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Quick-sale configuration (SPEC §7)', () => {
  let t: TestTenant;
  let other: TestTenant;
  let customer: { hash: string };
  let seller: { hash: string };
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    customer = await makeCustomer(t, { name: 'Consumidor Final' });
    seller = await makeSeller(t, { name: 'Balcão' });
    await makePaymentMethod(t, 'CASH', 'CASH');
    await makePaymentMethod(t, 'PIX', 'PIX');
    await makePaymentMethod(t, 'OLD', 'OTHER', { active: false });
  });

  const url = (t0: TestTenant, i = 0) => `/api/quick-sale/configuration/${t0.filialHashes[i]}`;
  const valid = () => ({
    enabled: true,
    defaultCustomerId: customer.hash,
    defaultSellerId: seller.hash,
    paymentMethods: ['CASH', 'PIX'],
    defaultPaymentMethod: 'CASH',
    allowNegativeStock: false,
    requireCustomer: false,
    maxDiscountPercent: 10,
  });

  it('GET answers defaults with configured:false until saved', async () => {
    const res = await api().get(url(t, 1)).set(t.headers(1));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ configured: false, enabled: false, version: 0, defaultCustomerId: null, filialId: t.filialHashes[1] });
    expect(res.body.paymentMethods).to.deep.equal([]);
  });

  it('PUT saves, then needs the current version; audited', async () => {
    const first = await api().put(url(t)).set(t.headers()).send(valid());
    expect(first.status).to.equal(200);
    expect(first.body).to.include({
      configured: true,
      enabled: true,
      version: 1,
      defaultCustomerId: customer.hash,
      defaultPaymentMethod: 'CASH',
      maxDiscountPercent: 10,
    });
    const read = await api().get(url(t)).set(t.headers());
    expect(read.body).to.deep.equal(first.body);

    expectProblem(
      await api()
        .put(url(t))
        .set(t.headers())
        .send({ ...valid(), maxDiscountPercent: 5 }),
      409,
      'STALE_VERSION',
    );
    const second = await api()
      .put(url(t))
      .set(t.headers())
      .send({ ...valid(), maxDiscountPercent: 5, version: 1 });
    expect(second.body).to.include({ version: 2, maxDiscountPercent: 5 });
    expectProblem(
      await api()
        .put(url(t))
        .set(t.headers())
        .send({ ...valid(), version: 1 }),
      409,
      'STALE_VERSION',
    );

    const audit = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'quick-sale-configuration' },
      order: { id: 'ASC' },
    });
    expect(audit.map((a) => a.action)).to.deep.equal(['CREATED', 'UPDATED']);
    expect(audit[1].changes).to.deep.equal({ maxDiscountPercent: ['10.0000', '5.0000'] });
  });

  it('PUT refuses unknown or inactive references with 422 naming each field; nothing written', async () => {
    const foreignCustomer = await makeCustomer(other);
    const inactiveSeller = await makeSeller(t, { active: false });
    const res = await api()
      .put(url(t, 1))
      .set(t.headers(1))
      .send({
        ...valid(),
        defaultCustomerId: foreignCustomer.hash,
        defaultSellerId: inactiveSeller.hash,
        paymentMethods: ['CASH', 'OLD', 'NOPE'],
        defaultPaymentMethod: 'PIX',
      });
    expectProblem(res, 422, 'INVALID_QUICK_SALE_CONFIGURATION');
    expect(res.body.problems.map((p: { code: string; field: string }) => `${p.code}@${p.field}`)).to.deep.equal([
      'DEFAULT_CUSTOMER_NOT_FOUND@defaultCustomerId',
      'DEFAULT_SELLER_INACTIVE@defaultSellerId',
      'PAYMENT_METHOD_INACTIVE@paymentMethods[1]',
      'PAYMENT_METHOD_NOT_FOUND@paymentMethods[2]',
      'DEFAULT_PAYMENT_METHOD_NOT_ALLOWED@defaultPaymentMethod',
    ]);
    expect(await dataSource.manager.countBy(QuickSaleConfiguration, { companyId: t.companyId, filialId: t.filialIds[1] })).to.equal(0);
  });

  it('bad input → 400 with field paths', async () => {
    const res = await api().put(url(t, 1)).set(t.headers(1)).send({ enabled: 'yes', maxDiscountPercent: 150, paymentMethods: 'CASH' });
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.include.members(['enabled', 'maxDiscountPercent', 'paymentMethods']);
  });

  it('validate-configuration lists every problem with a stable code and field', async () => {
    const fresh = await createTestTenant({ filiais: 1 });
    const notConfigured = await api().get(`/api/quick-sale/validate-configuration/${fresh.filialHashes[0]}`).set(fresh.headers());
    expect(notConfigured.body).to.deep.equal({
      valid: false,
      problems: [
        { code: 'QUICK_SALE_NOT_CONFIGURED', field: 'configuration', message: 'Quick sale has not been configured for this filial' },
      ],
    });

    const c = await makeCustomer(fresh);
    await makePaymentMethod(fresh, 'CASH', 'CASH');
    await api()
      .put(`/api/quick-sale/configuration/${fresh.filialHashes[0]}`)
      .set(fresh.headers())
      .send({ enabled: false, defaultCustomerId: c.hash, paymentMethods: ['CASH'] });
    // The customer becomes inactive after the save: validation finds it, with the disabled flag.
    await api().patch(`/api/catalog/customers/${c.hash}`).set(fresh.headers()).send({ active: false, version: 1 });
    const res = await api().get(`/api/quick-sale/validate-configuration/${fresh.filialHashes[0]}`).set(fresh.headers());
    expect(res.body.valid).to.equal(false);
    expect(res.body.problems.map((p: { code: string }) => p.code)).to.deep.equal(['QUICK_SALE_DISABLED', 'DEFAULT_CUSTOMER_INACTIVE']);

    const ok = await api().get(`/api/quick-sale/validate-configuration/${t.filialHashes[0]}`).set(t.headers());
    expect(ok.body).to.deep.equal({ valid: true, problems: [] });
  });

  it("another tenant's filial → 403; a filial not granted → 403", async () => {
    expectProblem(await api().get(url(other)).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(
      await api()
        .put(url(t, 1))
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }))
        .send(valid()),
      403,
      'FILIAL_NOT_GRANTED',
    );
  });

  it('PUT needs the quick-sale:write scope', async () => {
    expectProblem(
      await api()
        .put(url(t))
        .set(t.headersWith({ scope: 'sales-order:read' }))
        .send(valid()),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });
});
