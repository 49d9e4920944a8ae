import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { logger } from '../../src/core/logger';
import { registry } from '../../src/core/metrics';
import { InvoiceContingency } from '../../src/modules/outbound-nfe/entities/invoice-contingency.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { recoverInvoices } from '../../src/modules/outbound-nfe/recovery';
import { Receivable } from '../../src/modules/receivables/entities/receivable.entity';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { api } from '../support/api';
import { freePort } from '../support/child-server';
import { expectProblem } from '../support/problem';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * Issue 43 (points 2, 7, 8): an NF-e whose answer is lost and whose authority then goes down. The
 * number that may have reached the authority keeps its key (SENT, consulted when the authority is
 * back); the sale's document is a contingency one with a new number; the first attempt's fate then
 * decides which stands. A 539 naming a key of ours is settled by that key. A lost answer on a kept
 * connection is settled at once. A document without a verdict says so (last attempt, log, metric).
 */

const row = (t: InvoiceTenant, id: string) =>
  dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', id) });
const issue = (t: InvoiceTenant, body: object) => api().post('/api/invoices/issue').set(t.headers()).send(body);
const detail = (t: InvoiceTenant, id: string) => api().get(`/api/invoices/detail/${id}`).set(t.headers());

/** The authority back: normal again, the filial's contingency probed at once. */
async function authorityBack(t: InvoiceTenant): Promise<void> {
  t.sim.issuer.faults.downUntil = 0;
  await dataSource.manager.update(InvoiceContingency, { companyId: t.companyId }, { checkedAt: new Date(Date.now() - 60_000) });
}

async function numberReport(t: InvoiceTenant, from: number, to: number) {
  const series = (await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data[0];
  const report = await api().get(`/api/invoices/series/${series.id}/numbers`).set(t.headers()).query({ from, to });
  expect(report.status, JSON.stringify(report.body)).to.equal(200);
  return report.body as { numbers: { number: number; fate: string }[]; unaccounted: number[] };
}

async function metric(name: string, outcome: string): Promise<number> {
  const m = (await registry.getSingleMetric(name)?.get()) as { values: { value: number; labels: Record<string, string> }[] } | undefined;
  return m?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe('Invoices: a lost answer followed by an outage, 539 naming our key, kept connections, attempts without a verdict', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;

  before(async () => {
    t = await invoiceTenant();
  });
  afterEach(async () => {
    Object.assign(t.sim.issuer.faults, {
      dropAfterAuthorize: 0,
      dropBeforeAuthorize: 0,
      delayMs: 0,
      downUntil: 0,
      rejectNext: null,
      closeReusedConnection: 0,
      downAfterDropMs: 0,
      consultAbsentNext: 0,
    });
    await authorityBack(t);
    await recoverInvoices();
  });

  it('authorized, the answer lost, then down: the number keeps its key; the sale gets a contingency NF-e with a new number; back, the first stands and the contingency one is cancelled', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.dropAfterAuthorize = 1;
    t.sim.issuer.faults.downAfterDropMs = 600_000;
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // The sale's document: a contingency one, authorized by the SVC under a new number.
    expect(res.body).to.include({ status: 'AUTHORIZED', emissionType: 6 });
    expect(res.body.contingencyOf).to.be.a('string');
    const firstId = res.body.contingencyOf as string;
    const first = (await detail(t, firstId)).body;
    expect(first).to.include({ status: 'SENT', cStat: null, contingencyOf: null, emissionType: 1 });
    expect(res.body.number).to.equal(first.number + 1);
    expect(first.lastAttempt.error).to.match(/108/);
    // The authority holds the first number under its first key only (never a second key for it).
    const atAuthority = t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.number === first.number);
    expect(atAuthority.map((d) => [d.accessKey, d.status])).to.deep.equal([[first.accessKey, 'AUTHORIZED']]);
    // One live document for the sale: billing again is refused, naming the contingency one.
    const again = await issue(t, { fulfillmentId });
    expectProblem(again, 409, 'ALREADY_INVOICED');
    expect(again.body.invoiceId).to.equal(res.body.id);
    // The first attempt cannot be voided while its fate is unknown (it is not REJECTED).
    expectProblem(
      await api().post(`/api/invoices/${firstId}/void`).set(t.headers()).send({ justification: 'Numero nao utilizado por falha' }),
      409,
      'INVOICE_SENT',
    );
    // Still down: the recovery pass consults, never sends it again.
    const seen: string[] = [];
    t.sim.onRequest = (_p, body) => seen.push(/<(enviNFe|consSitNFe)/.exec(body)?.[1] ?? '');
    await dataSource.manager.update(OutboundNfe, { id: decodeId('invoice', firstId) }, { leaseUntil: null, leaseOwner: null });
    await recoverInvoices();
    expect(seen.filter(Boolean)).to.not.include('enviNFe');
    expect((await row(t, firstId)).status).to.equal('SENT');

    await authorityBack(t);
    await recoverInvoices();
    t.sim.onRequest = null;
    const firstAfter = (await detail(t, firstId)).body;
    expect(firstAfter).to.include({ status: 'AUTHORIZED', cStat: '100', accessKey: first.accessKey });
    expect(firstAfter.lastAttempt.error).to.equal(null);
    const second = (await detail(t, res.body.id)).body;
    expect(second.status).to.equal('CANCELLED');
    expect(second.events.map((e: any) => e.kind)).to.deep.equal(['CANCELLATION']);
    expect(t.sim.issuer.document(res.body.accessKey)?.status).to.equal('CANCELLED');
    // The sale's claim and its receivables are the first attempt's again.
    expect((await row(t, firstId)).claim).to.equal(`F${decodeId('fulfillment', fulfillmentId)}`);
    expect((await row(t, res.body.id)).claim).to.equal(null);
    const receivables = await dataSource.manager.findBy(Receivable, {
      companyId: t.companyId,
      fulfillmentId: decodeId('fulfillment', fulfillmentId),
    });
    for (const r of receivables) expect(r.accessKey).to.equal(first.accessKey);
    expect(gunzipText((await row(t, firstId)).procXmlGz!)).to.contain(`<chNFe>${first.accessKey}</chNFe>`);
    const report = await numberReport(t, first.number, res.body.number);
    expect(report.numbers.map((n) => [n.number, n.fate])).to.deep.equal([
      [first.number, 'AUTHORIZED'],
      [res.body.number, 'CANCELLED'],
    ]);
    expect(report.unaccounted).to.deep.equal([]);
  });

  it('lost on the way there, then down: back, the first number is not at the authority — voided; the contingency NF-e stands', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.dropBeforeAuthorize = 1;
    t.sim.issuer.faults.downAfterDropMs = 600_000;
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'AUTHORIZED', emissionType: 6 });
    const firstId = res.body.contingencyOf as string;
    const first = await row(t, firstId);
    expect(first.status).to.equal('SENT');
    await authorityBack(t);
    await recoverInvoices();
    expect((await detail(t, firstId)).body).to.include({ status: 'VOIDED' });
    expect((await detail(t, res.body.id)).body).to.include({ status: 'AUTHORIZED' });
    expect((await row(t, res.body.id)).claim).to.equal(`F${decodeId('fulfillment', fulfillmentId)}`);
    expect(t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.number === first.number)).to.deep.equal([]);
    const report = await numberReport(t, first.number, res.body.number);
    expect(report.numbers.map((n) => [n.number, n.fate])).to.deep.equal([
      [first.number, 'VOIDED'],
      [res.body.number, 'AUTHORIZED'],
    ]);
    expect(report.unaccounted).to.deep.equal([]);
    // Billing the fulfilment again is refused: its contingency document is its NF-e.
    expectProblem(await issue(t, { fulfillmentId }), 409, 'ALREADY_INVOICED');
  });

  it('the contingency NF-e rejected by the SVC, the first attempt authorized after all: the first stands, the rejected one is withdrawn and its number voided', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    t.sim.issuer.faults.dropAfterAuthorize = 1;
    t.sim.issuer.faults.downAfterDropMs = 600_000;
    t.sim.onRequest = (path, body) => {
      if (/^\/svc-/.test(path) && body.includes('<enviNFe'))
        t.sim.issuer.faults.rejectNext = { cStat: '225', xMotivo: 'Rejeicao: Falha no Schema XML da NFe' };
    };
    let res;
    try {
      res = await issue(t, { fulfillmentId });
    } finally {
      t.sim.onRequest = null;
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'REJECTED', cStat: '225', emissionType: 6 });
    const firstId = res.body.contingencyOf as string;
    await authorityBack(t);
    await recoverInvoices();
    const first = (await detail(t, firstId)).body;
    expect(first).to.include({ status: 'AUTHORIZED', cStat: '100' });
    expect((await detail(t, res.body.id)).body.status).to.equal('VOIDED');
    expect((await row(t, firstId)).claim).to.equal(`F${decodeId('fulfillment', fulfillmentId)}`);
    const report = await numberReport(t, first.number, res.body.number);
    expect(report.numbers.map((n) => [n.number, n.fate])).to.deep.equal([
      [first.number, 'AUTHORIZED'],
      [res.body.number, 'VOIDED'],
    ]);
    expect(report.unaccounted).to.deep.equal([]);
  });

  it('a 539 naming a key of ours (the number rebuilt in contingency after a lagging consultation): settled by consulting that key, not REJECTED', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    // Authorized, answer lost, then down; the consultation answers from a replica that has not seen it (217).
    t.sim.issuer.faults.dropAfterAuthorize = 1;
    t.sim.issuer.faults.downAfterDropMs = 600_000;
    t.sim.issuer.faults.consultAbsentNext = 1;
    const res = await issue(t, { fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const held = t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.number === res.body.number);
    expect(held.map((d) => d.status)).to.deep.equal(['AUTHORIZED']);
    // The document is the one the authority holds: its first key, tpEmis 1, the authority's protocol.
    expect(res.body).to.include({
      status: 'AUTHORIZED',
      cStat: '100',
      accessKey: held[0].accessKey,
      emissionType: 1,
      protocol: held[0].protocol,
    });
    expect(res.body.lastAttempt).to.include({ error: null });
    const doc = await row(t, res.body.id);
    expect(gunzipText(doc.procXmlGz!)).to.contain(`Id="NFe${held[0].accessKey}"`);
    expect(doc.claim).to.equal(`F${decodeId('fulfillment', fulfillmentId)}`);
  });

  it('a kept-alive connection the authority closed as the NF-e went out: settled at once by consultation (201 AUTHORIZED, not SENT)', async () => {
    const a = await fulfilledOrder(t);
    const b = await fulfilledOrder(t);
    const first = await issue(t, { fulfillmentId: a.fulfillmentId });
    expect(first.body.status).to.equal('AUTHORIZED');
    t.sim.issuer.faults.closeReusedConnection = 1;
    const res = await issue(t, { fulfillmentId: b.fulfillmentId });
    expect(t.sim.issuer.faults.closeReusedConnection, 'the fault fired').to.equal(0);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ status: 'AUTHORIZED', number: first.body.number + 1, emissionType: 1 });
    expect(t.sim.issuer.documentsOf(t.cnpj).filter((d) => d.number === res.body.number)).to.have.length(1);
  });

  it('the authority unreachable: the answer and the detail carry the last attempt, a warn line and a metric; settled later', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const dead = await freePort();
    await setFilialEndpoint(t.companyId, t.filialIds[0], {
      distUrl: `https://127.0.0.1:${dead}/ws/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx`,
      eventUrl: `https://127.0.0.1:${dead}/ws/recepcaoevento/recepcaoevento4.asmx`,
      caPem: t.endpoints.caPem,
      label: 'unreachable',
    });
    const warned: unknown[][] = [];
    const warn = logger.warn.bind(logger);
    logger.warn = ((...args: unknown[]) => {
      warned.push(args);
      return (warn as (...a: unknown[]) => unknown)(...args);
    }) as typeof logger.warn;
    const before = await metric('backoffice_nfe_attempts_without_verdict_total', 'no-answer');
    let res;
    try {
      res = await issue(t, { fulfillmentId });
    } finally {
      logger.warn = warn;
      await setFilialEndpoint(t.companyId, t.filialIds[0], {
        distUrl: t.endpoints.distUrl,
        eventUrl: t.endpoints.eventUrl,
        caPem: t.endpoints.caPem,
        label: 'local simulator',
      });
    }
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.status).to.equal('SENT');
    expect(res.body.lastAttempt.error).to.match(/Sem resposta da SEFAZ/);
    expect(Date.now() - Date.parse(res.body.lastAttempt.at)).to.be.lessThan(60_000);
    const d = (await detail(t, res.body.id)).body;
    expect(d.lastAttempt).to.deep.equal(res.body.lastAttempt);
    expect(
      warned.some(([msg, meta]) => msg === 'NF-e without a verdict from the authority' && (meta as any).invoiceId === res.body.id),
    ).to.equal(true);
    expect(await metric('backoffice_nfe_attempts_without_verdict_total', 'no-answer')).to.equal(before + 1);
    // Reachable again: the recovery pass settles it and the last attempt is the answered one.
    await dataSource.manager.update(OutboundNfe, { id: decodeId('invoice', res.body.id) }, { leaseUntil: null, leaseOwner: null });
    await recoverInvoices();
    const after = (await detail(t, res.body.id)).body;
    expect(after.status).to.equal('AUTHORIZED');
    expect(after.lastAttempt.error).to.equal(null);
  });
});
