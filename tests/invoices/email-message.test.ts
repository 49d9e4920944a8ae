import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { invoicesConfig, setInvoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { deliverInvoices } from '../../src/modules/outbound-nfe/delivery.service';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { api } from '../support/api';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/* Issue 44: the NF-e email reads as proper Portuguese (accents, number, série, date, value, key, protocol, what is attached). */

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
/** The text/plain part of a raw message, decoded (quoted-printable or base64). */
function plainText(raw: string): string {
  const part =
    /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?Content-Transfer-Encoding: ([^\r\n]+)\r?\n\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(
      raw,
    );
  if (!part) throw new Error(`no text/plain part: ${raw.slice(0, 500)}`);
  return part[1].trim().toLowerCase() === 'base64'
    ? Buffer.from(part[2].replace(/\s/g, ''), 'base64').toString('utf8')
    : part[1].trim().toLowerCase() === 'quoted-printable'
      ? qp(part[2])
      : part[2];
}
/** The Subject header, its encoded words decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject: ((?:[^\r\n]|\r?\n[ \t])*)/im.exec(raw)![1].replace(/\r?\n[ \t]/g, ' ');
  return header
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : qp(text.replace(/_/g, ' ')),
    )
    .replace(/\?=\s+=\?/g, '');
}

describe('NF-e email in Portuguese', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let smtp: SMTPServer;
  const mails: string[] = [];
  const smtpBefore = invoicesConfig.smtp;

  before(async () => {
    t = await invoiceTenant();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          mails.push(raw);
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    setInvoicesConfig({
      smtp: { url: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`, from: 'nfe@mercado.com.br', retries: 1 },
    });
  });
  after(async () => {
    setInvoicesConfig({ smtp: smtpBefore });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('greets the customer, names the note, its date, value, key and protocol, and says what is attached', async () => {
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    // The email is due with the verdict and goes by the delivery pass, after the commit.
    await deliverInvoices({ companyId: t.companyId });
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { id: decodeId('invoice', res.body.id) });
    expect(doc.emailStatus).to.equal('SENT');
    const raw = mails.find((m) => m.includes(`${res.body.accessKey}-procNFe.xml`))!;
    const text = plainText(raw);
    const [y, m, d] = doc.issuedAtText.slice(0, 10).split('-');
    const value = `R$ ${Number(doc.total.toString()).toFixed(2).replace('.', ',')}`;
    expect(text).to.contain(`Prezado(a) ${doc.summary.recipientName},`);
    expect(text).to.contain(
      `Segue a Nota Fiscal Eletrônica (NF-e) nº ${doc.number}, série ${doc.series}, emitida em ${d}/${m}/${y}, no valor de ${value}.`,
    );
    expect(text).to.contain(`Chave de acesso: ${res.body.accessKey.match(/.{1,4}/g).join(' ')}`);
    expect(text).to.contain(`Protocolo de autorização: ${doc.protocol}`);
    expect(text).to.contain('Em anexo estão o arquivo XML da NF-e').and.contain('DANFE em PDF').and.contain('Atenciosamente,');
    expect(text).to.not.match(/estao|serie /);
    expect(subjectOf(raw)).to.match(new RegExp(`^NF-e nº ${doc.number}, série ${doc.series} — .+`));
  });
});
