import { Gauge } from 'prom-client';
import { In, LessThan } from 'typeorm';
import { invoicesConfig } from '../../core/config/invoices';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { registry } from '../../core/metrics';
import { publishEvent } from '../../core/outbox/outbox.service';
import { LeaseStrategy, replicaName, withLease, Worker } from '../../core/worker';
import { AuthorityClient } from '../authority';
import { type RecoveryPass, runRecoveryPass } from '../emission';
import { filialAuthoritySettings, issuerTarget } from '../sefaz';
import { NfceDocument } from './entities/nfce-document.entity';
import { NfceQueueLease } from './entities/nfce-queue-lease.entity';
import { consultKey, counterSigning, enterOfflineContingency, nfceEvent, recordVerdict, sendNote } from './issue.service';
import { settlePendingOriginals } from './substitution.service';

/*
 * The transmission queue of NFC-e issued in offline contingency (SPEC §12.3). One replica at a time
 * runs it, under a lease row taken with a conditional UPDATE (a dead holder's lease expires); all it
 * knows is in nfce_document, so a restart goes on where the last pass stopped. Per filial, notes go
 * in série/number order with the key they were printed with; the first one the authority does not
 * answer stops that filial's pass (the next pass starts from it). Duplicity is settled by consulting
 * (sendNote); a rejection is recorded with its cStat (nfce.rejected) for correction. Notes pending
 * past the legal window raise nfce.contingency-overdue once and show in the gauges.
 */

const LEASE = 'nfce-transmission';
/** Offline NFC-e must reach the authority within 24 hours of their issue. */
export const LEGAL_WINDOW_MS = 24 * 3600_000;
/** A SIGNED note untouched this long was left by a crash between the sale's commit and its answer. */
const ABANDONED_MS = 60_000;

const queueSize = new Gauge({
  name: 'backoffice_nfce_contingency_pending',
  help: 'NFC-e issued in offline contingency not yet transmitted',
  registers: [registry],
});
const oldestAge = new Gauge({
  name: 'backoffice_nfce_contingency_oldest_seconds',
  help: 'Age of the oldest NFC-e waiting in contingency (seconds; legal window 24 h)',
  registers: [registry],
});
const overdue = new Gauge({
  name: 'backoffice_nfce_contingency_overdue',
  help: 'NFC-e pending in contingency past the legal window',
  registers: [registry],
});

/** The queue's lease: one row of nfce_queue_lease, taken by a conditional UPDATE (a dead holder's expires). */
export const nfceQueueLease: LeaseStrategy = {
  async acquire(owner, now) {
    try {
      await inTransaction(NO_UNIT, (em) => em.insert(NfceQueueLease, { name: LEASE, owner: null, leaseUntil: null }));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const r = await inTransaction(NO_UNIT, (em) =>
      em
        .createQueryBuilder()
        .update(NfceQueueLease)
        .set({ owner, leaseUntil: new Date(now.getTime() + invoicesConfig.leaseMs) })
        .where('name = :name AND (owner IS NULL OR owner = :owner OR lease_until < :now)', { name: LEASE, owner, now })
        .execute(),
    );
    return !!r.affected;
  },
  async release(owner) {
    await inTransaction(NO_UNIT, (em) =>
      em
        .createQueryBuilder()
        .update(NfceQueueLease)
        .set({ owner: null, leaseUntil: null })
        .where('name = :name AND owner = :owner', { name: LEASE, owner })
        .execute(),
    );
  },
};

export interface QueuePassReport {
  ran: boolean;
  transmitted: number;
  rejected: number;
  pending: number;
}

/** One pass over every filial's contingency notes, under the queue's lease (ran: false when another replica holds it). */
export async function runNfceQueue(opts: { now?: Date; owner?: string; limit?: number } = {}): Promise<QueuePassReport> {
  const now = opts.now ?? new Date();
  const report = await withLease(nfceQueueLease, opts.owner ?? replicaName(), (renewLease) => queuePass(now, renewLease, opts.limit), now);
  return report ?? { ran: false, transmitted: 0, rejected: 0, pending: -1 };
}

/** The pass itself, the lease held (renewLease renews it; false: another replica took over). */
async function queuePass(now: Date, renewLease: () => Promise<boolean>, limit = 500): Promise<QueuePassReport> {
  let leaseAt = Date.now();
  let transmitted = 0;
  let rejected = 0;
  await settleAbandoned(now);
  const pending = await readerOf(NO_UNIT).find(NfceDocument, {
    where: { status: 'CONTINGENCY' },
    order: { companyId: 'ASC', filialId: 'ASC', series: 'ASC', number: 'ASC' },
    take: limit,
  });
  const byFilial = new Map<string, NfceDocument[]>();
  for (const d of pending) {
    const k = `${d.companyId}:${d.filialId}`;
    byFilial.set(k, [...(byFilial.get(k) ?? []), d]);
  }
  for (const docs of byFilial.values()) {
    const first = docs[0];
    const ctx: ActorContext = { companyId: first.companyId, actor: 'nfce-queue' };
    let client: AuthorityClient;
    try {
      const sc = await counterSigning(first.companyId, first.filialId);
      client = new AuthorityClient({ issuer: await issuerTarget(sc.filial, null), credentials: sc.credentials, tpAmb: sc.tpAmb });
    } catch (err) {
      logger.warn('nfce queue: no client for the filial', { filialId: encodeId('filial', first.filialId), err: (err as Error).message });
      continue;
    }
    for (const doc of docs) {
      // A long pass renews its lease once a third of it has gone; lost (another replica took over) → stop.
      if (Date.now() - leaseAt > invoicesConfig.leaseMs / 3) {
        leaseAt = Date.now();
        if (!(await renewLease())) return { ran: true, transmitted, rejected, pending: -1 };
      }
      const v = await sendNote(client, doc);
      if (v.kind === 'UNAVAILABLE') break; // still down: keep the order, try again on the next pass
      const after = await recordVerdict(ctx, doc, v, 'nfce.transmitted');
      if (after.status === 'AUTHORIZED') transmitted++;
      else rejected++;
    }
  }
  // Offline notes authorized whose online attempt may stand at the authority: substituted or voided.
  await settlePendingOriginals();
  await alertOverdue(now);
  const left = await refreshGauges(now);
  return { ran: true, transmitted, rejected, pending: left };
}

/**
 * Notes a crash left SIGNED after their sale committed (the synchronous attempt never ended): the
 * authority's record first (the attempt may have reached it), else offline contingency, which the
 * pass then sends in order.
 */
async function settleAbandoned(now: Date): Promise<void> {
  await runRecoveryPass(abandonedNotes, now);
}

/** The NFC-e's abandon policy, over notes SIGNED for ABANDONED_MS (the queue's lease held). */
const abandonedNotes: RecoveryPass<NfceDocument> = {
  due: (now) =>
    readerOf(NO_UNIT).find(NfceDocument, {
      where: { status: 'SIGNED', updatedAt: LessThan(new Date(now.getTime() - ABANDONED_MS)) },
      order: { id: 'ASC' },
      take: 100,
    }),
  settle: async (doc) => {
    const sc = await counterSigning(doc.companyId, doc.filialId);
    const client = new AuthorityClient({ issuer: await issuerTarget(sc.filial, null), credentials: sc.credentials, tpAmb: sc.tpAmb });
    const ctx: ActorContext = { companyId: doc.companyId, actor: 'nfce-queue' };
    const known = await consultKey(client, doc.accessKey);
    if (known && known !== 'UNAVAILABLE') await recordVerdict(ctx, doc, { kind: 'AUTHORIZED', prot: known }, 'nfce.authorized');
    else if ((await filialAuthoritySettings(doc.companyId, doc.filialId)).contingency.nfce === 'NONE') {
      // No offline contingency for this filial: the note, not at the authority, is sent again; still unanswered, it waits.
      if (known === 'UNAVAILABLE') return false;
      const v = await sendNote(client, doc);
      if (v.kind !== 'UNAVAILABLE') await recordVerdict(ctx, doc, v, 'nfce.authorized');
    } else await enterOfflineContingency(ctx, doc, 'Sem resposta da SEFAZ autorizadora no prazo', known === 'UNAVAILABLE');
    return true;
  },
  failure: (doc) => ({ message: 'nfce queue: could not settle an abandoned note', fields: { nfceId: encodeId('nfce', doc.id) } }),
};

async function alertOverdue(now: Date): Promise<void> {
  const late = await readerOf(NO_UNIT).find(NfceDocument, {
    where: { status: 'CONTINGENCY', overdueAlerted: false, contingencyAt: LessThan(new Date(now.getTime() - LEGAL_WINDOW_MS)) },
    take: 200,
  });
  for (const d of late) {
    await inTransaction(NO_UNIT, async (em) => {
      const r = await em.update(NfceDocument, { id: d.id, companyId: d.companyId, overdueAlerted: false }, { overdueAlerted: true });
      if (!r.affected) return;
      await publishEvent(
        em,
        { companyId: d.companyId, actor: 'nfce-queue' },
        {
          type: 'nfce.contingency-overdue',
          filialId: d.filialId,
          aggregateType: 'nfce',
          aggregateId: d.id,
          data: nfceEvent(d, { contingencyAt: d.contingencyAt?.toISOString() ?? null }),
        },
      );
    });
  }
}

/** Pending count, oldest age and overdue count into the gauges; answers the pending count. */
export async function refreshGauges(now = new Date()): Promise<number> {
  const pending = await readerOf(NO_UNIT).find(NfceDocument, {
    where: { status: In(['CONTINGENCY']) },
    select: { id: true, contingencyAt: true, issuedAt: true },
  });
  queueSize.set(pending.length);
  const oldest = pending.reduce((m, d) => Math.min(m, (d.contingencyAt ?? d.issuedAt).getTime()), now.getTime());
  oldestAge.set(Math.max(0, (now.getTime() - oldest) / 1000));
  overdue.set(pending.filter((d) => now.getTime() - (d.contingencyAt ?? d.issuedAt).getTime() > LEGAL_WINDOW_MS).length);
  return pending.length;
}

/** The queue on a timer in this process (src/workers.ts), at start too; a pass runs only under the lease. */
export function nfceQueueWorker(intervalMs = 15_000): Worker {
  return new Worker({
    name: 'nfce-transmission-queue',
    intervalMs,
    runAtStart: true,
    lease: nfceQueueLease,
    run: (ctx) => queuePass(new Date(), () => ctx.renewLease()),
  });
}
