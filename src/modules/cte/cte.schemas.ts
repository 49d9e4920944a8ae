import { ACCESS_KEY_PATTERN } from '../../core/br-documents';
import { CTE_XML_EXAMPLE } from '../../core/openapi/example-documents';
import { decimal, id, isoDate, Joi, pagination } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { ApportionOptions } from './apportion.service';
import type { CteListQuery } from './cte.service';

/*
 * Request schemas. XML arrives as { xml } in JSON or as an application/xml / text/xml body (the
 * router turns the latter into { xml }); the body parser limits both, as for NF-e.
 */

const XML_MAX = 5 * 1024 * 1024;
const xml = Joi.string().min(1).max(XML_MAX).description('The CT-e XML (cteProc 4.00), exactly as received').example(CTE_XML_EXAMPLE);
// The one access-key rule (NF-e and CT-e): digits, letters where the CNPJ is alphanumeric (NT 2025.001).
const accessKey = Joi.string().trim().uppercase().pattern(ACCESS_KEY_PATTERN).message('{{#label}} must be the 44-character access key');
const cteParam = Joi.object({ id: id('cte').required() });

const apportionBody = {
  method: Joi.string()
    .valid('VALUE', 'WEIGHT', 'QUANTITY', 'MANUAL')
    .default('VALUE')
    .description('how the freight is split over the lines (default by value)'),
  lines: Joi.array()
    .items(
      Joi.object({
        itemId: id('entry-document-item').required().description('a line of a linked entry document'),
        weight: decimal('quantity', { min: 0, max: 99999999999999 }).description("WEIGHT: the line's gross weight (kg)"),
        amount: decimal('amount', { min: 0, max: 9999999999999 }).description("MANUAL: the line's share of the freight"),
      }),
    )
    .max(5000),
  entryDate: isoDate().description("the freight's entry date (default today): the payable's due date when the CT-e has no installments"),
  ignoreUnbookedNfe: Joi.boolean()
    .default(false)
    .description('apportion over the booked NF-e even if some the CT-e carried are not booked'),
};

type ById = { params: { id: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts); the list filters the carrier as `issuer`. */
export const cteSchemas = {
  preview: typedSchema<{ body: { xml: string } }>({ body: Joi.object({ xml: xml.required() }) }),
  stageXml: typedSchema<{ body: { xml: string } }>({ body: Joi.object({ xml: xml.required() }) }),
  byId: typedSchema<ById>({ params: cteParam }),
  apportionPreview: typedSchema<ById & { body: Omit<ApportionOptions, 'version'> }>({ params: cteParam, body: Joi.object(apportionBody) }),
  apportion: typedSchema<ById & { body: ApportionOptions }>({
    params: cteParam,
    body: Joi.object({
      ...apportionBody,
      version: Joi.number().integer().min(1).description('the CT-e version read (409 when it moved on)'),
    }),
  }),
  cancel: typedSchema<ById & { body: { reason?: string | null; version?: number } }>({
    params: cteParam,
    body: Joi.object({
      reason: Joi.string().trim().max(255).allow(null, ''),
      version: Joi.number().integer().min(1).description('the CT-e version read (409 when it moved on)'),
    }),
  }),
  list: typedSchema<{ params: { filialId: number }; query: Omit<CteListQuery, 'issuer'> & { carrier?: string } }>({
    params: Joi.object({ filialId: id('filial').required() }),
    query: Joi.object({
      ...pagination,
      sort: Joi.string().valid('issueDate', '-issueDate').default('-issueDate'),
      status: Joi.string().valid('RECEIVED', 'APPORTIONED', 'CANCELLED'),
      carrier: Joi.string().trim().min(1).max(150).description('carrier CNPJ (prefix) or name'),
      issuedFrom: isoDate(),
      issuedTo: isoDate(),
      accessKey,
      nfeKey: accessKey.description('CT-e that carried this NF-e'),
    }),
  }),
};
