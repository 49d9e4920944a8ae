import crypto from 'node:crypto';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId, encodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { NfceConfiguration } from '../../src/modules/nfce/entities/nfce-configuration.entity';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { NfceQueueLease } from '../../src/modules/nfce/entities/nfce-queue-lease.entity';
import { cancelNfce } from '../../src/modules/nfce/cancel.service';
import { qrCodeParameter } from '../../src/modules/nfce/nfce-xml';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { hasValidCheckDigit } from '../../src/modules/fiscal-xml/access-key';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { Dec } from '../../src/core/decimal';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCpf, TestTenant } from '../support/tenant';
import { eventsOf } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import type { InvoiceTenant } from '../invoices/support';
import { canDecodeQr, CONSULT_URL, Counter, counterTenant, decodedQr, nfceSettings, notesOf, QR_URL } from './support';

/*
 * Issue 31: the quick sale issues its NFC-e (modelo 65) against the local authority — online, or in
 * offline contingency when the authority is down or slow, then transmitted by the queue with the same
 * key; the XML validates (PL_010, xmllint) and its signature verifies (xmlsec1); QR codes v2 (CSC) and
 * v3 (NT 2025.001) recomputed here. NFCE_DOWN_SALES sets how many sales run while the authority is down.
 */

const DOWN_SALES = Number(process.env.NFCE_DOWN_SALES ?? 8);
const CSC = 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6';

describe('NFC-e at the counter (modelo 65)', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let save: Counter['save'];
  let sell: Counter['sell'];

  before(async () => {
    ({ t, save, sell } = await counterTenant());
    other = await createTestTenant();
  });

  afterEach(() => {
    t.sim.issuer.faults.delayMs = 0;
    t.sim.issuer.downFor(0);
  });

  it('configuration: defaults until saved; bad input 400 and 422 write nothing; saved, audited, versioned; the série is model 65', async () => {
    const res = await api().get(`/api/nfce/configuration/${t.filialHashes[0]}`).set(t.headers());
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ configured: false, autoIssue: false, syncTimeoutMs: 3000, version: 0 });
    expectProblem(
      await api()
        .put(`/api/nfce/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send(nfceSettings({ qrCodeUrl: 'not a url' })),
      400,
    );
    expectProblem(
      await api()
        .put(`/api/nfce/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send(nfceSettings({ syncTimeoutMs: 10 })),
      400,
    );
    expectProblem(
      await api()
        .put(`/api/nfce/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send(nfceSettings({ qrVersion: 2 })),
      422,
      'CSC_REQUIRED',
    );
    expect(await dataSource.manager.countBy(NfceConfiguration, { companyId: t.companyId })).to.equal(0);
    expect(await dataSource.manager.countBy(InvoiceSeries, { companyId: t.companyId })).to.equal(0);
    // A filial not granted → 403; another tenant's filial → 403 (not in the token) too.
    expectProblem(
      await api()
        .put(`/api/nfce/configuration/${t.filialHashes[1]}`)
        .set(t.headersWith({ filiais: [t.filialHashes[0]] }))
        .send(nfceSettings()),
      403,
    );
    expectProblem(await api().get(`/api/nfce/configuration/${other.filialHashes[0]}`).set(t.headers()), 403);

    const saved = await save({ qrVersion: 3 });
    expect(saved).to.include({
      configured: true,
      series: 1,
      nextNumber: 1,
      qrVersion: 3,
      autoIssue: true,
      cscConfigured: false,
      version: 1,
    });
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId, filialId: t.filialIds[0], model: 65 });
    expect(series).to.include({ series: 1, nextNumber: 1, isDefault: true });
    // A stale version is refused.
    expectProblem(
      await api()
        .put(`/api/nfce/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({ ...nfceSettings(), version: 0 }),
      409,
      'STALE_VERSION',
    );
  });

  it('a quick sale issues its NFC-e online: authorized, valid against PL_010, signature verified, QR code v3', async () => {
    const before = (await eventsOf(t)).length;
    const res = await sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('FULFILLED');
    const f = res.body.fiscalDocument;
    expect(f).to.include({ model: 65, status: 'AUTHORIZED', number: 1, series: 1, contingency: false, cStat: '100' });
    expect(hasValidCheckDigit(f.accessKey)).to.equal(true);
    expect(f.accessKey.slice(20, 22)).to.equal('65');
    expect(f.accessKey[34]).to.equal('1');
    expect(f.qrCodeUrl).to.equal(`${QR_URL}?p=${f.accessKey}|3|2`);

    const [note] = await notesOf(t);
    expect(note).to.include({
      status: 'AUTHORIZED',
      accessKey: f.accessKey,
      salesOrderId: decodeId('sales-order', res.body.id),
      number: 1,
      emissionType: 1,
    });
    expect(t.sim.issuer.document(f.accessKey)?.status).to.equal('AUTHORIZED');
    const types = (await eventsOf(t)).slice(before).map((e) => e.type);
    expect(types).to.include.members(['quick-sale.completed', 'nfce.authorized']);

    const xml = await api().get(`/api/nfce/${f.id}/xml`).set(t.headers());
    expect(xml.status).to.equal(200);
    expect(xml.text)
      .to.contain('<mod>65</mod>')
      .and.contain('<tpImp>4</tpImp>')
      .and.contain('<indFinal>1</indFinal>')
      .and.contain('<indPres>1</indPres>');
    expect(xml.text).to.contain('<vTroco>').and.contain('<modFrete>9</modFrete>').and.not.contain('<dhSaiEnt>').and.not.contain('<dest>');
    expect(xml.text).to.contain(`<infNFeSupl><qrCode>${f.qrCodeUrl}</qrCode><urlChave>${CONSULT_URL}</urlChave></infNFeSupl><Signature`);
    if (canValidateXsd) expect(xsdErrors(xml.text)).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(xml.text)).to.equal(null);

    const detail = await api().get(`/api/nfce/detail/${f.id}`).set(t.headers());
    expect(detail.status).to.equal(200);
    expect(detail.body).to.include({ status: 'AUTHORIZED', accessKey: f.accessKey, contingency: false, total: 40.9 });
    const text = await api().get(`/api/nfce/${f.id}/danfe.txt`).set(t.headers());
    expect(text.status).to.equal(200);
    expect(text.text)
      .to.contain(f.accessKey.replace(/(.{4})/g, '$1 ').trim())
      .and.contain(`Protocolo de autorizacao: ${note.protocol}`)
      .and.contain('Lei Federal 12.741/2012')
      .and.contain(f.qrCodeUrl);
    const pdf = await api()
      .get(`/api/nfce/${f.id}/danfe`)
      .set(t.headers())
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).to.equal(200);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).to.equal('%PDF-');
    // The printed QR code, read back from the PDF (pdftoppm + zbarimg): NT 2025.001 v3 online, p=key|3|tpAmb.
    if (canDecodeQr) expect(await decodedQr(t, f.id)).to.equal(`${QR_URL}?p=${f.accessKey}|3|2`);

    // Another tenant's id → 404; a filial not granted → 403.
    expectProblem(await api().get(`/api/nfce/detail/${f.id}`).set(other.headers()), 404, 'NFCE_NOT_FOUND');
    expectProblem(await api().get(`/api/nfce/${f.id}/xml`).set(other.headers()), 404, 'NFCE_NOT_FOUND');
    expectProblem(
      await api()
        .get(`/api/nfce/detail/${f.id}`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1)),
      403,
    );
  });

  it('QR code v2 with the CSC: the hash recomputed (online), and the offline formula with the digest', async () => {
    await save({ qrVersion: 2, cscId: 1, cscToken: CSC });
    const res = await sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const f = res.body.fiscalDocument;
    expect(f.status).to.equal('AUTHORIZED');
    const fields = `${f.accessKey}|2|2|1`;
    const hash = crypto
      .createHash('sha1')
      .update(fields + CSC)
      .digest('hex')
      .toUpperCase();
    expect(f.qrCodeUrl).to.equal(`${QR_URL}?p=${fields}|${hash}`);
    const xml = (await api().get(`/api/nfce/${f.id}/xml`).set(t.headers())).text;
    if (canValidateXsd) expect(xsdErrors(xml)).to.equal(null);
    if (canDecodeQr) expect(await decodedQr(t, f.id)).to.equal(`${QR_URL}?p=${fields}|${hash}`);

    // A real offline v2 note: the hash recomputed from its own digest and the CSC, and read back from its PDF.
    t.sim.issuer.downFor(600_000);
    const down = await sell();
    expect(down.status, JSON.stringify(down.body)).to.equal(201);
    const g = down.body.fiscalDocument;
    expect(g).to.include({ status: 'CONTINGENCY', contingency: true });
    const offlineXml = (await api().get(`/api/nfce/${g.id}/xml`).set(t.headers())).text;
    const digest = /<DigestValue>([^<]+)</.exec(offlineXml)![1];
    const day = /<dhEmi>\d{4}-\d\d-(\d\d)/.exec(offlineXml)![1];
    const offlineFields = `${g.accessKey}|2|2|${day}|40.90|${Buffer.from(digest).toString('hex')}|1`;
    const offlineUrl = `${QR_URL}?p=${offlineFields}|${crypto
      .createHash('sha1')
      .update(offlineFields + CSC)
      .digest('hex')
      .toUpperCase()}`;
    expect(g.qrCodeUrl).to.equal(offlineUrl);
    if (canDecodeQr) expect(await decodedQr(t, g.id)).to.equal(offlineUrl);
    t.sim.issuer.downFor(0);
    expect((await runNfceQueue()).transmitted).to.equal(1);

    // Offline v2: key|2|tpAmb|day|vNF|hex(digVal)|idToken|SHA1(… + CSC).
    const key = `${f.accessKey.slice(0, 34)}9${f.accessKey.slice(35, 43)}0`;
    const p = qrCodeParameter(
      {
        accessKey: key,
        tpAmb: '2',
        emissionType: 9,
        issuedAtText: '2026-11-27T10:00:00-03:00',
        vNF: new Dec('40.9'),
        digestBase64: 'mVY0p0KhBXDP5PFV3gXFr3wPjUA=',
        consumerDocument: null,
      },
      { version: 2, cscId: 1, cscToken: CSC, qrCodeUrl: QR_URL, consultUrl: CONSULT_URL },
      null,
    );
    const offline = `${key}|2|2|27|40.90|${Buffer.from('mVY0p0KhBXDP5PFV3gXFr3wPjUA=').toString('hex')}|1`;
    expect(p).to.equal(
      `${offline}|${crypto
        .createHash('sha1')
        .update(offline + CSC)
        .digest('hex')
        .toUpperCase()}`,
    );
    await save({ qrVersion: 3, cscId: null, cscToken: null });
  });

  it(`the authority down while ${DOWN_SALES} quick sales run: all complete in contingency, then all authorized with the same keys, in order, no duplicate, no gap`, async () => {
    const before = await notesOf(t);
    const eventsBefore = (await eventsOf(t)).length;
    t.sim.issuer.downFor(600_000);
    const results = await Promise.all(Array.from({ length: DOWN_SALES }, () => sell()));
    for (const r of results) {
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.status).to.equal('FULFILLED');
      expect(r.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
      expect(r.body.fiscalDocument.accessKey[34]).to.equal('9');
    }
    const pending = (await notesOf(t)).filter((n) => n.status === 'CONTINGENCY');
    expect(pending).to.have.length(DOWN_SALES);
    const keys = new Map(pending.map((n) => [n.id, n.accessKey]));

    // The offline note: tpEmis 9, dhCont, xJust; valid and signed; QR code v3 offline signed by the certificate.
    const first = pending[0];
    const xml = gunzipText(first.signedXmlGz);
    expect(xml).to.contain('<tpEmis>9</tpEmis>').and.contain('<dhCont>').and.contain('<xJust>');
    if (canValidateXsd) expect(xsdErrors(xml, 'nfe_v4.00.xsd')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(xml)).to.equal(null);
    const p = first.qrCode.slice(`${QR_URL}?p=`.length).split('|');
    expect(p.slice(0, 7)).to.deep.equal([
      first.accessKey,
      '3',
      '2',
      /<dhEmi>\d{4}-\d\d-(\d\d)/.exec(xml)![1],
      first.total.toFixed(2),
      '',
      '',
    ]);
    const cert = /<X509Certificate>([^<]+)</.exec(xml)![1];
    const pub = crypto.createPublicKey(`-----BEGIN CERTIFICATE-----\n${cert.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`);
    expect(crypto.verify('sha1', Buffer.from(p.slice(0, 7).join('|')), pub, Buffer.from(p[7], 'base64'))).to.equal(true);
    // v3 offline as printed: the PDF's QR code carries the signed fields exactly.
    if (canDecodeQr) expect(await decodedQr(t, encodeNfce(first.id))).to.equal(first.qrCode);
    const text = await api()
      .get(`/api/nfce/${encodeNfce(first.id)}/danfe.txt`)
      .set(t.headers());
    expect(text.text).to.contain('EMITIDA EM CONTINGENCIA');

    // Still down: the queue sends nothing and keeps them.
    expect((await runNfceQueue()).transmitted).to.equal(0);
    // Another replica holds the lease: this one does not run.
    await dataSource.manager.update(
      NfceQueueLease,
      { name: 'nfce-transmission' },
      { owner: 'other-replica', leaseUntil: new Date(Date.now() + 60_000) },
    );
    expect((await runNfceQueue()).ran).to.equal(false);
    await dataSource.manager.update(NfceQueueLease, { name: 'nfce-transmission' }, { owner: null, leaseUntil: null });

    t.sim.issuer.downFor(0);
    const pass = await runNfceQueue();
    expect(pass.ran).to.equal(true);
    expect(pass.transmitted).to.equal(DOWN_SALES);
    const after = await notesOf(t);
    for (const n of after.filter((x) => keys.has(x.id))) {
      expect(n.status).to.equal('AUTHORIZED');
      expect(n.accessKey).to.equal(keys.get(n.id));
      expect(t.sim.issuer.document(n.accessKey)?.status).to.equal('AUTHORIZED');
    }
    // Numbering: 1..M with no gap, one note per number, one authorization per number at the authority.
    const numbers = after.map((n) => n.number);
    expect(numbers).to.deep.equal(Array.from({ length: after.length }, (_, i) => i + 1));
    expect(after.length).to.equal(before.length + DOWN_SALES);
    const atAuthority = t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.model === 65);
    expect(new Set(atAuthority.map((d) => d.number)).size).to.equal(atAuthority.length);
    expect(atAuthority.length).to.equal(after.length);
    const types = (await eventsOf(t)).slice(eventsBefore).map((e) => e.type);
    expect(types.filter((x) => x === 'nfce.contingency')).to.have.length(DOWN_SALES);
    expect(types.filter((x) => x === 'nfce.transmitted')).to.have.length(DOWN_SALES);
  });

  it('an answer later than the deadline: the offline note takes a number of its own; the attempt, authorized after all, is cancelled by substitution (110112)', async () => {
    await save({ syncTimeoutMs: 500 });
    t.sim.issuer.faults.delayMs = 1500;
    const before = await notesOf(t);
    const res = await sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
    const f = (await api().get(`/api/nfce/detail/${res.body.fiscalDocument.id}`).set(t.headers())).body;
    expect(f.qrCodeUrl).to.equal(res.body.fiscalDocument.qrCodeUrl);
    // The attempt (tpEmis 1) took number N and may stand at the authority; the printed note is N + 1, tpEmis 9.
    const n = before.length + 1;
    expect(f.original).to.deep.include({ number: n, outcome: 'PENDING' });
    expect(f.original.accessKey).to.match(/^\d{34}1\d{9}$/);
    expect(f.number).to.equal(n + 1);
    expect(res.body.fiscalDocument).to.include({ number: n + 1, accessKey: f.accessKey });
    expect(f.accessKey.slice(25, 35)).to.equal(`${String(n + 1).padStart(9, '0')}9`);
    const note = await dataSource.manager.findOneByOrFail(NfceDocument, { id: decodeId('nfce', f.id) });
    const printedXml = gunzipText(note.signedXmlGz);
    expect(printedXml)
      .to.contain(`<nNF>${n + 1}</nNF>`)
      .and.contain('<tpEmis>9</tpEmis>');
    if (canValidateXsd) expect(xsdErrors(printedXml, 'nfe_v4.00.xsd')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(printedXml)).to.equal(null);
    expect(t.sim.issuer.document(f.original.accessKey)?.status).to.equal('AUTHORIZED');

    t.sim.issuer.faults.delayMs = 0;
    const eventsBefore = (await eventsOf(t)).at(-1)!.id;
    const pass = await runNfceQueue();
    expect(pass.transmitted).to.equal(1);
    const settled = await dataSource.manager.findOneByOrFail(NfceDocument, { id: note.id });
    // The printed key is the one authorized; the attempt is cancelled by substitution, referencing it.
    expect(settled).to.include({
      status: 'AUTHORIZED',
      accessKey: f.accessKey,
      emissionType: 9,
      number: n + 1,
      onlineNumber: n,
      originalOutcome: 'SUBSTITUTED',
    });
    expect(settled.originalProtocol).to.match(/^\d{15}$/);
    expect(t.sim.issuer.document(f.accessKey)?.status).to.equal('AUTHORIZED');
    const original = t.sim.issuer.document(f.original.accessKey)!;
    expect(original.status).to.equal('CANCELLED');
    expect(original.events.map((e) => e.tpEvento)).to.deep.equal(['110112']);
    const proc = gunzipText(settled.originalXmlGz!);
    expect(proc).to.contain(`<chNFe>${f.original.accessKey}</chNFe>`).and.contain('<tpEvento>110112</tpEvento>');
    // e110112 as the layout orders it: descEvento, cOrgaoAutor, tpAutor 1, verAplic, nProt of the attempt, xJust, chNFeRef.
    expect(/<detEvento versao="1.00">(.*?)<\/detEvento>/.exec(proc)![1]).to.match(
      new RegExp(
        `^<descEvento>Cancelamento por substituicao</descEvento><cOrgaoAutor>35</cOrgaoAutor><tpAutor>1</tpAutor><verAplic>[^<]{1,20}</verAplic><nProt>${original.protocol}</nProt><xJust>[^<]{15,255}</xJust><chNFeRef>${f.accessKey}</chNFeRef>$`,
      ),
    );
    if (canValidateXsd) expect(xsdErrors(proc, '../procEventoNFe_v1.00.xsd')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc, 'infEvento')).to.equal(null);
    const types = (await eventsOf(t, eventsBefore)).map((e) => e.type);
    expect(types).to.include.members(['nfce.transmitted', 'nfce.original-substituted']);
    const detail = await api().get(`/api/nfce/detail/${f.id}`).set(t.headers());
    expect(detail.body.original).to.deep.equal({
      number: n,
      accessKey: f.original.accessKey,
      outcome: 'SUBSTITUTED',
      protocol: settled.originalProtocol,
    });
    // Numbering: the série gave out N and N + 1, both accounted for (the note, its substituted attempt).
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId, filialId: t.filialIds[0], model: 65 });
    const accounted = (await notesOf(t))
      .flatMap((x) => (x.onlineNumber !== null ? [x.number, x.onlineNumber] : [x.number]))
      .sort((a, b) => a - b);
    expect(accounted).to.deep.equal(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1));
    await save({ syncTimeoutMs: 3000 });
  });

  it("identification above the threshold: refused without the consumer's CPF (nothing written), issued with it", async () => {
    await save({ identificationThreshold: 30 });
    const orders = await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId });
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, { companyId: t.companyId, filialId: t.filialIds[0], model: 65 });
    expectProblem(await sell(), 422, 'CONSUMER_IDENTIFICATION_REQUIRED');
    expect(await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId })).to.equal(orders);
    expect((await dataSource.manager.findOneByOrFail(InvoiceSeries, { id: series.id })).nextNumber).to.equal(series.nextNumber);
    expectProblem(await sell({ consumerDocument: '12345678900' }), 400);

    const cpf = randomCpf();
    const res = await sell({ consumerDocument: cpf });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument.status).to.equal('AUTHORIZED');
    const xml = (await api().get(`/api/nfce/${res.body.fiscalDocument.id}/xml`).set(t.headers())).text;
    expect(xml).to.contain(`<dest><CPF>${cpf}</CPF>`);
    if (canValidateXsd) expect(xsdErrors(xml)).to.equal(null);
    await save({ identificationThreshold: null });
  });

  it("cancellation 110111 within the UF's window; past it 422; a note not authorized 409; bad input 400", async () => {
    const res = await sell();
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const f = res.body.fiscalDocument;
    expect(f.status).to.equal('AUTHORIZED');
    expectProblem(await api().post(`/api/nfce/${f.id}/cancel`).set(t.headers()).send({ justification: 'curta' }), 400);
    expectProblem(
      await api().post(`/api/nfce/${f.id}/cancel`).set(other.headers()).send({ justification: 'Venda cancelada a pedido do cliente' }),
      404,
      'NFCE_NOT_FOUND',
    );
    expectProblem(
      await api()
        .post(`/api/nfce/${f.id}/cancel`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] }, 1))
        .send({ justification: 'Venda cancelada a pedido do cliente' }),
      403,
    );
    // Past the window (30 minutes): refused before anything is sent.
    // 31 minutes after the authorization the authority recorded (its clock, not this process's).
    const stored = await dataSource.manager.findOneByOrFail(NfceDocument, { id: decodeId('nfce', f.id) });
    const lateAt = new Date((stored.authorizedAt ?? stored.issuedAt).getTime() + 31 * 60_000);
    const late = await cancelNfce(
      { ...t.ctx, grantedFiliais: '*', scopes: [] } as never,
      decodeId('nfce', f.id),
      'Venda cancelada a pedido do cliente',
      lateAt,
    ).catch((e) => e);
    expect(late, String(late)).to.be.instanceOf(Error);
    expect(late.code ?? late.problemCode, String(late)).to.equal('CANCELLATION_DEADLINE_PASSED');
    expect((await dataSource.manager.findOneByOrFail(NfceDocument, { id: decodeId('nfce', f.id) })).status).to.equal('AUTHORIZED');

    const ok = await api().post(`/api/nfce/${f.id}/cancel`).set(t.headers()).send({ justification: 'Venda cancelada a pedido do cliente' });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body).to.include({ status: 'CANCELLED', cStat: '135' });
    const row = await dataSource.manager.findOneByOrFail(NfceDocument, { id: decodeId('nfce', f.id) });
    expect(row.cancelProtocol).to.match(/^\d{15}$/);
    expect(gunzipText(row.cancelXmlGz!)).to.contain('<tpEvento>110111</tpEvento>');
    expect((await eventsOf(t)).map((e) => e.type)).to.include('nfce.cancelled');
    expectProblem(
      await api().post(`/api/nfce/${f.id}/cancel`).set(t.headers()).send({ justification: 'Venda cancelada a pedido do cliente' }),
      409,
      'NFCE_CANCELLED',
    );
  });

  it('a filial without NFC-e: the quick sale answers no fiscal document and writes no note', async () => {
    const notes = (await notesOf(t)).length;
    const res = await sell({}, 1);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.not.have.property('fiscalDocument');
    expect(await notesOf(t)).to.have.length(notes);
    // consumerDocument only belongs to a quick sale.
    expectProblem(
      await api()
        .post('/api/sales-order')
        .set(t.headers())
        .send({ items: [{ productId: t.products[0].hash, quantity: 1 }], consumerDocument: randomCpf() }),
      400,
    );
  });
});

const encodeNfce = (id: number) => encodeId('nfce', id);
