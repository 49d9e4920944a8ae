import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { InvoiceSeries } from '../../src/modules/outbound-nfe/entities/invoice-series.entity';
import { NfceConfiguration } from '../../src/modules/nfce/entities/nfce-configuration.entity';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';
import { closeAuthorityConnections } from '../../src/modules/authority/soap/https-transport';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { canVerifySignature, xmlsecErrors } from '../invoices/conformance-support';
import { canValidateFiles, procEventoErrors, procInutErrors } from '../invoices/fiscal-files-support';
import type { InvoiceTenant } from '../invoices/support';
import { Counter, counterTenant, nfceSettings, notesOf } from './support';

/*
 * Issue 43 for the NFC-e: the série's number report accounts for model 65 (notes and the online attempts
 * they replaced) (9); the notes' fiscal files — procEventoNFe of the cancellation and of the substitution
 * (110112), procInutNFe of an attempt's number — served valid and signed, and a contingency note reprinted
 * after its authorization no longer "pendente" (10); a settings save refused for its version writes
 * nothing, not even its série (11).
 */

const binary = (r: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => cb(null, Buffer.concat(chunks)));
};
const hasPdftotext = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0;
const pdfText = (pdf: Buffer) => spawnSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' }).stdout;

describe('NFC-e: number report, fiscal files, contingency reprint, settings refused whole', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let c: Counter;
  let version: number;

  const put = (body: object) => api().put(`/api/nfce/configuration/${t.filialHashes[0]}`).set(t.headers()).send(body);
  const auditCount = () => dataSource.manager.countBy(AuditLog, { companyId: t.companyId });

  /** A sale whose online attempt is lost (`fault`): the offline note's detail (with `original`). */
  const afterLostAttempt = async (fault: 'delayMs' | 'dropBeforeAuthorize') => {
    closeAuthorityConnections();
    if (fault === 'delayMs') t.sim.issuer.faults.delayMs = 1500;
    else t.sim.issuer.faults.dropBeforeAuthorize = 1;
    const res = await c.sell();
    Object.assign(t.sim.issuer.faults, { delayMs: 0, dropBeforeAuthorize: 0 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
    const detail = await api().get(`/api/nfce/detail/${res.body.fiscalDocument.id}`).set(t.headers());
    expect(detail.body.original).to.include({ outcome: 'PENDING' });
    return detail.body;
  };

  before(async () => {
    c = await counterTenant();
    t = c.t;
    other = await createTestTenant();
    const res = await put(nfceSettings({ syncTimeoutMs: 500 }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    version = res.body.version;
  });

  afterEach(() => {
    Object.assign(t.sim.issuer.faults, { delayMs: 0, dropBeforeAuthorize: 0 });
    t.sim.issuer.downFor(0);
  });

  it('PUT /nfce/configuration refused (409 STALE_VERSION, 422) writes nothing: no série, no default moved, no audit row; two saves of one version: one wins, whole', async () => {
    const seriesBefore = await dataSource.manager.find(InvoiceSeries, {
      where: { companyId: t.companyId, model: 65 },
      order: { id: 'ASC' },
    });
    const auditBefore = await auditCount();
    expectProblem(
      await put({ ...nfceSettings({ series: 42, nextNumber: 500, syncTimeoutMs: 500 }), version: version - 1 }),
      409,
      'STALE_VERSION',
    );
    expectProblem(
      await put({ ...nfceSettings({ series: 43, nextNumber: 7, syncTimeoutMs: 500, qrVersion: 2 }), version }),
      422,
      'CSC_REQUIRED',
    );
    expect(
      await dataSource.manager.find(InvoiceSeries, { where: { companyId: t.companyId, model: 65 }, order: { id: 'ASC' } }),
    ).to.deep.equal(seriesBefore);
    expect(await auditCount()).to.equal(auditBefore);
    expect((await dataSource.manager.findOneByOrFail(NfceConfiguration, { companyId: t.companyId })).series).to.equal(1);

    // Two saves of the same version at once, each with a série of its own: one 200, one 409, and only the winner's série exists.
    const [a, b] = await Promise.all([
      put({ ...nfceSettings({ series: 7, syncTimeoutMs: 500 }), version }),
      put({ ...nfceSettings({ series: 8, syncTimeoutMs: 500 }), version }),
    ]);
    expect([a.status, b.status].sort()).to.deep.equal([200, 409]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(loser.body.code).to.equal('STALE_VERSION');
    const after = await dataSource.manager.find(InvoiceSeries, { where: { companyId: t.companyId, model: 65 } });
    expect(after.map((s) => s.series).sort()).to.deep.equal([1, winner.body.series].sort());
    expect(after.filter((s) => s.isDefault).map((s) => s.series)).to.deep.equal([winner.body.series]);
    // Back to série 1 (its next number kept) for the rest.
    const back = await put({ ...nfceSettings({ syncTimeoutMs: 500 }), version: winner.body.version });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    version = back.body.version;
  });

  it('a contingency note: "pendente de autorização" until authorized; reprinted after, its protocol and no "pendente" (text and PDF)', async () => {
    t.sim.issuer.downFor(600_000);
    const res = await c.sell();
    t.sim.issuer.downFor(0);
    const f = res.body.fiscalDocument;
    expect(f).to.include({ status: 'CONTINGENCY', contingency: true });
    const pending = (await api().get(`/api/nfce/${f.id}/danfe.txt`).set(t.headers())).text;
    expect(pending).to.contain('EMITIDA EM CONTINGENCIA').and.contain('Pendente de autorizacao');
    await runNfceQueue();
    const detail = (await api().get(`/api/nfce/detail/${f.id}`).set(t.headers())).body;
    expect(detail.status).to.equal('AUTHORIZED');
    const reprint = (await api().get(`/api/nfce/${f.id}/danfe.txt`).set(t.headers())).text;
    expect(reprint).to.contain('EMITIDA EM CONTINGENCIA').and.contain(`Protocolo de autorizacao: ${detail.protocol}`);
    expect(reprint).to.not.match(/pendente/i);
    if (hasPdftotext) {
      const pdf = await api().get(`/api/nfce/${f.id}/danfe`).set(t.headers()).buffer(true).parse(binary);
      const text = pdfText(pdf.body as Buffer);
      expect(text).to.contain(detail.protocol);
      expect(text).to.not.match(/pendente/i);
    }
  });

  it('GET /nfce/:id/cancellation/xml: the procEventoNFe of the 110111, valid and signed; 404 before and for another tenant; the DANFE says cancelled', async () => {
    const f = (await c.sell()).body.fiscalDocument;
    expect(f.status).to.equal('AUTHORIZED');
    const url = `/api/nfce/${f.id}/cancellation/xml`;
    expectProblem(await api().get(url).set(t.headers()), 404, 'NFCE_EVENT_NOT_FOUND');
    const cc = await api().post(`/api/nfce/${f.id}/cancel`).set(t.headers()).send({ justification: 'Venda cancelada a pedido do cliente' });
    expect(cc.status, JSON.stringify(cc.body)).to.equal(200);
    expectProblem(await api().get(url).set(other.headers()), 404, 'NFCE_NOT_FOUND');
    expectProblem(await api().get('/api/nfce/x!/cancellation/xml').set(t.headers()), 400);
    const x = await api().get(url).set(t.headers());
    expect(x.status).to.equal(200);
    expect(x.headers['content-type']).to.match(/^application\/xml/);
    expect(x.headers['content-disposition']).to.equal(`attachment; filename="${f.accessKey}-110111-01-procEventoNFe.xml"`);
    expect(x.text).to.match(/^<procEventoNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="1.00"><evento versao="1.00">/);
    expect(x.text).to.contain(`<chNFe>${f.accessKey}</chNFe>`).and.contain('<tpEvento>110111</tpEvento>').and.contain('<cStat>135</cStat>');
    if (canValidateFiles) expect(procEventoErrors(x.text, 'cancellation')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(x.text, 'infEvento')).to.equal(null);
    const danfe = (await api().get(`/api/nfce/${f.id}/danfe.txt`).set(t.headers())).text;
    expect(danfe).to.contain('NFC-e CANCELADA');
  });

  it('GET /nfce/:id/original/xml: the procInutNFe of a voided attempt and the procEventoNFe of a substitution (110112), valid and signed; the série route serves the voided number too', async () => {
    const plain = (await c.sell()).body.fiscalDocument;
    expectProblem(await api().get(`/api/nfce/${plain.id}/original/xml`).set(t.headers()), 404, 'NFCE_EVENT_NOT_FOUND');

    const voided = await afterLostAttempt('dropBeforeAuthorize');
    expectProblem(await api().get(`/api/nfce/${voided.id}/original/xml`).set(t.headers()), 404, 'NFCE_EVENT_NOT_FOUND');
    await runNfceQueue();
    const v = await api().get(`/api/nfce/${voided.id}/original/xml`).set(t.headers());
    expect(v.status).to.equal(200);
    expect(v.headers['content-disposition']).to.match(/^attachment; filename="\d{41}-procInutNFe.xml"$/);
    expect(v.text).to.match(/^<procInutNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="4.00"><inutNFe versao="4.00">/);
    expect(v.text)
      .to.contain(`<mod>65</mod><serie>1</serie><nNFIni>${voided.original.number}</nNFIni><nNFFin>${voided.original.number}</nNFFin>`)
      .and.contain('<cStat>102</cStat>');
    if (canValidateFiles) expect(procInutErrors(v.text)).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(v.text, 'infInut')).to.equal(null);
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, {
      companyId: t.companyId,
      filialId: t.filialIds[0],
      model: 65,
      series: 1,
    });
    const bySeries = await api()
      .get(`/api/invoices/series/${encodeId('invoice-series', series.id)}/numbers/${voided.original.number}/xml`)
      .set(t.headers());
    expect(bySeries.status).to.equal(200);
    expect(bySeries.text).to.equal(v.text);
    expectProblem(await api().get(`/api/nfce/${voided.id}/original/xml`).set(other.headers()), 404, 'NFCE_NOT_FOUND');

    const substituted = await afterLostAttempt('delayMs');
    await runNfceQueue();
    const s = await api().get(`/api/nfce/${substituted.id}/original/xml`).set(t.headers());
    expect(s.status).to.equal(200);
    expect(s.headers['content-disposition']).to.equal(
      `attachment; filename="${substituted.original.accessKey}-110112-01-procEventoNFe.xml"`,
    );
    expect(s.text).to.match(/^<procEventoNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="1.00"><evento versao="1.00">/);
    expect(s.text)
      .to.contain(`<chNFe>${substituted.original.accessKey}</chNFe>`)
      .and.contain('<tpEvento>110112</tpEvento>')
      .and.contain(`<chNFeRef>${substituted.accessKey}</chNFeRef>`);
    expect(/<retEvento[\s\S]*<\/retEvento>/.exec(s.text)![0]).to.match(/<cStat>135<\/cStat>/);
    if (canValidateFiles) expect(procEventoErrors(s.text, 'generic')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(s.text, 'infEvento')).to.equal(null);
  });

  it('GET /invoices/series/:seriesId/numbers of model 65: every number accounted for (notes, their attempts, cancelled, voided), with the note that holds it', async () => {
    // One still offline, so the report shows a CONTINGENCY number too.
    t.sim.issuer.downFor(600_000);
    const offline = (await c.sell()).body.fiscalDocument;
    t.sim.issuer.downFor(0);
    const series = await dataSource.manager.findOneByOrFail(InvoiceSeries, {
      companyId: t.companyId,
      filialId: t.filialIds[0],
      model: 65,
      series: 1,
    });
    const seriesId = encodeId('invoice-series', series.id);
    const res = await api().get(`/api/invoices/series/${seriesId}/numbers`).set(t.headers());
    expect(res.status).to.equal(200);
    expect(res.body.unaccounted).to.deep.equal([]);
    expect(res.body.numbers.map((n: any) => n.number)).to.deep.equal(Array.from({ length: series.nextNumber - 1 }, (_v, i) => i + 1));
    const notes = await notesOf(t);
    for (const n of res.body.numbers) {
      const own = notes.find((x) => x.number === n.number);
      const attempt = notes.find((x) => x.onlineNumber === n.number);
      const note = own ?? attempt!;
      expect(n.invoiceId).to.equal(null);
      expect(n.nfceId).to.equal(encodeId('nfce', note.id));
      if (own) expect(n).to.include({ fate: own.status, accessKey: own.accessKey });
      else
        expect(n).to.include({
          fate: attempt!.originalOutcome === 'VOIDED' ? 'VOIDED' : 'SUBSTITUTED',
          accessKey: attempt!.originalOutcome === 'VOIDED' ? null : attempt!.onlineKey,
        });
    }
    const fates = res.body.numbers.map((n: any) => n.fate);
    expect(fates).to.include.members(['AUTHORIZED', 'CANCELLED', 'VOIDED', 'SUBSTITUTED', 'CONTINGENCY']);
    expect(res.body.numbers.find((n: any) => n.nfceId === offline.id).fate).to.equal('CONTINGENCY');
    // A range, and another tenant's série.
    const part = await api().get(`/api/invoices/series/${seriesId}/numbers`).set(t.headers()).query({ from: 2, to: 3 });
    expect(part.body.numbers.map((n: any) => n.number)).to.deep.equal([2, 3]);
    expectProblem(await api().get(`/api/invoices/series/${seriesId}/numbers`).set(other.headers()), 404, 'SERIES_NOT_FOUND');
    await runNfceQueue();
  });
});
