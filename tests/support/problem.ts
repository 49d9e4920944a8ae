import { expect } from 'chai';
import type { Response } from 'supertest';

/** Asserts an RFC 9457 problem document with the given status and code. */
export function expectProblem(res: Response, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
  expect(res.body).to.include.keys('type', 'title', 'status', 'detail', 'instance', 'code', 'requestId');
  expect(res.body.status).to.equal(status);
  if (code) expect(res.body.code).to.equal(code);
}
