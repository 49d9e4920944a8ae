import { expect } from 'chai';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { setFilialOptions } from '../support/tenant';
import { logCount, NFE, rowsOf, sefazTenant, SefazTenant } from './support';

describe('POST /entry-document/nfe/download-xml and /consultar-por-chave (consChNFe)', function () {
  this.timeout(60_000);
  let t: SefazTenant;
  let keys: string[];
  const inbound = async (key: string, tenant: SefazTenant = t) =>
    (await rowsOf('nfe_inbound', tenant.companyId, 'access_key = ?', [key]))[0];
  const download = (body: object, tenant: SefazTenant = t) => api().post(`${NFE}/download-xml`).set(tenant.headers()).send(body);

  before(async () => {
    t = await sefazTenant();
    keys = t.sim.generate({ recipient: t.cnpj, count: 6 }).map((g) => g.accessKey);
    expect((await api().post(`${NFE}/consultar`).set(t.headers())).body.received).to.equal(6);
  });

  describe('a summary becomes downloadable only after ciência', () => {
    it('autoCiencia off: 422 MANIFESTATION_REQUIRED, nothing sent', async () => {
      await setFilialOptions(t, 0, { autoCiencia: false });
      const calls = await logCount(t);
      const res = await download({ accessKey: keys[0] });
      expectProblem(res, 422, 'MANIFESTATION_REQUIRED');
      expect(await logCount(t)).to.equal(calls);
      expect(await inbound(keys[0])).to.include({ kind: 'SUMMARY', manifestation: 'NONE' });
    });

    it('autoCiencia off, after a CONFIRMACAO: the XML is fetched and stored', async () => {
      expect((await api().post(`${NFE}/manifestar`).set(t.headers()).send({ accessKey: keys[0], event: 'CONFIRMACAO' })).status).to.equal(
        200,
      );
      const res = await download({ accessKey: keys[0] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ downloaded: true, cStat: '138', ciencia: null });
      expect(res.body.inbound).to.include({ kind: 'FULL', hasXml: true, source: 'SEFAZ' });
      const xml = await api().get(`${NFE}/inbound/xml/${res.body.inbound.id}/${t.filialHashes[0]}`).set(t.headers());
      expect(xml.status).to.equal(200);
      expect(xml.text).to.contain(`<chNFe>${keys[0]}</chNFe>`);
      expect(xml.text).to.contain('<Signature');
    });

    it('autoCiencia on: CIENCIA is sent first, then the XML arrives', async () => {
      await setFilialOptions(t, 0, { autoCiencia: true });
      const res = await download({
        inboundId: (await api().get(`${NFE}/inbound/${t.filialHashes[0]}?accessKey=${keys[1]}`).set(t.headers())).body.data[0].id,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.downloaded).to.equal(true);
      expect(res.body.ciencia).to.include({ cStat: '135', alreadyRegistered: false });
      expect(res.body.inbound.manifestation.status).to.equal('CIENCIA');
      const row = await inbound(keys[1]);
      expect(row).to.include({ kind: 'FULL', manifestation: 'CIENCIA' });
      expect(Number(row.has_xml)).to.equal(1);
      const steps = await rowsOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [row.id]);
      expect(steps.map((s) => s.type)).to.deep.equal(['SUMMARY_RECEIVED', 'MANIFESTED', 'XML_ATTACHED']);
    });

    it('the XML already stored: answered without a call', async () => {
      const calls = await logCount(t);
      const res = await download({ accessKey: keys[1] });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ downloaded: false });
      expect(await logCount(t)).to.equal(calls);
    });

    it('after DESCONHECIMENTO the authority keeps it: 422 without a call', async () => {
      await api().post(`${NFE}/manifestar`).set(t.headers()).send({ accessKey: keys[2], event: 'DESCONHECIMENTO' });
      const calls = await logCount(t);
      expectProblem(await download({ accessKey: keys[2] }), 422, 'NFE_XML_NOT_RELEASED');
      expect(await logCount(t)).to.equal(calls);
    });

    it('the issuer cancelled it: the authority refuses the ciência (650) → 422 with cStat', async () => {
      t.sim.authority.cancelByIssuer(keys[3]);
      const res = await download({ accessKey: keys[3] });
      expectProblem(res, 422, 'SEFAZ_REJECTED');
      expect(res.body.cStat).to.equal('650');
    });
  });

  describe('consultar-por-chave', () => {
    it('a key the filial does not know yet: the summary is stored', async () => {
      const [key] = t.sim.generate({ recipient: t.cnpj, count: 1 }).map((g) => g.accessKey);
      const res = await api().post(`${NFE}/consultar-por-chave`).set(t.headers()).send({ accessKey: key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ cStat: '138', received: 1 });
      expect(res.body.inbound).to.include({ accessKey: key, kind: 'SUMMARY', source: 'SEFAZ' });
      expect(await inbound(key)).to.include({ kind: 'SUMMARY' });
    });

    it('a manifested key: the full document', async () => {
      const res = await api().post(`${NFE}/consultar-por-chave`).set(t.headers()).send({ accessKey: keys[0] });
      expect(res.body.inbound).to.include({ kind: 'FULL', hasXml: true });
    });

    it('a cancelled key: 653 → 422', async () => {
      const res = await api().post(`${NFE}/consultar-por-chave`).set(t.headers()).send({ accessKey: keys[3] });
      expectProblem(res, 422, 'SEFAZ_REJECTED');
      expect(res.body.cStat).to.equal('653');
    });

    it('unknown to the authority (137) → 404 with cStat', async () => {
      const res = await api()
        .post(`${NFE}/consultar-por-chave`)
        .set(t.headers())
        .send({ accessKey: '3'.repeat(44) });
      expectProblem(res, 404, 'SEFAZ_DOCUMENT_NOT_FOUND');
      expect(res.body.cStat).to.equal('137');
    });

    it('bad key → 400 with nothing sent; filial not granted → 403', async () => {
      const calls = await logCount(t);
      const res = await api().post(`${NFE}/consultar-por-chave`).set(t.headers()).send({ accessKey: '12' });
      expectProblem(res, 400, 'VALIDATION_ERROR');
      expect(res.body.errors[0].path).to.equal('accessKey');
      expect(await logCount(t)).to.equal(calls);
      expectProblem(
        await api()
          .post(`${NFE}/consultar-por-chave`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }))
          .send({ accessKey: keys[4] }),
        403,
        'FILIAL_NOT_GRANTED',
      );
    });
  });

  it('download-xml: both or neither reference → 400; another company’s record → 404', async () => {
    expectProblem(await download({}), 400, 'VALIDATION_ERROR');
    const b = await sefazTenant();
    const foreign = (await api().get(`${NFE}/inbound/${t.filialHashes[0]}?accessKey=${keys[4]}`).set(t.headers())).body.data[0].id;
    expectProblem(await download({ inboundId: foreign }, b), 404, 'NFE_INBOUND_NOT_FOUND');
    expectProblem(await download({ accessKey: keys[4] }, b), 404, 'NFE_INBOUND_NOT_FOUND');
    expect(await logCount(b)).to.equal(0);
  });
});
