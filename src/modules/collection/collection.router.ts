import { defineRoutes } from '../../core/http/route';
import * as c from './collection.controller';
import Joi from 'joi';
import { BankAccount, BankAccountList, Boleto, BoletoList, Remittance, ReturnReport } from './collection.responses';
import { collectionSchemas as s } from './collection.schemas';

const READ = 'collection:read';
const WRITE = 'collection:write';
const TAG = 'Collection';
const ACCOUNT_NOT_FOUND = ['BANK_ACCOUNT_NOT_FOUND'];
const METHOD = ['PAYMENT_METHOD_NOT_FOUND', 'PAYMENT_METHOD_INACTIVE'];
const BOLETO_NOT_FOUND = ['BOLETO_NOT_FOUND'];

/** Literal paths before parameterized ones. */
export const collectionRoutes = defineRoutes([
  {
    method: 'post',
    path: '/collection/bank-accounts',
    tag: TAG,
    summary:
      "A filial's collection account at a bank (agência/conta checked by the bank's check-digit rules, carteira, convênio, CNAB layout, defaults of its boletos, Pix key)",
    scope: WRITE,
    schema: s.createAccount,
    idempotent: true,
    status: 201,
    responses: { body: BankAccount, errors: { 422: ['LAYOUT_NOT_OFFERED', ...METHOD] } },
    handler: c.createAccount,
  },
  {
    method: 'get',
    path: '/collection/bank-accounts',
    tag: TAG,
    summary: 'The collection accounts of the filiais the token grants (or of one filial)',
    scope: READ,
    schema: s.listAccounts,
    responses: { body: BankAccountList },
    handler: c.listAccounts,
  },
  {
    method: 'get',
    path: '/collection/bank-accounts/:id',
    tag: TAG,
    summary: 'One collection account with its next nosso número and remessa number',
    scope: READ,
    schema: s.account,
    responses: { body: BankAccount, errors: { 404: ACCOUNT_NOT_FOUND } },
    handler: c.account,
  },
  {
    method: 'patch',
    path: '/collection/bank-accounts/:id',
    tag: TAG,
    summary:
      'Edit an account (with its version); bank, agência, conta, carteira, convênio and layout are fixed once it has boletos; the next nosso número only moves forward',
    scope: WRITE,
    schema: s.updateAccount,
    idempotent: true,
    responses: {
      body: BankAccount,
      errors: {
        404: ACCOUNT_NOT_FOUND,
        409: ['STALE_VERSION'],
        422: ['BANK_ACCOUNT_IN_USE', 'NOSSO_NUMERO_ALREADY_ISSUED', 'LAYOUT_NOT_OFFERED', ...METHOD],
      },
    },
    handler: c.updateAccount,
  },
  {
    method: 'delete',
    path: '/collection/bank-accounts/:id',
    tag: TAG,
    summary: 'Delete an account that never had a boleto (one with boletos is deactivated instead)',
    scope: WRITE,
    schema: s.account,
    idempotent: true,
    status: 204,
    responses: { errors: { 404: ACCOUNT_NOT_FOUND, 422: ['BANK_ACCOUNT_IN_USE'] } },
    handler: c.deleteAccount,
  },
  {
    method: 'get',
    path: '/collection/boletos/:id/pdf',
    tag: TAG,
    summary: 'The boleto as PDF (application/pdf): recibo do pagador and ficha de compensação with the Interleaved 2 of 5 barcode',
    scope: READ,
    schema: s.boleto,
    responses: {
      body: Joi.string().meta({ format: 'binary' }).description('the boleto (PDF)'),
      contentType: 'application/pdf',
      errors: { 404: BOLETO_NOT_FOUND },
    },
    handler: c.pdf,
  },
  {
    method: 'post',
    path: '/collection/boletos/:id/instructions',
    tag: TAG,
    summary: 'Ask the bank to change the due date or value, write off or protest a registered title: the next remessa carries it',
    scope: WRITE,
    schema: s.instruct,
    idempotent: true,
    status: 201,
    responses: {
      body: Boleto,
      errors: {
        404: BOLETO_NOT_FOUND,
        409: [
          'BOLETO_PENDING_REGISTRATION',
          'BOLETO_REFUSED',
          'BOLETO_PAID',
          'BOLETO_WRITTEN_OFF',
          'BOLETO_PROTESTED',
          'BOLETO_CANCELLED',
          'INSTRUCTION_ALREADY_PENDING',
        ],
        422: ['BOLETO_DUE_DATE_PAST', 'BOLETO_AMOUNT_ABOVE_BALANCE', 'INSTRUCTION_NOT_IN_LAYOUT'],
      },
    },
    handler: c.instruct,
  },
  {
    method: 'post',
    path: '/collection/boletos/:id/cancel',
    tag: TAG,
    summary: 'Withdraw a boleto no remessa has carried yet',
    scope: WRITE,
    schema: s.boleto,
    idempotent: true,
    responses: {
      body: Boleto,
      errors: {
        404: BOLETO_NOT_FOUND,
        409: [
          'BOLETO_REGISTERED',
          'BOLETO_REFUSED',
          'BOLETO_PAID',
          'BOLETO_PARTIALLY_PAID',
          'BOLETO_WRITTEN_OFF',
          'BOLETO_PROTESTED',
          'BOLETO_CANCELLED',
          'BOLETO_ALREADY_SENT',
        ],
      },
    },
    handler: c.cancel,
  },
  {
    method: 'get',
    path: '/collection/boletos/:id',
    tag: TAG,
    summary: 'One boleto: nosso número, barcode, linha digitável, status and pending instructions',
    scope: READ,
    schema: s.boleto,
    responses: { body: Boleto, errors: { 404: BOLETO_NOT_FOUND } },
    handler: c.boleto,
  },
  {
    method: 'post',
    path: '/receivables/:id/boleto',
    tag: TAG,
    summary:
      "Issue a registered boleto for what a receivable still owes, on a bank account of its filial: the next nosso número, barcode and linha digitável with the 2025 factor, the account's fine/interest/discount; the registration waits for the next remessa",
    scope: WRITE,
    schema: s.issueBoleto,
    idempotent: true,
    status: 201,
    responses: {
      body: Boleto,
      errors: {
        404: ['RECEIVABLE_NOT_FOUND', 'BANK_ACCOUNT_NOT_FOUND'],
        409: ['BOLETO_ALREADY_ISSUED', 'RECEIVABLE_ALREADY_RECEIVED', 'RECEIVABLE_CANCELLED'],
        422: [
          'BOLETO_NOT_FOR_ACQUIRER',
          'BANK_ACCOUNT_INACTIVE',
          'BANK_ACCOUNT_OTHER_FILIAL',
          'BOLETO_DUE_DATE_PAST',
          'PAYER_DOCUMENT_MISSING',
          'NOSSO_NUMERO_EXHAUSTED',
          'BR_CODE_INVALID',
        ],
      },
    },
    handler: c.issue,
  },
  {
    method: 'get',
    path: '/receivables/:id/boleto',
    tag: TAG,
    summary: "A receivable's boletos, newest first (a refused or cancelled one stays, beside the one issued after it)",
    scope: READ,
    schema: s.receivableBoletos,
    responses: { body: BoletoList, errors: { 404: ['RECEIVABLE_NOT_FOUND'] } },
    handler: c.receivableBoletos,
  },
  {
    method: 'post',
    path: '/collection/remittances',
    tag: TAG,
    summary:
      "A remessa (CNAB 240) of an account's pending instructions (register, change due date or value, write off, protest) with the account's next file number; no instruction goes in two files",
    scope: WRITE,
    schema: s.createRemittance,
    idempotent: true,
    status: 201,
    responses: { body: Remittance, errors: { 404: ACCOUNT_NOT_FOUND, 422: ['NO_PENDING_INSTRUCTIONS'] } },
    handler: c.remit,
  },
  {
    method: 'get',
    path: '/collection/remittances/:id/file',
    tag: TAG,
    summary: 'Download the remessa file as sent to the bank',
    scope: READ,
    schema: s.remittance,
    responses: {
      body: Joi.string().description('the CNAB file, 240 or 400 positions per record (the account’s layout), CRLF'),
      contentType: 'text/plain',
      errors: { 404: ['REMITTANCE_NOT_FOUND'] },
    },
    handler: c.remittanceFile,
  },
  {
    method: 'get',
    path: '/collection/remittances/:id',
    tag: TAG,
    summary: 'One remessa: its number, records and what it carries',
    scope: READ,
    schema: s.remittance,
    responses: { body: Remittance, errors: { 404: ['REMITTANCE_NOT_FOUND'] } },
    handler: c.remittance,
  },
  {
    method: 'post',
    path: '/collection/returns',
    tag: TAG,
    summary:
      'Upload a retorno (CNAB 240): each occurrence (bank, account, nosso número, code, date, amount) applied once — entrada → REGISTERED, rejeição → REFUSED, liquidação → a receipt with interest, fine, discount, bank fee and credit date; a repeat is DUPLICATE, a payment the receivable cannot take is FLAGGED; a file that does not parse applies nothing',
    scope: WRITE,
    schema: s.uploadReturn,
    idempotent: true,
    status: 201,
    responses: { body: ReturnReport, errors: { 404: ACCOUNT_NOT_FOUND } },
    handler: c.uploadReturn,
  },
]);
