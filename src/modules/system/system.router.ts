import type { Request, Response } from 'express';
import { config } from '../../core/config';
import { NO_UNIT, readerOf } from '../../core/db/transaction';
import { AppError } from '../../core/errors';
import { defineRoutes } from '../../core/http/route';
import { Joi } from '../../core/http/schema';
import { named, obj, oneOf } from '../../core/http/response-schema';

async function health(_req: Request, res: Response) {
  res.json({ status: 'ok', version: config.version });
}

async function ready(_req: Request, res: Response) {
  try {
    await readerOf(NO_UNIT).query('SELECT 1');
  } catch {
    throw new AppError('upstream_unavailable', 'DATABASE_UNAVAILABLE', 'Database is not reachable');
  }
  res.json({ status: 'ready', database: config.db.engine });
}

const Health = named('Health', obj({ status: oneOf('ok'), version: Joi.string().example('1.8.0') }));
const Ready = named('Ready', obj({ status: oneOf('ready'), database: oneOf('sqlite', 'mysql') }));

export const systemRoutes = defineRoutes([
  { method: 'get', path: '/health', tag: 'System', summary: 'Liveness', public: true, responses: { body: Health }, handler: health },
  {
    method: 'get',
    path: '/ready',
    tag: 'System',
    summary: 'Readiness (database ping)',
    public: true,
    responses: { body: Ready, errors: { 503: ['DATABASE_UNAVAILABLE'] } },
    handler: ready,
  },
]);
