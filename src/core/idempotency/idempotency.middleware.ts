import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { config } from '../config';
import { dataSource } from '../db/data-source';
import { isDatabaseUnavailable, isUniqueViolation } from '../db/db-errors';
import { inTransaction } from '../db/transaction';
import { ConflictError, ValidationError } from '../errors';
import { IdempotencyKey } from './idempotency-key.entity';

const POLL_MS = 25;
const WAIT_MS = 30_000;

const fingerprint = (req: Request): string =>
  crypto
    .createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n`)
    .update(typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body ?? null))
    .digest('hex');

function replay(res: Response, row: IdempotencyKey): void {
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(row.responseStatus ?? 200);
  if (row.responseContentType) res.type(row.responseContentType);
  if (row.responseBody === null || row.responseBody === undefined) res.end();
  else res.send(JSON.stringify(row.responseBody));
}

async function waitForCompletion(companyId: number, key: string): Promise<IdempotencyKey | null> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await dataSource.manager.findOneBy(IdempotencyKey, { companyId, key });
    if (!row || row.state === 'DONE' || Date.now() > deadline) return row;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/*
 * SPEC §0: a retry with the same key and body returns the first response; the same key with another
 * body → 409. The key row is claimed before the work starts (unique index), so two concurrent requests
 * with one key produce one effect: the second waits for the first and replays its response.
 * Server errors (5xx) release the key so the client can retry.
 */
export async function idempotency(req: Request, res: Response, next: NextFunction): Promise<void> {
  const key = req.header('idempotency-key');
  const companyId = req.ctx?.companyId;
  if (!key || !companyId) return next();
  if (key.length > 120) throw new ValidationError('Idempotency-Key is longer than 120 characters', [{ path: 'Idempotency-Key', message: 'too long' }]);
  const requestHash = fingerprint(req);

  let claimed = true;
  try {
    await inTransaction((em) => em.insert(IdempotencyKey, { companyId, key, requestHash, state: 'IN_PROGRESS' }));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    claimed = false;
  }
  if (!claimed) {
    const existing = await dataSource.manager.findOneBy(IdempotencyKey, { companyId, key });
    if (existing && !isExpired(existing)) {
      if (existing.requestHash !== requestHash) {
        throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
      }
      const done = existing.state === 'DONE' ? existing : await waitForCompletion(companyId, key);
      if (done?.state === 'DONE') return replay(res, done);
      if (done) throw new ConflictError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed');
      // The first attempt failed with a server error and released the key: run again.
    }
    if (existing && isExpired(existing)) await inTransaction((em) => em.delete(IdempotencyKey, { id: existing.id }));
    return idempotency(req, res, next);
  }

  // Keep the response before it goes out, so a retry that arrives right after sees it.
  const send = res.send.bind(res);
  let stored = false;
  res.send = ((body?: unknown) => {
    if (stored) return send(body);
    stored = true;
    const status = res.statusCode;
    const persist =
      status >= 500
        ? releaseKey(companyId, key)
        : inTransaction((em) =>
            em.update(
              IdempotencyKey,
              { companyId, key },
              {
                state: 'DONE',
                responseStatus: status,
                responseBody: parseBody(body) as never,
                responseContentType: String(res.getHeader('content-type') ?? 'application/json').split(';')[0],
              },
            ),
          );
    persist.then(
      () => send(body),
      () => send(body),
    );
    return res;
  }) as Response['send'];
  next();
}

/**
 * Frees the key after a server error. When the error was a database node dying, this delete's first
 * connection may still go to that node: it is sent again (the pool moves to a live node), or the key
 * would stay IN_PROGRESS and the client's retry could never run.
 */
async function releaseKey(companyId: number, key: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction((em) => em.delete(IdempotencyKey, { companyId, key }));
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
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

const isExpired = (row: IdempotencyKey): boolean =>
  row.state === 'DONE' && Date.now() - new Date(row.createdAt).getTime() > config.idempotencyTtlHours * 3_600_000;
