import { expect } from 'chai';
import { api } from '../support/api';
import { buildCte } from '../support/cte-builder';
import { makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { countOf, NFE, rowsOf } from '../nfe/nfe-support';
import { CTE, cteTenant, CteTenant, importNfe } from './cte-support';

describe('CT-e staging, list, detail', () => {
  let t: CteTenant;
  let other: CteTenant;
  before(async () => {
    t = await cteTenant();
    other = await cteTenant();
  });

  const stageXml = (xml: string, filialIndex = 0) =>
    api().post(`${CTE}/stage-xml`).set(t.headers(filialIndex)).set('Content-Type', 'application/xml').send(xml);
  const NFE_KEY = '35250312345678000195550010000099991000099990';

  describe('POST stage-xml', () => {
    it('stores a CT-e the filial pays, with its XML and the NF-e keys it carried; audit and event', async () => {
      const built = t.cte({
        total: '250.10',
        nfeKeys: [NFE_KEY],
        components: [
          { name: 'FRETE PESO', value: '200.00' },
          { name: 'PEDAGIO', value: '50.10' },
        ],
      });
      const res = await api().post(`${CTE}/stage-xml`).set(t.headers()).send({ xml: built.xml });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.created).to.equal(true);
      expect(res.body.cte).to.deep.include({
        accessKey: built.accessKey,
        status: 'RECEIVED',
        payerRole: 'RECIPIENT',
        serviceTotal: 250.1,
        receivable: 250.1,
        icms: 0,
        nfeCount: 1,
        apportionment: null,
        version: 1,
      });
      expect(res.body.report.valid).to.equal(true);
      const [row] = await rowsOf('cte', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(row).to.include({ status: 'RECEIVED', filial_id: t.filialIds[0], payer_role: 'RECIPIENT' });
      expect((await rowsOf('cte_nfe', t.companyId, 'cte_id = ?', [row.id])).map((n) => n.nfe_key)).to.deep.equal([NFE_KEY]);
      expect(await rowsOf('audit_log', t.companyId, "entity = 'cte' AND action = 'CREATED'")).to.have.length(1);
      const [event] = await rowsOf('outbox_event', t.companyId, "type = 'cte.received'");
      expect(JSON.parse(event.data as string)).to.deep.include({ cteId: res.body.cte.id, accessKey: built.accessKey, nfeKeys: [NFE_KEY] });
      const xml = await api().get(`${CTE}/xml/${res.body.cte.id}`).set(t.headers());
      expect(xml.status).to.equal(200);
      expect(xml.headers['content-type']).to.match(/^application\/xml/);
      expect(xml.text).to.equal(built.xml);
    });

    it('an XML body works too; the same CT-e again answers 200 with the stored record; an Idempotency-Key replays', async () => {
      const built = t.cte({ total: '10.00', nfeKeys: [] });
      const first = await stageXml(built.xml);
      expect(first.status).to.equal(201);
      const again = await stageXml(built.xml);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.include({ created: false });
      expect(again.body.cte.id).to.equal(first.body.cte.id);
      const keyed = () =>
        api()
          .post(`${CTE}/stage-xml`)
          .set(t.headers())
          .set('Idempotency-Key', 'cte-stage-1')
          .send({ xml: t.cte({ total: '11.00', nfeKeys: [], number: 777 }).xml });
      const a = await keyed();
      const b = await keyed();
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(b.body.cte.id).to.equal(a.body.cte.id);
      expect(await countOf('cte', t.companyId, "number = '777'")).to.equal(1);
    });

    it("a payer that is a fourth party (toma4) with the filial's CNPJ is the filial", async () => {
      const built = buildCte({
        recipient: { cnpj: '11222333000181' },
        payer: { other: { cnpj: t.document } },
        total: '12.00',
        nfeKeys: [],
      });
      const res = await stageXml(built.xml);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.cte.payerRole).to.equal('OTHER');
    });

    const refused: [string, (t: CteTenant) => string, number, string][] = [
      [
        'a CT-e whose payer is not the filial (CIF: the sender pays)',
        (x) => x.cte({ total: '10.00', nfeKeys: [], payer: '0' }).xml,
        422,
        'CTE_PAYER_MISMATCH',
      ],
      [
        'a value changed after signing',
        (x) => x.cte({ total: '10.00', nfeKeys: [] }).xml.replace('<vTPrest>10.00</vTPrest>', '<vTPrest>1.00</vTPrest>'),
        422,
        'CTE_SIGNATURE_INVALID',
      ],
      ['a wrong check digit', (x) => x.cte({ total: '10.00', nfeKeys: [], wrongCheckDigit: true }).xml, 422, 'CTE_ACCESS_KEY_INVALID'],
      ['an unsigned CT-e', (x) => x.cte({ total: '10.00', nfeKeys: [], unsigned: true }).xml, 422, 'CTE_SIGNATURE_MISSING'],
      ['a missing protocol', (x) => x.cte({ total: '10.00', nfeKeys: [], protocol: null }).xml, 422, 'CTE_PROTOCOL_MISSING'],
      [
        'a denied CT-e',
        (x) => x.cte({ total: '10.00', nfeKeys: [], protocol: { cStat: '301', xMotivo: 'Uso Denegado' } }).xml,
        422,
        'CTE_NOT_AUTHORIZED',
      ],
      [
        'a homologation CT-e for a production filial',
        (x) => x.cte({ total: '10.00', nfeKeys: [], environment: '2' }).xml,
        422,
        'CTE_ENVIRONMENT_MISMATCH',
      ],
      [
        'an NF-e',
        () => '<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe/></nfeProc>',
        400,
        'CTE_UNSUPPORTED_DOCUMENT',
      ],
      [
        'layout 3.00',
        (x) => x.cte({ total: '10.00', nfeKeys: [] }).xml.replace('<infCte versao="4.00"', '<infCte versao="3.00"'),
        400,
        'CTE_UNSUPPORTED_VERSION',
      ],
      [
        'a CT-e without vPrest',
        (x) => x.cte({ total: '10.00', nfeKeys: [] }).xml.replace(/<vPrest>.*<\/vPrest>/, ''),
        400,
        'CTE_INVALID_CONTENT',
      ],
      ['malformed XML', () => '<cteProc><CTe></cteProc>', 400, 'MALFORMED_XML'],
      [
        'a DOCTYPE entity bomb',
        () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><cteProc>&b;</cteProc>',
        400,
        'XML_DOCTYPE_FORBIDDEN',
      ],
      [
        'a 6 MB body',
        (x) =>
          x
            .cte({ total: '10.00', nfeKeys: [] })
            .xml.replace('<xObs>', '')
            .replace('<proPred>', `<proPred>${'A'.repeat(6 * 1024 * 1024)}`),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [name, make, status, code] of refused) {
      it(`${name} → ${status} ${code}, nothing written`, async () => {
        const before = [await countOf('cte', t.companyId), await countOf('audit_log', t.companyId)];
        const res = await stageXml(make(t));
        expectProblem(res, status, code);
        if (status === 422) {
          expect(res.body.blockingCodes[0]).to.equal(code);
          expect(res.body.report.valid).to.equal(false);
        }
        expect([await countOf('cte', t.companyId), await countOf('audit_log', t.companyId)]).to.deep.equal(before);
      });
    }

    it('a JSON body without xml → 400; another content type → 415', async () => {
      expectProblem(await api().post(`${CTE}/stage-xml`).set(t.headers()).send({}), 400, 'VALIDATION_ERROR');
      expectProblem(await api().post(`${CTE}/stage-xml`).set(t.headers()).set('Content-Type', 'text/plain').send('x'), 415);
    });
  });

  it('POST preview parses and checks without storing', async () => {
    const built = t.cte({ total: '10.00', nfeKeys: [], payer: '0' });
    const before = await countOf('cte', t.companyId);
    const res = await api().post(`${CTE}/preview`).set(t.headers()).send({ xml: built.xml });
    expect(res.status).to.equal(200);
    expect(res.body.report.blockingCodes).to.deep.equal(['CTE_PAYER_MISMATCH']);
    expect(res.body.document).to.deep.include({ accessKey: built.accessKey });
    expect(res.body.document.payer).to.deep.include({ role: 'SENDER' });
    expect(res.body.stored).to.equal(null);
    expect(await countOf('cte', t.companyId)).to.equal(before);
  });

  describe('list and detail', () => {
    let booked: { id: string; accessKey: string };
    let stagedOnly: string;
    let cteId: string;
    let carrierCnpj: string;
    before(async () => {
      const p = await makeProduct(t);
      booked = await importNfe(t, [{ code: 'L1', quantity: '1', unitPrice: '10', productId: p.hash }]);
      const nfe = await t.nfe({});
      expect((await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: nfe.xml })).status).to.equal(201);
      stagedOnly = nfe.accessKey;
      const built = t.cte({
        total: '30.00',
        nfeKeys: [booked.accessKey, stagedOnly, NFE_KEY],
        carrier: { cnpj: '45997418000153', name: 'RAPIDO AZUL TRANSPORTES' },
        issuedAt: '2025-06-02T08:00:00-03:00',
      });
      carrierCnpj = '45997418000153';
      cteId = (await stageXml(built.xml)).body.cte.id;
    });

    it('the detail resolves the NF-e it carried to our inbound records and entry documents', async () => {
      const res = await api().get(`${CTE}/detail/${cteId}`).set(t.headers());
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ id: cteId, status: 'RECEIVED', allocations: [], payables: [] });
      expect(res.body.carrier).to.deep.include({ document: carrierCnpj, name: 'RAPIDO AZUL TRANSPORTES' });
      expect(res.body.nfe.map((l: any) => [l.accessKey, l.inbound?.importStatus ?? null, l.entryDocument?.id ?? null])).to.deep.equal([
        [booked.accessKey, 'IMPORTED', booked.id],
        [stagedOnly, 'PENDING', null],
        [NFE_KEY, null, null],
      ]);
      expect(res.body.document).to.deep.include({ nfeKeys: [booked.accessKey, stagedOnly, NFE_KEY] });
      expect(res.body.report.valid).to.equal(true);
    });

    it("lists the filial's CT-e with filters", async () => {
      const list = (query: object) => api().get(`${CTE}/list/${t.filialHashes[0]}`).query(query).set(t.headers());
      const all = await list({});
      expect(all.status).to.equal(200);
      expect(all.body.pagination.total).to.be.greaterThan(3);
      expect(all.body.data[0].id).to.equal(cteId);
      for (const query of [
        { carrier: 'azul' },
        { carrier: '45.997.418' },
        { nfeKey: stagedOnly },
        { issuedFrom: '2025-06-01', issuedTo: '2025-06-02' },
      ]) {
        expect(
          (await list(query)).body.data.map((c: any) => c.id),
          JSON.stringify(query),
        ).to.deep.equal([cteId]);
      }
      expect((await list({ status: 'APPORTIONED' })).body.data).to.deep.equal([]);
      expect((await list({ pageSize: 2 })).body.data).to.have.length(2);
      expectProblem(await list({ status: 'PAID' }), 400, 'VALIDATION_ERROR');
      expect((await api().get(`${CTE}/list/${t.filialHashes[1]}`).set(t.headers())).body.data).to.deep.equal([]);
      expectProblem(
        await api()
          .get(`${CTE}/list/${t.filialHashes[0]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
      );
    });

    it("another tenant's CT-e → 404; a filial not granted → 403; a malformed id → 400", async () => {
      expectProblem(await api().get(`${CTE}/detail/${cteId}`).set(other.headers()), 404, 'CTE_NOT_FOUND');
      expectProblem(await api().get(`${CTE}/xml/${cteId}`).set(other.headers()), 404, 'CTE_NOT_FOUND');
      expectProblem(
        await api()
          .get(`${CTE}/detail/${cteId}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
        403,
      );
      expectProblem(await api().get(`${CTE}/detail/x!`).set(t.headers()), 400, 'INVALID_ID');
    });
  });
});
