import type { Request, Response } from 'express';
import { dataSource } from '../../core/db/data-source';
import { config } from '../../core/config';
import { AppError } from '../../core/errors';
import { defineRoutes } from '../../core/http/route';

async function health(_req: Request, res: Response) {
  res.json({ status: 'ok', version: config.version });
}

async function ready(_req: Request, res: Response) {
  try {
    await dataSource.query('SELECT 1');
  } catch {
    throw new AppError('upstream_unavailable', 'DATABASE_UNAVAILABLE', 'Database is not reachable');
  }
  res.json({ status: 'ready', database: config.db.engine });
}

export const systemRoutes = defineRoutes([
  { method: 'get', path: '/health', tag: 'System', summary: 'Liveness', public: true, handler: health },
  { method: 'get', path: '/ready', tag: 'System', summary: 'Readiness (database ping)', public: true, handler: ready },
]);
