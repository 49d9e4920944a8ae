import { decimal, id, isoTimestamp, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { Dec } from '../../core/decimal';
import { CASH_MOVEMENT_TYPES } from './entities/cash-movement.entity';
import { CASH_SESSION_STATUSES } from './entities/cash-session.entity';
import type { MovementInput, OpenInput, SessionListQuery } from './cash-sessions.service';

/* Request schemas of /cash-sessions. */

export const terminalCode = () =>
  Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9_.-]{1,20}$/)
    .description("the terminal's code in the filial (PDV/caixa), e.g. CX01")
    .example('CX01');
const operator = () => Joi.string().trim().min(1).max(64).description("the operator's user id (the token's sub)").example('ana.caixa');
const methodCode = Joi.string()
  .trim()
  .uppercase()
  .pattern(/^[A-Z0-9_]{1,30}$/);
const byId = { params: Joi.object({ id: id('cash-session').required() }) };

export const cashSessionSchemas = {
  open: typedSchema<{ body: OpenInput }>({
    body: Joi.object({
      filialId: id('filial').required(),
      terminalId: terminalCode().required(),
      operatorId: operator().required(),
      openingFloat: decimal('amount', { min: 0 }).required().description('the cash counted in the drawer at the opening (fundo de troco)'),
    }),
  }),
  byId: typedSchema<{ params: { id: number } }>(byId),
  current: typedSchema<{ params: { filialId: number; terminalId: string } }>({
    params: Joi.object({ filialId: id('filial').required(), terminalId: terminalCode().required() }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: SessionListQuery }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      terminalId: terminalCode(),
      operatorId: operator(),
      status: Joi.string().valid(...CASH_SESSION_STATUSES),
      openedFrom: isoTimestamp(),
      openedTo: isoTimestamp(),
      withDifference: Joi.boolean().description('only sessions closed with (true) or without (false) a difference'),
    }),
  }),
  movement: typedSchema<{ params: { id: number }; body: MovementInput }>({
    ...byId,
    body: Joi.object({
      type: Joi.string()
        .valid(...CASH_MOVEMENT_TYPES)
        .required()
        .description('SANGRIA: cash out of the drawer; SUPRIMENTO: cash into it'),
      amount: decimal('amount', { positive: true }).required(),
      reason: Joi.string().trim().min(3).max(255).required().example('Sangria para o cofre'),
    }),
  }),
  close: typedSchema<{ params: { id: number }; body: { counted: { method: string; amount: Dec }[] } }>({
    ...byId,
    body: Joi.object({
      counted: Joi.array()
        .items(
          Joi.object({
            method: methodCode.required().description('CASH for the drawer; other payment methods by their code'),
            amount: decimal('amount', { min: 0 }).required(),
          }),
        )
        .max(30)
        .unique('method')
        .required()
        .description(
          'what the operator counted per payment method (blind: without seeing the expected amounts); a method not listed counts 0',
        ),
    }),
  }),
  approve: typedSchema<{ params: { id: number }; body: { note: string | null } }>({
    ...byId,
    body: Joi.object({ note: Joi.string().trim().max(255).allow(null).default(null) }),
  }),
  tef: typedSchema<{ params: { id: number }; body: { method: string; amount: Dec } }>({
    ...byId,
    body: Joi.object({
      method: methodCode.required().description('the card payment method (CREDIT_CARD, DEBIT_CARD kinds)'),
      amount: decimal('amount', { positive: true }).required(),
    }),
  }),
  reopen: typedSchema<{ params: { id: number }; body: { reason: string } }>({
    ...byId,
    body: Joi.object({ reason: Joi.string().trim().min(5).max(255).required().example('Venda lançada fora do caixa') }),
  }),
};
