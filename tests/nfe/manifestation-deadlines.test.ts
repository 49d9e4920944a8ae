import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { addDays, brasiliaDate, invoiceFacts, manifestationDeadlines } from '../../src/modules/inbound-nfe/deadlines/deadline-rules';
import { DEADLINE_EVENT, refreshDeadlines, thresholdFor } from '../../src/modules/inbound-nfe/deadlines/manifestation-deadlines.service';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { api } from '../support/api';
import { manyItems } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant } from '../support/tenant';
import { NFE, NfeTenant, nfeTenant, rowsOf } from './nfe-support';

const DAY = 86_400_000;
/** dhEmi (also the builder's dhRecbto) `days` ago, in Brasília time. */
const daysAgo = (days: number) => `${brasiliaDate(new Date(Date.now() - days * DAY))}T10:00:00-03:00`;

describe('Manifestation deadlines', function () {
  this.timeout(60_000);

  describe('rules', () => {
    const at = new Date('2025-03-10T13:00:00Z');

    it('general: 180 days from the authorization date (Brasília) for the three conclusive events, configurable', () => {
      expect(manifestationDeadlines({ authorizedAt: at, invoice: null }, 180)).to.deep.equal({
        rule: 'GENERAL',
        provisional: true,
        confirmacao: '2025-09-06',
        desconhecimento: '2025-09-06',
        naoRealizada: '2025-09-06',
        dueDate: '2025-09-06',
      });
      // 01:00 UTC is still the previous day in Brasília.
      expect(
        manifestationDeadlines(
          { authorizedAt: new Date('2025-03-10T01:00:00Z'), invoice: { hasFuel: false, interstate: false, incentiveArea: false } },
          90,
        ),
      ).to.include({
        confirmacao: '2025-06-07',
        provisional: false,
      });
    });

    it('fuel (federal obligation): 20/10 internal, 35/15 interstate, 70/15 to the incentive area', () => {
      const fuel = (interstate: boolean, incentiveArea: boolean) =>
        manifestationDeadlines({ authorizedAt: at, invoice: { hasFuel: true, interstate, incentiveArea } }, 180);
      expect(fuel(false, false)).to.include({
        rule: 'FUEL_INTERNAL',
        confirmacao: addDays('2025-03-10', 20),
        desconhecimento: addDays('2025-03-10', 10),
        naoRealizada: addDays('2025-03-10', 20),
        dueDate: '2025-03-20',
      });
      expect(fuel(true, false)).to.include({
        rule: 'FUEL_INTERSTATE',
        confirmacao: '2025-04-14',
        desconhecimento: '2025-03-25',
        dueDate: '2025-03-25',
      });
      expect(fuel(true, true)).to.include({ rule: 'FUEL_INCENTIVE_AREA', confirmacao: '2025-05-19', desconhecimento: '2025-03-25' });
    });

    it('reads the facts from the XML: fuel group, destination, SUFRAMA', () => {
      const xml = (idDest: string, extra = '') =>
        `<nfeProc><NFe><infNFe><ide><idDest>${idDest}</idDest></ide><dest><CNPJ>1</CNPJ>${extra}<enderDest><UF>AM</UF></enderDest></dest><det><prod><cProd>1</cProd><comb><cProdANP>210203001</cProdANP></comb></prod></det></infNFe></NFe></nfeProc>`;
      expect(invoiceFacts(xml('1'), 'SP', 'SP')).to.deep.equal({ hasFuel: true, interstate: false, incentiveArea: false });
      expect(invoiceFacts(xml('2', '<ISUF>123456789</ISUF>'), 'SP', 'AM')).to.deep.equal({
        hasFuel: true,
        interstate: true,
        incentiveArea: true,
      });
      expect(invoiceFacts('<nfeProc><det><prod><combustivel/></prod></det></nfeProc>', 'SP', 'RJ')).to.deep.equal({
        hasFuel: false,
        interstate: true,
        incentiveArea: false,
      });
    });

    it('alerts at the tightest threshold reached', () => {
      const t = [15, 7, 3, 1, 0];
      expect([20, 16, 15, 10, 7, 5, 3, 2, 1, 0, -4].map((d) => thresholdFor(d, t))).to.deep.equal([
        null,
        null,
        15,
        15,
        7,
        7,
        3,
        3,
        1,
        0,
        0,
      ]);
    });
  });

  describe('list, per-record view and alerts', () => {
    let t: NfeTenant;
    const ids: Record<string, string> = {};
    const keys: Record<string, string> = {};

    before(async () => {
      t = await nfeTenant();
      const stage = async (name: string, days: number) => {
        const nfe = await t.nfe({ items: manyItems(1), issuedAt: daysAgo(days) });
        const res = await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: nfe.xml });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        ids[name] = res.body.inbound.id;
        keys[name] = nfe.accessKey;
      };
      await stage('soon', 175); // due in 5 days
      await stage('later', 100); // due in 80 days
      await stage('overdue', 183); // due 3 days ago
      await stage('confirmed', 176);
      await stage('cancelled', 177);
      await stage('ciencia', 172); // ciência is not conclusive: still open, due in 8 days
      const em = dataSource.manager;
      await em.update(NfeInbound, { accessKey: keys.confirmed, companyId: t.companyId }, { manifestation: 'CONFIRMADA', version: 2 });
      await em.update(NfeInbound, { accessKey: keys.cancelled, companyId: t.companyId }, { authorityStatus: 'CANCELLED', version: 2 });
      await em.update(NfeInbound, { accessKey: keys.ciencia, companyId: t.companyId }, { manifestation: 'CIENCIA', version: 2 });
    });

    const list = (query: string) => api().get(`${NFE}/manifestation-deadlines/${t.filialHashes[0]}${query}`).set(t.headers());
    const alerts = async () =>
      (await rowsOf('outbox_event', t.companyId, 'type = ?', [DEADLINE_EVENT])).map((e) => ({
        ...(JSON.parse(String(e.data)) as Record<string, any>),
      }));

    it('lists the open NF-e due within N days, soonest first', async () => {
      const week = await list('?withinDays=7');
      expect(week.status, JSON.stringify(week.body)).to.equal(200);
      expect(week.body.today).to.equal(brasiliaDate(new Date()));
      expect(week.body.data.map((e: any) => e.inbound.id)).to.deep.equal([ids.soon]);
      const [soon] = week.body.data;
      expect(soon.deadlines).to.include({
        rule: 'GENERAL',
        provisional: false,
        daysLeft: 5,
        open: true,
        dueDate: addDays(brasiliaDate(new Date()), 5),
      });
      expect(soon.deadlines.confirmacao).to.equal(soon.deadlines.desconhecimento);
      const quarter = await list('?withinDays=90');
      expect(quarter.body.data.map((e: any) => e.inbound.id)).to.deep.equal([ids.soon, ids.ciencia, ids.later]);
      const overdue = await list('?withinDays=7&includeOverdue=true');
      expect(overdue.body.data.map((e: any) => e.inbound.id)).to.deep.equal([ids.overdue, ids.soon]);
      expect(overdue.body.data[0].deadlines.daysLeft).to.equal(-3);
      expect(quarter.body.pagination).to.include({ total: 3, page: 1 });
    });

    it('publishes one alert per record and threshold', async () => {
      const first = await alerts();
      const by = (name: string) => first.filter((a) => a.accessKey === keys[name]);
      expect(by('soon').map((a) => a.threshold)).to.deep.equal([7]);
      expect(by('ciencia').map((a) => a.threshold)).to.deep.equal([15]);
      expect(by('overdue').map((a) => [a.threshold, a.expired])).to.deep.equal([[0, true]]);
      expect(by('later')).to.deep.equal([]);
      expect(by('confirmed')).to.deep.equal([]);
      expect(by('cancelled')).to.deep.equal([]);
      expect(by('soon')[0]).to.include({
        inboundId: ids.soon,
        filialId: t.filialHashes[0],
        daysLeft: 5,
        rule: 'GENERAL',
        manifestation: 'NONE',
      });
      expect(by('soon')[0].deadlines).to.have.keys('confirmacao', 'desconhecimento', 'naoRealizada');
      // Listing again, or a refresh, publishes nothing new.
      await list('?withinDays=30');
      await refreshDeadlines(t.companyId, t.filialIds[0]);
      expect(await alerts()).to.have.length(first.length);
    });

    it('three days later the next threshold, once, whatever the number of replicas', async () => {
      const before = (await alerts()).length;
      const later = new Date(Date.now() + 3 * DAY);
      await Promise.all([
        refreshDeadlines(t.companyId, t.filialIds[0], later),
        refreshDeadlines(t.companyId, t.filialIds[0], later),
        refreshDeadlines(t.companyId, t.filialIds[0], later),
      ]);
      const now = await alerts();
      const added = now.slice(before);
      expect(
        added.map((a) => [a.accessKey === keys.soon ? 'soon' : a.accessKey === keys.ciencia ? 'ciencia' : '?', a.threshold]).sort(),
      ).to.deep.equal([
        ['ciencia', 7],
        ['soon', 3],
      ]);
    });

    it('a conclusive manifestation closes the record: out of the list, no more alerts', async () => {
      await dataSource.manager.update(
        NfeInbound,
        { accessKey: keys.soon, companyId: t.companyId },
        { manifestation: 'DESCONHECIDA', version: 5 },
      );
      const week = await list('?withinDays=30');
      expect(week.body.data.map((e: any) => e.inbound.id)).to.deep.equal([ids.ciencia]);
      const before = (await alerts()).length;
      await refreshDeadlines(t.companyId, t.filialIds[0], new Date(Date.now() + 5 * DAY));
      expect((await alerts()).slice(before).map((a) => a.accessKey)).to.deep.equal([keys.ciencia]);
    });

    it('shows the deadlines of one record', async () => {
      const res = await api().get(`${NFE}/inbound/deadlines/${ids.later}/${t.filialHashes[0]}`).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.inbound.id).to.equal(ids.later);
      expect(res.body.deadlines).to.include({ rule: 'GENERAL', daysLeft: 80, open: true, lastAlertThreshold: null });
    });

    it('bad input → 400; another company → 404 / 403; a filial not granted → 403', async () => {
      expectProblem(await list('?withinDays=-1'), 400, 'VALIDATION_ERROR');
      expectProblem(await list('?withinDays=abc'), 400, 'VALIDATION_ERROR');
      const other = await createTestTenant();
      expectProblem(await api().get(`${NFE}/inbound/deadlines/${ids.later}/${other.filialHashes[0]}`).set(other.headers()), 404);
      expectProblem(await api().get(`${NFE}/manifestation-deadlines/${other.filialHashes[0]}`).set(t.headers()), 403);
      expectProblem(
        await api()
          .get(`${NFE}/manifestation-deadlines/${t.filialHashes[0]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] })),
        403,
      );
      const empty = await api().get(`${NFE}/manifestation-deadlines/${t.filialHashes[1]}`).set(t.headers());
      expect(empty.body.data).to.deep.equal([]);
    });
  });
});
