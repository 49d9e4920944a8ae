import { Joi } from '../../core/http/schema';
import { date, hashid, named, obj, oneOf, page, Pagination, timestamp } from '../../core/http/response-schema';
import { accessKey, NfeInbound } from './nfe.responses';

/** Response bodies of the NF-e volume routes (nfe-volume.mapper.ts). */

const batchJobKeys = {
  id: hashid('nfe-batch'),
  filialId: hashid('filial'),
  status: oneOf('QUEUED', 'RUNNING', 'DONE', 'FAILED'),
  format: oneOf('ZIP', 'MULTIPART'),
  progress: obj({
    done: Joi.number().integer().example(840),
    total: Joi.number().integer().example(1200),
    percent: Joi.number().integer().example(70),
  }),
  counts: obj({
    staged: Joi.number().integer().example(812),
    duplicates: Joi.number().integer().example(20),
    invalid: Joi.number().integer().example(8),
    pending: Joi.number().integer().example(360),
  }),
  error: Joi.string().allow(null).description('why the job FAILED'),
  createdBy: Joi.string().example('ana.souza'),
  createdAt: timestamp(),
  startedAt: timestamp().allow(null),
  finishedAt: timestamp().allow(null),
  links: obj({
    self: Joi.string().example('/api/entry-document/nfe/batch/k5Qb9Zr2/Xa7Lm3Qp'),
    stream: Joi.string().example('/api/entry-document/nfe/batch/stream/k5Qb9Zr2/Xa7Lm3Qp'),
  }),
};
export const NfeBatchJob = named('NfeBatchJob', obj(batchJobKeys));

export const NfeBatchFile = named(
  'NfeBatchFile',
  obj({
    seq: Joi.number().integer().example(17),
    name: Joi.string().example('NFe35260311222333000181550010000012341000012345-procNFe.xml'),
    size: Joi.number().integer().description('bytes').example(18432),
    kind: Joi.string().allow(null).description('what the file holds (NFE, CTE, EVENT…), once read').example('NFE'),
    outcome: oneOf('PENDING', 'STAGED', 'DUPLICATE', 'INVALID'),
    accessKey: accessKey().allow(null),
    inboundId: hashid('nfe-inbound').allow(null),
    cteId: hashid('cte').allow(null),
    problem: obj({
      code: Joi.string().example('NFE_RECIPIENT_MISMATCH'),
      message: Joi.string().allow(null).example('The NF-e is addressed to another CNPJ'),
    }).allow(null),
    message: Joi.string().allow(null),
    processedAt: timestamp().allow(null),
  }),
);

export const NfeBatchJobWithFiles = named('NfeBatchJobWithFiles', obj({ ...batchJobKeys, files: page('NfeBatchFilePage', NfeBatchFile) }));

export const ManifestationDeadlines = named(
  'NfeManifestationDeadlines',
  obj({
    rule: oneOf('GENERAL', 'FUEL_INTERNAL', 'FUEL_INTERSTATE', 'FUEL_INCENTIVE_AREA'),
    provisional: Joi.boolean().description('computed from a summary: may change when the full XML arrives'),
    authorizedAt: timestamp(),
    confirmacao: date().description('last day for CONFIRMACAO'),
    desconhecimento: date(),
    naoRealizada: date(),
    dueDate: date().description('the nearest open deadline'),
    daysLeft: Joi.number().integer().example(6),
    open: Joi.boolean().description('no conclusive manifestation yet'),
    lastAlertThreshold: Joi.number().integer().allow(null).description('days-left threshold of the last alert event').example(7),
  }),
);

export const InboundDeadlines = named('NfeInboundDeadlines', obj({ inbound: NfeInbound, deadlines: ManifestationDeadlines.allow(null) }));

export const DeadlinePage = named(
  'NfeManifestationDeadlinePage',
  obj({ today: date().description('today in Brasília'), data: Joi.array().items(InboundDeadlines), pagination: Pagination }),
);
