import Joi from 'joi';
import { hashid, named, obj, oneOf, timestamp } from '../../core/http/response-schema';
import { FISCAL_PERIOD_STATUSES } from './entities/fiscal-period.entity';

/* Response bodies of /fiscal-periods (mirrors fiscal-periods.mapper.ts). */

const PENDING_KINDS = [
  'NFE_CANCELLABLE',
  'NFCE_CANCELLABLE',
  'CONTINGENCY_NOT_TRANSMITTED',
  'AWAITING_AUTHORITY',
  'EVENT_IN_FLIGHT',
  'DFE_NOT_MANIFESTED',
];

export const PeriodPendingDocument = named(
  'PeriodPendingDocument',
  obj({
    kind: oneOf(...PENDING_KINDS),
    model: Joi.number().integer().allow(null).example(55),
    series: Joi.number().integer().allow(null).example(1),
    number: Joi.number().integer().allow(null).example(1234),
    accessKey: Joi.string().allow(null).example('35261112345678000195550010000012341123456780'),
    resourceType: oneOf('invoice', 'nfce', 'nfe-inbound').allow(null),
    resourceId: Joi.string().allow(null).example('8kXz3AbQ'),
    until: timestamp().allow(null).description('when the window ends (null: it ends with the authority’s answer)'),
    reason: Joi.string().example('NF-e authorized less than 24 h ago: it may still be cancelled'),
  }),
);

const Acknowledged = obj({
  kind: oneOf(...PENDING_KINDS),
  model: Joi.number().integer().allow(null),
  series: Joi.number().integer().allow(null),
  number: Joi.number().integer().allow(null),
  accessKey: Joi.string().allow(null),
  reason: Joi.string(),
});

export const FiscalPeriod = named(
  'FiscalPeriod',
  obj({
    filialId: hashid('filial'),
    period: Joi.string().example('2026-11'),
    status: oneOf(...FISCAL_PERIOD_STATUSES).description(
      'OPEN: what is dated in the month may change; CLOSED: nothing dated in it changes (409 FISCAL_PERIOD_CLOSED)',
    ),
    closedAt: timestamp().allow(null),
    closedBy: Joi.string().allow(null).example('maria.souza'),
    closeCount: Joi.number().integer().example(1).description('times the month was closed'),
    acknowledged: Joi.array().items(Acknowledged).description('documents still inside a legal window the last close acknowledged (force)'),
    reopenedAt: timestamp().allow(null),
    reopenedBy: Joi.string().allow(null).example('joao.contador'),
    reopenReason: Joi.string().allow(null).example('Nota de devolução recebida do cliente após o fechamento'),
    version: Joi.number().integer().example(1).description('0 for a month never closed'),
  }),
);

export const FiscalPeriodDetail = named(
  'FiscalPeriodDetail',
  obj({
    period: FiscalPeriod,
    pending: Joi.array()
      .items(PeriodPendingDocument)
      .description('documents of the month inside a legal window now: the close refuses while there are any, unless force'),
  }),
);

export const FiscalPeriodList = named(
  'FiscalPeriodList',
  obj({ data: Joi.array().items(FiscalPeriod).description('every month of the range, newest first') }),
);
