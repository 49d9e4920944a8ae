import Joi from 'joi';
import { hashid, named, obj, oneOf, timestamp } from '../../core/http/response-schema';
import { SPED_FILE_STATUSES } from './entities/sped-file.entity';

/* Response bodies of /sped/efd-icms-ipi (mirror sped.mapper.ts). */

const Finding = named(
  'SpedFinding',
  obj({
    severity: oneOf('BLOCKING', 'WARNING'),
    code: Joi.string().example('E116_VS_E110'),
    message: Joi.string().example('Σ E116 VL_OR 10,00 ≠ E110 VL_ICMS_RECOLHER + DEB_ESP 12,00'),
    register: Joi.string().optional().example('E110'),
    line: Joi.number().integer().optional().example(48),
  }),
);

export const SpedFileResponse = named(
  'SpedFile',
  obj({
    id: hashid('sped-file'),
    filialId: hashid('filial'),
    period: Joi.string().example('2026-11'),
    finalidade: Joi.string().example('0'),
    perfil: Joi.string().example('A'),
    inventoryCountId: hashid('inventory-count').allow(null),
    status: oneOf(...SPED_FILE_STATUSES).description('QUEUED → RUNNING → READY (released) or BLOCKED (blocking findings); FAILED'),
    layoutVersion: Joi.string().allow(null).example('020'),
    lineCount: Joi.number().integer().allow(null).example(214),
    sha256: Joi.string().allow(null).example('9f2c0e5b1d…'),
    findings: Joi.array().items(Finding),
    blocking: Joi.number().integer().example(0),
    warnings: Joi.number().integer().example(2),
    error: Joi.string().allow(null),
    requestedBy: Joi.string().example('maria.souza'),
    finishedAt: timestamp().allow(null),
    createdAt: timestamp(),
  }),
);

export const SpedFileText = Joi.string().description('the EFD ICMS/IPI file: ISO-8859-1, CRLF');

const TraceDoc = obj({
  kind: Joi.string().example('NFE'),
  id: Joi.string().allow(null).description('the document’s hashid (invoice, nfce, entry-document, cte, inventory-count)'),
  model: Joi.string().example('55'),
  series: Joi.string().example('1'),
  number: Joi.string().example('1234'),
  accessKey: Joi.string().allow(null),
  situation: Joi.string().example('00'),
});

const TraceItem = obj({
  description: Joi.string().example('Cerveja Pilsen lata 350 ml'),
  cfop: Joi.string().example('5102'),
  cst: Joi.string().example('000'),
  rate: Joi.string().example('18.00'),
  operationValue: Joi.string().example('120.50'),
  icmsBase: Joi.string().example('120.50'),
  icms: Joi.string().example('21.69'),
  st: Joi.string().example('0.00'),
  ipi: Joi.string().example('0.00'),
});

export const SpedTrace = named(
  'SpedTrace',
  obj({
    fileId: hashid('sped-file'),
    line: Joi.number().integer().example(31),
    register: Joi.string().example('C190'),
    fields: Joi.array().items(Joi.string().allow('')),
    sources: Joi.array().items(
      obj({
        ref: Joi.string().example('NFE:12'),
        document: TraceDoc.allow(null),
        lineNumber: Joi.number().integer().allow(null),
        item: TraceItem.allow(null),
      }),
    ),
    derivedFrom: Joi.array()
      .items(obj({ line: Joi.number().integer(), register: Joi.string() }))
      .description('for totals (E110…): the file lines they sum'),
  }),
);
