import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { setInvoicesConfig, invoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { deliverInvoices } from '../../src/modules/outbound-nfe/delivery.service';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { OutboundNfeEvent } from '../../src/modules/outbound-nfe/entities/outbound-nfe-event.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * After the authorization: cancellation 110111 (deadline per UF), cartas de correção 110110 (1..20,
 * refusing values/taxes/parties/dates), downloads, delivery by email through a local SMTP server, and
 * the nfeProc imported as another tenant's entry document to the cent.
 */

const issue = (t: InvoiceTenant, body: object) => api().post('/api/invoices/issue').set(t.headers()).send(body);

describe('Invoices: cancellation, carta de correção, downloads, email, import by the recipient', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let smtp: SMTPServer;
  const mails: { to: string[]; raw: string }[] = [];
  const smtpBefore = invoicesConfig.smtp;

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant({ environment: 'HOMOLOGATION' });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as { port: number }).port;
    setInvoicesConfig({ smtp: { url: `smtp://127.0.0.1:${port}`, from: 'nfe@mercado.com.br', retries: 1 } });
  });
  after(async () => {
    setInvoicesConfig({ smtp: smtpBefore });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('the authorized XML and DANFE go to the customer by SMTP; the send is recorded on the document', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    expect(res.body.status).to.equal('AUTHORIZED');
    // The answer does not wait for the SMTP server: the email is due, committed with the verdict.
    expect(res.body.email).to.include({ status: 'PENDING', to: 'compras@cliente.com.br', attempts: 0 });
    expect(mails.some((m) => m.raw.includes(res.body.accessKey))).to.equal(false);
    // The delivery pass sends it after the issue's commit.
    await deliverInvoices({ companyId: t.companyId });
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', res.body.id) });
    expect(doc).to.include({ emailStatus: 'SENT', emailTo: 'compras@cliente.com.br', emailError: null });
    const mail = mails.find((m) => m.raw.includes(res.body.accessKey))!;
    expect(mail.to).to.deep.equal(['compras@cliente.com.br']);
    expect(mail.raw).to.contain(`${res.body.accessKey}-procNFe.xml`).and.contain(`${res.body.accessKey}-danfe.pdf`);
    const detail = await api().get(`/api/invoices/detail/${res.body.id}`).set(t.headers());
    expect(detail.body.email).to.include({ status: 'SENT', attempts: 1 });
  });

  it('the email goes exactly once: passes at once and after it, as after a crash between the verdict and the email', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    expect(res.body.status).to.equal('AUTHORIZED');
    // Committed PENDING with the verdict: what a process killed right after the verdict leaves behind.
    const sent = await Promise.all([deliverInvoices({ companyId: t.companyId }), deliverInvoices({ companyId: t.companyId })]);
    expect(sent.reduce((a, b) => a + b, 0)).to.equal(1);
    expect(await deliverInvoices({ companyId: t.companyId })).to.equal(0);
    expect(mails.filter((m) => m.raw.includes(`${res.body.accessKey}-procNFe.xml`))).to.have.length(1);
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', res.body.id) });
    expect(doc).to.include({ emailStatus: 'SENT', emailAttempts: 1, leaseOwner: null });
  });

  it('the DANFE downloads as a PDF', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    const pdf = await api()
      .get(`/api/invoices/${res.body.id}/danfe`)
      .set(t.headers())
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).to.equal(200);
    expect(pdf.headers['content-type']).to.match(/application\/pdf/);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).to.equal('%PDF-');
    // The boxes an accountant looks for (pdftotext where installed).
    if (spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0) {
      const text = spawnSync('pdftotext', ['-', '-'], { input: pdf.body as Buffer, encoding: 'utf8' }).stdout;
      expect(text).to.contain('V. TOT. TRIB.').and.contain('V. ICMS UF DEST.').and.contain('V. FCP UF DEST.').and.contain('V. DESC.');
    }
  });

  it('cancels within the deadline (110111): CANCELLED, event stored, the authority agrees; again → 409; past the deadline → 422', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    expectProblem(await api().post(`/api/invoices/${res.body.id}/cancel`).set(t.headers()).send({ justification: 'curta' }), 400);
    expectProblem(
      await api().post(`/api/invoices/${res.body.id}/cancel`).set(other.headers()).send({ justification: 'Cliente desistiu da compra' }),
      404,
      'INVOICE_NOT_FOUND',
    );
    const c = await api()
      .post(`/api/invoices/${res.body.id}/cancel`)
      .set(t.headers())
      .send({ justification: 'Cliente desistiu da compra' });
    expect(c.status, JSON.stringify(c.body)).to.equal(200);
    expect(c.body).to.include({ status: 'CANCELLED' });
    expect(c.body.cancelProtocol).to.match(/^\d{15}$/);
    const events = await dataSource.manager.findBy(OutboundNfeEvent, { outboundNfeId: decodeId('invoice', res.body.id) });
    expect(events.map((e) => [e.type, e.sequence, e.cStat])).to.deep.equal([['110111', 1, '135']]);
    expect(t.sim.issuer.document(res.body.accessKey)?.status).to.equal('CANCELLED');
    // The fulfilment's receivables: attached to the NF-e when it was authorized, cancelled with it.
    const receivables: { status: string; origin_type: string; access_key: string | null }[] = await dataSource.query(
      'SELECT status, origin_type, access_key FROM receivable WHERE company_id = ? AND fulfillment_id = ?',
      [t.companyId, decodeId('fulfillment', fulfillmentId)],
    );
    expect(receivables.length).to.be.greaterThan(0);
    expect(receivables.map((r) => [r.status, r.origin_type, r.access_key])).to.deep.equal(
      receivables.map(() => ['CANCELLED', 'FISCAL_DOCUMENT', res.body.accessKey]),
    );
    expectProblem(
      await api().post(`/api/invoices/${res.body.id}/cancel`).set(t.headers()).send({ justification: 'Cliente desistiu da compra' }),
      409,
      'INVOICE_CANCELLED',
    );

    const late = await issue(t, { fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    await dataSource.manager.update(
      OutboundNfe,
      { id: decodeId('invoice', late.body.id) },
      { authorizedAt: new Date(Date.now() - 25 * 3600_000) },
    );
    expectProblem(
      await api().post(`/api/invoices/${late.body.id}/cancel`).set(t.headers()).send({ justification: 'Cliente desistiu da compra' }),
      422,
      'CANCELLATION_DEADLINE_PASSED',
    );
    expect((await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', late.body.id) })).status).to.equal(
      'AUTHORIZED',
    );
  });

  it('cartas de correção: sequence 1, 2…; refused when they touch values, taxes, parties or dates', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await issue(t, { fulfillmentId });
    const url = `/api/invoices/${res.body.id}/correct`;
    for (const bad of [
      'Corrigir o valor unitario para R$ 12,00',
      'Aliquota de ICMS correta e 12%',
      'Destinatario correto e outra empresa',
      'Data de emissao correta 10/11/2026',
    ]) {
      expectProblem(await api().post(url).set(t.headers()).send({ correction: bad }), 422, 'CORRECTION_NOT_ALLOWED');
    }
    const first = await api().post(url).set(t.headers()).send({ correction: 'Endereco de entrega: Rua das Palmeiras, numero 45, fundos' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ status: 'AUTHORIZED', correctionSequence: 1 });
    expect(first.body.events.map((e: any) => [e.kind, e.sequence, e.cStat])).to.deep.equal([['CORRECTION', 1, '135']]);
    const second = await api().post(url).set(t.headers()).send({ correction: 'Observacao: mercadoria entregue no deposito dos fundos' });
    expect(second.body.correctionSequence).to.equal(2);
    expect(second.body.events).to.have.length(2);
  });

  it("the nfeProc imports into the recipient tenant's entry documents (POST /entry-document/nfe/importar-xml) to the cent", async () => {
    const recipientCnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: other.filialIds[0] })).cnpj;
    await dataSource.manager.update(Customer, { id: t.customer.id }, { document: recipientCnpj });
    const { fulfillmentId } = await fulfilledOrder(t, { freight: 7.77, discount: 3.33 });
    const res = await issue(t, { fulfillmentId });
    expect(res.body.status).to.equal('AUTHORIZED');
    const xml = (await api().get(`/api/invoices/${res.body.id}/xml`).set(t.headers())).text;
    const imported = await api().post('/api/entry-document/nfe/importar-xml').set(other.headers()).send({ xml });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 600)).to.equal(201);
    expect(imported.body.entryDocument.totals.total).to.equal(res.body.total);
    expect(imported.body.entryDocument).to.include({ accessKey: res.body.accessKey, itemCount: 2, origin: 'NFE_XML' });
    expect(imported.body.entryDocument.totals).to.deep.include({
      products: res.body.totals.vProd,
      freight: 7.77,
      discount: 3.33,
      total: res.body.total,
    });
    expect(imported.body.inbound).to.include({ authorityStatus: 'AUTHORIZED', protocol: res.body.protocol });
  });
});
