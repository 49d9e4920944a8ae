import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { InvoiceContingency } from '../../src/modules/outbound-nfe/entities/invoice-contingency.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { canValidateXsd, xsdErrors } from './conformance-support';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * The authority misbehaving: an answer lost after it authorized, an answer later than the client's
 * timeout, duplicity (204) after a crash, rejection then correction or voiding, the service down
 * (contingency SVC-AN and back). Each ends with exactly one document per fulfilment and a number
 * accounted for.
 */

const docById = (t: InvoiceTenant, id: string) =>
  dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', id) });
const issue = (t: InvoiceTenant, body: object) => api().post('/api/invoices/issue').set(t.headers()).send(body);

describe('Invoices: lost answers, duplicity, rejection, voiding, contingency', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;

  before(async () => {
    t = await invoiceTenant();
  });
  afterEach(() => {
    Object.assign(t.sim.issuer.faults, { dropAfterAuthorize: 0, delayMs: 0, downUntil: 0, rejectNext: null });
  });

  it("authorized, then the answer is lost: the key is consulted and the authority's protocol stored (one document at the authority)", async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.dropAfterAuthorize = 1;
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'AUTHORIZED', cStat: '100' });
    const doc = await docById(t, res.body.id);
    expect(doc.sendAttempts).to.equal(1);
    expect(gunzipText(doc.procXmlGz!)).to.contain(`<nProt>${res.body.protocol}</nProt>`);
    expect(t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.number === res.body.number)).to.have.length(1);
  });

  it("an answer later than the client's timeout: consulted, AUTHORIZED", async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.delayMs = 5000;
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('AUTHORIZED');
  });

  it('a crash after the authority authorized: recovery sends again, gets 204 duplicity, consults and stores the protocol', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    const doc = await docById(t, res.body.id);
    // As a crash would leave it: the answer never recorded (SIGNED, no lease).
    await dataSource.manager.update(
      OutboundNfe,
      { id: doc.id },
      { status: 'SIGNED', cStat: null, protocol: null, procXmlGz: null, authorizedAt: null, leaseOwner: null, leaseUntil: null },
    );
    const seen: string[] = [];
    t.sim.onRequest = (_p, body) => seen.push(/<(enviNFe|consSitNFe)/.exec(body)?.[1] ?? '');
    await recoverInvoices();
    t.sim.onRequest = null;
    const after = await docById(t, res.body.id);
    expect(after).to.include({ status: 'AUTHORIZED', cStat: '100', protocol: res.body.protocol });
    expect(seen.filter(Boolean)).to.deep.equal(['enviNFe', 'consSitNFe']);
  });

  it('a document left SENT: recovery consults first and never sends it again', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    const doc = await docById(t, res.body.id);
    await dataSource.manager.update(
      OutboundNfe,
      { id: doc.id },
      { status: 'SENT', cStat: null, protocol: null, procXmlGz: null, leaseOwner: 'dead-process', leaseUntil: new Date(Date.now() - 1000) },
    );
    const seen: string[] = [];
    t.sim.onRequest = (_p, body) => seen.push(/<(enviNFe|consSitNFe)/.exec(body)?.[1] ?? '');
    await recoverInvoices();
    t.sim.onRequest = null;
    expect((await docById(t, res.body.id)).status).to.equal('AUTHORIZED');
    expect(seen.filter(Boolean)).to.deep.equal(['consSitNFe']);
  });

  it('rejected (225), corrected and re-sent with the same number → AUTHORIZED', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.rejectNext = { cStat: '225', xMotivo: 'Rejeicao: Falha no Schema XML da NFe' };
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'REJECTED', cStat: '225' });
    expectProblem(
      await api()
        .post(`/api/invoices/${res.body.id}/cancel`)
        .set(t.headers())
        .send({ justification: 'Cancelamento por erro de digitacao' }),
      409,
      'INVOICE_REJECTED',
    );
    const again = await api().post(`/api/invoices/${res.body.id}/resend`).set(t.headers()).send({ notes: 'Corrigida' });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body).to.include({ id: res.body.id, status: 'AUTHORIZED', number: res.body.number });
    expect(again.body.additionalInfo).to.match(/^Corrigida/);
  });

  it('rejected and abandoned: the number is voided (NFeInutilizacao4), the fulfilment billed again with the next number; the report accounts for both', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.rejectNext = { cStat: '539', xMotivo: 'Rejeicao: teste' };
    const res = await issue(t, { fulfillmentId });
    expect(res.body.status).to.equal('REJECTED');
    const voided = await api()
      .post(`/api/invoices/${res.body.id}/void`)
      .set(t.headers())
      .send({ justification: 'Numero nao utilizado por rejeicao' });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(200);
    expect(voided.body.status).to.equal('VOIDED');
    const next = await issue(t, { fulfillmentId });
    expect(next.status, JSON.stringify(next.body)).to.equal(201);
    expect(next.body.number).to.equal(res.body.number + 1);
    expect(next.body.status).to.equal('AUTHORIZED');
    const series = (await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data[0];
    const report = await api()
      .get(`/api/invoices/series/${series.id}/numbers`)
      .set(t.headers())
      .query({ from: res.body.number, to: next.body.number });
    expect(report.body.numbers.map((n: any) => [n.number, n.fate])).to.deep.equal([
      [res.body.number, 'VOIDED'],
      [next.body.number, 'AUTHORIZED'],
    ]);
    expect(report.body.unaccounted).to.deep.equal([]);
    // Sending the voided number again: the authority says 206.
    expect(t.sim.issuer.document(res.body.accessKey)).to.equal(undefined);
  });

  it('numbers ahead of the série are voided by route (the série skips them); a used number is refused', async () => {
    const series = (await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data[0];
    const first = series.nextNumber;
    const res = await api()
      .post('/api/invoices/void-numbers')
      .set(t.headers())
      .send({ filialId: t.filialHashes[0], series: 1, first, last: first + 2, justification: 'Faixa pulada na migracao do sistema' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'VOIDED', cStat: '102', first, last: first + 2 });
    const after = (await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data[0];
    expect(after.nextNumber).to.equal(first + 3);
    expectProblem(
      await api()
        .post('/api/invoices/void-numbers')
        .set(t.headers())
        .send({ filialId: t.filialHashes[0], series: 1, first: 1, last: 1, justification: 'Tentativa de inutilizar usada' }),
      422,
      'NUMBER_IN_USE',
    );
    const report = await api().get(`/api/invoices/series/${series.id}/numbers`).set(t.headers()).query({ from: first });
    expect(report.body.numbers.map((n: any) => n.fate)).to.deep.equal(['VOIDED', 'VOIDED', 'VOIDED']);
  });

  it('the authority down (108): contingency SVC-AN (tpEmis 6, dhCont, xJust), back to normal once its status service answers 107', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.downFor(60_000);
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'AUTHORIZED', emissionType: 6 });
    expect(res.body.accessKey[34]).to.equal('6');
    const proc = gunzipText((await docById(t, res.body.id)).procXmlGz!);
    expect(proc).to.match(
      /<tpEmis>6<\/tpEmis><cDV>\d<\/cDV><tpAmb>2<\/tpAmb>.*<dhCont>[^<]+<\/dhCont><xJust>SEFAZ autorizadora indisponivel: 108/,
    );
    if (canValidateXsd) expect(xsdErrors(proc)).to.equal(null);
    // While down, the next issue goes straight to the SVC.
    const second = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(second.body.emissionType).to.equal(6);
    // The authority is back; after the probe interval the filial issues normally again.
    t.sim.issuer.faults.downUntil = 0;
    await dataSource.manager.update(InvoiceContingency, { companyId: t.companyId }, { checkedAt: new Date(Date.now() - 60_000) });
    const third = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(third.body).to.include({ status: 'AUTHORIZED', emissionType: 1 });
    const periods = await dataSource.manager.findBy(InvoiceContingency, { companyId: t.companyId });
    expect(periods).to.have.length(1);
    expect(periods[0].endedAt).to.not.equal(null);
  });
});
