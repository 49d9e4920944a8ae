import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { invoicesConfig, setInvoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { CompanySmtp } from '../../src/modules/outbound-nfe/entities/company-smtp.entity';
import { deliverInvoices } from '../../src/modules/outbound-nfe/delivery.service';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { open } from '../../src/modules/sefaz/certificate/sealed-box';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { filialHash, fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/*
 * The company's own SMTP server for the NF-e delivery: set by an administrator through the API, the
 * password sealed at rest and never answered, used (with retries, recorded on the document) instead of
 * the configured SMTP_URL, which stays the fallback for companies without settings.
 */

interface Mailbox {
  server: SMTPServer;
  port: number;
  mails: { to: string[]; user: string | null; raw: string }[];
}

async function mailbox(credentials?: { user: string; pass: string }): Promise<Mailbox> {
  const mails: Mailbox['mails'] = [];
  const server = new SMTPServer({
    authOptional: !credentials,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass) return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), user: (session.user as string | undefined) ?? null, raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.server.address() as { port: number }).port, mails };
}

const settingsOf = (companyId: number) => dataSource.manager.findOneBy(CompanySmtp, { companyId });

/** The document after the delivery pass of its company (the email is due with the verdict, sent after its commit). */
async function emailed(id: string): Promise<OutboundNfe> {
  const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', id) });
  await deliverInvoices({ companyId: doc.companyId });
  return dataSource.manager.findOneByOrFail(OutboundNfe, { id: doc.id });
}

describe('Invoices: the company SMTP settings and the NF-e email through them', function () {
  this.timeout(90_000);
  let t: InvoiceTenant;
  let other: InvoiceTenant;
  let company: Mailbox;
  let fallback: Mailbox;
  const smtpBefore = invoicesConfig.smtp;
  const put = (tenant: InvoiceTenant, body: object, headers = tenant.headers()) =>
    api().put('/api/invoices/smtp-settings').set(headers).send(body);

  before(async () => {
    t = await invoiceTenant();
    other = await invoiceTenant();
    company = await mailbox({ user: 'nfe@mercado.com.br', pass: 'senha-smtp-123' });
    fallback = await mailbox();
    setInvoicesConfig({ smtp: { url: `smtp://127.0.0.1:${fallback.port}`, from: 'nfe@backoffice.local', retries: 1 } });
  });
  after(async () => {
    setInvoicesConfig({ smtp: smtpBefore });
    await Promise.all([company, fallback].map((m) => new Promise<void>((resolve) => m.server.close(() => resolve()))));
  });

  it('bad input is 400 and writes nothing; a token without every filial or without the scope is 403; none set yet is 404', async () => {
    const valid = {
      host: '127.0.0.1',
      port: company.port,
      secure: false,
      user: 'nfe@mercado.com.br',
      password: 'senha-smtp-123',
      from: 'nfe@mercado.com.br',
    };
    expectProblem(await put(t, { ...valid, port: 0 }), 400);
    expectProblem(await put(t, { ...valid, from: 'not an address' }), 400);
    expectProblem(await put(t, { port: 25, from: 'nfe@mercado.com.br' }), 400);
    expectProblem(await put(t, valid, t.headersWith({ filiais: [filialHash(t)] })), 403, 'ALL_FILIAIS_REQUIRED');
    expectProblem(await put(t, valid, t.headersWith({ scope: 'invoice:write' })), 403);
    expect(await settingsOf(t.companyId)).to.equal(null);
    expectProblem(await api().get('/api/invoices/smtp-settings').set(t.headers()), 404, 'SMTP_SETTINGS_NOT_FOUND');
  });

  it('an administrator sets them; the password is sealed at rest, never answered, and the change audited without it', async () => {
    const res = await put(
      t,
      {
        host: '127.0.0.1',
        port: company.port,
        secure: false,
        user: 'nfe@mercado.com.br',
        password: 'senha-smtp-123',
        from: 'nfe@mercado.com.br',
      },
      t.headersWith({ scope: 'invoice:*' }),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({
      host: '127.0.0.1',
      port: company.port,
      secure: false,
      user: 'nfe@mercado.com.br',
      passwordSet: true,
      from: 'nfe@mercado.com.br',
      version: 1,
    });
    expect(JSON.stringify(res.body)).to.not.contain('senha-smtp-123');
    const row = (await settingsOf(t.companyId))!;
    expect(row.passwordSealed!.toString('latin1')).to.not.contain('senha-smtp-123');
    expect(open(row.passwordSealed!, `company-smtp:${t.companyId}`).toString('utf8')).to.equal('senha-smtp-123');
    // Bound to its company: the sealed password copied onto another company's row does not open.
    expect(() => open(row.passwordSealed!, `company-smtp:${other.companyId}`)).to.throw();
    const get = await api().get('/api/invoices/smtp-settings').set(t.headers());
    expect(get.status).to.equal(200);
    expect(get.body).to.not.have.property('password');
    expect(get.body.passwordSet).to.equal(true);
    const audit = await dataSource.manager.findOneByOrFail(AuditLog, { companyId: t.companyId, entity: 'company-smtp', entityId: row.id });
    expect(audit.action).to.equal('CREATED');
    expect(JSON.stringify(audit)).to.not.contain('senha-smtp-123');
    // Another company sees none of it.
    expectProblem(await api().get('/api/invoices/smtp-settings').set(other.headers()), 404, 'SMTP_SETTINGS_NOT_FOUND');
  });

  it("the authorized NF-e goes out through the company's server (authenticated); a company without settings uses SMTP_URL", async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.body.status).to.equal('AUTHORIZED');
    const doc = await emailed(res.body.id);
    expect(doc).to.include({ emailStatus: 'SENT', emailTo: 'compras@cliente.com.br', emailAttempts: 1, emailError: null });
    const mail = company.mails.find((m) => m.raw.includes(res.body.accessKey))!;
    expect(mail).to.include({ user: 'nfe@mercado.com.br' });
    expect(mail.raw)
      .to.contain('From: nfe@mercado.com.br')
      .and.contain(`${res.body.accessKey}-procNFe.xml`)
      .and.contain(`${res.body.accessKey}-danfe.pdf`);
    expect(fallback.mails.some((m) => m.raw.includes(res.body.accessKey))).to.equal(false);

    const theirs = await fulfilledOrder(other);
    const res2 = await api().post('/api/invoices/issue').set(other.headers()).send({ fulfillmentId: theirs.fulfillmentId });
    expect(res2.body.status).to.equal('AUTHORIZED');
    expect(await emailed(res2.body.id)).to.include({ emailStatus: 'SENT' });
    expect(fallback.mails.find((m) => m.raw.includes(res2.body.accessKey))!.raw).to.contain('From: nfe@backoffice.local');
  });

  it("a wrong password: retried, then FAILED with the server's error on the document; omitting the password keeps the stored one", async () => {
    const wrong = await put(t, {
      host: '127.0.0.1',
      port: company.port,
      secure: false,
      user: 'nfe@mercado.com.br',
      password: 'outra-senha',
      from: 'nfe@mercado.com.br',
    });
    expect(wrong.body).to.include({ version: 2, passwordSet: true });
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    const doc = await emailed(res.body.id);
    expect(doc.emailStatus).to.equal('FAILED');
    expect(doc.emailAttempts).to.equal(2); // the first try and INVOICE_EMAIL_RETRIES (1)
    expect(doc.emailError).to.match(/Invalid username or password|Invalid login/);
    const [audit] = await dataSource.manager.find(AuditLog, {
      where: { companyId: t.companyId, entity: 'company-smtp' },
      order: { id: 'DESC' },
      take: 1,
    });
    expect(audit.changes).to.have.property('password');

    // Fixed, then the user changed without sending the password again: the stored (right) one stays.
    await put(t, {
      host: '127.0.0.1',
      port: company.port,
      secure: false,
      user: 'nfe@mercado.com.br',
      password: 'senha-smtp-123',
      from: 'nfe@mercado.com.br',
    });
    const kept = await put(t, {
      host: '127.0.0.1',
      port: company.port,
      secure: false,
      user: 'nfe@mercado.com.br',
      from: 'faturamento@mercado.com.br',
    });
    expect(kept.body).to.include({ passwordSet: true, from: 'faturamento@mercado.com.br' });
    const again = await api()
      .post(`/api/invoices/${res.body.id}/email`)
      .set({ ...t.headers(), 'Idempotency-Key': `smtp-retry-${res.body.id}` })
      .send({});
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(await emailed(res.body.id)).to.include({ emailStatus: 'SENT', emailError: null });
    expect(company.mails.find((m) => m.raw.includes(res.body.accessKey))!.raw).to.contain('From: faturamento@mercado.com.br');
  });
});
