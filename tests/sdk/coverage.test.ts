import { expect } from 'chai';
import { OPERATIONS, Operations, PROBLEM_CODES } from '../../sdk/src';
import { buildOpenApi } from '../../src/core/openapi/openapi';
import { allRoutes } from '../../src/modules';
import { operationsOf } from '../../scripts/sdk-operations';

/*
 * The SDK covers every operation of the API's OpenAPI document, built here from the routes as they are
 * now: a route added (by any module) without `npm run sdk:generate` fails this test, naming it.
 */
describe('SDK coverage: one method per operation of the OpenAPI document', () => {
  const doc = buildOpenApi(allRoutes()) as Record<string, any>;
  const ops = operationsOf(doc);

  it(`every operation (${ops.length}) has its SDK method and table entry, as the document describes it`, () => {
    const missing = ops
      .filter((o) => typeof (Operations.prototype as unknown as Record<string, unknown>)[o.methodName] !== 'function')
      .map((o) => `${o.method} /api${o.path} (${o.methodName})`);
    expect(missing, 'operations without an SDK method: run `npm run sdk:generate`').to.deep.equal([]);
    const drift = ops
      .filter(
        (o) =>
          JSON.stringify((OPERATIONS as Record<string, unknown>)[o.operationId]) !==
          JSON.stringify({ method: o.method, path: o.path, idempotencyKey: o.idempotencyKey, read: o.read, list: o.list }),
      )
      .map((o) => o.operationId);
    expect(drift, 'SDK operations that differ from the document: run `npm run sdk:generate`').to.deep.equal([]);
    expect(Object.keys(OPERATIONS).length, 'SDK operations the API no longer has').to.equal(ops.length);
  });

  it('every paginated list has an async iterator (…All)', () => {
    const lists = ops.filter((o) => o.list);
    expect(lists.length).to.be.greaterThan(20);
    const without = lists
      .filter((o) => typeof (Operations.prototype as unknown as Record<string, unknown>)[`${o.methodName}All`] !== 'function')
      .map((o) => o.methodName);
    expect(without).to.deep.equal([]);
  });

  it("every problem code of the document's error lists is a typed ProblemCode", () => {
    const codes = new Set(ops.flatMap((o) => Object.values(o.errors).flat()));
    expect([...codes].filter((c) => !PROBLEM_CODES.includes(c as never))).to.deep.equal([]);
    expect(PROBLEM_CODES.length).to.equal(codes.size);
  });
});
