import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { ApproximateTax } from '../../src/modules/fiscal/entities/approximate-tax.entity';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { TaxGroup } from '../../src/modules/fiscal/entities/tax-group.entity';
import { UfRate } from '../../src/modules/fiscal/entities/uf-rate.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { fiscalDataChanged } from '../../src/modules/fiscal';

/*
 * The fiscal routes (issue 29): master data with version/audit/events, the fiscal fields of products,
 * customers and filiais through the catalog and settings routes, the Lei 12.741 upload and the
 * preview of a sales order, a fulfilment or a free body — which writes nothing.
 */
describe('Fiscal routes', () => {
  let t: TestTenant;
  let other: TestTenant;
  let groupHash: string;
  let product: Product & { hash: string };
  let customer: Customer & { hash: string };

  const counts = async (tenant: TestTenant = t) => ({
    audit: await dataSource.manager.countBy(AuditLog, { companyId: tenant.companyId }),
    events: await dataSource.manager.countBy(OutboxEvent, { companyId: tenant.companyId }),
    groups: await dataSource.manager.countBy(TaxGroup, { companyId: tenant.companyId }),
    rules: await dataSource.manager.countBy(FiscalOperationRule, { companyId: tenant.companyId }),
  });

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    product = await makeProduct(t, { price: '25' as never });
    customer = await makeCustomer(t);
    const setup = await setupFiscalData(t, {
      filiais: [0],
      products: [product.id],
      customers: [{ id: customer.id, uf: 'RJ', contributor: true }],
    });
    groupHash = setup.taxGroupHash;
  });

  describe('tax groups and operation rules', () => {
    it('creates, reads, lists and patches a tax group under its version; audit and events', async () => {
      const before = await counts();
      const created = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'bebidas', name: 'Bebidas frias' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({ code: 'BEBIDAS', name: 'Bebidas frias', active: true, version: 1 });
      const got = await api().get(`/api/fiscal/tax-groups/${created.body.id}`).set(t.headers());
      expect(got.body.code).to.equal('BEBIDAS');
      const list = await api().get('/api/fiscal/tax-groups?search=BEB').set(t.headers());
      expect(list.body.data.map((g: { code: string }) => g.code)).to.deep.equal(['BEBIDAS']);
      const patched = await api().patch(`/api/fiscal/tax-groups/${created.body.id}`).set(t.headers()).send({ version: 1, name: 'Bebidas' });
      expect(patched.body).to.deep.include({ name: 'Bebidas', version: 2 });
      expectProblem(
        await api().patch(`/api/fiscal/tax-groups/${created.body.id}`).set(t.headers()).send({ version: 1, name: 'X' }),
        409,
        'STALE_VERSION',
      );
      expectProblem(
        await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'BEBIDAS', name: 'Outra' }),
        409,
        'TAX_GROUP_CODE_TAKEN',
      );
      const after = await counts();
      expect([after.groups - before.groups, after.audit - before.audit, after.events - before.events]).to.deep.equal([1, 2, 2]);
      const types = (await dataSource.manager.find(OutboxEvent, { where: { companyId: t.companyId, aggregateType: 'tax-group' } })).map(
        (e) => e.type,
      );
      expect(types).to.include.members(['tax-group.created', 'tax-group.updated']);
    });

    it('creates and patches an operation rule; CFOP/destination and ST checks → 400 naming the field, nothing written', async () => {
      const body = {
        taxGroupId: groupHash,
        operation: 'SALE',
        destination: 'ABROAD',
        contributor: false,
        validFrom: '2026-01-01',
        cfop: '7102',
        icmsCst: '41',
        csosn: '300',
        pisCst: '08',
        cofinsCst: '08',
      };
      const created = await api().post('/api/fiscal/operations').set(t.headers()).send(body);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({
        taxGroupId: groupHash,
        destination: 'ABROAD',
        cfop: '7102',
        icmsCst: '41',
        stMode: 'NONE',
        validTo: null,
        version: 1,
      });
      const patched = await api()
        .patch(`/api/fiscal/operations/${created.body.id}`)
        .set(t.headers())
        .send({ version: 1, validTo: '2026-12-31' });
      expect(patched.body).to.deep.include({ validTo: '2026-12-31', version: 2 });
      expectProblem(await api().post('/api/fiscal/operations').set(t.headers()).send(body), 409, 'FISCAL_RULE_EXISTS');
      const before = await counts();
      const bad = await api()
        .post('/api/fiscal/operations')
        .set(t.headers())
        .send({ ...body, validFrom: '2027-01-01', cfop: '5102' });
      expectProblem(bad, 400, 'INVALID_FISCAL_RULE');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['cfop']);
      const st = await api()
        .post('/api/fiscal/operations')
        .set(t.headers())
        .send({ ...body, validFrom: '2027-01-01', destination: 'INTERNAL', cfop: '5405', icmsCst: '10' });
      expect(st.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['stMode']);
      expectProblem(
        await api()
          .post('/api/fiscal/operations')
          .set(t.headers())
          .send({ ...body, cfop: '71' }),
        400,
        'VALIDATION_ERROR',
      );
      expect(await counts()).to.deep.equal(before);
    });

    it("another tenant's ids → 404; its tax group is not ours (400 naming taxGroupId)", async () => {
      const theirs = await setupFiscalData(other, { filiais: [0] });
      expectProblem(await api().get(`/api/fiscal/tax-groups/${theirs.taxGroupHash}`).set(t.headers()), 404, 'TAX_GROUP_NOT_FOUND');
      expectProblem(
        await api().patch(`/api/fiscal/tax-groups/${theirs.taxGroupHash}`).set(t.headers()).send({ version: 1, name: 'x' }),
        404,
        'TAX_GROUP_NOT_FOUND',
      );
      const rule = await dataSource.manager.findOneByOrFail(FiscalOperationRule, {
        companyId: other.companyId,
        taxGroupId: theirs.taxGroupId,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor: true,
      });
      const { encodeId } = await import('../../src/core/hashids');
      expectProblem(
        await api()
          .get(`/api/fiscal/operations/${encodeId('fiscal-rule', rule.id)}`)
          .set(t.headers()),
        404,
        'FISCAL_OPERATION_RULE_NOT_FOUND',
      );
      const res = await api()
        .patch(`/api/catalog/products/${product.hash}`)
        .set(t.headers())
        .send({ version: product.version, taxGroupId: theirs.taxGroupHash });
      expectProblem(res, 400, 'TAX_GROUP_NOT_FOUND');
      expect(res.body.errors[0].path).to.equal('taxGroupId');
    });

    it('two concurrent PATCHes of one version: one wins, the other 409; one audit row, one event', async () => {
      const created = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'CONC', name: 'Concorrência' });
      const before = await counts();
      const results = await Promise.all(
        ['A', 'B'].map((name) => api().patch(`/api/fiscal/tax-groups/${created.body.id}`).set(t.headers()).send({ version: 1, name })),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      const row = await dataSource.manager.findOneByOrFail(TaxGroup, { companyId: t.companyId, code: 'CONC' });
      expect([row.version, row.name]).to.deep.equal([2, results.find((r) => r.status === 200)!.body.name]);
      const after = await counts();
      expect([after.audit - before.audit, after.events - before.events]).to.deep.equal([1, 1]);
    });

    it('a token without fiscal:write → 403; malformed ids → 400', async () => {
      expectProblem(
        await api()
          .post('/api/fiscal/tax-groups')
          .set(t.headersWith({ scope: 'fiscal:read' }))
          .send({ code: 'X', name: 'X' }),
        403,
      );
      expectProblem(await api().get('/api/fiscal/tax-groups/!!').set(t.headers()), 400, 'INVALID_ID');
    });
  });

  describe('UF rates and the Lei 12.741 table', () => {
    it('lists the shipped rates with their source; a company override wins in the preview', async () => {
      const list = await api().get('/api/fiscal/uf-rates?uf=SP').set(t.headers());
      expect(list.status).to.equal(200);
      expect(list.body.data).to.have.length(1);
      expect(list.body.data[0]).to.deep.include({ shipped: true, uf: 'SP', internalRate: 18, fcpRate: 0, taxGroupId: null });
      const created = await api().post('/api/fiscal/uf-rates').set(t.headers()).send({
        uf: 'SP',
        taxGroupId: groupHash,
        validFrom: '2026-04-01',
        internalRate: 12,
        source: 'RICMS/SP art. 54 (reduced rate)',
        sourceDate: '2026-03-01',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({ shipped: false, uf: 'SP', taxGroupId: groupHash, internalRate: 12 });
      expectProblem(
        await api()
          .post('/api/fiscal/uf-rates')
          .set(t.headers())
          .send({ uf: 'SP', taxGroupId: groupHash, validFrom: '2026-04-01', internalRate: 12, source: 's', sourceDate: '2026-03-01' }),
        409,
        'UF_RATE_EXISTS',
      );
      expectProblem(
        await api()
          .post('/api/fiscal/uf-rates')
          .set(t.headers())
          .send({ uf: 'XX', validFrom: '2026-04-01', internalRate: 12, source: 's', sourceDate: '2026-03-01' }),
        400,
      );
      const spCustomer = await makeCustomer(t);
      await setupFiscalData(t, { filiais: [], customers: [{ id: spCustomer.id, uf: 'SP' }] });
      const preview = (date: string) =>
        api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({ customerId: spCustomer.hash, date, items: [{ productId: product.hash, quantity: 1, unitPrice: 100 }] });
      expect((await preview('2026-03-31')).body.items[0].icms.rate).to.equal(18);
      const after = await preview('2026-04-02');
      expect(after.body.items[0].icms).to.deep.include({ rate: 12, value: 12 });
      expect(after.body.items[0].rule.ratesSource).to.contain('RICMS/SP art. 54');
      await dataSource.manager.delete(UfRate, { companyId: t.companyId });
      await fiscalDataChanged(dataSource.manager, t.companyId);
    });

    it('loads the approximate-tax table (replacing the previous one); vTotTrib follows it, absent → 0 with a warning', async () => {
      const body = (rate: number) => ({
        uf: 'SP',
        tableVersion: '26.1.A',
        source: 'IBPT',
        validFrom: '2026-01-01',
        validTo: '2026-12-31',
        rows: [
          { ncm: '61091000', federalNationalRate: rate, federalImportedRate: 20, stateRate: 18, municipalRate: 0 },
          { ncm: '22021000', federalNationalRate: 10, federalImportedRate: 12, stateRate: 18, municipalRate: 0 },
        ],
      });
      const free = () =>
        api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({ customerId: customer.hash, date: '2026-05-05', items: [{ productId: product.hash, quantity: 2, unitPrice: 50 }] });
      const none = await free();
      expect(none.body.items[0].approximateTaxes).to.equal(0);
      expect(none.body.warnings.join(' ')).to.contain('Lei 12.741');
      expectProblem(
        await api()
          .post('/api/fiscal/approximate-taxes')
          .set(t.headers())
          .send({
            ...body(13.45),
            rows: [{ ncm: '6109100', federalNationalRate: 1, federalImportedRate: 1, stateRate: 1, municipalRate: 0 }],
          }),
        400,
        'VALIDATION_ERROR',
      );
      expect(await dataSource.manager.countBy(ApproximateTax, { companyId: t.companyId })).to.equal(0);
      expect((await api().post('/api/fiscal/approximate-taxes').set(t.headers()).send(body(10))).status).to.equal(201);
      const loaded = await api().post('/api/fiscal/approximate-taxes').set(t.headers()).send(body(13.45));
      expect(loaded.status, JSON.stringify(loaded.body)).to.equal(201);
      expect(loaded.body).to.deep.equal({
        uf: 'SP',
        rows: 2,
        tableVersion: '26.1.A',
        tableKey: '',
        source: 'IBPT',
        validFrom: '2026-01-01',
        validTo: '2026-12-31',
      });
      expect(await dataSource.manager.countBy(ApproximateTax, { companyId: t.companyId })).to.equal(2);
      const withTable = await free();
      // (13.45 + 18 + 0) % of 100.00 = 31.45.
      expect([withTable.body.items[0].approximateTaxes, withTable.body.totals.vTotTrib, withTable.body.warnings]).to.deep.equal([
        31.45,
        31.45,
        [],
      ]);
    });
  });

  describe('fiscal fields of products, customers and filiais', () => {
    it('PATCH /catalog/products/:id sets origin, NCM, taxable unit/factor, tax group and SEM GTIN; NCM of 7 digits → 400, nothing written', async () => {
      const p = await makeProduct(t);
      const res = await api().patch(`/api/catalog/products/${p.hash}`).set(t.headers()).send({
        version: p.version,
        origin: 1,
        ncm: '22021000',
        cest: '0300700',
        taxableUnit: 'l',
        taxableFactor: '0.35',
        taxGroupId: groupHash,
        gtin: 'SEM GTIN',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({
        origin: 1,
        ncm: '22021000',
        cest: '0300700',
        taxableUnit: 'L',
        taxableFactor: 0.35,
        taxGroupId: groupHash,
        gtin: null,
      });
      const before = await dataSource.manager.findOneByOrFail(Product, { id: p.id });
      const bad = await api().patch(`/api/catalog/products/${p.hash}`).set(t.headers()).send({ version: before.version, ncm: '2202100' });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors[0].path).to.equal('ncm');
      const chapter = await api()
        .patch(`/api/catalog/products/${p.hash}`)
        .set(t.headers())
        .send({ version: before.version, ncm: '99021000' });
      expectProblem(chapter, 400, 'INVALID_NCM');
      expectProblem(
        await api().patch(`/api/catalog/products/${p.hash}`).set(t.headers()).send({ version: before.version, origin: 9 }),
        400,
        'VALIDATION_ERROR',
      );
      const after = await dataSource.manager.findOneByOrFail(Product, { id: p.id });
      expect([after.ncm, after.version]).to.deep.equal(['22021000', before.version]);
    });

    it('PATCH /catalog/customers/:id: person type, IE checked per UF, address with the UF’s IBGE code; bad IE / cMun → 400 naming the field, nothing written', async () => {
      const c = await makeCustomer(t, { document: '11222333000181' });
      const address = {
        street: 'Rua da Bahia',
        number: '1200',
        district: 'Centro',
        municipalityCode: '3106200',
        municipalityName: 'Belo Horizonte',
        uf: 'MG',
        postalCode: '30160011',
      };
      const ok = await api().patch(`/api/catalog/customers/${c.hash}`).set(t.headers()).send({
        version: c.version,
        personType: 'PJ',
        ieIndicator: 1,
        stateRegistration: '062.307.904/0081',
        address,
        email: 'fiscal@example.com.br',
      });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body).to.deep.include({
        personType: 'PJ',
        ieIndicator: 1,
        stateRegistration: '0623079040081',
        email: 'fiscal@example.com.br',
      });
      expect(ok.body.address).to.deep.include({ municipalityCode: '3106200', uf: 'MG', countryCode: '1058' });
      const version = ok.body.version;
      const cases: [Record<string, unknown>, string, string][] = [
        [{ stateRegistration: '0623079040082' }, 'stateRegistration', 'INVALID_STATE_REGISTRATION'],
        [{ address: { ...address, municipalityCode: '3550308' } }, 'address.municipalityCode', 'INVALID_FISCAL_DATA'],
        [{ ieIndicator: 2 }, 'stateRegistration', 'INVALID_STATE_REGISTRATION'],
        [{ personType: 'PF' }, 'personType', 'INVALID_FISCAL_DATA'],
      ];
      for (const [patch, path, code] of cases) {
        const res = await api()
          .patch(`/api/catalog/customers/${c.hash}`)
          .set(t.headers())
          .send({ version, ...patch });
        expectProblem(res, 400, code);
        expect(
          res.body.errors.map((e: { path: string }) => e.path),
          JSON.stringify(patch),
        ).to.include(path);
      }
      const row = await dataSource.manager.findOneByOrFail(Customer, { id: c.id });
      expect([row.version, row.stateRegistration, row.municipalityCode]).to.deep.equal([version, '0623079040081', '3106200']);
      expectProblem(
        await api().patch(`/api/catalog/customers/${c.hash}`).set(other.headers()).send({ version, ieIndicator: 9 }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
    });

    it('POST /catalog/customers with fiscal data (alphanumeric CNPJ); a bad IE → 400 and no customer', async () => {
      const address = {
        street: 'Rua XV de Novembro',
        number: '10',
        district: 'Centro',
        municipalityCode: '4106902',
        municipalityName: 'Curitiba',
        uf: 'PR',
      };
      const ok = await api().post('/api/catalog/customers').set(t.headers()).send({
        name: 'Atacado Curitiba',
        document: '12ABC34501DE35',
        personType: 'PJ',
        ieIndicator: 1,
        stateRegistration: '123.45678-50',
        address,
      });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body).to.deep.include({ document: '12ABC34501DE35', stateRegistration: '1234567850', ieIndicator: 1 });
      const count = await dataSource.manager.countBy(Customer, { companyId: t.companyId });
      const bad = await api()
        .post('/api/catalog/customers')
        .set(t.headers())
        .send({ name: 'Outro', ieIndicator: 1, stateRegistration: '1234567851', address });
      expectProblem(bad, 400, 'INVALID_STATE_REGISTRATION');
      expect(await dataSource.manager.countBy(Customer, { companyId: t.companyId })).to.equal(count);
    });

    it('PATCH /settings/filial/:filialId: address, IE, CNAE, industrial, CRT derived from the regime; IE of another UF → 400', async () => {
      const path = `/api/settings/filial/${t.filialHashes[1]}`;
      const current = await api().get(path).set(t.headers());
      expect(current.body).to.deep.include({ crt: 1, address: null, industrial: false });
      const address = {
        street: 'Rua Augusta',
        number: '500',
        district: 'Consolação',
        municipalityCode: '3550308',
        municipalityName: 'São Paulo',
        postalCode: '01304000',
        phone: '1130001000',
      };
      const res = await api().patch(path).set(t.headers()).send({
        version: current.body.version,
        stateRegistration: '110.042.490.114',
        address,
        cnae: '4751201',
        industrial: true,
        taxRegime: 'SIMPLES_NACIONAL',
        simplesExcessSublimit: true,
        simplesCreditRate: 2.56,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({
        stateRegistration: '110042490114',
        cnae: '4751201',
        industrial: true,
        crt: 2,
        simplesCreditRate: 2.56,
      });
      expect(res.body.address).to.deep.include({ municipalityCode: '3550308', street: 'Rua Augusta' });
      const bad = await api().patch(path).set(t.headers()).send({ version: res.body.version, stateRegistration: '0623079040081' });
      expectProblem(bad, 400, 'INVALID_STATE_REGISTRATION');
      const badCity = await api()
        .patch(path)
        .set(t.headers())
        .send({ version: res.body.version, address: { ...address, municipalityCode: '3304557' } });
      expectProblem(badCity, 400, 'INVALID_FISCAL_DATA');
      expect(badCity.body.errors[0].path).to.equal('address.municipalityCode');
      const row = await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[1] });
      expect([row.version, row.municipalityCode, row.stateRegistration]).to.deep.equal([res.body.version, '3550308', '110042490114']);
    });
  });

  describe('POST /fiscal/preview', () => {
    it('previews a sales order and its fulfilment with the rule each line used, writing nothing', async () => {
      await addStock(t, 0, product.id, 100);
      const order = await createOrder(t, {
        customerId: customer.hash,
        items: [{ productId: product.hash, quantity: 4, unitPrice: 25 }],
        freight: 10,
      });
      const before = await counts();
      const res = await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId: order.id, date: '2026-02-10' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // SP → RJ contributor: 12 % on 100 + 10 freight = 13.20; CFOP 6102.
      expect(res.body).to.deep.include({
        model: 55,
        operation: 'SALE',
        destination: 'INTERSTATE',
        ruleSetId: '2026',
        operationNature: 'Venda de mercadoria',
      });
      expect(res.body.items[0]).to.deep.include({
        cfop: '6102',
        salesOrderItemId: order.items[0].salesOrderItemId,
        grossTotal: 100,
        freight: 10,
      });
      expect(res.body.items[0].icms).to.deep.include({ cst: '00', base: 110, rate: 12, value: 13.2 });
      expect(res.body.items[0].rule.description).to.contain('SALE/INTERSTATE/contributor');
      expect(res.body.recipient).to.deep.include({ customerId: customer.hash, ieIndicator: 1 });
      expect(res.body.issuer).to.deep.include({ filialId: t.filialHashes[0], crt: 3 });
      const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 2 }]);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      const afterFulfil = await counts();
      const byFulfilment = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ fulfillmentId: f.body.fulfillment.id, date: '2026-02-10' });
      expect(byFulfilment.status, JSON.stringify(byFulfilment.body)).to.equal(200);
      // Half the order: 2 × 25 = 50 and half the freight, 5.00.
      expect(byFulfilment.body.items[0]).to.deep.include({ quantity: 2, grossTotal: 50, freight: 5 });
      expect(await counts()).to.deep.equal(afterFulfil);
      expect(afterFulfil.rules).to.equal(before.rules);
    });

    it('missing rule → 422 naming it; product without NCM → 422 naming the field; nothing written', async () => {
      const before = await counts();
      const orphan = await dataSource.manager.save(
        dataSource.manager.create(TaxGroup, { companyId: t.companyId, code: 'ORFAO', name: 'Sem regras', active: true }),
      );
      await fiscalDataChanged(dataSource.manager, t.companyId);
      const noRule = await makeProduct(t, { ncm: '61091000', taxGroupId: orphan.id });
      const res = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ customerId: customer.hash, date: '2026-02-10', items: [{ productId: noRule.hash, quantity: 1, unitPrice: 10 }] });
      expectProblem(res, 422, 'FISCAL_RULE_MISSING');
      expect(res.body.missingRule).to.deep.equal({
        taxGroup: 'ORFAO',
        operation: 'SALE',
        destination: 'INTERSTATE',
        contributor: true,
        date: '2026-02-10',
      });
      const bare = await makeProduct(t, { taxGroupId: orphan.id });
      const noNcm = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ customerId: customer.hash, date: '2026-02-10', items: [{ productId: bare.hash, quantity: 1, unitPrice: 10 }] });
      expectProblem(noNcm, 422);
      expect(noNcm.body.errors.map((e: { path: string }) => e.path)).to.include('items[0].product.ncm');
      expect((await counts()).audit).to.equal(before.audit);
    });

    it('an NFC-e for an unidentified consumer; bad bodies → 400; other tenant → 404; filial not granted → 403', async () => {
      const nfce = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({
          model: 65,
          date: '2026-02-10',
          consumerDocument: '529.982.247-25',
          items: [{ productId: product.hash, quantity: 1, unitPrice: 10 }],
        });
      expect(nfce.status, JSON.stringify(nfce.body)).to.equal(200);
      expect(nfce.body).to.deep.include({ model: 65, destination: 'INTERNAL', finalConsumer: true });
      expect(nfce.body.recipient).to.deep.include({ customerId: null, document: '52998224725', personType: 'PF' });
      expectProblem(await api().post('/api/fiscal/preview').set(t.headers()).send({ date: '2026-02-10' }), 400, 'VALIDATION_ERROR');
      expectProblem(
        await api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({ date: '2026-02-30', items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }] }),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(
        await api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({ date: '2026-02-10', items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }], extra: 1 }),
        400,
        'UNKNOWN_FIELDS',
      );
      const theirOrder = await createOrder(other, { items: [{ productId: (await makeProduct(other)).hash, quantity: 1, unitPrice: 1 }] });
      expectProblem(
        await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId: theirOrder.id, date: '2026-02-10' }),
        404,
        'SALES_ORDER_NOT_FOUND',
      );
      expectProblem(
        await api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({
            customerId: customer.hash,
            date: '2026-02-10',
            items: [{ productId: (await makeProduct(other)).hash, quantity: 1, unitPrice: 1 }],
          }),
        422,
        'FISCAL_DATA_INVALID',
      );
      const limited = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
      expectProblem(
        await api()
          .post('/api/fiscal/preview')
          .set(limited)
          .send({
            filialId: t.filialHashes[0],
            customerId: customer.hash,
            date: '2026-02-10',
            items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }],
          }),
        403,
      );
      const order = await createOrder(t, { customerId: customer.hash, items: [{ productId: product.hash, quantity: 1, unitPrice: 1 }] });
      expectProblem(await api().post('/api/fiscal/preview').set(limited).send({ salesOrderId: order.id, date: '2026-02-10' }), 403);
    });
  });
});
