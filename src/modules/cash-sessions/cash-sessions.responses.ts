import Joi from 'joi';
import { hashid, money, named, obj, oneOf, page, timestamp } from '../../core/http/response-schema';
import { CASH_MOVEMENT_TYPES } from './entities/cash-movement.entity';
import { CASH_SESSION_STATUSES } from './entities/cash-session.entity';

/* Response bodies of /cash-sessions (mirrors cash-sessions.mapper.ts). */

const method = () => Joi.string().example('CASH');

export const CashMovement = named(
  'CashMovement',
  obj({
    id: hashid('cash-movement'),
    type: oneOf(...CASH_MOVEMENT_TYPES),
    amount: money(),
    reason: Joi.string().example('Sangria para o cofre'),
    createdBy: Joi.string().example('ana.caixa'),
    createdAt: timestamp(),
  }),
);

const ClosingLine = named(
  'CashClosingLine',
  obj({
    method: method(),
    kind: Joi.string().example('CASH'),
    expected: money(),
    counted: money(),
    difference: money().description('counted − expected (negative: missing)'),
  }),
);

const ExpectedLine = named(
  'CashExpectedLine',
  obj({
    method: method(),
    kind: Joi.string().example('CASH'),
    sales: money().description('what the standing sales took with it (cash: net of change)'),
    expected: money(),
  }),
);

const Figures = named(
  'CashSessionFigures',
  obj({
    lines: Joi.array().items(ExpectedLine),
    cashReceived: money(),
    changeGiven: money(),
    sangrias: money(),
    suprimentos: money(),
    salesCount: Joi.number().integer().example(42),
    cancelledSalesCount: Joi.number().integer().example(1),
    salesTotal: money(),
  }),
);

const sessionKeys = {
  id: hashid('cash-session'),
  filialId: hashid('filial'),
  terminalId: Joi.string().example('CX01'),
  operatorId: Joi.string().example('ana.caixa'),
  status: oneOf(...CASH_SESSION_STATUSES),
  openingFloat: money().example(200),
  previousSessionId: hashid('cash-session').allow(null).description("the terminal's previous counted session"),
  previousClosingCash: money().allow(null).description('the cash that session counted at its close'),
  openingDifference: money().allow(null).description('openingFloat − previousClosingCash, recorded once, at this opening'),
  openedAt: timestamp(),
  openedBy: Joi.string().example('ana.caixa'),
  closedAt: timestamp().allow(null),
  closedBy: Joi.string().allow(null),
  closing: Joi.array()
    .items(ClosingLine)
    .allow(null)
    .description('expected, counted and difference per payment method (null until counted)'),
  expectedCash: money().allow(null),
  countedCash: money().allow(null),
  closingDifference: money().allow(null).description('Σ of the differences of the close'),
  differenceLimit: money().allow(null).description('the limit in force at the close'),
  approvedAt: timestamp().allow(null),
  approvedBy: Joi.string().allow(null),
  approvalNote: Joi.string().allow(null),
  reopenCount: Joi.number().integer().example(0),
  reopenedAt: timestamp().allow(null),
  reopenReason: Joi.string().allow(null),
  version: Joi.number().integer().example(1),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};

export const CashSessionSummary = named('CashSessionSummary', obj(sessionKeys));

export const CashSession = named(
  'CashSession',
  obj({
    ...sessionKeys,
    movements: Joi.array().items(CashMovement),
    figures: Figures.allow(null).description(
      "running expected figures: null for the operator's role while the session is open (blind close)",
    ),
  }),
);

export const CashSessionPage = page('CashSessionPage', CashSessionSummary);

export const CashMovementResult = named('CashMovementResult', obj({ movement: CashMovement, session: CashSession }));

export const CashSessionReport = named(
  'CashSessionReport',
  obj({
    kind: oneOf('X', 'Z').description('X: partial reading; Z: the close'),
    generatedAt: timestamp(),
    session: CashSession,
    figures: Figures,
    fiscalDocuments: Joi.array().items(
      obj({
        id: hashid('nfce'),
        salesOrderId: hashid('sales-order'),
        series: Joi.number().integer().example(1),
        number: Joi.number().integer().example(123),
        accessKey: Joi.string().example('35261111222333000181650010000001231123456780'),
        status: Joi.string().example('AUTHORIZED'),
        contingency: Joi.boolean().description('issued offline (tpEmis 9)'),
        total: money(),
      }),
    ),
    fiscalDocumentsByStatus: Joi.object()
      .pattern(Joi.string(), Joi.number().integer())
      .example({ AUTHORIZED: 40, CONTINGENCY: 1, CANCELLED: 1 }),
  }),
);

export const TefAuthorization = named(
  'TefAuthorization',
  obj({
    cashSessionId: hashid('cash-session'),
    terminalId: Joi.string().example('CX01'),
    method: Joi.string().example('CREDIT_CARD'),
    amount: money(),
    card: obj({
      integration: oneOf('TEF'),
      acquirerCnpj: Joi.string().example('01027058000191'),
      brand: Joi.string().example('01'),
      authorizationCode: Joi.string().example('483920'),
      nsu: Joi.string().example('000000123'),
    }).description("the sale's payments[].card as it is"),
  }),
);
