import { expect } from 'chai';
import { signToken } from '../../src/core/auth/jwt';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId, encodeId } from '../../src/core/hashids';
import { scrape } from '../../src/core/metrics/registry';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { registerModuleMetrics } from '../../src/modules/metrics';
import { announceExpiringCertificates } from '../../src/modules/sefaz/certificate/certificate-expiry';
import { SefazCertificate } from '../../src/modules/sefaz/entities/sefaz-certificate.entity';
import { useLocalAuthority } from '../../src/dev/sefaz-simulator/local-authority';
import { createCertificateAuthority, toPfx } from '../../src/dev/sefaz-simulator/pki';
import { Company } from '../../src/modules/tenancy/entities/company.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeProduct, makeSeller } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { testCertificate, testRootCa } from '../support/test-certificate';
import { authority } from '../sefaz/support';
import { fulfilledOrder, InvoiceTenant } from '../invoices/support';
import { nfceSettings } from '../nfce/support';

/*
 * Issue 44: a company of one's own, from nothing to its first NF-e and NFC-e. An operator creates it
 * by API, the owner uploads a certificate of the suite's trusted ICP-Brasil stand-in, attaches the
 * local simulator and issues both documents to AUTHORIZED; the readiness check names each missing
 * piece on the way; bad certificates get one clear problem each.
 */

const operatorToken = (scope = 'operator') => signToken({ sub: 'ops.ana', companyId: '*', filiais: ['*'], scope }, '1h');
const asOperator = (scope?: string) => ({ Authorization: `Bearer ${operatorToken(scope)}` });

const root8 = () => String(10_000_000 + Math.floor(Math.random() * 89_999_999));
const ADDRESS = {
  street: 'Rua Augusta',
  number: '1500',
  complement: null,
  district: 'Consolação',
  municipalityCode: '3550308',
  municipalityName: 'São Paulo',
  postalCode: '01304001',
  phone: '1132145678',
};

const pfxOf = (c: { privateKeyPem: string; certificatePem: string }, password: string, chain: string[] = []) =>
  toPfx({ keyPem: c.privateKeyPem, certPem: c.certificatePem }, password, chain).toString('base64');

describe('First note: a company of one’s own (issue 44)', function () {
  this.timeout(120_000);
  const root = root8();
  const cnpj = cnpjWithCheckDigits(`${root}0001`);
  const branchCnpj = cnpjWithCheckDigits(`${root}0002`);
  let companyHash: string;
  let filialHashes: string[] = [];
  let t: TestTenant;
  let other: TestTenant;

  const companyBody = () => ({
    name: 'Mercearia Boa Vista Ltda',
    cnpj,
    filiais: [
      {
        name: 'Matriz Consolação',
        cnpj,
        uf: 'SP',
        nfeEnvironment: 'HOMOLOGATION',
        taxRegime: 'LUCRO_REAL',
        stateRegistration: '110042490114',
        tradeName: 'Boa Vista',
        address: ADDRESS,
        cnae: '4712100',
      },
      { name: 'Filial São Luís', cnpj: branchCnpj, uf: 'MA', nfeEnvironment: 'PRODUCTION' },
    ],
  });

  before(async () => {
    other = await createTestTenant();
  });

  after(() => useLocalAuthority(null));

  describe('operators create companies and filiais by API', () => {
    it('a tenant’s token (even scope *) is refused; an operator token is no tenant’s', async () => {
      expectProblem(await api().post('/api/operator/companies').set(other.headers()).send(companyBody()), 403, 'OPERATOR_TOKEN_REQUIRED');
      expectProblem(await api().post('/api/operator/companies').set(asOperator('*')).send(companyBody()), 403, 'OPERATOR_TOKEN_REQUIRED');
      expectProblem(await api().post('/api/operator/companies').send(companyBody()), 401, 'MISSING_TOKEN');
      expectProblem(
        await api()
          .get('/api/me')
          .set({ ...asOperator(), 'x-company-id': other.companyHash }),
        403,
        'COMPANY_NOT_GRANTED',
      );
      expect(await dataSource.manager.countBy(Company, { cnpj })).to.equal(0);
    });

    it('bad fiscal data → 400 naming the field, nothing written', async () => {
      const body = companyBody();
      body.filiais[0].stateRegistration = '110042490115';
      const bad = await api().post('/api/operator/companies').set(asOperator()).send(body);
      expectProblem(bad, 400, 'INVALID_STATE_REGISTRATION');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['stateRegistration']);
      const wrongCity = companyBody();
      wrongCity.filiais[0].address = { ...ADDRESS, municipalityCode: '3304557' };
      expectProblem(await api().post('/api/operator/companies').set(asOperator()).send(wrongCity), 400, 'INVALID_FISCAL_DATA');
      expectProblem(
        await api()
          .post('/api/operator/companies')
          .set(asOperator())
          .send({ ...companyBody(), filiais: [] }),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(
        await api()
          .post('/api/operator/companies')
          .set(asOperator())
          .send({ ...companyBody(), cnpj: '11222333000100' }),
        400,
        'VALIDATION_ERROR',
      );
      expect(await dataSource.manager.countBy(Company, { cnpj })).to.equal(0);
    });

    it('creates the company with its filiais and every fiscal field; audited; the same key replays; a second create → 409', async () => {
      const key = `ops-create-${cnpj}`;
      const [res, again] = await Promise.all(
        [0, 1].map(() => api().post('/api/operator/companies').set(asOperator()).set('Idempotency-Key', key).send(companyBody())),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      // Two requests with one operator key: one company, the other answer is the first one's.
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect(again.body).to.deep.equal(res.body);
      expect([res.headers['idempotent-replayed'], again.headers['idempotent-replayed']]).to.include('true');
      expect(await dataSource.manager.countBy(Company, { cnpj })).to.equal(1);
      expect(res.body).to.include({ name: 'Mercearia Boa Vista Ltda', cnpj, active: true });
      companyHash = res.body.companyId;
      filialHashes = res.body.filiais.map((f: { filialId: string }) => f.filialId);
      expect(res.body.filiais[0]).to.include({
        uf: 'SP',
        nfeEnvironment: 'HOMOLOGATION',
        taxRegime: 'LUCRO_REAL',
        stateRegistration: '110042490114',
        tradeName: 'Boa Vista',
        cnae: '4712100',
        crt: 3,
      });
      expect(res.body.filiais[0].address).to.deep.equal(ADDRESS);
      expect(res.body.filiais[1]).to.include({ uf: 'MA', nfeEnvironment: 'PRODUCTION', stateRegistration: null, address: null });
      const companyId = decodeId('company', companyHash);
      const audit = await dataSource.manager.find(AuditLog, { where: { companyId }, order: { id: 'ASC' } });
      expect(audit.map((a) => [a.entity, a.action, a.actor])).to.deep.equal([
        ['company', 'CREATED', 'ops.ana'],
        ['filial', 'CREATED', 'ops.ana'],
        ['filial', 'CREATED', 'ops.ana'],
      ]);
      expectProblem(await api().post('/api/operator/companies').set(asOperator()).send(companyBody()), 409, 'COMPANY_EXISTS');
      const shown = await api().get(`/api/operator/companies/${companyHash}`).set(asOperator());
      expect(shown.status).to.equal(200);
      expect(shown.body.filiais).to.have.length(2);
    });

    it('adds a filial (SC: SVRS); unknown company → 404; same CNPJ → 409', async () => {
      const third = cnpjWithCheckDigits(`${root}0003`);
      const res = await api()
        .post(`/api/operator/companies/${companyHash}/filiais`)
        .set(asOperator())
        .send({ name: 'Filial Florianópolis', cnpj: third, uf: 'SC', nfeEnvironment: 'HOMOLOGATION', stateRegistration: '251040852' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      filialHashes.push(res.body.filialId);
      expectProblem(
        await api().post(`/api/operator/companies/${companyHash}/filiais`).set(asOperator()).send({ name: 'Outra', cnpj: third, uf: 'SC' }),
        409,
        'FILIAL_EXISTS',
      );
      expectProblem(
        await api()
          .post(`/api/operator/companies/${encodeId('company', 987_654_321)}/filiais`)
          .set(asOperator())
          .send({ name: 'X', cnpj: randomCnpj(), uf: 'SP' }),
        404,
        'COMPANY_NOT_FOUND',
      );
      expectProblem(
        await api()
          .get(`/api/operator/companies/${encodeId('company', 987_654_321)}`)
          .set(asOperator()),
        404,
        'COMPANY_NOT_FOUND',
      );
    });
  });

  describe('the owner configures it', () => {
    before(() => {
      const companyId = decodeId('company', companyHash);
      const filialIds = filialHashes.map((h) => decodeId('filial', h));
      const token = signToken({ sub: 'dono', companyId: companyHash, filiais: ['*'], scope: '*' }, '1h');
      const headersFor = (tok: string, i = 0) => ({
        Authorization: `Bearer ${tok}`,
        'x-company-id': companyHash,
        'x-filial-id': filialHashes[i],
      });
      t = {
        companyId,
        companyHash,
        filialIds,
        filialHashes,
        token,
        headers: (i = 0) => headersFor(token, i),
        headersWith: (claims, i = 0) =>
          headersFor(
            signToken(
              { sub: claims.sub ?? 'dono', companyId: companyHash, filiais: claims.filiais ?? ['*'], scope: claims.scope ?? '*' },
              claims.ttl ?? '1h',
            ),
            i,
          ),
        ctx: { companyId, actor: 'dono' },
      };
    });

    const readiness = async (i = 0) => {
      const res = await api().get(`/api/settings/filial/${filialHashes[i]}/readiness`).set(t.headers(i));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };
    const check = (body: { checks: { code: string }[] }, code: string) =>
      body.checks.find((c) => c.code === code) as unknown as { status: string; message: string; fix: string | null };

    it('the readiness check names each missing piece', async () => {
      const first = await readiness(0);
      expect(first.ready).to.deep.equal({ nfe: false, nfce: false });
      expect(first.missing).to.deep.equal(['CERTIFICATE', 'CSC', 'TAX_RULES']);
      expect(check(first, 'CERTIFICATE').fix).to.equal(`PUT /api/entry-document/nfe/certificado/${filialHashes[0]}`);
      expect(check(first, 'STATE_REGISTRATION').status).to.equal('OK');
      expect(check(first, 'ADDRESS').status).to.equal('OK');
      expect(check(first, 'CRT')).to.include({ status: 'OK' });
      expect(check(first, 'SERIES').status).to.equal('WARNING');
      expect(check(first, 'ENDPOINT').message).to.contain('homologacao.nfe.fazenda.sp.gov.br');
      const branch = await readiness(1);
      expect(branch.missing).to.deep.equal(['CERTIFICATE', 'STATE_REGISTRATION', 'ADDRESS', 'CSC', 'TAX_RULES']);
      expect(check(branch, 'STATE_REGISTRATION').fix).to.equal(`PATCH /api/settings/filial/${filialHashes[1]}`);
      expect(check(branch, 'CRT').status).to.equal('WARNING');
      expectProblem(await api().get(`/api/settings/filial/${other.filialHashes[0]}/readiness`).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(
        await api()
          .get(`/api/settings/filial/${filialHashes[0]}/readiness`)
          .set(t.headersWith({ scope: 'nfe:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });

    it('authority settings: the UF’s authorizer (own, SVAN, SVRS) and SVC, the URLs, séries', async () => {
      const get = async (i: number) =>
        (await api().get(`/api/settings/filial/${filialHashes[i]}/authority`).set(t.headers(i)).expect(200)).body;
      const sp = await get(0);
      expect(sp).to.include({ uf: 'SP', environment: 'HOMOLOGATION', authorizer: 'SP', contingencyAuthorizer: 'SVC-AN' });
      expect(sp.target).to.include({ label: 'SP', simulator: false });
      expect(sp.target.urls.AUTORIZACAO).to.equal('https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx');
      expect(sp.contingencyTarget.urls).to.not.have.property('INUTILIZACAO');
      expect(sp.series).to.deep.equal([]);
      expect(sp.nfce).to.equal(null);
      const ma = await get(1);
      expect(ma).to.include({ authorizer: 'SVAN', contingencyAuthorizer: 'SVC-RS', environment: 'PRODUCTION' });
      expect(ma.target.urls.AUTORIZACAO).to.equal('https://www.sefazvirtual.fazenda.gov.br/NFeAutorizacao4/NFeAutorizacao4.asmx');
      const sc = await get(2);
      expect(sc).to.include({ authorizer: 'SVRS', contingencyAuthorizer: 'SVC-AN' });
      expect(sc.target.label).to.equal('SC via SVRS');
    });

    describe('certificates: one clear problem each', () => {
      const put = (i: number, pfx: string, password = 'senha') =>
        api().put(`/api/entry-document/nfe/certificado/${filialHashes[i]}`).set(t.headers(i)).send({ pfx, password });
      const DAY = 86_400_000;

      it('a PRODUCTION filial refuses each bad certificate with its own code; nothing written', async () => {
        const foreign = createCertificateAuthority('AC Estrangeira Root');
        const cases: [string, string, string?][] = [
          ['CERTIFICATE_SELF_SIGNED', pfxOf(testCertificate(branchCnpj, 'MERCEARIA BOA VISTA', { selfSigned: true }), 'senha')],
          [
            'CERTIFICATE_UNTRUSTED_ROOT',
            pfxOf(testCertificate(branchCnpj, 'MERCEARIA BOA VISTA', { ca: foreign }), 'senha', [foreign.certPem]),
          ],
          ['CERTIFICATE_CHAIN_NOT_VERIFIABLE', pfxOf(testCertificate(branchCnpj, 'MERCEARIA BOA VISTA', { ca: foreign }), 'senha')],
          [
            'CERTIFICATE_EXPIRED',
            pfxOf(
              testCertificate(branchCnpj, 'MERCEARIA BOA VISTA', { notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') }),
              'senha',
            ),
          ],
          [
            'CERTIFICATE_NOT_YET_VALID',
            pfxOf(
              testCertificate(branchCnpj, 'MERCEARIA BOA VISTA', {
                notBefore: new Date(Date.now() + 10 * DAY),
                notAfter: new Date(Date.now() + 400 * DAY),
              }),
              'senha',
            ),
          ],
          ['CERTIFICATE_CNPJ_MISMATCH', pfxOf(testCertificate(randomCnpj(), 'OUTRA EMPRESA'), 'senha')],
          ['CERTIFICATE_PASSWORD_INVALID', pfxOf(testCertificate(branchCnpj, 'MERCEARIA BOA VISTA'), 'senha'), 'errada'],
          ['CERTIFICATE_UNREADABLE', Buffer.from('not a pfx at all').toString('base64')],
        ];
        for (const [code, pfx, password] of cases) {
          const res = await put(1, pfx, password);
          expectProblem(res, 422, code);
          expect(res.body.detail, code).to.be.a('string').and.not.equal('');
        }
        expectProblem(
          await api().get(`/api/entry-document/nfe/certificado/${filialHashes[1]}`).set(t.headers(1)),
          404,
          'CERTIFICATE_NOT_FOUND',
        );
        expect(await dataSource.manager.countBy(SefazCertificate, { companyId: t.companyId })).to.equal(0);
      });

      it('a homologação filial accepts a self-signed one with the warning it keeps; then the trusted one replaces it', async () => {
        const self = await put(0, pfxOf(testCertificate(cnpj, 'MERCEARIA BOA VISTA', { selfSigned: true }), 'senha'));
        expect(self.status, JSON.stringify(self.body)).to.equal(200);
        expect(self.body.trust).to.equal('UNTRUSTED');
        expect(self.body.trustWarning).to.match(/^CERTIFICATE_SELF_SIGNED: /);
        const got = await api().get(`/api/entry-document/nfe/certificado/${filialHashes[0]}`).set(t.headers()).expect(200);
        expect(got.body.trustWarning).to.equal(self.body.trustWarning);
        const r = await readiness(0);
        expect(check(r, 'CERTIFICATE')).to.include({ status: 'WARNING' });
        expect(check(r, 'CERTIFICATE').message).to.contain('homologação only');
        // Moved to PRODUCTION, the self-signed certificate is what is missing.
        const settings = (await api().get(`/api/settings/filial/${filialHashes[0]}`).set(t.headers()).expect(200)).body;
        await api()
          .patch(`/api/settings/filial/${filialHashes[0]}`)
          .set(t.headers())
          .send({ version: settings.version, nfeEnvironment: 'PRODUCTION' })
          .expect(200);
        expect((await readiness(0)).missing).to.include('CERTIFICATE');
        await api()
          .patch(`/api/settings/filial/${filialHashes[0]}`)
          .set(t.headers())
          .send({ version: settings.version + 1, nfeEnvironment: 'HOMOLOGATION' })
          .expect(200);

        const trusted = await put(
          0,
          pfxOf(testCertificate(cnpj, 'MERCEARIA BOA VISTA LTDA'), 'senha-a1', [testRootCa().certPem]),
          'senha-a1',
        );
        expect(trusted.status, JSON.stringify(trusted.body)).to.equal(200);
        expect(trusted.body).to.include({ trust: 'TRUSTED', trustWarning: null, cnpj, version: 2 });
        expect(check(await readiness(0), 'CERTIFICATE').status).to.equal('OK');
      });

      it('expiry: 30/15/7-day events once each, the metric by window', async () => {
        registerModuleMetrics();
        const soon = await createTestTenant({ environment: 'HOMOLOGATION' });
        const soonCnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: soon.filialIds[0] })).cnpj;
        const c = testCertificate(soonCnpj, 'VENCE LOGO', {
          notBefore: new Date(Date.now() - 300 * DAY),
          notAfter: new Date(Date.now() + 10 * DAY + 3_600_000),
        });
        await api()
          .put(`/api/entry-document/nfe/certificado/${soon.filialHashes[0]}`)
          .set(soon.headers())
          .send({ pfx: pfxOf(c, 'x'), password: 'x' })
          .expect(200);
        const events = () =>
          dataSource.manager.find(OutboxEvent, {
            where: { companyId: soon.companyId, type: 'nfe.certificate.expiring' },
            order: { id: 'ASC' },
          });
        await announceExpiringCertificates();
        await announceExpiringCertificates();
        expect((await events()).map((e) => e.data.threshold)).to.deep.equal([15]);
        await announceExpiringCertificates(new Date(Date.now() + 5 * DAY));
        await announceExpiringCertificates(new Date(Date.now() + 5 * DAY));
        expect(await events()).to.have.length(2);
        const text = await scrape();
        expect(text).to.match(/backoffice_sefaz_certificates\{window="30d"\} [1-9]/);
        expect(text).to.match(/backoffice_sefaz_certificates\{window="15d"\} [1-9]/);
        const r = await api().get(`/api/settings/filial/${soon.filialHashes[0]}/readiness`).set(soon.headers()).expect(200);
        expect(check(r.body, 'CERTIFICATE')).to.include({ status: 'WARNING' });
        expect(check(r.body, 'CERTIFICATE').message).to.match(/expires in 10 day/);
      });
    });

    describe('the local simulator, then the first NF-e and NFC-e', () => {
      let world: InvoiceTenant;

      it('attaching needs a running simulator; then the filial points at it and keeps its own certificate', async () => {
        useLocalAuthority(null);
        expectProblem(
          await api().post(`/api/settings/filial/${filialHashes[0]}/simulator`).set(t.headers()).send({}),
          422,
          'SIMULATOR_NOT_RUNNING',
        );
        const { sim, endpoints } = await authority();
        useLocalAuthority(sim, endpoints);
        expectProblem(
          await api().post(`/api/settings/filial/${other.filialHashes[0]}/simulator`).set(t.headers()).send({}),
          403,
          'FILIAL_NOT_GRANTED',
        );
        expectProblem(
          await api().post(`/api/settings/filial/${filialHashes[0]}/simulator`).set(t.headers()).send({ certificate: 'MAYBE' }),
          400,
          'VALIDATION_ERROR',
        );
        const res = await api().post(`/api/settings/filial/${filialHashes[0]}/simulator`).set(t.headers()).send({});
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.include({ filialId: filialHashes[0], url: endpoints.url, label: 'local simulator', certificateIssued: false });
        expect(res.body.certificate).to.include({ trust: 'TRUSTED', cnpj });
        const a = (await api().get(`/api/settings/filial/${filialHashes[0]}/authority`).set(t.headers()).expect(200)).body;
        expect(a.target).to.include({ simulator: true, label: 'local simulator' });
        expect(a.target.urls.AUTORIZACAO.startsWith(endpoints.url)).to.equal(true);
        expect(check(await readiness(0), 'ENDPOINT').status).to.equal('OK');
        // Filial 2 without a certificate gets one of the simulator's CA.
        const issued = await api().post(`/api/settings/filial/${filialHashes[2]}/simulator`).set(t.headers(2)).send({});
        expect(issued.status, JSON.stringify(issued.body)).to.equal(200);
        expect(issued.body.certificateIssued).to.equal(true);
        expect(issued.body.certificate.issuer).to.contain('Simulador SEFAZ');
        await api().delete(`/api/settings/filial/${filialHashes[2]}/simulator`).set(t.headers(2)).expect(204);
        expect(
          (await api().get(`/api/settings/filial/${filialHashes[2]}/authority`).set(t.headers(2)).expect(200)).body.target.simulator,
        ).to.equal(false);
      });

      it('tax rules and NFC-e settings complete it: ready for both', async () => {
        const { sim, endpoints } = await authority();
        const customer = await makeCustomer(t, { document: randomCnpj(), email: 'compras@cliente.com.br' } as never);
        const products = [
          await makeProduct(t, { ncm: '22030000', gtin: null } as never),
          await makeProduct(t, { ncm: '10063021', unit: 'PCT' } as never),
        ];
        for (const p of products) await addStock(t, 0, p.id, 1000, '3');
        await setupFiscalData(t, {
          filiais: [],
          products: products.map((p) => p.id),
          customers: [{ id: customer.id, document: customer.document! }],
        });
        world = Object.assign(t, { cnpj, sim, endpoints, customer, products }) as InvoiceTenant;
        const before = await readiness(0);
        expect(before.missing).to.deep.equal(['CSC']);
        expect(before.ready).to.deep.equal({ nfe: true, nfce: false });
        await api()
          .put(`/api/nfce/configuration/${filialHashes[0]}`)
          .set(t.headers())
          .send(nfceSettings({ qrVersion: 2, cscId: 1, cscToken: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6' }))
          .expect(200);
        const after = await readiness(0);
        expect(after.missing).to.deep.equal([]);
        expect(after.ready).to.deep.equal({ nfe: true, nfce: true });
        expect(check(after, 'CSC').message).to.contain('CSC id 1');
      });

      it('issues the first NF-e and the first NFC-e: AUTHORIZED', async () => {
        const { fulfillmentId } = await fulfilledOrder(world);
        const nfe = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
        expect(nfe.status, JSON.stringify(nfe.body)).to.equal(201);
        expect(nfe.body).to.include({ status: 'AUTHORIZED', cStat: '100', model: 55, series: 1, number: 1 });
        expect(world.sim.issuer.document(nfe.body.accessKey)?.status).to.equal('AUTHORIZED');

        const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
        const seller = await makeSeller(t, { name: 'Caixa 1' });
        await makePaymentMethod(t, 'CASH', 'CASH');
        await api()
          .put(`/api/quick-sale/configuration/${filialHashes[0]}`)
          .set(t.headers())
          .send({
            enabled: true,
            defaultCustomerId: walkIn.hash,
            defaultSellerId: seller.hash,
            paymentMethods: ['CASH'],
            defaultPaymentMethod: 'CASH',
          })
          .expect(200);
        const sale = await api()
          .post('/api/sales-order')
          .set(t.headers())
          .send({
            flowMode: 'QUICK_SALE',
            items: [{ productId: world.products[0].hash, quantity: 2, unitPrice: '10.50' }],
            payments: [{ method: 'CASH', amount: '21.00' }],
          });
        expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
        expect(sale.body.fiscalDocument).to.include({
          model: 65,
          status: 'AUTHORIZED',
          number: 1,
          series: 1,
          contingency: false,
          cStat: '100',
        });
        const a = (await api().get(`/api/settings/filial/${filialHashes[0]}/authority`).set(t.headers()).expect(200)).body;
        expect(a.series.map((s: { model: number; nextNumber: number }) => [s.model, s.nextNumber])).to.deep.equal([
          [55, 2],
          [65, 2],
        ]);
        expect(a.nfce).to.deep.equal({ series: 1, qrVersion: 2, cscId: 1, cscTokenSet: true });
      });
    });
  });
});
