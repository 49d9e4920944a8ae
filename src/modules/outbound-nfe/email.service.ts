import nodemailer from 'nodemailer';
import { invoicesConfig } from '../../core/config/invoices';
import type { ActorContext } from '../../core/context';
import { invoiceEmailMessage } from './email-message';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { logger } from '../../core/logger';
import { BusinessRuleError, UpstreamError } from '../../core/errors';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { invoiceDanfe } from './danfe.service';
import { findInvoice, gunzipText } from './invoice-store';
import { markDelivery } from './invoices.repository';
import { smtpRelayOf } from './smtp-settings.service';

/*
 * Delivery to the recipient (SPEC §12.2): the authorized nfeProc and its DANFE go to the customer's
 * email through the company's own SMTP server (its settings, /invoices/smtp-settings) or else the
 * configured SMTP_URL, retried with back-off; every attempt's outcome is recorded on the document
 * (emailStatus, attempts, sentAt, last error). Without either the document records FAILED "SMTP not
 * configured" rather than pretending it was sent.
 */

async function mark(doc: OutboundNfe, fields: Parameters<typeof markDelivery>[3]): Promise<void> {
  await inTransaction(NO_UNIT, (em) => markDelivery(em, doc.companyId, doc.id, fields));
}

export async function sendInvoiceEmail(ctx: ActorContext, id: number, to?: string): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  const recipient = to ?? doc.summary.recipientEmail;
  if (!recipient || !doc.procXmlGz || doc.status !== 'AUTHORIZED') return doc;
  const smtp = invoicesConfig.smtp;
  const relay = await smtpRelayOf(doc.companyId);
  if (!relay) {
    await mark(doc, {
      emailStatus: 'FAILED',
      emailTo: recipient.slice(0, 150),
      emailError: 'SMTP not configured (company SMTP settings or SMTP_URL)',
    });
    return findInvoice(ctx.companyId, id, readerOf(ctx));
  }
  await mark(doc, { emailStatus: 'PENDING', emailTo: recipient.slice(0, 150) });
  const xml = gunzipText(doc.procXmlGz);
  const pdf = await invoiceDanfe(doc);
  // The configured relay keeps its lenient TLS (an internal relay); a company's server is verified.
  const transport =
    relay.source === 'CONFIG'
      ? nodemailer.createTransport(relay.transport as string, { tls: { rejectUnauthorized: false } } as never)
      : nodemailer.createTransport(relay.transport as never);
  let lastError = '';
  for (let attempt = 1; attempt <= smtp.retries + 1; attempt++) {
    try {
      await transport.sendMail({
        from: relay.from,
        to: recipient,
        ...invoiceEmailMessage(doc, xml),
        attachments: [
          { filename: `${doc.accessKey}-procNFe.xml`, content: xml, contentType: 'application/xml' },
          { filename: `${doc.accessKey}-danfe.pdf`, content: pdf, contentType: 'application/pdf' },
        ],
      });
      await mark(doc, { emailStatus: 'SENT', emailAttempts: doc.emailAttempts + attempt, emailSentAt: new Date(), emailError: null });
      transport.close();
      return findInvoice(ctx.companyId, id, readerOf(ctx));
    } catch (err) {
      lastError = (err as Error).message;
      await mark(doc, { emailAttempts: doc.emailAttempts + attempt, emailError: lastError.slice(0, 300) });
      if (attempt <= smtp.retries) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1)));
    }
  }
  transport.close();
  logger.warn('NF-e email not delivered', { accessKey: doc.accessKey, relay: relay.label, err: lastError });
  await mark(doc, { emailStatus: 'FAILED', emailError: lastError.slice(0, 300) });
  return findInvoice(ctx.companyId, id, readerOf(ctx));
}

/**
 * A message of the company through its relay (company SMTP settings, else SMTP_URL), with the same
 * retries as the NF-e delivery: the accountant's package uses it. Null relay → 422 SMTP_NOT_CONFIGURED;
 * every attempt refused → 502 EMAIL_NOT_SENT with the server's last answer.
 */
export async function sendCompanyMail(
  companyId: number,
  message: { to: string; subject: string; text: string; attachments: { filename: string; content: Buffer; contentType: string }[] },
): Promise<{ relay: string; attempts: number }> {
  const relay = await smtpRelayOf(companyId);
  if (!relay)
    throw new BusinessRuleError(
      'SMTP_NOT_CONFIGURED',
      'The company has no SMTP settings (PUT /invoices/smtp-settings) and SMTP_URL is not set',
    );
  const transport =
    relay.source === 'CONFIG'
      ? nodemailer.createTransport(relay.transport as string, { tls: { rejectUnauthorized: false } } as never)
      : nodemailer.createTransport(relay.transport as never);
  let lastError = '';
  try {
    for (let attempt = 1; attempt <= invoicesConfig.smtp.retries + 1; attempt++) {
      try {
        await transport.sendMail({ from: relay.from, ...message });
        return { relay: relay.label, attempts: attempt };
      } catch (err) {
        lastError = (err as Error).message;
        if (attempt <= invoicesConfig.smtp.retries) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1)));
      }
    }
  } finally {
    transport.close();
  }
  throw new UpstreamError('upstream_failure', 'EMAIL_NOT_SENT', `The SMTP server refused the message: ${lastError}`.slice(0, 500));
}
