import { nfeConfig } from '../../../core/config/nfe';
import type { ActorContext, TenantContext } from '../../../core/context';
import { isUniqueViolation } from '../../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../../core/db/transaction';
import { encodeId } from '../../../core/hashids';
import { Worker } from '../../../core/worker';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../../core/pagination';
import { activeFilialRefs, Filial } from '../../tenancy';
import type { NfeInbound } from '../entities/nfe-inbound.entity';
import type { NfeManifestationDeadline } from '../entities/nfe-manifestation-deadline.entity';
import { findFilialInbound, storedXml } from '../nfe-inbound.service';
import { loadInboundByIds } from '../nfe-inbound.repository';
import {
  alertCandidates,
  claimThreshold,
  deadlineListQuery,
  deadlinesOf,
  insertDeadline,
  loadDeadlinesByIds,
  staleRecords,
  updateDeadline,
} from './deadline.repository';
import { addDays, brasiliaDate, daysBetween, invoiceFacts, manifestationDeadlines } from './deadline-rules';

/*
 * Manifestation deadlines of the inbound records (rules in deadline-rules.ts). They are kept per
 * record in `nfe_manifestation_deadline`, recomputed whenever the record changed (its version): by the
 * background tracker for every filial, and for a filial before its deadline list is read. An alert
 * `nfe.manifestation-deadline` is published once per record and threshold (days before the earliest
 * deadline: 15, 7, 3, 1, 0 by default) — the threshold is claimed with a conditional update in the
 * event's own transaction, so replicas and retries never publish it twice. A record first seen past
 * several thresholds gets the tightest one only.
 */

const BATCH = 200;
const AGGREGATE = 'nfe-inbound';
export const DEADLINE_EVENT = 'nfe.manifestation-deadline';

const OPEN_MANIFESTATIONS = new Set(['NONE', 'CIENCIA']);

const systemCtx = (companyId: number): ActorContext => ({ companyId, actor: 'system:manifestation-deadlines' });

/** Records are followed until a month past the longest rule's deadline (overdue ones stay listed that long). */
const OVERDUE_DAYS = 31;
const windowStart = (now: Date) => new Date(now.getTime() - (nfeConfig.deadlines.generalDays + OVERDUE_DAYS + 1) * 86_400_000);

async function compute(companyId: number, filial: Filial, inbound: NfeInbound): Promise<Partial<NfeManifestationDeadline>> {
  let invoice = null;
  if (inbound.hasXml) {
    const xml = await storedXml(readerOf(NO_UNIT), systemCtx(companyId), inbound);
    invoice = invoiceFacts(xml, inbound.issuerUf, filial.uf);
  }
  const d = manifestationDeadlines({ authorizedAt: inbound.authorizedAt!, invoice }, nfeConfig.deadlines.generalDays);
  return {
    companyId,
    filialId: filial.id,
    inboundId: inbound.id,
    inboundVersion: inbound.version,
    rule: d.rule,
    provisional: d.provisional,
    authorizedAt: inbound.authorizedAt!,
    confirmacaoUntil: d.confirmacao,
    desconhecimentoUntil: d.desconhecimento,
    naoRealizadaUntil: d.naoRealizada,
    dueDate: d.dueDate,
    open: inbound.authorityStatus === 'AUTHORIZED' && OPEN_MANIFESTATIONS.has(inbound.manifestation),
  };
}

async function store(values: Partial<NfeManifestationDeadline>[], retry = true): Promise<void> {
  if (!values.length) return;
  const companyId = values[0].companyId!;
  try {
    await inTransaction(NO_UNIT, async (em) => {
      const existing = new Map(
        (
          await deadlinesOf(
            em,
            companyId,
            values.map((v) => v.inboundId!),
          )
        ).map((d) => [d.inboundId, d]),
      );
      for (const v of values) {
        const row = existing.get(v.inboundId!);
        if (row) await updateDeadline(em, row, v);
        else await insertDeadline(em, { ...v, notifiedThreshold: null, version: 1 });
      }
    });
  } catch (err) {
    // Another replica inserted some of them at the same moment: once more, as updates.
    if (!retry || !isUniqueViolation(err)) throw err;
    await store(values, false);
  }
}

/** Which alert a deadline `daysLeft` away calls for: the tightest threshold reached (past due: 0). */
export function thresholdFor(daysLeft: number, thresholds: readonly number[] = nfeConfig.deadlines.thresholds): number | null {
  const reached = thresholds.filter((t) => daysLeft <= t);
  return reached.length ? Math.min(...reached) : null;
}

async function publishAlerts(companyId: number, filialId: number, now: Date): Promise<number> {
  const thresholds = nfeConfig.deadlines.thresholds;
  if (!thresholds.length) return 0;
  const today = brasiliaDate(now);
  const candidates = await alertCandidates(
    readerOf(NO_UNIT),
    companyId,
    filialId,
    addDays(today, Math.max(...thresholds)),
    Math.min(...thresholds),
  );
  if (!candidates.length) return 0;
  const inbound = new Map(
    (
      await loadInboundByIds(
        readerOf(NO_UNIT),
        candidates.map((c) => c.inboundId),
      )
    ).map((n) => [n.id, n]),
  );
  let published = 0;
  for (const d of candidates) {
    const daysLeft = daysBetween(today, d.dueDate);
    const threshold = thresholdFor(daysLeft, thresholds);
    const record = inbound.get(d.inboundId);
    if (threshold === null || !record || (d.notifiedThreshold !== null && d.notifiedThreshold <= threshold)) continue;
    const sent = await inTransaction(NO_UNIT, async (em) => {
      if (!(await claimThreshold(em, d, threshold))) return false;
      await publishEvent(em, systemCtx(companyId), {
        type: DEADLINE_EVENT,
        filialId,
        aggregateType: AGGREGATE,
        aggregateId: d.inboundId,
        data: {
          inboundId: encodeId('nfe-inbound', d.inboundId),
          filialId: encodeId('filial', filialId),
          accessKey: record.accessKey,
          issuer: { document: record.issuerDocument, name: record.issuerName },
          number: record.number,
          total: Number(record.total.toFixed(2)),
          manifestation: record.manifestation,
          rule: d.rule,
          provisional: d.provisional,
          deadlines: { confirmacao: d.confirmacaoUntil, desconhecimento: d.desconhecimentoUntil, naoRealizada: d.naoRealizadaUntil },
          dueDate: d.dueDate,
          daysLeft,
          threshold,
          expired: daysLeft < 0,
        },
      });
      return true;
    });
    if (sent) published++;
  }
  return published;
}

/** Brings a filial's deadlines up to date with its records, then publishes the alerts due. */
export async function refreshDeadlines(
  companyId: number,
  filialId: number,
  now: Date = new Date(),
): Promise<{ computed: number; alerts: number }> {
  const filial = await readerOf(NO_UNIT).findOneBy(Filial, { id: filialId, companyId });
  if (!filial) return { computed: 0, alerts: 0 };
  let computed = 0;
  let previousFirst = 0;
  for (;;) {
    const stale = await staleRecords(readerOf(NO_UNIT), companyId, filialId, windowStart(now), BATCH);
    // Nothing left, or the same records again (changed meanwhile by someone else): the next refresh goes on.
    if (!stale.length || stale[0].id === previousFirst) break;
    previousFirst = stale[0].id;
    const values: Partial<NfeManifestationDeadline>[] = [];
    for (const inbound of stale) values.push(await compute(companyId, filial, inbound));
    await store(values);
    computed += values.length;
    if (stale.length < BATCH) break;
  }
  return { computed, alerts: await publishAlerts(companyId, filialId, now) };
}

export interface DeadlineListQuery extends PageRequest {
  withinDays: number;
  includeOverdue?: boolean;
}

export interface DeadlineEntry {
  deadline: NfeManifestationDeadline;
  inbound: NfeInbound;
}

/** Open NF-e of the filial whose earliest deadline falls within `withinDays` days, soonest first. */
export async function listDeadlines(
  ctx: TenantContext,
  filialId: number,
  query: DeadlineListQuery,
  now: Date = new Date(),
): Promise<Page<DeadlineEntry>> {
  await refreshDeadlines(ctx.companyId, filialId, now);
  const em = readerOf(ctx);
  const today = brasiliaDate(now);
  return paginate(
    deadlineListQuery(em, ctx.companyId, filialId, query.includeOverdue ? null : today, addDays(today, query.withinDays)),
    [
      { column: 'd.due_date', direction: 'ASC' },
      { column: 'd.id', direction: 'ASC' },
    ],
    query,
    async (ids) => {
      const rows = await loadDeadlinesByIds(em, ids);
      const records = new Map(
        (
          await loadInboundByIds(
            em,
            rows.map((r) => r.inboundId),
          )
        ).map((n) => [n.id, n]),
      );
      return rows.map((deadline) => ({ deadline, inbound: records.get(deadline.inboundId)! }));
    },
    (e) => e.deadline.id,
  );
}

/** The deadlines of one record (computed now if its last computation is stale); null without an authorization date. */
export async function recordDeadlines(
  ctx: TenantContext,
  id: number,
  filialId: number,
): Promise<{ inbound: NfeInbound; deadline: NfeManifestationDeadline | null }> {
  const inbound = await findFilialInbound(readerOf(ctx), ctx, id, filialId);
  if (!inbound.authorizedAt) return { inbound, deadline: null };
  let [deadline] = await deadlinesOf(readerOf(ctx), ctx.companyId, [inbound.id]);
  if (!deadline || deadline.inboundVersion !== inbound.version) {
    const filial = await readerOf(ctx).findOneByOrFail(Filial, { id: filialId, companyId: ctx.companyId });
    await store([await compute(ctx.companyId, filial, inbound)]);
    [deadline] = await deadlinesOf(readerOf(ctx), ctx.companyId, [inbound.id]);
  }
  return { inbound, deadline: deadline ?? null };
}

/** Every filial, periodically (started by main.ts; safe with any number of replicas). */
export class DeadlineTracker {
  private w: Worker | null = null;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** The tracker on a timer (src/workers.ts). */
  worker(intervalMs: number): Worker {
    if (!this.w || this.w.state === 'stopped')
      this.w = new Worker({ name: 'nfe-manifestation-deadlines', intervalMs, run: () => this.tick() });
    return this.w;
  }

  start(intervalMs: number): void {
    this.worker(intervalMs).start();
  }

  async stop(): Promise<void> {
    await this.w?.stop();
  }

  async tick(): Promise<{ computed: number; alerts: number }> {
    const total = { computed: 0, alerts: 0 };
    for (const f of await activeFilialRefs(readerOf(NO_UNIT))) {
      const r = await refreshDeadlines(f.companyId, f.filialId, this.now());
      total.computed += r.computed;
      total.alerts += r.alerts;
    }
    return total;
  }
}
