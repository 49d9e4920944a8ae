import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { NFE_XML_EXAMPLE } from '../../core/openapi/example-documents';
import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { PageRequest } from '../../core/pagination';
import type { ImportOptions } from './nfe-import.service';
import type { InboundListQuery } from './nfe-inbound.service';

/*
 * Request schemas. XML arrives as { xml } in JSON or as an application/xml / text/xml body (the
 * router turns the latter into { xml }); both are limited to 5 MB by the body parser.
 */

const XML_MAX = 5 * 1024 * 1024;
const xml = Joi.string().min(1).max(XML_MAX).description('The NF-e XML (nfeProc), exactly as received').example(NFE_XML_EXAMPLE);
const accessKey = Joi.string().trim().uppercase().pattern(ACCESS_KEY_PATTERN).message('{{#label}} must be the 44-character access key');

const itemOverride = Joi.object({
  lineNumber: Joi.number().integer().min(1).max(990).required().description('nItem of the invoice line'),
  productId: id('product').allow(null).description('own product for the line; null imports it without product'),
  conversionFactor: decimal('factor', { positive: true, max: 999999999 }).description('stock units per supplier unit'),
  saveMapping: Joi.boolean().default(false).description('save (product, factor) as the supplier map entry of this code'),
  ignored: Joi.boolean().description('keep the line without posting stock'),
});

const importOptions = {
  items: Joi.array().items(itemOverride).max(990),
  entryDate: isoDate(),
  notes: Joi.string().trim().max(2000).allow(null, ''),
};

const filialParam = Joi.object({ filialId: id('filial').required() });

type ByFilial = { params: { filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const nfeSchemas = {
  preview: typedSchema<{ body: { xml?: string; accessKey?: string } }>({ body: Joi.object({ xml, accessKey }).xor('xml', 'accessKey') }),
  previewImport: typedSchema<{ body: { xml?: string; accessKey?: string } & ImportOptions }>({
    body: Joi.object({ xml, accessKey, ...importOptions }).xor('xml', 'accessKey'),
  }),
  stageXml: typedSchema<{ body: { xml: string } }>({ body: Joi.object({ xml: xml.required() }) }),
  importXml: typedSchema<{ body: { xml: string } & ImportOptions }>({ body: Joi.object({ xml: xml.required(), ...importOptions }) }),
  importStaged: typedSchema<{ body: { inboundId?: number; accessKey?: string } & ImportOptions }>({
    body: Joi.object({ inboundId: id('nfe-inbound'), accessKey, ...importOptions }).xor('inboundId', 'accessKey'),
  }),
  list: typedSchema<ByFilial & { query: InboundListQuery }>({
    params: filialParam,
    query: Joi.object({
      ...pagination,
      sort: Joi.string().valid('issueDate', '-issueDate').default('-issueDate'),
      issuer: Joi.string().trim().min(1).max(150),
      issuedFrom: isoDate(),
      issuedTo: isoDate(),
      status: Joi.string().valid('AUTHORIZED', 'DENIED', 'CANCELLED'),
      manifestation: Joi.string().valid('NONE', 'CIENCIA', 'CONFIRMADA', 'DESCONHECIDA', 'NAO_REALIZADA'),
      importStatus: Joi.string().valid('PENDING', 'IMPORTED', 'IGNORED'),
      kind: Joi.string().valid('SUMMARY', 'FULL'),
      source: Joi.string().valid('SEFAZ', 'UPLOAD'),
      accessKey,
    }),
  }),
  pending: typedSchema<ByFilial & { query: PageRequest }>({ params: filialParam, query: Joi.object({ ...pagination }) }),
  detail: typedSchema<{ params: { id: number; filialId: number } }>({
    params: Joi.object({ id: id('nfe-inbound').required(), filialId: id('filial').required() }),
  }),
};
