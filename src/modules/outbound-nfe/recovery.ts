import { In, IsNull, LessThan } from 'typeorm';
import { invoicesConfig } from '../../core/config/invoices';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { Worker } from '../../core/worker';
import { type RecoveryPass, runRecoveryPass } from '../emission';
import { probeContingencies } from './contingency.service';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { settleReplacedAttempt } from './first-attempt';
import { contingencyDocumentOf } from './invoice-store';
import { settle } from './issue.service';
import { UNSETTLED_STATUSES } from './invoices.state';
import { retryPendingVoids, voidRejected } from './void.service';

/** Passes of other modules that follow the documents' settlement (a devolução waiting for its sale's NF-e); by name, a second registration replaces the first. */
const steps = new Map<string, () => Promise<unknown>>();
export function registerRecoveryStep(name: string, step: () => Promise<unknown>): void {
  steps.set(name, step);
}

/*
 * The recovery pass (at start and on a timer, any number of replicas): documents a crash or a lost
 * answer left SIGNED/SENT with an expired lease are settled (consult the key first, send only what the
 * authority does not have); PENDING voidings are asked again; REJECTED documents untouched for
 * INVOICE_ABANDON_HOURS have their number voided; open contingencies are probed. A document is worked
 * on only under its own lease (a conditional UPDATE), so two replicas never send one document twice.
 */
export async function recoverInvoices(now = new Date(), limit = 50): Promise<{ settled: number; voided: number }> {
  const settled = await runRecoveryPass(unsettledInvoices(limit), now);
  await retryPendingVoids().catch(() => undefined);
  const voided = await runRecoveryPass(abandonedInvoices(limit), now);
  await probeContingencies().catch(() => undefined);
  for (const [name, step] of steps)
    await step().catch((err) => logger.warn('invoice recovery step failed', { step: name, err: (err as Error).message }));
  return { settled, voided };
}

/** SIGNED/SENT documents whose lease has run out (or was never taken): settled under a lease of their own. */
const unsettledInvoices = (limit: number): RecoveryPass<OutboundNfe> => ({
  due: (now) =>
    readerOf(NO_UNIT).find(OutboundNfe, {
      where: [
        { status: In(UNSETTLED_STATUSES), leaseUntil: IsNull() },
        { status: In(UNSETTLED_STATUSES), leaseUntil: LessThan(now) },
      ],
      order: { id: 'ASC' },
      take: limit,
    }),
  settle: async (d) => {
    const ctx = { companyId: d.companyId, actor: 'invoice-recovery' };
    // A first attempt a contingency document replaced is only consulted, never sent again.
    const after = (await contingencyDocumentOf(d)) ? await settleReplacedAttempt(ctx, d.id) : await settle(ctx, d.id);
    return !UNSETTLED_STATUSES.includes(after.status);
  },
  failure: (d) => ({ message: 'invoice recovery could not settle a document', fields: { invoiceId: encodeId('invoice', d.id) } }),
});

/** The NF-e's abandon policy: a REJECTED document untouched for INVOICE_ABANDON_HOURS has its number voided. */
const abandonedInvoices = (limit: number): RecoveryPass<OutboundNfe> => ({
  due: (now) =>
    readerOf(NO_UNIT).find(OutboundNfe, {
      where: { status: 'REJECTED', updatedAt: LessThan(new Date(now.getTime() - invoicesConfig.abandonMs)) },
      order: { id: 'ASC' },
      take: limit,
    }),
  settle: async (d) => {
    await voidRejected(
      { companyId: d.companyId, actor: 'AUTOMATIC' },
      d.id,
      'Numero nao utilizado: NF-e rejeitada e abandonada pelo emitente',
      false,
    );
    return true;
  },
  failure: (d) => ({ message: 'invoice recovery could not void an abandoned number', fields: { invoiceId: encodeId('invoice', d.id) } }),
});

/** The recovery pass on a timer in this process (src/workers.ts), at start too; no lease: each document takes its own. */
export function invoiceRecoveryWorker(intervalMs = invoicesConfig.recovery.tickMs): Worker {
  return new Worker({ name: 'invoice-recovery', intervalMs, runAtStart: true, run: () => recoverInvoices() });
}
