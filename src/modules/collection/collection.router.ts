import { defineRoutes } from '../../core/http/route';
import * as c from './collection.controller';
import { BankAccount, BankAccountList } from './collection.responses';
import { collectionSchemas as s } from './collection.schemas';

const READ = 'collection:read';
const WRITE = 'collection:write';
const TAG = 'Collection';
const ACCOUNT_NOT_FOUND = ['BANK_ACCOUNT_NOT_FOUND'];
const METHOD = ['PAYMENT_METHOD_NOT_FOUND', 'PAYMENT_METHOD_INACTIVE'];

/** Literal paths before parameterized ones. */
export const collectionRoutes = defineRoutes([
  {
    method: 'post',
    path: '/collection/bank-accounts',
    tag: TAG,
    summary: "A filial's collection account at a bank (agência/conta checked by the bank's check-digit rules, carteira, convênio, CNAB layout, defaults of its boletos, Pix key)",
    scope: WRITE,
    schema: s.createAccount,
    idempotent: true,
    status: 201,
    responses: { body: BankAccount, errors: { 422: METHOD } },
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
    summary: 'Edit an account (with its version); bank, agência, conta, carteira, convênio and layout are fixed once it has boletos; the next nosso número only moves forward',
    scope: WRITE,
    schema: s.updateAccount,
    idempotent: true,
    responses: { body: BankAccount, errors: { 404: ACCOUNT_NOT_FOUND, 409: ['STALE_VERSION'], 422: ['BANK_ACCOUNT_IN_USE', 'NOSSO_NUMERO_ALREADY_ISSUED', ...METHOD] } },
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
]);
