import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { canVerifySignature, xmlsecErrors } from './conformance-support';
import { canValidateFiles, procEventoErrors, procInutErrors } from './fiscal-files-support';
import { filialHash, fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * Issue 43 (10): the fiscal files the issuer keeps and hands over besides the nfeProc — procEventoNFe of
 * the cancellation and of each carta de correção, procInutNFe of voided numbers — served as the layout's
 * envelopes (valid against the PL_010 event schemas, signatures verified); the DANFE of a cancelled NF-e
 * is stamped cancelled.
 */

const issue = (t: InvoiceTenant, body: object) => api().post('/api/invoices/issue').set(t.headers()).send(body);
const binary = (r: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => cb(null, Buffer.concat(chunks)));
};
const hasPdftotext = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0;
const pdfText = (pdf: Buffer) => spawnSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' }).stdout;

describe('Invoices: fiscal files (procEventoNFe, procInutNFe) and the cancelled DANFE', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let other: TestTenant;

  before(async () => {
    t = await invoiceTenant({ email: null });
    other = await createTestTenant({ environment: 'HOMOLOGATION' });
  });

  it('GET /invoices/:id/cancellation/xml: the procEventoNFe of the 110111 as the authority registered it; valid, signed; 404 before, for another tenant; 400 bad id', async () => {
    const res = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(res.body.status).to.equal('AUTHORIZED');
    const url = `/api/invoices/${res.body.id}/cancellation/xml`;
    expectProblem(await api().get(url).set(t.headers()), 404, 'INVOICE_EVENT_NOT_FOUND');
    const c = await api()
      .post(`/api/invoices/${res.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(c.status, JSON.stringify(c.body)).to.equal(200);
    expectProblem(await api().get(url).set(other.headers()), 404, 'INVOICE_NOT_FOUND');
    expectProblem(await api().get('/api/invoices/not-an-id!/cancellation/xml').set(t.headers()), 400);
    const x = await api().get(url).set(t.headers());
    expect(x.status).to.equal(200);
    expect(x.headers['content-type']).to.match(/^application\/xml/);
    expect(x.headers['content-disposition']).to.equal(`attachment; filename="${res.body.accessKey}-110111-01-procEventoNFe.xml"`);
    expect(x.text).to.match(
      /^<procEventoNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="1.00"><evento versao="1.00"><infEvento Id="ID110111/,
    );
    expect(x.text)
      .to.contain(`<chNFe>${res.body.accessKey}</chNFe>`)
      .and.contain('<descEvento>Cancelamento</descEvento>')
      .and.contain('Cliente desistiu da compra');
    // The authority's answer as it came: registered (135) with the protocol the document keeps.
    const ret = /<retEvento[\s\S]*<\/retEvento>/.exec(x.text)![0];
    expect(ret).to.contain('<cStat>135</cStat>').and.contain(`<nProt>${c.body.cancelProtocol}</nProt>`);
    if (canValidateFiles) expect(procEventoErrors(x.text, 'cancellation')).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(x.text, 'infEvento')).to.equal(null);
  });

  it('GET /invoices/:id/corrections/:sequence/xml: every carta de correção is kept and served; 404 for one never sent; 400 outside 1..20', async () => {
    const res = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    const texts = ['Endereco de entrega: Rua das Palmeiras, numero 45, fundos', 'Observacao: mercadoria entregue no deposito dos fundos'];
    for (const correction of texts)
      expect((await api().post(`/api/invoices/${res.body.id}/correct`).set(t.headers()).send({ correction })).status).to.equal(200);
    for (const [i, text] of texts.entries()) {
      const x = await api()
        .get(`/api/invoices/${res.body.id}/corrections/${i + 1}/xml`)
        .set(t.headers());
      expect(x.status).to.equal(200);
      expect(x.headers['content-disposition']).to.contain(`${res.body.accessKey}-110110-0${i + 1}-procEventoNFe.xml`);
      expect(x.text)
        .to.contain(`<nSeqEvento>${i + 1}</nSeqEvento>`)
        .and.contain(`<xCorrecao>${text}</xCorrecao>`)
        .and.contain('<cStat>135</cStat>');
      if (canValidateFiles) expect(procEventoErrors(x.text, 'correction')).to.equal(null);
      if (canVerifySignature) expect(xmlsecErrors(x.text, 'infEvento')).to.equal(null);
    }
    expectProblem(await api().get(`/api/invoices/${res.body.id}/corrections/3/xml`).set(t.headers()), 404, 'INVOICE_EVENT_NOT_FOUND');
    expectProblem(await api().get(`/api/invoices/${res.body.id}/cancellation/xml`).set(t.headers()), 404, 'INVOICE_EVENT_NOT_FOUND');
    expectProblem(await api().get(`/api/invoices/${res.body.id}/corrections/0/xml`).set(t.headers()), 400);
    expectProblem(await api().get(`/api/invoices/${res.body.id}/corrections/21/xml`).set(t.headers()), 400);
    expectProblem(await api().get(`/api/invoices/${res.body.id}/corrections/1/xml`).set(other.headers()), 404, 'INVOICE_NOT_FOUND');
  });

  it('GET /invoices/series/:seriesId/numbers/:number/xml: the procInutNFe of a voided range, for each of its numbers; valid, signed; 404 for a number not voided or another tenant', async () => {
    const [series] = (
      await api()
        .get(`/api/invoices/series/${filialHash(t)}`)
        .set(t.headers())
    ).body.data;
    const first = series.nextNumber + 5;
    const v = await api()
      .post('/api/invoices/void-numbers')
      .set(t.headers())
      .send({
        filialId: filialHash(t),
        series: series.series,
        first,
        last: first + 2,
        justification: 'Faixa pulada por erro de configuracao',
      });
    expect(v.status, JSON.stringify(v.body)).to.equal(201);
    expect(v.body.status).to.equal('VOIDED');
    for (const n of [first, first + 2]) {
      const x = await api().get(`/api/invoices/series/${series.id}/numbers/${n}/xml`).set(t.headers());
      expect(x.status).to.equal(200);
      expect(x.headers['content-type']).to.match(/^application\/xml/);
      expect(x.headers['content-disposition']).to.match(/^attachment; filename="\d{41}-procInutNFe.xml"$/);
      expect(x.text).to.match(
        /^<procInutNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="4.00"><inutNFe versao="4.00"><infInut Id="ID/,
      );
      expect(x.text)
        .to.contain(`<nNFIni>${first}</nNFIni><nNFFin>${first + 2}</nNFFin>`)
        .and.contain('<cStat>102</cStat>')
        .and.contain(`<nProt>${v.body.protocol}</nProt>`);
      if (canValidateFiles) expect(procInutErrors(x.text)).to.equal(null);
      if (canVerifySignature) expect(xmlsecErrors(x.text, 'infInut')).to.equal(null);
    }
    // The numbers the série skipped are in the report, each VOIDED, and nothing else is.
    const report = await api()
      .get(`/api/invoices/series/${series.id}/numbers`)
      .set(t.headers())
      .query({ from: first, to: first + 2 });
    expect(report.body.numbers.map((n: any) => n.fate)).to.deep.equal(['VOIDED', 'VOIDED', 'VOIDED']);
    expectProblem(
      await api()
        .get(`/api/invoices/series/${series.id}/numbers/${first - 1}/xml`)
        .set(t.headers()),
      404,
      'NUMBER_NOT_VOIDED',
    );
    expectProblem(await api().get(`/api/invoices/series/${series.id}/numbers/${first}/xml`).set(other.headers()), 404, 'SERIES_NOT_FOUND');
    expectProblem(await api().get(`/api/invoices/series/${series.id}/numbers/0/xml`).set(t.headers()), 400);
  });

  it('the DANFE of a cancelled NF-e is stamped NF-e CANCELADA with the cancellation protocol; an authorized one is not', async function () {
    if (!hasPdftotext) this.skip();
    const res = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    const danfe = () => api().get(`/api/invoices/${res.body.id}/danfe`).set(t.headers()).buffer(true).parse(binary);
    const before = pdfText((await danfe()).body as Buffer);
    expect(before).to.not.match(/CANCELADA/);
    const c = await api()
      .post(`/api/invoices/${res.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(c.body.status).to.equal('CANCELLED');
    const after = await danfe();
    expect(after.status).to.equal(200);
    const text = pdfText(after.body as Buffer);
    expect(text).to.match(/NF-e CANCELADA/);
    expect(text).to.contain(c.body.cancelProtocol);
    // Homologation still says it has no fiscal value.
    expect(text).to.match(/SEM VALOR FISCAL/);
    expect((await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', res.body.id) })).status).to.equal('CANCELLED');
  });
});
