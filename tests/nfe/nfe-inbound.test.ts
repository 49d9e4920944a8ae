import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { decompressXml } from '../../src/modules/inbound-nfe/xml-storage';
import { api } from '../support/api';
import { buildNfe } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import type { TestTenant } from '../support/tenant';
import { countOf, NFE, nfeTenant, NfeTenant, rowsOf } from './nfe-support';

const stage = (t: TestTenant, xml: string, filialIndex = 0) => api().post(`${NFE}/stage-xml`).set(t.headers(filialIndex)).send({ xml });

async function storedXmlOf(id: number): Promise<string> {
  const row = await dataSource.manager
    .createQueryBuilder(NfeInbound, 'n')
    .select(['n.id', 'n.xmlGzip'])
    .where('n.id = :id', { id })
    .getOneOrFail();
  return decompressXml(Buffer.from(row.xmlGzip!));
}

/** A record known only by its DF-e summary (what the tax-authority sync stores before the XML). */
async function insertSummary(t: TestTenant, accessKey: string, over: Partial<NfeInbound> = {}): Promise<NfeInbound> {
  const row = dataSource.manager.create(NfeInbound, {
    companyId: t.companyId,
    filialId: t.filialIds[0],
    accessKey,
    issuerDocument: '12345678000195',
    issuerName: 'FORNECEDOR TESTE LTDA',
    issuerSearch: 'FORNECEDOR TESTE LTDA',
    issuerUf: null,
    model: '55',
    series: null,
    number: null,
    issuedAt: new Date('2025-03-10T13:00:00Z'),
    issueDate: '2025-03-10',
    total: new Dec('219.00'),
    nsu: '000000000000123',
    kind: 'SUMMARY',
    authorityStatus: 'AUTHORIZED',
    environment: 'PRODUCTION',
    protocolNumber: null,
    authorizedAt: null,
    manifestation: 'CIENCIA',
    manifestationProtocol: '891250000000001',
    manifestationAt: new Date('2025-03-11T10:00:00Z'),
    hasXml: false,
    xmlGzip: null,
    xmlSha256: null,
    source: 'SEFAZ',
    importStatus: 'PENDING',
    entryDocumentId: null,
    validation: null,
    ...over,
  });
  return dataSource.manager.save(row);
}

describe('NF-e staging and inbound records (stage-xml, inbound, pendentes, detail)', () => {
  let t: NfeTenant;
  let other: NfeTenant;
  before(async () => {
    t = await nfeTenant();
    other = await nfeTenant();
  });

  describe('POST stage-xml', () => {
    it('201: stores the record (FULL, UPLOAD, PENDING), the XML byte for byte (gzip), an event, audit and outbox', async () => {
      const built = await t.nfe({ number: 5001, installments: [{ dueDate: '2025-04-10' }] });
      const res = await stage(t, built.xml);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.created).to.equal(true);
      expect(res.body.report.valid).to.equal(true);
      const inbound = res.body.inbound;
      expect(inbound).to.include({
        accessKey: built.accessKey,
        kind: 'FULL',
        source: 'UPLOAD',
        importStatus: 'PENDING',
        authorityStatus: 'AUTHORIZED',
        hasXml: true,
        model: '55',
        number: '5001',
        nsu: null,
        entryDocumentId: null,
        total: Number(built.totals.vNF),
        filialId: t.filialHashes[0],
        version: 1,
      });
      expect(inbound.issuer).to.deep.equal({ document: '12345678000195', name: 'FORNECEDOR TESTE LTDA', uf: 'SP' });
      expect(inbound.manifestation).to.deep.equal({ status: 'NONE', protocol: null, at: null });
      expect(inbound.issueDate).to.equal('2025-03-10');
      expect(inbound.issuedAt).to.equal('2025-03-10T13:00:00.000Z');

      const [row] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(encodeId('nfe-inbound', Number(row.id))).to.equal(inbound.id);
      expect(await storedXmlOf(Number(row.id))).to.equal(built.xml);
      const events = await rowsOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [row.id]);
      expect(events.map((e) => e.type)).to.deep.equal(['STAGED']);
      expect(await countOf('audit_log', t.companyId, "entity = 'nfe-inbound' AND entity_id = ? AND action = 'CREATED'", [row.id])).to.equal(
        1,
      );
      const [outbox] = await rowsOf('outbox_event', t.companyId, "type = 'nfe.inbound.received' AND aggregate_id = ?", [row.id]);
      expect(JSON.parse(String(outbox.data))).to.include({
        inboundId: inbound.id,
        accessKey: built.accessKey,
        filialId: t.filialHashes[0],
      });
      expect(await countOf('entry_document', t.companyId)).to.equal(0);
    });

    it('the same XML again → 200, nothing new written; an XML body works the same', async () => {
      const built = await t.nfe({ number: 5002 });
      expect(
        (await api().post(`${NFE}/stage-xml`).set(t.headers()).set('Content-Type', 'application/xml').send(built.xml)).status,
      ).to.equal(201);
      const again = await stage(t, built.xml);
      expect(again.status).to.equal(200);
      expect(again.body.created).to.equal(false);
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
      const [row] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(await countOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [row.id])).to.equal(1);
    });

    it('the same key in another filial of the company is another record (one per key per filial)', async () => {
      const built = buildNfe({ number: 5003, recipient: { cnpj: t.document }, items: [{ quantity: '1', unitPrice: '1' }] });
      expect((await stage(t, built.xml)).status).to.equal(201);
      // Filial 1 is not the recipient: refused, nothing written there.
      expectProblem(await stage(t, built.xml, 1), 422, 'NFE_RECIPIENT_MISMATCH');
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
    });

    const tampered: [string, (t: NfeTenant) => Promise<string>, number, string][] = [
      [
        'a value changed after signing',
        async (x) => (await x.nfe()).xml.replace('<vUnCom>21.9000000000</vUnCom>', '<vUnCom>1.9000000000</vUnCom>'),
        422,
        'NFE_SIGNATURE_INVALID',
      ],
      ['a wrong check digit', async (x) => (await x.nfe({ wrongCheckDigit: true })).xml, 422, 'NFE_ACCESS_KEY_INVALID'],
      [
        'another recipient',
        async () => buildNfe({ recipient: { cnpj: '11222333000181' }, items: [{ quantity: '1', unitPrice: '1' }] }).xml,
        422,
        'NFE_RECIPIENT_MISMATCH',
      ],
      ['a missing protocol', async (x) => (await x.nfe({ protocol: null })).xml, 422, 'NFE_PROTOCOL_MISSING'],
      [
        'a denied invoice',
        async (x) => (await x.nfe({ protocol: { cStat: '302', xMotivo: 'Uso Denegado' } })).xml,
        422,
        'NFE_NOT_AUTHORIZED',
      ],
      ['an unsigned invoice', async (x) => (await x.nfe({ unsigned: true })).xml, 422, 'NFE_SIGNATURE_MISSING'],
      [
        'a homologation invoice for a production filial',
        async (x) => (await x.nfe({ environment: '2' })).xml,
        422,
        'NFE_ENVIRONMENT_MISMATCH',
      ],
      ['an NFC-e (model 65)', async (x) => (await x.nfe({ model: '65' })).xml, 422, 'NFCE_NOT_A_PURCHASE_INVOICE'],
      [
        'a DOCTYPE entity bomb',
        async () =>
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><nfeProc>&b;</nfeProc>',
        400,
        'XML_DOCTYPE_FORBIDDEN',
      ],
      [
        'a 6 MB body',
        async (x) => (await x.nfe()).xml.replace('<infCpl>', `<infCpl>${'A'.repeat(6 * 1024 * 1024)}`),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [name, make, status, code] of tampered) {
      it(`${name} → ${status} ${code}, nothing written`, async () => {
        const before = await countOf('nfe_inbound', t.companyId);
        const xml = await make(t);
        const res = await api().post(`${NFE}/stage-xml`).set(t.headers()).set('Content-Type', 'application/xml').send(xml);
        expectProblem(res, status, code);
        if (status === 422) {
          expect(res.body.blockingCodes[0]).to.equal(code);
          expect(res.body.report.valid).to.equal(false);
          expect(res.body.report.checks).to.have.length(20);
        }
        expect(await countOf('nfe_inbound', t.companyId)).to.equal(before);
      });
    }

    it('attaches the XML to a record known only by its summary (SUMMARY → FULL, XML_ATTACHED, version + 1)', async () => {
      const built = await t.nfe({ number: 5004 });
      const summary = await insertSummary(t, built.accessKey);
      const res = await stage(t, built.xml);
      expect(res.status).to.equal(200);
      expect(res.body.created).to.equal(false);
      expect(res.body.inbound).to.include({
        id: encodeId('nfe-inbound', summary.id),
        kind: 'FULL',
        hasXml: true,
        source: 'SEFAZ',
        nsu: '000000000000123',
        number: '5004',
        version: 2,
      });
      expect(res.body.inbound.manifestation.status).to.equal('CIENCIA');
      expect(await storedXmlOf(summary.id)).to.equal(built.xml);
      const events = await rowsOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [summary.id]);
      expect(events.map((e) => e.type)).to.deep.equal(['XML_ATTACHED']);
      expect(await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.xml-attached' AND aggregate_id = ?", [summary.id])).to.equal(
        1,
      );
    });

    it('two concurrent stagings of one XML: one 201, one 200, one record', async () => {
      const built = await t.nfe({ number: 5005 });
      const [a, b] = await Promise.all([stage(t, built.xml), stage(t, built.xml)]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 201]);
      expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey])).to.equal(1);
      const [row] = await rowsOf('nfe_inbound', t.companyId, 'access_key = ?', [built.accessKey]);
      expect(await countOf('nfe_inbound_event', t.companyId, 'inbound_id = ?', [row.id])).to.equal(1);
    });

    it('Idempotency-Key: a retry replays the first response', async () => {
      const built = await t.nfe({ number: 5006 });
      const first = await api()
        .post(`${NFE}/stage-xml`)
        .set(t.headers())
        .set('Idempotency-Key', `stage-${built.accessKey}`)
        .send({ xml: built.xml });
      const retry = await api()
        .post(`${NFE}/stage-xml`)
        .set(t.headers())
        .set('Idempotency-Key', `stage-${built.accessKey}`)
        .send({ xml: built.xml });
      expect(first.status).to.equal(201);
      expect(retry.status).to.equal(201);
      expect(retry.headers['idempotent-replayed']).to.equal('true');
      expect(retry.body).to.deep.equal(first.body);
    });

    it('403 without nfe:write', async () => {
      const built = await t.nfe();
      expectProblem(
        await api()
          .post(`${NFE}/stage-xml`)
          .set(t.headersWith({ scope: 'nfe:read' }))
          .send({ xml: built.xml }),
        403,
        'INSUFFICIENT_SCOPE',
      );
    });
  });

  describe('GET inbound lists and detail', () => {
    let lister: NfeTenant;
    const keys: Record<string, string> = {};
    before(async () => {
      lister = await nfeTenant();
      const specs = [
        {
          name: 'jan',
          number: 7001,
          issuedAt: '2025-01-15T10:00:00-03:00',
          issuer: { cnpj: '11444777000161', name: 'ALFA DISTRIBUIDORA LTDA' },
        },
        {
          name: 'feb',
          number: 7002,
          issuedAt: '2025-02-15T10:00:00-03:00',
          issuer: { cnpj: '11444777000161', name: 'ALFA DISTRIBUIDORA LTDA' },
        },
        {
          name: 'mar',
          number: 7003,
          issuedAt: '2025-03-15T10:00:00-03:00',
          issuer: { cnpj: '45997418000153', name: 'BETA ALIMENTOS SÃO PAULO' },
        },
      ];
      for (const s of specs) {
        const built = await lister.nfe({ number: s.number, issuedAt: s.issuedAt, issuer: s.issuer });
        keys[s.name] = built.accessKey;
        expect((await stage(lister, built.xml)).status).to.equal(201);
      }
      // An imported one (not pending) and one cancelled by its issuer.
      const imported = await lister.nfe({ number: 7004, issuedAt: '2025-03-20T10:00:00-03:00' });
      keys.imported = imported.accessKey;
      expect((await api().post(`${NFE}/importar-xml`).set(lister.headers()).send({ xml: imported.xml })).status).to.equal(201);
      const cancelled = await insertSummary(lister, '35250312345678000195550010000070051000070059', {
        authorityStatus: 'CANCELLED',
        issuedAt: new Date('2025-03-25T12:00:00Z'),
        issueDate: '2025-03-25',
      });
      keys.cancelled = cancelled.accessKey;
      // Filial 1 has one record of its own.
      const f1 = await lister.nfe({ number: 7006 }, 1);
      keys.f1 = f1.accessKey;
      expect((await stage(lister, f1.xml, 1)).status).to.equal(201);
    });
    const list = (query = '', filialIndex = 0) =>
      api().get(`${NFE}/inbound/${lister.filialHashes[filialIndex]}${query}`).set(lister.headers(filialIndex));

    it("lists the filial's records newest first, paginated", async () => {
      const res = await list('?pageSize=2');
      expect(res.status).to.equal(200);
      expect(res.body.pagination).to.include({ page: 1, pageSize: 2, total: 5, totalPages: 3, hasMore: true });
      expect(res.body.data.map((r: { accessKey: string }) => r.accessKey)).to.deep.equal([keys.cancelled, keys.imported]);
      const next = await list(`?pageSize=2&cursor=${res.body.pagination.nextCursor}`);
      expect(next.body.data.map((r: { accessKey: string }) => r.accessKey)).to.deep.equal([keys.mar, keys.feb]);
      const f1 = await list('', 1);
      expect(f1.body.data.map((r: { accessKey: string }) => r.accessKey)).to.deep.equal([keys.f1]);
    });

    it('filters: issuer (document or name, accents ignored), date range, status, import status, manifestation', async () => {
      const keysOf = async (q: string) => (await list(q)).body.data.map((r: { accessKey: string }) => r.accessKey);
      expect(await keysOf('?issuer=11444777')).to.deep.equal([keys.feb, keys.jan]);
      expect(await keysOf('?issuer=beta%20alimentos%20sao')).to.deep.equal([keys.mar]);
      expect(await keysOf('?issuedFrom=2025-02-01&issuedTo=2025-03-15')).to.deep.equal([keys.mar, keys.feb]);
      expect(await keysOf('?status=CANCELLED')).to.deep.equal([keys.cancelled]);
      expect(await keysOf('?importStatus=IMPORTED')).to.deep.equal([keys.imported]);
      expect(await keysOf('?manifestation=CIENCIA')).to.deep.equal([keys.cancelled]);
      expect(await keysOf(`?accessKey=${keys.jan}`)).to.deep.equal([keys.jan]);
      expect(await keysOf('?sort=issueDate&pageSize=1')).to.deep.equal([keys.jan]);
    });

    it('400 for bad filters, 403 for a filial not granted or of another company', async () => {
      const bad = await list('?status=LOST&issuedFrom=2025-13');
      expectProblem(bad, 400, 'VALIDATION_ERROR');
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['query.issuedFrom', 'query.status']);
      expectProblem(
        await api()
          .get(`${NFE}/inbound/${lister.filialHashes[1]}`)
          .set(lister.headersWith({ filiais: [lister.filialHashes[0]] })),
        403,
        'FILIAL_NOT_GRANTED',
      );
      expectProblem(await api().get(`${NFE}/inbound/${other.filialHashes[0]}`).set(lister.headers()), 403, 'FILIAL_NOT_GRANTED');
    });

    it('pendentes: PENDING and not cancelled, newest first', async () => {
      const res = await api().get(`${NFE}/inbound/pendentes/${lister.filialHashes[0]}`).set(lister.headers());
      expect(res.status).to.equal(200);
      expect(res.body.data.map((r: { accessKey: string }) => r.accessKey)).to.deep.equal([keys.mar, keys.feb, keys.jan]);
      expect(res.body.data.every((r: { importStatus: string }) => r.importStatus === 'PENDING')).to.equal(true);
    });

    it('detail: the record, its parsed invoice, the report and the events; the XML as received', async () => {
      const [row] = await rowsOf('nfe_inbound', lister.companyId, 'access_key = ?', [keys.imported]);
      const id = encodeId('nfe-inbound', Number(row.id));
      const res = await api().get(`${NFE}/inbound/detail/${id}/${lister.filialHashes[0]}`).set(lister.headers());
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id, accessKey: keys.imported, importStatus: 'IMPORTED' });
      expect(res.body.entryDocumentId).to.be.a('string');
      expect(res.body.invoice.items[0]).to.include({ code: 'A1', description: 'ARROZ TIPO 1 5KG' });
      expect(res.body.report.valid).to.equal(true);
      expect(res.body.events.map((e: { type: string }) => e.type)).to.deep.equal(['STAGED', 'IMPORTED']);
      expect(res.body.events[1].data.entryDocumentId).to.equal(res.body.entryDocumentId);

      const xml = await api().get(`${NFE}/inbound/xml/${id}/${lister.filialHashes[0]}`).set(lister.headers());
      expect(xml.status).to.equal(200);
      expect(xml.headers['content-type']).to.match(/^application\/xml/);
      expect(xml.text).to.equal(await storedXmlOf(Number(row.id)));
    });

    it('detail of a summary: no invoice, XML not available (422)', async () => {
      const [row] = await rowsOf('nfe_inbound', lister.companyId, 'access_key = ?', [keys.cancelled]);
      const id = encodeId('nfe-inbound', Number(row.id));
      const res = await api().get(`${NFE}/inbound/detail/${id}/${lister.filialHashes[0]}`).set(lister.headers());
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ kind: 'SUMMARY', hasXml: false, invoice: null, report: null, authorityStatus: 'CANCELLED' });
      expectProblem(
        await api().get(`${NFE}/inbound/xml/${id}/${lister.filialHashes[0]}`).set(lister.headers()),
        422,
        'NFE_XML_NOT_AVAILABLE',
      );
    });

    it("detail: 404 for another company's record or another filial's, 400 for a malformed id", async () => {
      const [row] = await rowsOf('nfe_inbound', lister.companyId, 'access_key = ?', [keys.f1]);
      const id = encodeId('nfe-inbound', Number(row.id));
      expectProblem(
        await api().get(`${NFE}/inbound/detail/${id}/${lister.filialHashes[0]}`).set(lister.headers()),
        404,
        'NFE_INBOUND_NOT_FOUND',
      );
      expectProblem(
        await api().get(`${NFE}/inbound/detail/${id}/${other.filialHashes[0]}`).set(other.headers()),
        404,
        'NFE_INBOUND_NOT_FOUND',
      );
      const bad = await api().get(`${NFE}/inbound/detail/!!/${lister.filialHashes[0]}`).set(lister.headers());
      expectProblem(bad, 400, 'INVALID_ID');
    });
  });
});
