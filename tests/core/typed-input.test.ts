import { expect } from 'chai';
import type { Request, Response } from 'express';
import { Joi } from '../../src/core/http/schema';
import { typedSchema, ValidRequest } from '../../src/core/http/typed-input';
import { payableSchemas } from '../../src/modules/payables/payables.schemas';

/*
 * Typed edges (core/http/typed-input.ts). The checks that matter are compile-time: `npm run
 * typecheck` covers tests/, and each @ts-expect-error fails the typecheck if the error it marks
 * ever goes away (a controller could then read a field its schema lacks).
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is read: the checks below are compile-time
const byId = typedSchema<{ params: { id: number }; body: { reason: string } }>({
  params: Joi.object({ id: Joi.number().required() }),
  body: Joi.object({ reason: Joi.string().required() }),
});

function handler(req: ValidRequest<typeof byId>, res: Response) {
  const id: number = req.valid.params.id;
  const reason: string = req.valid.body.reason;
  // @ts-expect-error the schema has no `note`
  void req.valid.body.note;
  // @ts-expect-error the schema has no query
  void req.valid.query;
  res.json({ id, reason });
}

function untyped(req: Request) {
  // @ts-expect-error a plain Request's validated input is unknown: read it through ValidRequest
  void req.valid.body.note;
  // @ts-expect-error nor its params
  void req.valid.params.id;
}

function listPayables(req: ValidRequest<typeof payableSchemas.list>) {
  const pageSize: number = req.valid.query.pageSize;
  // @ts-expect-error the payables list has no `customer` filter
  void req.valid.query.customer;
  return pageSize;
}

describe('typed validated input (core/http/typed-input)', () => {
  it('typedSchema returns the schema object itself (no runtime effect)', () => {
    const schema = { params: Joi.object({ id: Joi.number() }) };
    expect(typedSchema<{ params: { id: number } }>(schema)).to.equal(schema);
    expect(handler).to.be.a('function');
    expect(listPayables).to.be.a('function');
    expect(untyped).to.be.a('function');
  });
});
