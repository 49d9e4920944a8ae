import { defineRoutes } from '../../core/http/route';
import * as c from './pix.controller';
import {
  PixCharge,
  PixChargeList,
  PixPayment,
  PixPaymentPage,
  PixPspConnection,
  PixRefundResult,
  PixSync,
  PixWebhookAck,
} from './pix.responses';
import { pixSchemas as s } from './pix.schemas';

const READ = 'collection:read';
const WRITE = 'collection:write';
const TAG = 'Collection: Pix';
const PSP = { 502: ['PSP_REJECTED', 'PSP_NOT_FOUND', 'PSP_AUTH_FAILED'], 503: ['PSP_UNAVAILABLE'], 504: ['PSP_TIMEOUT'] };
const METHOD = ['PAYMENT_METHOD_NOT_FOUND', 'PAYMENT_METHOD_INACTIVE'];

/** Pix collection (SPEC §14; docs/decisions/collection-pix.md). Literal paths before parameterized ones. */
export const pixRoutes = defineRoutes([
  {
    method: 'put',
    path: '/collection/pix/connections/:bankAccountId',
    tag: TAG,
    summary:
      "How a bank account reaches its PSP's API Pix: base URL, OAuth2 client credentials (the secret sealed, never answered), the webhook's shared secret, and the webhook registered for the account's key (PUT /webhook/{chave}) when webhookBaseUrl is given",
    scope: WRITE,
    schema: s.putConnection,
    responses: {
      body: PixPspConnection,
      alsoStatus: 201,
      errors: { 404: ['BANK_ACCOUNT_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'], 422: ['PIX_KEY_REQUIRED', ...METHOD], ...PSP },
    },
    handler: c.putPspConnection,
  },
  {
    method: 'get',
    path: '/collection/pix/connections/:bankAccountId',
    tag: TAG,
    summary: "A bank account's PSP connection (no secrets)",
    scope: READ,
    schema: s.connection,
    responses: { body: PixPspConnection, errors: { 404: ['BANK_ACCOUNT_NOT_FOUND', 'PIX_PSP_NOT_CONFIGURED'] } },
    handler: c.pspConnection,
  },
  {
    method: 'get',
    path: '/collection/pix/charges/:id',
    tag: TAG,
    summary: 'A Pix charge with its BR Code, the Pix that paid it and their refunds',
    scope: READ,
    schema: s.charge,
    responses: { body: PixCharge, errors: { 404: ['PIX_CHARGE_NOT_FOUND'] } },
    handler: c.pixCharge,
  },
  {
    method: 'post',
    path: '/collection/pix/charges/:id/sync',
    tag: TAG,
    summary:
      'Read a charge again from the PSP (what a webhook triggers): its status, and each Pix of it applied once (a receipt, or kept for review)',
    scope: WRITE,
    schema: s.charge,
    idempotent: 'own-transactions',
    responses: { body: PixSync, errors: { 404: ['PIX_CHARGE_NOT_FOUND', 'PIX_PSP_NOT_CONFIGURED', 'BANK_ACCOUNT_NOT_FOUND'], ...PSP } },
    handler: c.syncPixCharge,
  },
  {
    method: 'get',
    path: '/collection/pix/payments/list/:filialId',
    tag: TAG,
    summary:
      "A filial's Pix received, newest first; status=REVIEW lists the ones kept for a person (settled receivable, bolePix paid by barcode, above the balance, unknown txid)",
    scope: READ,
    schema: s.payments,
    responses: { body: PixPaymentPage },
    handler: c.pixPayments,
  },
  {
    method: 'get',
    path: '/collection/pix/payments/:id',
    tag: TAG,
    summary: 'A Pix received: what it paid, the receipt it became or why it is kept for review, its refunds',
    scope: READ,
    schema: s.payment,
    responses: { body: PixPayment, errors: { 404: ['PIX_PAYMENT_NOT_FOUND'] } },
    handler: c.pixPayment,
  },
  {
    method: 'post',
    path: '/collection/pix/payments/:id/refund',
    tag: TAG,
    summary:
      'Refund a Pix received (devolução through the PSP); once the PSP returns it, its receipt is reversed (and, when partial, replaced by one of what stays)',
    scope: WRITE,
    schema: s.refund,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: PixRefundResult,
      errors: {
        404: ['PIX_PAYMENT_NOT_FOUND'],
        409: ['PIX_PAYMENT_REFUNDED'],
        422: ['PIX_REFUND_EXCEEDS_PAYMENT', 'PIX_PSP_NOT_CONFIGURED'],
        ...PSP,
      },
    },
    handler: c.refundPixPayment,
  },
  {
    method: 'post',
    path: '/receivables/:id/pix',
    tag: TAG,
    summary:
      'A Pix charge for a receivable: a static BR Code (key, amount, txid; no PSP), an immediate charge (cob) or one with a due date, fine, interest and discount (cobv) at the bank account’s PSP; answers the charge with its BR Code',
    scope: WRITE,
    schema: s.createCharge,
    idempotent: 'own-transactions',
    status: 201,
    responses: {
      body: PixCharge,
      errors: {
        404: ['RECEIVABLE_NOT_FOUND', 'BANK_ACCOUNT_NOT_FOUND'],
        409: ['RECEIVABLE_ALREADY_RECEIVED', 'RECEIVABLE_CANCELLED'],
        422: [
          'PIX_AMOUNT_EXCEEDS_BALANCE',
          'BANK_ACCOUNT_OTHER_FILIAL',
          'BANK_ACCOUNT_INACTIVE',
          'PIX_KEY_REQUIRED',
          'PIX_PSP_NOT_CONFIGURED',
          'PIX_DUE_DATE_PAST',
          'PIX_DEBTOR_DOCUMENT_REQUIRED',
          'PIX_DISCOUNT_TOO_LARGE',
          'PIX_DISCOUNT_AFTER_DUE_DATE',
          'BR_CODE_INVALID',
        ],
        ...PSP,
      },
    },
    handler: c.createPixCharge,
  },
  {
    method: 'get',
    path: '/receivables/:id/pix',
    tag: TAG,
    summary: "A receivable's Pix charges, with the Pix that paid them",
    scope: READ,
    schema: s.receivableCharges,
    responses: { body: PixChargeList, errors: { 404: ['RECEIVABLE_NOT_FOUND'] } },
    handler: c.receivablePixCharges,
  },
  {
    method: 'post',
    path: '/webhooks/pix/:accountId/pix',
    tag: TAG,
    summary:
      "The PSP's Pix callback (the URL registered for the account's key + /pix). No token: it must carry the account's shared secret in x-pix-webhook-secret (added by the proxy that terminates the PSP's mTLS). Only a trigger: each charge or Pix it names is read again from the PSP and applied once",
    public: true,
    schema: s.webhook,
    // Idempotent by each Pix's endToEndId (applied once however often the PSP calls); no tenant, so no Idempotency-Key is kept.
    idempotent: 'own-transactions',
    responses: { body: PixWebhookAck, errors: { 403: ['PIX_WEBHOOK_SECRET_MISMATCH'], ...PSP } },
    handler: c.pixWebhook,
  },
]);
