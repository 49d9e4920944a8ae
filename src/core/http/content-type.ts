import express, { NextFunction, Request, Response } from 'express';
import { config } from '../config';
import { nfeConfig } from '../config/nfe';
import { AppError } from '../errors';

const XML_TYPES = ['application/xml', 'text/xml'];
const CSV_TYPES = ['text/csv'];
export const UPLOAD_TYPES = ['application/zip', 'application/x-zip-compressed', 'multipart/form-data'];

const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** 415 for a body that is not one of the accepted formats (SPEC §0). */
export function requireContentType(format: 'json' | 'xml' | 'csv' | 'upload') {
  const accepted =
    format === 'xml'
      ? ['application/json', ...XML_TYPES]
      : format === 'csv'
        ? ['application/json', ...CSV_TYPES]
        : format === 'upload'
          ? UPLOAD_TYPES
          : ['application/json'];
  return (req: Request, _res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is(accepted)) {
      throw new AppError('unsupported_media_type', 'UNSUPPORTED_MEDIA_TYPE', `Content-Type must be ${accepted.join(' or ')}`);
    }
    next();
  };
}

/** Body parsers per route: JSON up to 1 MB; XML routes take JSON or raw XML up to 5 MB; uploads a raw Buffer. */
export function bodyParsers(format: 'json' | 'xml' | 'csv' | 'upload') {
  if (format === 'upload') return [express.raw({ type: UPLOAD_TYPES, limit: nfeConfig.batch.maxUploadBytes })];
  if (format === 'xml') {
    return [express.json({ limit: config.http.xmlLimit }), express.text({ type: XML_TYPES, limit: config.http.xmlLimit })];
  }
  // A CSV table (the IBPT one is ~1.5 MB per UF): as text, any charset the header says (latin1 included).
  if (format === 'csv') return [express.json({ limit: '10mb' }), express.text({ type: CSV_TYPES, limit: '10mb' })];
  return [express.json({ limit: config.http.jsonLimit })];
}

/** An XML body behaves exactly like `{ "xml": "<...>" }` in JSON. */
export function xmlBodyAsJson(req: Request, _res: Response, next: NextFunction) {
  if (typeof req.body === 'string') req.body = { xml: req.body };
  next();
}

/** A CSV body behaves like `{ "csv": "…" }` in JSON, the other fields from the query string (e.g. `?uf=SP`). */
export function csvBodyAsJson(req: Request, _res: Response, next: NextFunction) {
  if (typeof req.body === 'string') req.body = { ...(req.query as Record<string, unknown>), csv: req.body };
  next();
}
