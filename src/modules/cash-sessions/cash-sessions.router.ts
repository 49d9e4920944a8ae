import { defineRoutes } from '../../core/http/route';
import * as c from './cash-sessions.controller';
import { CashMovementResult, CashSession, CashSessionPage, CashSessionReport, TefAuthorization } from './cash-sessions.responses';
import { cashSessionSchemas as s } from './cash-sessions.schemas';
import { SUPERVISE } from './cash-sessions.service';

const READ = 'cash-sessions:read';
const WRITE = 'cash-sessions:write';
const TAG = 'Cash sessions';
const NOT_FOUND = ['CASH_SESSION_NOT_FOUND'];
const CHANGED = ['CONCURRENT_UPDATE'];

/** Literal segments first; `/cash-sessions/:id…` last. */
export const cashSessionRoutes = defineRoutes([
  {
    method: 'post',
    path: '/cash-sessions',
    tag: TAG,
    summary:
      "Open a terminal's cash session with the counted float; the opening is compared once with the terminal's previous close (openingDifference). One open session per terminal",
    scope: WRITE,
    schema: s.open,
    idempotent: true,
    status: 201,
    responses: { body: CashSession, errors: { 404: ['FILIAL_NOT_FOUND'], 409: ['CASH_SESSION_ALREADY_OPEN'] } },
    handler: c.open,
  },
  {
    method: 'get',
    path: '/cash-sessions/list/:filialId',
    tag: TAG,
    summary: 'Cash sessions of a filial, newest first (filters: terminal, operator, status, opening time, with a difference)',
    scope: READ,
    schema: s.list,
    responses: { body: CashSessionPage },
    handler: c.list,
  },
  {
    method: 'get',
    path: '/cash-sessions/current/:filialId/:terminalId',
    tag: TAG,
    summary: "A terminal's open cash session (running expected figures only for a supervisor: the close is blind)",
    scope: READ,
    schema: s.current,
    responses: { body: CashSession, errors: { 404: NOT_FOUND } },
    handler: c.current,
  },
  {
    method: 'get',
    path: '/cash-sessions/:id/report/x',
    tag: TAG,
    summary: "The X report (leitura parcial): the session's figures so far and its NFC-e with their status (supervisor)",
    scope: SUPERVISE,
    schema: s.byId,
    responses: { body: CashSessionReport, errors: { 404: NOT_FOUND } },
    handler: c.reportX,
  },
  {
    method: 'get',
    path: '/cash-sessions/:id/report/z',
    tag: TAG,
    summary: 'The Z report of a counted session: expected, counted and difference per method, movements, and its NFC-e with their status',
    scope: READ,
    schema: s.byId,
    responses: { body: CashSessionReport, errors: { 404: NOT_FOUND, 409: ['CASH_SESSION_OPEN'] } },
    handler: c.reportZ,
  },
  {
    method: 'post',
    path: '/cash-sessions/:id/movements',
    tag: TAG,
    summary: 'Record a sangria (cash out; never more than the drawer should hold) or a suprimento (cash in), with its reason',
    scope: WRITE,
    schema: s.movement,
    idempotent: true,
    status: 201,
    responses: {
      body: CashMovementResult,
      errors: { 404: NOT_FOUND, 409: ['CASH_SESSION_PENDING_APPROVAL', 'CASH_SESSION_CLOSED'], 422: ['SANGRIA_EXCEEDS_CASH'] },
    },
    handler: c.movement,
  },
  {
    method: 'post',
    path: '/cash-sessions/:id/tef-authorizations',
    tag: TAG,
    summary:
      "Authorize a card payment through the TEF at the session's terminal, before the sale: the answer is the sale's payments[].card (tpIntegra 1, acquirer CNPJ, tBand, cAut, NSU). Only where a TEF adapter runs (the simulator in development)",
    scope: WRITE,
    schema: s.tef,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: TefAuthorization,
      errors: {
        404: NOT_FOUND,
        409: ['CASH_SESSION_PENDING_APPROVAL', 'CASH_SESSION_CLOSED'],
        422: ['TEF_METHOD_NOT_CARD', 'TEF_NOT_AVAILABLE', 'TEF_DECLINED'],
      },
    },
    handler: c.tef,
  },
  {
    method: 'post',
    path: '/cash-sessions/:id/close',
    tag: TAG,
    summary:
      'Blind close: the counted amount per payment method; the session stores expected, counted and difference per method; a difference above the limit waits for a supervisor (PENDING_APPROVAL)',
    scope: WRITE,
    schema: s.close,
    idempotent: true,
    responses: {
      body: CashSession,
      errors: {
        404: NOT_FOUND,
        409: ['CASH_SESSION_PENDING_APPROVAL', 'CASH_SESSION_CLOSED', ...CHANGED],
        422: ['PAYMENT_METHOD_NOT_FOUND'],
      },
    },
    handler: c.close,
  },
  {
    method: 'post',
    path: '/cash-sessions/:id/approve',
    tag: TAG,
    summary: "A supervisor approves a close whose difference was above the limit (not the session's own operator)",
    scope: SUPERVISE,
    schema: s.approve,
    idempotent: true,
    responses: {
      body: CashSession,
      errors: { 404: NOT_FOUND, 409: ['CASH_SESSION_OPEN', 'CASH_SESSION_CLOSED', 'APPROVER_IS_OPERATOR', ...CHANGED] },
    },
    handler: c.approve,
  },
  {
    method: 'post',
    path: '/cash-sessions/:id/reopen',
    tag: TAG,
    summary:
      'A supervisor reopens a counted session (a closed day) with a reason; its close is withdrawn and counted again at the next close',
    scope: SUPERVISE,
    schema: s.reopen,
    idempotent: true,
    responses: { body: CashSession, errors: { 404: NOT_FOUND, 409: ['CASH_SESSION_OPEN', 'CASH_SESSION_ALREADY_OPEN', ...CHANGED] } },
    handler: c.reopen,
  },
  {
    method: 'get',
    path: '/cash-sessions/:id',
    tag: TAG,
    summary: 'One cash session with its movements (running expected figures only for a supervisor while open)',
    scope: READ,
    schema: s.byId,
    responses: { body: CashSession, errors: { 404: NOT_FOUND } },
    handler: c.detail,
  },
]);
