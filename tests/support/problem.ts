import { expect } from 'chai';
import type { Response } from 'supertest';

/** Keys that carry ids: `id`, `…Id`, `…Ids`. */
const ID_KEY = /(^id$|Id$|Ids$)/;
/** A whole string that is a decimal number: a number sent as text. */
const DECIMAL_TEXT = /^-?\d+\.\d+$/;

/**
 * SPEC §0: no id leaves the service as an integer, errors included; numbers are JSON numbers at their
 * scale. Returns the offending paths of a body (empty when it is clean).
 */
export function rawValuesIn(body: unknown, path = ''): string[] {
  if (Array.isArray(body)) return body.flatMap((v, i) => rawValuesIn(v, `${path}[${i}]`));
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body as Record<string, unknown>).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    const here: string[] = [];
    if (ID_KEY.test(key) && (typeof value === 'number' || (Array.isArray(value) && value.some((v) => typeof v === 'number'))))
      here.push(`${at}: integer id`);
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) here.push(`${at}: number as text`);
    return [...here, ...rawValuesIn(value, at)];
  });
}

/** Asserts an RFC 9457 problem document with the given status and code, free of internal ids. */
export function expectProblem(res: Response, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
  expect(res.body).to.include.keys('type', 'title', 'status', 'detail', 'instance', 'code', 'requestId');
  expect(res.body.status).to.equal(status);
  expect(res.body.code).to.match(/^[A-Z][A-Z0-9_]*$/);
  if (code) expect(res.body.code).to.equal(code);
  expect(rawValuesIn(res.body), JSON.stringify(res.body)).to.deep.equal([]);
}
