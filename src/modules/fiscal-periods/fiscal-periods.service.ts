import type { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { businessToday, startOfBusinessDay } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError, StaleVersionError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { AcknowledgedPending, FiscalPeriod } from './entities/fiscal-period.entity';
import { periodEvent } from './fiscal-periods.events';
import { PendingDocument, periodDocuments, PeriodRange } from './fiscal-periods.ports';
import { findPeriod, movePeriod, periodsBetween } from './fiscal-periods.repository';
import { assertAllowed, assertTransition } from './fiscal-periods.state';
import { lockFilialRow } from '../tenancy';

/*
 * Fiscal periods (issue 47, SPEC §15): a filial's calendar month (America/Sao_Paulo) is closed and
 * reopened with a reason; while closed nothing dated in it changes (period-guard.ts, called by every
 * module that changes a dated fiscal or stock fact). The close runs under the filial row's exclusive
 * lock, so it sees every change that got in before it, and refuses (409 FISCAL_PERIOD_PENDING_DOCUMENTS,
 * listing them) while documents of the month are still inside a legal window — an NF-e cancellable
 * (24 h), an NFC-e within the UF's limit, contingency notes not transmitted, answers or events in
 * flight, DF-e not manifested — unless the request says `force: true`: then the list is kept on the
 * period as acknowledged (docs/decisions/fiscal-periods-and-package.md).
 */

const AUDIT_ENTITY = 'fiscal-period';
export const MAX_LISTED_MONTHS = 36;

export interface PeriodView {
  row: FiscalPeriod;
  stored: boolean;
  pending: PendingDocument[];
}

const nextMonth = (period: string) => {
  const [y, m] = period.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

export function periodRange(period: string): PeriodRange {
  const next = nextMonth(period);
  const [y, m] = period.split('-').map(Number);
  const lastDay = `${period}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
  return { period, from: startOfBusinessDay(`${period}-01`), to: startOfBusinessDay(`${next}-01`), firstDay: `${period}-01`, lastDay };
}

/** A month with no row: open, never closed. */
function virtualPeriod(companyId: number, filialId: number, period: string): FiscalPeriod {
  return Object.assign(new FiscalPeriod(), {
    id: 0,
    companyId,
    filialId,
    period,
    status: 'OPEN',
    closedAt: null,
    closedBy: null,
    acknowledged: null,
    reopenedAt: null,
    reopenedBy: null,
    reopenReason: null,
    closeCount: 0,
    version: 0,
    createdAt: null,
    updatedAt: null,
  });
}

function assertNotFuture(period: string) {
  if (period > businessToday().slice(0, 7))
    throw new BusinessRuleError('FISCAL_PERIOD_IN_FUTURE', `The period ${period} has not begun`, { period });
}

const acknowledgedOf = (pending: PendingDocument[]): AcknowledgedPending[] =>
  pending.map((p) => ({ kind: p.kind, model: p.model, series: p.series, number: p.number, accessKey: p.accessKey, reason: p.reason }));

/** GET /fiscal-periods/:filialId/:period — the month as it is, with what is still inside a legal window. */
export async function periodDetail(ctx: TenantContext, filialId: number, period: string): Promise<PeriodView> {
  const em = readerOf(ctx);
  const row = await findPeriod(em, ctx.companyId, filialId, period);
  const pending = await periodDocuments.get().pendingAtClose(em, ctx.companyId, filialId, periodRange(period), new Date());
  return { row: row ?? virtualPeriod(ctx.companyId, filialId, period), stored: !!row, pending };
}

/** GET /fiscal-periods/:filialId?from&to — every month of the range (newest first), closed or not. */
export async function listPeriods(ctx: TenantContext, filialId: number, range: { from?: string; to?: string }): Promise<FiscalPeriod[]> {
  const to = range.to ?? businessToday().slice(0, 7);
  let from = range.from;
  if (!from) {
    const [y, m] = to.split('-').map(Number);
    from = m === 12 ? `${y}-01` : `${y - 1}-${String(m + 1).padStart(2, '0')}`;
  }
  if (from > to) throw new BusinessRuleError('FISCAL_PERIOD_RANGE_INVALID', '`from` is after `to`', { from, to });
  const months: string[] = [];
  for (let p = from; p <= to; p = nextMonth(p)) {
    months.push(p);
    if (months.length > MAX_LISTED_MONTHS)
      throw new BusinessRuleError('FISCAL_PERIOD_RANGE_INVALID', `At most ${MAX_LISTED_MONTHS} months at a time`, { from, to });
  }
  const rows = new Map((await periodsBetween(readerOf(ctx), ctx.companyId, filialId, from, to)).map((r) => [r.period, r]));
  return months.reverse().map((p) => rows.get(p) ?? virtualPeriod(ctx.companyId, filialId, p));
}

/** POST /fiscal-periods/:filialId/:period/close */
export async function closePeriod(ctx: TenantContext, filialId: number, period: string, input: { force?: boolean }): Promise<PeriodView> {
  assertNotFuture(period);
  return inTransaction(ctx, async (em) => {
    // The changes dated in the filial's periods hold its row shared (period-guard.ts): the close waits for them, later ones wait for it.
    await lockFilialRow(em, ctx.companyId, filialId);
    const found = await findPeriod(em, ctx.companyId, filialId, period);
    const before = found ?? virtualPeriod(ctx.companyId, filialId, period);
    assertAllowed(before, 'close');
    assertTransition(before, 'close', 'CLOSED');
    const now = new Date();
    const pending = await periodDocuments.get().pendingAtClose(em, ctx.companyId, filialId, periodRange(period), now);
    if (pending.length && !input.force) {
      throw new ConflictError(
        'FISCAL_PERIOD_PENDING_DOCUMENTS',
        `The period ${period} still has ${pending.length} document(s) inside a legal window (cancellation, contingency, answers or events in flight, DF-e not manifested): wait for them, or close with force: true to acknowledge them`,
        { period, pending: pending.map(pendingDto) },
      );
    }
    const values: Partial<FiscalPeriod> = {
      status: 'CLOSED',
      closedAt: now,
      closedBy: ctx.actor.slice(0, 100),
      acknowledged: pending.length ? acknowledgedOf(pending) : null,
      closeCount: before.closeCount + 1,
    };
    let row: FiscalPeriod;
    if (found) {
      if (!(await movePeriod(em, found, values))) throw new StaleVersionError('Fiscal period', found.version);
      row = Object.assign(new FiscalPeriod(), found, values, { version: found.version + 1 });
    } else {
      const res = await em.insert(FiscalPeriod, {
        companyId: ctx.companyId,
        filialId,
        period,
        reopenedAt: null,
        reopenedBy: null,
        reopenReason: null,
        ...values,
      } as never);
      row = (await em.findOneBy(FiscalPeriod, { id: Number(res.identifiers[0].id), companyId: ctx.companyId }))!;
    }
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: row.id,
      action: 'CLOSED',
      changes: {
        ...diff(
          { status: before.status, closedAt: before.closedAt?.toISOString() ?? null },
          { status: 'CLOSED', closedAt: now.toISOString() },
        ),
        ...(pending.length ? { acknowledged: [null, pending.length] } : {}),
      },
    });
    await publishEvent(em, ctx, {
      type: 'fiscal-period.closed',
      filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: row.id,
      data: periodEvent(row, { acknowledged: pending.length }),
    });
    return { row, stored: true, pending };
  });
}

/** POST /fiscal-periods/:filialId/:period/reopen {reason} */
export async function reopenPeriod(ctx: TenantContext, filialId: number, period: string, input: { reason: string }): Promise<PeriodView> {
  const view = await inTransaction(ctx, async (em: EntityManager) => {
    await lockFilialRow(em, ctx.companyId, filialId);
    const found = await findPeriod(em, ctx.companyId, filialId, period);
    const before = found ?? virtualPeriod(ctx.companyId, filialId, period);
    assertAllowed(before, 'reopen');
    assertTransition(before, 'reopen', 'OPEN');
    const row0 = found!;
    const values: Partial<FiscalPeriod> = {
      status: 'OPEN',
      reopenedAt: new Date(),
      reopenedBy: ctx.actor.slice(0, 100),
      reopenReason: input.reason,
    };
    if (!(await movePeriod(em, row0, values))) throw new StaleVersionError('Fiscal period', row0.version);
    const row = Object.assign(new FiscalPeriod(), row0, values, { version: row0.version + 1 });
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: row.id,
      action: 'REOPENED',
      changes: { status: ['CLOSED', 'OPEN'], reopenReason: [row0.reopenReason, input.reason] },
    });
    await publishEvent(em, ctx, {
      type: 'fiscal-period.reopened',
      filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: row.id,
      data: periodEvent(row, { reason: input.reason }),
    });
    return row;
  });
  // What is inside a legal window now, for the answer (read after the commit).
  const pending = await periodDocuments.get().pendingAtClose(readerOf(ctx), ctx.companyId, filialId, periodRange(period), new Date());
  return { row: view, stored: true, pending };
}

export const pendingDto = (p: PendingDocument) => ({
  kind: p.kind,
  model: p.model,
  series: p.series,
  number: p.number,
  accessKey: p.accessKey,
  resourceType: p.resource?.type ?? null,
  resourceId: p.resource?.id ?? null,
  until: p.until ? p.until.toISOString() : null,
  reason: p.reason,
});
