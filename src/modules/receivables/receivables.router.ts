import { Joi } from '../../core/http/schema';
import { defineRoutes } from '../../core/http/route';
import * as c from './receivables.controller';
import { CustomerStatement, ReceiptResult, ReceivableAuditTrail, ReceivableDetail, ReceivableList } from './receivables.responses';
import { receivableSchemas as s } from './receivables.schemas';

const READ = 'receivables:read';
const WRITE = 'receivables:write';
const TAG = 'Accounts receivable';

const NOT_FOUND = ['RECEIVABLE_NOT_FOUND'];

/** Literal segments first; `/receivables/:filialId` (the list) last. */
export const receivableRoutes = defineRoutes([
  {
    method: 'get',
    path: '/receivables/detail/:id',
    tag: TAG,
    summary: 'A receivable with its receipts (reversed ones included)',
    scope: READ,
    schema: s.detail,
    responses: { body: ReceivableDetail, errors: { 404: NOT_FOUND } },
    handler: c.detail,
  },
  {
    method: 'get',
    path: '/receivables/audit/:id',
    tag: TAG,
    summary: 'The audit trail of a receivable and its receipts, creation included',
    scope: READ,
    schema: s.audit,
    responses: { body: ReceivableAuditTrail, errors: { 404: NOT_FOUND } },
    handler: c.audit,
  },
  {
    method: 'post',
    path: '/receivables/receive/:id',
    tag: TAG,
    summary: 'Register a receipt (amount settled, date, method, interest, fine, discount, note)',
    scope: WRITE,
    schema: s.receive,
    idempotent: true,
    status: 201,
    responses: {
      body: ReceiptResult,
      errors: {
        404: NOT_FOUND,
        409: ['RECEIVABLE_CANCELLED', 'RECEIVABLE_ALREADY_RECEIVED'],
        422: ['RECEIPT_DATE_IN_FUTURE', 'RECEIPT_EXCEEDS_BALANCE', 'PAYMENT_METHOD_NOT_FOUND', 'PAYMENT_METHOD_INACTIVE'],
      },
    },
    handler: c.receive,
  },
  {
    method: 'post',
    path: '/receivables/reverse-receipt/:receiptId',
    tag: TAG,
    summary: 'Reverse a receipt (with a reason): received amount and status follow',
    scope: WRITE,
    schema: s.reverseReceipt,
    idempotent: true,
    responses: {
      body: ReceiptResult,
      errors: { 404: ['RECEIPT_NOT_FOUND', ...NOT_FOUND], 409: ['RECEIPT_ALREADY_REVERSED', 'RECEIVABLE_OPEN', 'RECEIVABLE_CANCELLED'] },
    },
    handler: c.reverse,
  },
  {
    method: 'get',
    path: '/receivables/statement/:filialId',
    tag: TAG,
    summary: "A customer's statement: their receivables with receipts, totals, aging, and the credits their returns left",
    scope: READ,
    schema: s.statement,
    responses: { body: CustomerStatement, errors: { 404: ['CUSTOMER_NOT_FOUND'] } },
    handler: c.statement,
  },
  {
    method: 'get',
    path: '/receivables/export/:filialId',
    tag: TAG,
    summary: 'The list as CSV (the same filters, every row)',
    scope: READ,
    schema: s.exportCsv,
    responses: {
      body: Joi.string().description('CSV, comma-separated, CRLF, header row first').example('id,filialId,debtorType\r\n'),
      contentType: 'text/csv',
    },
    handler: c.exportCsv,
  },
  {
    method: 'get',
    path: '/receivables/:filialId',
    tag: TAG,
    summary: 'Receivables of a filial (filters, totals and aging, paginated)',
    scope: READ,
    schema: s.list,
    responses: { body: ReceivableList },
    handler: c.list,
  },
]);
