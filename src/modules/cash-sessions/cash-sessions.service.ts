import { Counter } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { hasScope } from '../../core/auth/tenancy';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { registry } from '../../core/metrics/registry';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { selectRows } from '../../core/db/sql';
import { PaymentMethod } from '../catalog';
import { assertFilialAccess } from '../tenancy';
import { CashMovement, CashMovementType } from './entities/cash-movement.entity';
import { CashSession, CashSessionStatus } from './entities/cash-session.entity';
import { AUDIT_ENTITY, MOVEMENT_AUDIT_ENTITY, sessionEventData, sessionSnapshot } from './cash-sessions.events';
import { counterSales, SessionNote } from './cash-sessions.ports';
import { findOpenSession, findSession, lastCountedSession, movementsOf, updateSessionIf } from './cash-sessions.repository';
import { closingLines, DRAWER, needsApproval, SessionFigures, sessionFigures } from './cash-sessions.rules';
import { cashSessionMachine as machine } from './cash-sessions.state';
import { TefApproval, tefAdapter, TefDeclined } from './tef';

/*
 * The counter's cash session (SPEC §16, issue 48; docs/decisions/cash-sessions.md): opening with the
 * counted float (compared once with the terminal's previous close), sangrias and suprimentos, the blind
 * close per payment method, the supervisor's approval above the limit, reopening with a reason, and the
 * X and Z reports. Expected figures are never kept as running totals: they are computed from the
 * session's payments and movements when asked, so concurrent sales cannot make them drift.
 */

export const SUPERVISE = 'cash-sessions:supervise';
export const canSupervise = (ctx: TenantContext) => hasScope(ctx.scopes, SUPERVISE);

const closes = new Counter({
  name: 'backoffice_cash_session_closes_total',
  help: 'Cash session closes, by outcome: EXACT (no difference), WITHIN_LIMIT, PENDING_APPROVAL (above the limit)',
  labelNames: ['outcome'],
  registers: [registry],
});
const differenceAmount = new Counter({
  name: 'backoffice_cash_session_difference_amount_total',
  help: 'Absolute amount of the differences found at cash session closes (BRL), by direction (SHORT: less counted than expected; OVER)',
  labelNames: ['direction'],
  registers: [registry],
});

export interface OpenInput {
  filialId: number;
  terminalId: string;
  operatorId: string;
  openingFloat: Dec;
}

export interface SessionView {
  session: CashSession;
  movements: CashMovement[];
  /** Running figures: only for a supervisor, or once the session is counted (blind close). */
  figures: SessionFigures | null;
}

async function figuresOf(em: EntityManager, s: CashSession, movements?: CashMovement[]): Promise<SessionFigures> {
  const [payments, moves] = await Promise.all([
    counterSales.get().paymentsOfSession(em, s.companyId, s.id),
    movements ?? movementsOf(em, s.companyId, s.id),
  ]);
  return sessionFigures(s.openingFloat, payments, moves);
}

async function accessibleSession(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx), lock = false): Promise<CashSession> {
  const s = await findSession(em, ctx.companyId, id, lock);
  if (!s) throw new NotFoundError('Cash session');
  await assertFilialAccess(ctx, s.filialId, em);
  return s;
}

const alreadyOpen = (terminalId: string) =>
  new ConflictError('CASH_SESSION_ALREADY_OPEN', `Terminal ${terminalId} already has an open cash session`, { terminalId });

async function viewOf(ctx: TenantContext, em: EntityManager, s: CashSession): Promise<SessionView> {
  const movements = await movementsOf(em, s.companyId, s.id);
  const figures = s.status !== 'OPEN' || canSupervise(ctx) ? await figuresOf(em, s, movements) : null;
  return { session: s, movements, figures };
}

export async function openSession(ctx: TenantContext, input: OpenInput): Promise<SessionView> {
  await assertFilialAccess(ctx, input.filialId);
  try {
    return await inTransaction(ctx, async (em) => {
      if (await findOpenSession(em, ctx.companyId, input.filialId, input.terminalId)) throw alreadyOpen(input.terminalId);
      // Odoo #243775: the opening is what was counted now, compared with what the previous close counted.
      const previous = await lastCountedSession(em, ctx.companyId, input.filialId, input.terminalId);
      const previousCash = previous?.countedCash ?? null;
      const now = new Date();
      const s = Object.assign(new CashSession(), {
        companyId: ctx.companyId,
        filialId: input.filialId,
        terminalId: input.terminalId,
        openTerminal: input.terminalId,
        operatorId: input.operatorId,
        status: 'OPEN' as CashSessionStatus,
        openingFloat: input.openingFloat,
        previousSessionId: previous?.id ?? null,
        previousClosingCash: previousCash,
        openingDifference: previousCash === null ? null : input.openingFloat.minus(previousCash),
        openedAt: now,
        openedBy: ctx.actor,
        closedAt: null,
        closedBy: null,
        closing: null,
        expectedCash: null,
        countedCash: null,
        closingDifference: null,
        withDifference: false,
        differenceLimit: null,
        approvedAt: null,
        approvedBy: null,
        approvalNote: null,
        reopenCount: 0,
        reopenedAt: null,
        reopenReason: null,
      });
      await em.insert(CashSession, s);
      const saved = (await findSession(em, ctx.companyId, s.id))!;
      await recordAudit(em, ctx, {
        entity: AUDIT_ENTITY,
        entityId: saved.id,
        action: 'CREATED',
        changes: diff({}, sessionSnapshot(saved)),
      });
      await publishEvent(em, ctx, {
        type: 'cash-session.opened',
        filialId: saved.filialId,
        aggregateType: 'cash-session',
        aggregateId: saved.id,
        data: sessionEventData(saved),
      });
      return viewOf(ctx, em, saved);
    });
  } catch (err) {
    // Two openings of one terminal racing: the unique index lets one win.
    if (isUniqueViolation(err)) throw alreadyOpen(input.terminalId);
    throw err;
  }
}

export async function getSession(ctx: TenantContext, id: number): Promise<SessionView> {
  const em = readerOf(ctx);
  return viewOf(ctx, em, await accessibleSession(ctx, id, em));
}

export async function currentSession(ctx: TenantContext, filialId: number, terminalId: string): Promise<SessionView> {
  const em = readerOf(ctx);
  const s = await findOpenSession(em, ctx.companyId, filialId, terminalId);
  if (!s) throw new NotFoundError('Cash session', 'CASH_SESSION_NOT_FOUND');
  return viewOf(ctx, em, s);
}

export interface SessionListQuery extends PageRequest {
  terminalId?: string;
  operatorId?: string;
  status?: CashSessionStatus;
  openedFrom?: Date;
  openedTo?: Date;
  withDifference?: boolean;
}

export async function listSessions(ctx: TenantContext, filialId: number, q: SessionListQuery): Promise<Page<CashSession>> {
  const em = readerOf(ctx);
  const qb = em
    .createQueryBuilder(CashSession, 's')
    .select('s.id')
    .where('s.company_id = :companyId AND s.filial_id = :filialId', { companyId: ctx.companyId, filialId });
  if (q.terminalId) qb.andWhere('s.terminal_id = :terminalId', { terminalId: q.terminalId });
  if (q.operatorId) qb.andWhere('s.operator_id = :operatorId', { operatorId: q.operatorId });
  if (q.status) qb.andWhere('s.status = :status', { status: q.status });
  if (q.openedFrom) qb.andWhere('s.opened_at >= :from', { from: q.openedFrom });
  if (q.openedTo) qb.andWhere('s.opened_at < :to', { to: q.openedTo });
  if (q.withDifference !== undefined) qb.andWhere('s.with_difference = :withDifference', { withDifference: q.withDifference ? 1 : 0 });
  return paginate(
    qb,
    [{ column: 's.id', direction: 'DESC' }],
    q,
    async (ids) => (ids.length ? selectRows(em, CashSession, ctx.companyId, { id: ids }) : []),
    (s) => s.id,
  );
}

export interface MovementInput {
  type: CashMovementType;
  amount: Dec;
  reason: string;
}

export async function recordMovement(
  ctx: TenantContext,
  id: number,
  input: MovementInput,
): Promise<{ movement: CashMovement; view: SessionView }> {
  return inTransaction(ctx, async (em) => {
    // The session's row is locked: two sangrias at once are weighed one after the other.
    const s = await accessibleSession(ctx, id, em, true);
    machine.assertAllowed(s, 'move');
    const movements = await movementsOf(em, s.companyId, s.id);
    if (input.type === 'SANGRIA') {
      const cash = (await figuresOf(em, s, movements)).lines.find((l) => l.method === DRAWER)!.expected;
      if (input.amount.gt(cash)) {
        throw new BusinessRuleError(
          'SANGRIA_EXCEEDS_CASH',
          `A sangria of ${input.amount.toFixed(2)} is more than the cash the drawer should hold`,
          {
            // The supervisor may see it; the operator's count stays blind.
            ...(canSupervise(ctx) ? { expectedCash: Number(cash.toFixed(2)) } : {}),
          },
        );
      }
    }
    const movement = Object.assign(new CashMovement(), {
      companyId: ctx.companyId,
      cashSessionId: s.id,
      type: input.type,
      amount: input.amount,
      reason: input.reason,
      createdBy: ctx.actor,
      createdAt: new Date(),
    });
    await em.insert(CashMovement, movement);
    await recordAudit(em, ctx, {
      entity: MOVEMENT_AUDIT_ENTITY,
      entityId: movement.id,
      action: 'CREATED',
      changes: diff(
        {},
        { cashSessionId: encodeId('cash-session', s.id), type: input.type, amount: input.amount.toFixed(2), reason: input.reason },
      ),
    });
    await publishEvent(em, ctx, {
      type: input.type === 'SANGRIA' ? 'cash-session.sangria' : 'cash-session.suprimento',
      filialId: s.filialId,
      aggregateType: 'cash-session',
      aggregateId: s.id,
      data: {
        cashSessionId: encodeId('cash-session', s.id),
        movementId: encodeId('cash-movement', movement.id),
        type: input.type,
        amount: toJsonNumber(input.amount, 'amount'),
        reason: input.reason,
      },
    });
    const all = [...movements, movement];
    return { movement, view: { session: s, movements: all, figures: canSupervise(ctx) ? await figuresOf(em, s, all) : null } };
  });
}

const concurrent = () => new ConflictError('CONCURRENT_UPDATE', 'The cash session was changed by someone else; read it again');

/**
 * A session's move (close, approve, reopen): the conditional UPDATE on the status and version read, the
 * audit row of what changed and the move's event (the session's payload and what the move adds to it).
 * Returns the session as it is after.
 */
async function moveSession(
  em: EntityManager,
  ctx: TenantContext,
  s: CashSession,
  changes: Partial<CashSession>,
  move: { action: string; event: string; data: Record<string, unknown> },
): Promise<CashSession> {
  if (!(await updateSessionIf(em, s, changes))) throw concurrent();
  const after = Object.assign(new CashSession(), s, changes, { version: s.version + 1 });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: s.id,
    action: move.action,
    changes: diff(sessionSnapshot(s), sessionSnapshot(after)),
  });
  await publishEvent(em, ctx, {
    type: move.event,
    filialId: s.filialId,
    aggregateType: 'cash-session',
    aggregateId: s.id,
    data: { ...sessionEventData(after), ...move.data },
  });
  return after;
}

export async function closeSession(ctx: TenantContext, id: number, counted: { method: string; amount: Dec }[]): Promise<SessionView> {
  const result = await inTransaction(ctx, async (em) => {
    // Locked first: the sales in flight on this session (they hold its row shared) commit before the count is compared.
    const s = await accessibleSession(ctx, id, em, true);
    machine.assertAllowed(s, 'close');
    const methods = await selectRows(em, PaymentMethod, ctx.companyId, {});
    const kinds = new Map(methods.map((m) => [m.code, m.kind as string]));
    const unknown = counted.map((c, i) => ({ c, i })).filter(({ c }) => c.method !== DRAWER && !kinds.has(c.method));
    if (unknown.length) {
      throw new BusinessRuleError('PAYMENT_METHOD_NOT_FOUND', 'A counted payment method is not one of the company', {
        errors: unknown.map(({ c, i }) => ({
          path: `counted[${i}].method`,
          message: `${c.method} is not a payment method of the company`,
        })),
      });
    }
    const movements = await movementsOf(em, s.companyId, s.id);
    const figures = await figuresOf(em, s, movements);
    const lines = closingLines(figures.lines, counted, (m) => kinds.get(m) ?? 'OTHER');
    const limit = await counterSales.get().differenceLimit(em, ctx.companyId, s.filialId);
    const to: CashSessionStatus = needsApproval(lines, limit) ? 'PENDING_APPROVAL' : 'CLOSED';
    machine.assertTransition(s, 'close', to);
    const drawer = lines.find((l) => l.method === DRAWER)!;
    const totalDifference = lines.reduce((acc, l) => acc.plus(l.difference), new Dec(0));
    const changes: Partial<CashSession> = {
      status: to,
      openTerminal: null,
      closing: lines,
      expectedCash: new Dec(drawer.expected),
      countedCash: new Dec(drawer.counted),
      closingDifference: totalDifference,
      withDifference: lines.some((l) => !new Dec(l.difference).isZero()),
      differenceLimit: limit,
      closedAt: new Date(),
      closedBy: ctx.actor,
    };
    const after = await moveSession(em, ctx, s, changes, {
      action: 'CLOSED',
      event: to === 'CLOSED' ? 'cash-session.closed' : 'cash-session.pending-approval',
      data: {
        differences: lines.map((l) => ({
          method: l.method,
          expected: Number(l.expected),
          counted: Number(l.counted),
          difference: Number(l.difference),
        })),
      },
    });
    return { view: { session: after, movements, figures } as SessionView, lines, to };
  });
  // Counted after the commit (a rolled-back close counts nothing).
  const exact = result.lines.every((l) => new Dec(l.difference).isZero());
  closes.inc({ outcome: exact ? 'EXACT' : result.to === 'CLOSED' ? 'WITHIN_LIMIT' : 'PENDING_APPROVAL' });
  for (const l of result.lines) {
    const d = new Dec(l.difference);
    if (!d.isZero()) differenceAmount.inc({ direction: d.isNegative() ? 'SHORT' : 'OVER' }, Number(d.abs().toFixed(2)));
  }
  return result.view;
}

export async function approveClose(ctx: TenantContext, id: number, note: string | null): Promise<SessionView> {
  return inTransaction(ctx, async (em) => {
    const s = await accessibleSession(ctx, id, em, true);
    machine.assertAllowed(s, 'approve');
    // The one who had the drawer does not sign off their own difference.
    if (s.operatorId === ctx.actor) throw new ConflictError('APPROVER_IS_OPERATOR', "The session's operator cannot approve its own close");
    machine.assertTransition(s, 'approve', 'CLOSED');
    const changes: Partial<CashSession> = { status: 'CLOSED', approvedAt: new Date(), approvedBy: ctx.actor, approvalNote: note };
    const after = await moveSession(em, ctx, s, changes, {
      action: 'APPROVED',
      event: 'cash-session.approved',
      data: { approvedBy: ctx.actor },
    });
    return viewOf(ctx, em, after);
  });
}

export async function reopenSession(ctx: TenantContext, id: number, reason: string): Promise<SessionView> {
  let terminal = '';
  try {
    return await inTransaction(ctx, async (em) => {
      const s = await accessibleSession(ctx, id, em, true);
      terminal = s.terminalId;
      machine.assertAllowed(s, 'reopen');
      if (await findOpenSession(em, ctx.companyId, s.filialId, s.terminalId)) throw alreadyOpen(s.terminalId);
      machine.assertTransition(s, 'reopen', 'OPEN');
      // The close is withdrawn, not kept beside the next one: its differences count once, at the next close (audit keeps the old).
      const changes: Partial<CashSession> = {
        status: 'OPEN',
        openTerminal: s.terminalId,
        closing: null,
        expectedCash: null,
        countedCash: null,
        closingDifference: null,
        withDifference: false,
        differenceLimit: null,
        closedAt: null,
        closedBy: null,
        approvedAt: null,
        approvedBy: null,
        approvalNote: null,
        reopenCount: s.reopenCount + 1,
        reopenedAt: new Date(),
        reopenReason: reason,
      };
      const after = await moveSession(em, ctx, s, changes, { action: 'REOPENED', event: 'cash-session.reopened', data: { reason } });
      return viewOf(ctx, em, after);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyOpen(terminal);
    throw err;
  }
}

export interface SessionReport {
  kind: 'X' | 'Z';
  view: SessionView;
  figures: SessionFigures;
  notes: SessionNote[];
  generatedAt: Date;
}

/** The partial (X: any time, supervisor) and the close (Z: once counted) reports, with the session's NFC-e and their status. */
export async function sessionReport(ctx: TenantContext, id: number, kind: 'X' | 'Z'): Promise<SessionReport> {
  const em = readerOf(ctx);
  const s = await accessibleSession(ctx, id, em);
  if (kind === 'Z' && s.status === 'OPEN')
    throw new ConflictError(
      'CASH_SESSION_OPEN',
      'The Z report is the close of the session: count it first (POST /cash-sessions/:id/close)',
      { currentStatus: s.status },
    );
  const movements = await movementsOf(em, s.companyId, s.id);
  const [figures, notes] = await Promise.all([figuresOf(em, s, movements), counterSales.get().notesOfSession(em, s.companyId, s.id)]);
  return { kind, view: { session: s, movements, figures }, figures, notes, generatedAt: new Date() };
}

/** For quick-sale: the terminal's open session the sale read in its own round trip (refused when there is none). */
export function sessionOfSale(rows: Record<string, unknown>[], terminalId: string): number {
  const row = rows[0];
  if (!row) {
    throw new ConflictError(
      'CASH_SESSION_NOT_OPEN',
      `Terminal ${terminalId} has no open cash session: open one (POST /cash-sessions) before selling`,
      { terminalId },
    );
  }
  return Number(row.id);
}

export function cashSessionRequired(): never {
  throw new ConflictError('CASH_SESSION_REQUIRED', 'This counter sells only in an open cash session: name the terminal (terminalId)', {
    terminalId: null,
  });
}

export interface TefAuthorizationInput {
  method: string;
  amount: Dec;
}

export interface TefAuthorization extends TefApproval {
  method: string;
  amount: Dec;
  terminalId: string;
}

/**
 * A card payment authorized through the TEF for a sale at the session's terminal (before the sale: its
 * answer is the sale's payments[].card). The acquirer is called outside any transaction; the
 * authorization's audit row and event are written after it answered.
 */
export async function authorizeByTef(ctx: TenantContext, id: number, input: TefAuthorizationInput): Promise<TefAuthorization> {
  const em = readerOf(ctx);
  const s = await accessibleSession(ctx, id, em);
  machine.assertAllowed(s, 'sell');
  const method = (await selectRows(em, PaymentMethod, ctx.companyId, { code: input.method }))[0];
  if (!method || !method.active || !['CREDIT_CARD', 'DEBIT_CARD'].includes(method.kind)) {
    throw new BusinessRuleError('TEF_METHOD_NOT_CARD', `${input.method} is not an active card payment method of the company`, {
      errors: [{ path: 'method', message: 'not a card method' }],
    });
  }
  const tef = tefAdapter();
  let approval: TefApproval;
  try {
    approval = await tef.authorize({ terminalId: s.terminalId, kind: method.kind, amount: input.amount });
  } catch (err) {
    if (err instanceof TefDeclined)
      throw new BusinessRuleError('TEF_DECLINED', `The acquirer declined the card: ${err.reason}`, { reason: err.reason });
    throw err;
  }
  await inTransaction(ctx, async (tx) => {
    await recordAudit(tx, ctx, {
      entity: AUDIT_ENTITY,
      entityId: s.id,
      action: 'TEF_AUTHORIZED',
      changes: {
        nsu: [null, approval.nsu],
        authorizationCode: [null, approval.authorizationCode],
        amount: [null, input.amount.toFixed(2)],
        method: [null, method.code],
      },
    });
    await publishEvent(tx, ctx, {
      type: 'cash-session.tef-authorized',
      filialId: s.filialId,
      aggregateType: 'cash-session',
      aggregateId: s.id,
      data: {
        cashSessionId: encodeId('cash-session', s.id),
        terminalId: s.terminalId,
        method: method.code,
        amount: toJsonNumber(input.amount, 'amount'),
        nsu: approval.nsu,
        authorizationCode: approval.authorizationCode,
        brand: approval.brand,
      },
    });
  });
  return { ...approval, method: method.code, amount: input.amount, terminalId: s.terminalId };
}
