import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { Company } from '../../src/modules/tenancy/entities/company.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { getFilialFiscalSettings, getPurchaseTolerances } from '../../src/modules/tenancy/settings.service';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { NFE, nfeTenant } from '../nfe/nfe-support';

/*
 * Filial fiscal settings and the company's purchase tolerances (SPEC §1): read and changed through
 * the API under a version, audited, published; the NF-e environment decides which invoices import.
 */
describe('Settings: GET/PATCH /settings/filial/:filialId, GET/PATCH /settings/company', () => {
  let t: TestTenant;
  let other: TestTenant;
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  const filialPath = (i = 0, tenant = t) => `/api/settings/filial/${tenant.filialHashes[i]}`;
  const patchFilial = (body: Record<string, unknown>, headers = t.headers(), i = 0) => api().patch(filialPath(i)).set(headers).send(body);
  const patchCompany = (body: Record<string, unknown>, headers = t.headers()) =>
    api().patch('/api/settings/company').set(headers).send(body);
  const counts = async (tenant: TestTenant) => ({
    audit: await dataSource.manager.countBy(AuditLog, { companyId: tenant.companyId }),
    events: await dataSource.manager.countBy(OutboxEvent, { companyId: tenant.companyId }),
  });

  describe('filial', () => {
    it('reads the defaults, changes them under the version; audit with field diffs, event, and the readers follow', async () => {
      const read = await api().get(filialPath(1)).set(t.headers());
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.include({
        filialId: t.filialHashes[1],
        nfeEnvironment: 'PRODUCTION',
        autoCiencia: true,
        taxRegime: 'SIMPLES_NACIONAL',
        allowNegativeStock: false,
        dfeSyncEnabled: false,
        dfeSyncIntervalMinutes: 60,
        version: 1,
      });
      const res = await patchFilial(
        {
          version: 1,
          nfeEnvironment: 'HOMOLOGATION',
          autoCiencia: false,
          taxRegime: 'LUCRO_REAL',
          allowNegativeStock: true,
          dfeSyncEnabled: true,
          dfeSyncIntervalMinutes: 120,
        },
        t.headers(),
        1,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({
        nfeEnvironment: 'HOMOLOGATION',
        autoCiencia: false,
        taxRegime: 'LUCRO_REAL',
        allowNegativeStock: true,
        dfeSyncEnabled: true,
        dfeSyncIntervalMinutes: 120,
        version: 2,
      });
      const row = await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[1] });
      expect([row.nfeEnvironment, row.taxRegime, row.version]).to.deep.equal(['HOMOLOGATION', 'LUCRO_REAL', 2]);
      expect(await getFilialFiscalSettings(dataSource.manager, t.companyId, t.filialIds[1])).to.deep.equal({
        nfeEnvironment: 'HOMOLOGATION',
        autoCiencia: false,
        allowUnverifiedUploads: false,
        taxRegime: 'LUCRO_REAL',
        allowNegativeStock: true,
        dfeSyncEnabled: true,
        dfeSyncIntervalMinutes: 120,
      });
      const [audit] = await dataSource.manager.find(AuditLog, {
        where: { companyId: t.companyId, entity: 'filial', entityId: t.filialIds[1] },
        order: { id: 'DESC' },
        take: 1,
      });
      expect(audit).to.deep.include({ action: 'UPDATED', actor: 'test-user' });
      expect(audit.changes).to.deep.equal({
        nfeEnvironment: ['PRODUCTION', 'HOMOLOGATION'],
        autoCiencia: [true, false],
        taxRegime: ['SIMPLES_NACIONAL', 'LUCRO_REAL'],
        allowNegativeStock: [false, true],
        dfeSyncEnabled: [false, true],
        dfeSyncIntervalMinutes: [60, 120],
      });
      const [event] = await dataSource.manager.find(OutboxEvent, {
        where: { companyId: t.companyId, type: 'filial.settings-changed' },
        order: { id: 'DESC' },
        take: 1,
      });
      expect(event.data).to.deep.include({ filialId: t.filialHashes[1], version: 2 });
      // The other filial is untouched.
      expect((await api().get(filialPath(0)).set(t.headers())).body).to.deep.include({ nfeEnvironment: 'PRODUCTION', version: 1 });

      // The same values again: nothing to change, no new version, no audit.
      const before = await counts(t);
      const same = await patchFilial({ version: 2, taxRegime: 'LUCRO_REAL' }, t.headers(), 1);
      expect(same.body.version).to.equal(2);
      expect(await counts(t)).to.deep.equal(before);
    });

    it('stale version → 409; bad input → 400 naming the fields; nothing written', async () => {
      const before = await counts(t);
      const stale = await patchFilial({ version: 9, autoCiencia: false });
      expectProblem(stale, 409, 'STALE_VERSION');
      expect(stale.body.currentVersion).to.equal(1);
      const bad = await patchFilial({
        version: 1,
        nfeEnvironment: 'TEST',
        taxRegime: 'MEI',
        dfeSyncIntervalMinutes: 59,
        autoCiencia: 'maybe',
      });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include.members([
        'nfeEnvironment',
        'taxRegime',
        'dfeSyncIntervalMinutes',
        'autoCiencia',
      ]);
      expectProblem(await patchFilial({ version: 1 }), 400, 'VALIDATION_ERROR');
      expectProblem(await patchFilial({ autoCiencia: false }), 400, 'VALIDATION_ERROR');
      expectProblem(await patchFilial({ version: 1, dfeSyncIntervalMinutes: 30.5 }), 400, 'VALIDATION_ERROR');
      expect(await counts(t)).to.deep.equal(before);
      expect((await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] })).version).to.equal(1);
    });

    it("a filial not granted or another company's → 403; missing scope → 403; malformed id → 400", async () => {
      const onlySecond = t.headersWith({ filiais: [t.filialHashes[1]] }, 1);
      expectProblem(await api().get(filialPath(0)).set(onlySecond), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await patchFilial({ version: 1, autoCiencia: false }, onlySecond), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(await api().get(filialPath(0, other)).set(t.headers()), 403, 'FILIAL_NOT_GRANTED');
      expectProblem(
        await api().patch(filialPath(0, other)).set(t.headers()).send({ version: 1, autoCiencia: false }),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(
        await patchFilial({ version: 1, autoCiencia: false }, t.headersWith({ scope: 'settings:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expect(
        (
          await api()
            .get(filialPath(0))
            .set(t.headersWith({ scope: 'settings:read' }))
        ).status,
      ).to.equal(200);
      expectProblem(await api().get('/api/settings/filial/%21%21').set(t.headers()), 400, 'INVALID_ID');
      expect((await dataSource.manager.findOneByOrFail(Filial, { id: other.filialIds[0] })).autoCiencia).to.equal(true);
    });
  });

  describe('company', () => {
    it('reads and changes the purchase tolerances (audited, published); the reader follows', async () => {
      const read = await api().get('/api/settings/company').set(t.headers());
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.include({
        companyId: t.companyHash,
        purchaseQuantityTolerancePct: 0,
        purchasePriceTolerancePct: 2,
        purchaseToleranceMode: 'BLOCK',
        version: 1,
      });
      const res = await patchCompany({
        version: 1,
        purchaseQuantityTolerancePct: 5,
        purchasePriceTolerancePct: '1.2500',
        purchaseToleranceMode: 'WARN',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({
        purchaseQuantityTolerancePct: 5,
        purchasePriceTolerancePct: 1.25,
        purchaseToleranceMode: 'WARN',
        version: 2,
      });
      const tolerances = await getPurchaseTolerances(dataSource.manager, t.companyId);
      expect([tolerances.quantityPct.toFixed(4), tolerances.pricePct.toFixed(4), tolerances.mode]).to.deep.equal([
        '5.0000',
        '1.2500',
        'WARN',
      ]);
      const [audit] = await dataSource.manager.find(AuditLog, {
        where: { companyId: t.companyId, entity: 'company', action: 'UPDATED' },
        order: { id: 'DESC' },
        take: 1,
      });
      // Percentages as JSON numbers in the trail and in the event, like the REST bodies.
      const changes = {
        purchaseQuantityTolerancePct: [0, 5],
        purchasePriceTolerancePct: [2, 1.25],
        purchaseToleranceMode: ['BLOCK', 'WARN'],
      };
      expect(audit.changes).to.deep.equal(changes);
      const events = await dataSource.manager.findBy(OutboxEvent, { companyId: t.companyId, type: 'company.settings-changed' });
      expect(events).to.have.length(1);
      expect(events[0].data.changes).to.deep.equal(changes);
      // Another company's settings are its own.
      expect((await api().get('/api/settings/company').set(other.headers())).body).to.deep.include({
        companyId: other.companyHash,
        purchaseToleranceMode: 'BLOCK',
        version: 1,
      });
    });

    it('stale version → 409; bad input → 400; a token limited to some filiais → 403; missing scope → 403; nothing written', async () => {
      const before = await counts(t);
      expectProblem(await patchCompany({ version: 1, purchaseToleranceMode: 'BLOCK' }), 409, 'STALE_VERSION');
      const bad = await patchCompany({
        version: 2,
        purchaseQuantityTolerancePct: '1.23456',
        purchasePriceTolerancePct: 101,
        purchaseToleranceMode: 'IGNORE',
      });
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.have.members([
        'purchaseQuantityTolerancePct',
        'purchasePriceTolerancePct',
        'purchaseToleranceMode',
      ]);
      expectProblem(
        await patchCompany({ version: 2, purchaseToleranceMode: 'BLOCK' }, t.headersWith({ filiais: [t.filialHashes[0]] })),
        403,
        'ALL_FILIAIS_REQUIRED',
      );
      expectProblem(
        await patchCompany({ version: 2, purchaseToleranceMode: 'BLOCK' }, t.headersWith({ scope: 'settings:read' })),
        403,
        'INSUFFICIENT_SCOPE',
      );
      expect(await counts(t)).to.deep.equal(before);
      expect((await dataSource.manager.findOneByOrFail(Company, { id: t.companyId })).purchaseToleranceMode).to.equal('WARN');
    });
  });

  it('the NF-e environment decides: a homologation filial imports a tpAmb 2 invoice, a production filial refuses it', async () => {
    const n = await nfeTenant();
    const setTo = await api()
      .patch(`/api/settings/filial/${n.filialHashes[1]}`)
      .set(n.headers())
      .send({ version: 1, nfeEnvironment: 'HOMOLOGATION' });
    expect(setTo.status).to.equal(200);
    const homologation = await n.nfe({ environment: '2', number: 7001 }, 1);
    const ok = await api().post(`${NFE}/importar-xml`).set(n.headers(1)).send({ xml: homologation.xml });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body.inbound.environment).to.equal('HOMOLOGATION');

    const refused = await api()
      .post(`${NFE}/importar-xml`)
      .set(n.headers(0))
      .send({ xml: (await n.nfe({ environment: '2', number: 7002 }, 0)).xml });
    expectProblem(refused, 422, 'NFE_ENVIRONMENT_MISMATCH');
    // And the homologation filial refuses a production invoice.
    const production = await api()
      .post(`${NFE}/importar-xml`)
      .set(n.headers(1))
      .send({ xml: (await n.nfe({ environment: '1', number: 7003 }, 1)).xml });
    expectProblem(production, 422, 'NFE_ENVIRONMENT_MISMATCH');
  });
});
