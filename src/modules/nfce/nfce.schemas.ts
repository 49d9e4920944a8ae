import type { Dec } from '../../core/decimal';
import { decimal, document, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { NfceConfigurationInput } from './configuration.service';
import type { NfceStatus } from './entities/nfce-document.entity';
import type { NfceListQuery } from './query.service';

/* Request schemas of /nfce. */

const filialParams = Joi.object({ filialId: id('filial').required() });
const nfceParams = Joi.object({ id: id('nfce').required() });
const url = Joi.string()
  .trim()
  .uri({ scheme: ['http', 'https'] })
  .max(255);

const NFCE_STATUSES: NfceStatus[] = ['SIGNED', 'AUTHORIZED', 'CONTINGENCY', 'REJECTED', 'CANCELLED'];

export const nfceSchemas = {
  list: typedSchema<{ params: { filialId: number }; query: NfceListQuery & PageRequest }>({
    params: filialParams,
    query: Joi.object({
      ...pagination,
      status: Joi.string().valid(...NFCE_STATUSES),
      issuedFrom: isoDate().description('issue date (dhEmi, São Paulo calendar day) from, inclusive'),
      issuedTo: isoDate().description('issue date to, inclusive'),
      series: Joi.number().integer().min(0).max(999).example(1).description('série of model 65'),
      number: Joi.number().integer().min(1).max(999_999_999).example(1).description('nNF'),
      accessKey: Joi.string()
        .pattern(/^\d{44}$/)
        .description('the 44-digit access key'),
      consumerDocument: document().description("the consumer's CPF/CNPJ on the note"),
      salesOrderId: id('sales-order').description('the quick sale the note is of'),
      search: Joi.string()
        .trim()
        .max(60)
        .allow('')
        .description('digits: a 44-digit access key, an 11/14-digit CPF/CNPJ (check digits valid), else the note number'),
    }),
  }),
  getConfiguration: typedSchema<{ params: { filialId: number } }>({ params: filialParams }),
  putConfiguration: typedSchema<{ params: { filialId: number }; body: NfceConfigurationInput }>({
    params: filialParams,
    body: Joi.object({
      series: Joi.number().integer().min(0).max(999).required().description('série of model 65 (an invoices série; created when new)'),
      nextNumber: Joi.number().integer().min(1).max(999_999_999).description('moves the série forward (never back)'),
      qrVersion: Joi.number().strict().valid(2, 3).default(3).description('2: QR code with the CSC hash (NT 2015.002); 3: NT 2025.001'),
      cscId: Joi.number()
        .integer()
        .min(1)
        .max(999_999)
        .allow(null)
        .default(null)
        .description('CSC identifier (idToken), required with qrVersion 2'),
      cscToken: Joi.string().trim().min(16).max(36).allow(null).default(null).description('the CSC itself, required with qrVersion 2'),
      qrCodeUrl: url.required().description("the UF's QR code consultation address (before ?p=)"),
      consultUrl: url.required().description("the UF's key consultation address (urlChave)"),
      autoIssue: Joi.boolean().default(false).description('issue an NFC-e with every quick sale of the filial'),
      syncTimeoutMs: Joi.number()
        .integer()
        .min(500)
        .max(30_000)
        .default(3000)
        .description('deadline of the synchronous transmission; after it the note is issued in offline contingency'),
      identificationThreshold: decimal('amount', { min: 0 })
        .allow(null)
        .default(null)
        .description("total above which the consumer's CPF/CNPJ is required (the UF's rule; null: none)"),
      version: Joi.number().integer().min(0).description('current version; omit on the first save'),
    }),
  }),
  byId: typedSchema<{ params: { id: number } }>({ params: nfceParams }),
  cancel: typedSchema<{ params: { id: number }; body: { justification: string } }>({
    params: nfceParams,
    body: Joi.object({ justification: Joi.string().trim().min(15).max(255).required().description('xJust, 15 to 255 characters') }),
  }),
  cancelOriginal: typedSchema<{ params: { id: number }; body: { justification: string } }>({
    params: nfceParams,
    body: Joi.object({
      justification: Joi.string()
        .trim()
        .min(15)
        .max(255)
        .required()
        .description('xJust of the 110112 event (used when the authority holds the online attempt)'),
    }),
  }),
};

export type ThresholdInput = Dec | null;
