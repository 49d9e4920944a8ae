import crypto from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { config } from '../config';
import { logger } from '../logger';
import { isUniqueViolation } from '../db/db-errors';
import { sqlTime } from '../db/sql-time';
import { deferWrite, inTransaction, NO_UNIT, readerOf, unitOfWork } from '../db/transaction';
import { ConflictError, ValidationError } from '../errors';
import { IdempotencyKey } from './idempotency-key.entity';

const POLL_MS = 25;
const WAIT_MS = 30_000;

/**
 * How an idempotent route's work relates to its key:
 * - 'unit' (default): the handler runs as one transaction (its own transactions join it) and the
 *   key's outcome is written in that transaction, just before COMMIT: a crash leaves both or neither.
 * - 'own-transactions': the handler commits on its own (calls to the tax authority between its
 *   transactions, background jobs); the outcome is stored once the response is built, and a crash in
 *   between leaves the key to its lease: the retry after it runs the request again.
 */
export type IdempotencyMode = 'unit' | 'own-transactions';

/** The response a handler built: sent after the outcome committed. */
interface Outcome {
  status: number;
  body: unknown;
  contentType: string;
  headers: Record<string, string> | null;
}

/** Headers a replay repeats besides the content type. */
const KEPT_HEADERS = ['location'];

const fingerprint = (req: Request): string =>
  crypto
    .createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n`)
    .update(typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body ?? null))
    .digest('hex');

/*
 * Rate limits (429, the authority's quiet period included) and unavailability (503) say "later", and
 * a 5xx may be transient: none is kept, so a later retry runs. So is a problem marked `retryable` (a
 * conflict the unit's own retries did not resolve, a row changed meanwhile: 409 CONCURRENT_UPDATE):
 * kept, it would be replayed to every retry of its key, which could then never succeed. Other 4xx are
 * the request's answer and are replayed like successes.
 */
const replayable = (outcome: Outcome): boolean =>
  outcome.status < 500 && outcome.status !== 429 && !(outcome.status >= 400 && saysRetry(outcome.body));

/** Whether an error body (problem+json, as sent or as an object) is marked retryable. */
function saysRetry(body: unknown): boolean {
  const parsed = parseBody(body) as { retryable?: unknown } | null;
  return typeof parsed === 'object' && parsed !== null && parsed.retryable === true;
}

function replay(res: Response, row: IdempotencyKey): void {
  res.setHeader('Idempotent-Replayed', 'true');
  for (const [name, value] of Object.entries(row.responseHeaders ?? {})) res.setHeader(name, value);
  res.status(row.responseStatus ?? 200);
  if (row.responseContentType) res.type(row.responseContentType);
  if (row.responseBody === null || row.responseBody === undefined) res.end();
  else
    res.send(
      typeof row.responseBody === 'string' && !/json/.test(row.responseContentType ?? '')
        ? row.responseBody
        : JSON.stringify(row.responseBody),
    );
}

const leaseEnd = (): Date => new Date(Date.now() + config.idempotencyLeaseMs);

type Claim = { id: number } | { replay: IdempotencyKey };

/**
 * Claims the key for this attempt (`owner`): a new row, or a takeover of an IN_PROGRESS row whose
 * lease ran out (its process died). A live attempt with the key is waited for, then replayed.
 */
async function claim(companyId: number, key: string, requestHash: string, owner: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const inserted = await inTransaction(NO_UNIT, (em) =>
        em.insert(IdempotencyKey, { companyId, key, requestHash, state: 'IN_PROGRESS', leaseOwner: owner, leaseExpiresAt: leaseEnd() }),
      );
      return { id: Number(inserted.identifiers[0].id) };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await readerOf(NO_UNIT).findOneBy(IdempotencyKey, { companyId, key });
    if (!existing) continue; // released meanwhile
    if (existing.state === 'DONE' && Date.now() - new Date(existing.createdAt).getTime() > config.idempotencyTtlHours * 3_600_000) {
      await inTransaction(NO_UNIT, (em) => em.delete(IdempotencyKey, { id: existing.id, state: 'DONE' }));
      continue;
    }
    if (existing.requestHash !== requestHash) {
      throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
    }
    if (existing.state === 'DONE') return { replay: existing };
    if (!existing.leaseExpiresAt || new Date(existing.leaseExpiresAt).getTime() <= Date.now()) {
      // One winner: the condition is evaluated again under the row lock.
      const taken = await inTransaction(NO_UNIT, (em) =>
        em
          .createQueryBuilder()
          .update(IdempotencyKey)
          .set({ leaseOwner: owner, leaseExpiresAt: leaseEnd() })
          .where('id = :id AND state = :state', { id: existing.id, state: 'IN_PROGRESS' })
          .andWhere('(lease_expires_at IS NULL OR lease_expires_at <= :now)', { now: sqlTime(new Date()) })
          .execute(),
      );
      if (taken.affected === 1) return { id: existing.id };
      continue;
    }
    if (Date.now() > deadline) {
      throw new ConflictError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed');
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Keeps the lease while the attempt runs (a request may outlive one lease). */
function holdLease(id: number, owner: string): () => void {
  const timer = setInterval(
    () => {
      inTransaction(NO_UNIT, (em) =>
        em.update(IdempotencyKey, { id, leaseOwner: owner, state: 'IN_PROGRESS' }, { leaseExpiresAt: leaseEnd() }),
      ).catch(() => undefined);
    },
    Math.max(50, Math.floor(config.idempotencyLeaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

const release = (id: number, owner: string) => (em: EntityManager) =>
  em.delete(IdempotencyKey, { id, leaseOwner: owner, state: 'IN_PROGRESS' });

function outcomeOf(res: Response, body: unknown): Outcome {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return {
    status: res.statusCode,
    body,
    contentType: String(res.getHeader('content-type') ?? 'application/json').split(';')[0],
    headers: Object.keys(headers).length ? headers : null,
  };
}

/**
 * The outcome, written as a deferred statement of the open transaction: on MySQL it travels with the
 * COMMIT. Guarded by the lease: an attempt that lost its key to a takeover fails and rolls back.
 */
async function complete(em: EntityManager, id: number, owner: string, outcome: Outcome): Promise<void> {
  const [sql, params] = em
    .createQueryBuilder()
    .update(IdempotencyKey)
    .set({
      state: 'DONE',
      responseStatus: outcome.status,
      responseBody: parseBody(outcome.body) as never,
      responseContentType: outcome.contentType,
      responseHeaders: outcome.headers as never,
      leaseOwner: null,
      leaseExpiresAt: null,
    })
    .where('id = :id AND lease_owner = :owner', { id, owner })
    .getQueryAndParameters();
  await deferWrite(em, {
    label: 'idempotency outcome',
    sql,
    params,
    check: (affected) => {
      if (affected !== 1)
        throw new ConflictError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed');
    },
  });
}

/** Per request: the last part of its answer, to run once the request's unit committed (respondAfterCommit). */
const finishers = new WeakMap<object, () => Promise<unknown>>();

/**
 * Answers `status` with `body`, or with what `finish` builds when given: a step that must not run
 * inside a transaction (a call to the tax authority, SPEC §12.2). In a request's unit (an idempotent
 * route in 'unit' mode, with a key) `body` is the provisional answer kept with the key in the unit;
 * `finish` runs after COMMIT, outside any transaction, and its body is sent and replaces the kept one
 * (a crash between leaves the provisional answer, true as of the commit). Elsewhere `finish` runs now.
 */
export async function respondAfterCommit(
  req: Pick<Request, 'ctx'>,
  res: Response,
  status: number,
  body: unknown,
  finish?: () => Promise<unknown>,
): Promise<void> {
  if (finish && req.ctx?.uow) finishers.set(req, finish);
  res.status(status).json(finish && !req.ctx?.uow ? await finish() : body);
}

/** The outcome of a finisher (respondAfterCommit): sent, and kept for replays instead of the provisional one. */
async function finishAfterCommit(req: Request, id: number, outcome: Outcome): Promise<Outcome> {
  const finish = finishers.get(req);
  if (!finish) return outcome;
  finishers.delete(req);
  try {
    const body = await finish();
    const text = JSON.stringify(body);
    await inTransaction(NO_UNIT, (em) => em.update(IdempotencyKey, { id, state: 'DONE' }, { responseBody: parseBody(text) as never }));
    return { ...outcome, body: text };
  } catch (err) {
    // The work committed: its provisional answer stands (the step after it is left to its own recovery).
    logger.warn('the step after a request’s commit failed: the provisional answer is sent', { err: (err as Error).message });
    return outcome;
  }
}

/** The handler's work and the key's outcome in one transaction; the response goes out after COMMIT. */
async function runAsUnit(
  req: Request,
  res: Response,
  next: NextFunction,
  handler: RequestHandler,
  id: number,
  owner: string,
): Promise<void> {
  const send = res.send.bind(res);
  const ctx = req.ctx;
  let outcome: Outcome | undefined;
  try {
    outcome = await unitOfWork(async (uow) => {
      const em = uow.em;
      // A deadlock retry runs the handler again from a clean response.
      res.statusCode = 200;
      let built: Outcome | undefined;
      let failure: unknown;
      res.send = ((body?: unknown) => {
        built ??= outcomeOf(res, body);
        return res;
      }) as Response['send'];
      // The unit travels in the request's context: the services the handler calls join it
      // (inTransaction(ctx, …)) and read through it (readerOf(ctx)).
      req.ctx = { ...ctx, uow };
      try {
        await handler(req, res, (err?: unknown) => {
          failure = err ?? new Error('The handler passed the request on without answering');
        });
      } finally {
        req.ctx = ctx;
      }
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the handler passed to next(err), rethrown as given: toAppError maps any value
      if (failure) throw failure;
      if (!built) throw new Error('The handler built no response');
      if (replayable(built)) await complete(em, id, owner, built);
      else await release(id, owner)(em);
      return built;
    });
  } catch (err) {
    res.send = send;
    // Rolled back: the error answer is built by the error handler and kept (or not) on its own.
    return keepAfterResponse(res, id, owner, () => next(err));
  }
  res.send = send;
  if (replayable(outcome)) outcome = await finishAfterCommit(req, id, outcome);
  send(outcome.body);
}

/**
 * The outcome stored as the response goes out (the handler's transactions, if any, committed
 * already): used for errors and for 'own-transactions' routes.
 */
function keepAfterResponse(res: Response, id: number, owner: string, proceed: () => unknown): void {
  const send = res.send.bind(res);
  let stored = false;
  res.send = ((body?: unknown) => {
    if (stored) return send(body);
    stored = true;
    const outcome = outcomeOf(res, body);
    const persist = replayable(outcome)
      ? inTransaction(NO_UNIT, (em) => complete(em, id, owner, outcome))
      : inTransaction(NO_UNIT, release(id, owner));
    // Keep the response before it goes out, so a retry that arrives right after sees it.
    persist.then(
      () => send(body),
      () => send(body),
    );
    return res;
  }) as Response['send'];
  proceed();
}

/*
 * SPEC §0: a retry with the same key and body returns the first response; the same key with another
 * body → 409. The key row is claimed before the work starts (unique index), so two concurrent requests
 * with one key produce one effect: the second waits for the first and replays its response.
 */
export function idempotent(handler: RequestHandler, mode: IdempotencyMode = 'unit'): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.header('idempotency-key');
    // Operators' requests (a token of no company) keep their keys under company 0.
    const companyId = req.ctx?.companyId;
    if (!key || companyId === undefined || companyId === null) return handler(req, res, next) as Promise<void>;
    if (key.length > 120)
      throw new ValidationError('Idempotency-Key is longer than 120 characters', [{ path: 'Idempotency-Key', message: 'too long' }]);
    const owner = crypto.randomUUID();
    const claimed = await claim(companyId, key, fingerprint(req), owner);
    if ('replay' in claimed) return replay(res, claimed.replay);
    // Held until the work is over, even if the client went away (the work still commits).
    const stopLease = holdLease(claimed.id, owner);
    try {
      if (mode === 'unit') await runAsUnit(req, res, next, handler, claimed.id, owner);
      else {
        let failure: unknown;
        keepAfterResponse(res, claimed.id, owner, () => undefined);
        try {
          await handler(req, res, (err?: unknown) => {
            if (err) failure = err;
            else next();
          });
        } catch (err) {
          failure = err;
        }
        if (failure) next(failure);
      }
    } finally {
      stopLease();
    }
  };
}

function parseBody(body: unknown): unknown {
  if (body === undefined || body === null || body === '') return null;
  if (Buffer.isBuffer(body)) body = body.toString('utf8');
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
