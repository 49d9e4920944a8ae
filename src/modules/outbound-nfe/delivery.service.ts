import crypto from 'node:crypto';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { Worker } from '../../core/worker';
import { sendInvoiceEmail } from './email.service';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import { dueEmails, findInvoice, releaseLease, takeLease } from './invoice-store';

/*
 * Delivery after an authorization (docs/decisions/nfe-delivery-after-commit.md): the verdict's
 * transaction marks the email due (emailStatus PENDING, invoice-store.ts deliveryDue) and this pass
 * sends it after the commit, under the document's lease, so the issue request never waits for the
 * DANFE or the SMTP server and a crash between the verdict and the email still delivers it. At least
 * once: a crash after the server took the message and before SENT is written sends it again.
 */

export interface DeliveryPass {
  limit?: number;
  now?: Date;
  /** Only this company's documents (a test's tenant). */
  companyId?: number;
}

/** One document's email, once: under its lease, and only while it is still due. */
async function deliverOne(d: Pick<OutboundNfe, 'id' | 'companyId'>): Promise<boolean> {
  // An owner per attempt: two passes of one process exclude each other too.
  const owner = `delivery:${crypto.randomBytes(6).toString('hex')}`;
  if (!(await takeLease(d.companyId, d.id, owner))) return false;
  try {
    const doc = await findInvoice(d.companyId, d.id, readerOf(NO_UNIT));
    if (doc.status !== 'AUTHORIZED' || doc.emailStatus !== 'PENDING') return false;
    const after = await sendInvoiceEmail({ companyId: d.companyId, actor: 'invoice-delivery' }, d.id, doc.emailTo ?? undefined);
    return after.emailStatus === 'SENT';
  } finally {
    await releaseLease(d.companyId, d.id, owner).catch(() => undefined);
  }
}

/** One pass over the due emails (the worker's tick; tests call it after an issue). Answers how many were sent. */
export async function deliverInvoices(pass: DeliveryPass = {}): Promise<number> {
  let sent = 0;
  for (const d of await dueEmails(pass)) {
    try {
      if (await deliverOne(d)) sent++;
    } catch (err) {
      logger.warn('NF-e delivery failed', { invoiceId: encodeId('invoice', d.id), err: (err as Error).message });
    }
  }
  return sent;
}

/** The delivery pass on a timer (src/workers.ts); each document takes its own lease, so any number of replicas. */
export function invoiceDeliveryWorker(intervalMs: number): Worker {
  return new Worker({ name: 'invoice-delivery', intervalMs, runAtStart: true, run: () => deliverInvoices() });
}
