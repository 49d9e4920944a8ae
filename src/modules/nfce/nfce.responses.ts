import { Joi } from '../../core/http/schema';
import { hashid, money, named, obj, page, timestamp } from '../../core/http/response-schema';

/** Response bodies of the /nfce routes (nfce.mapper.ts). */

export const NfceConfiguration = named(
  'NfceConfiguration',
  obj({
    filialId: hashid('filial'),
    configured: Joi.boolean().description('false: never saved (the filial issues no NFC-e)'),
    series: Joi.number().integer().allow(null).example(1),
    nextNumber: Joi.number().integer().allow(null).example(1),
    qrVersion: Joi.number().valid(2, 3).allow(null),
    cscId: Joi.number().integer().allow(null).example(1),
    cscConfigured: Joi.boolean().description('a CSC token is saved (never shown)'),
    qrCodeUrl: Joi.string().allow(null).example('https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode'),
    consultUrl: Joi.string().allow(null).example('https://www.homologacao.nfce.fazenda.sp.gov.br/consulta'),
    autoIssue: Joi.boolean(),
    syncTimeoutMs: Joi.number().integer().example(3000),
    identificationThreshold: money().allow(null),
    version: Joi.number().integer().example(1),
    updatedAt: timestamp().allow(null),
  }),
);

export const Nfce = named(
  'Nfce',
  obj({
    id: hashid('nfce'),
    filialId: hashid('filial'),
    salesOrderId: hashid('sales-order'),
    model: Joi.number().valid(65),
    series: Joi.number().integer().example(1),
    number: Joi.number().integer().example(7),
    accessKey: Joi.string().example('35261111222333000181650010000000071000012588'),
    onlineKey: Joi.string()
      .allow(null)
      .description("the online attempt's key, when it may have reached the authority before the note went to contingency"),
    original: obj({
      number: Joi.number().integer().example(6).description("the online attempt's number (the offline note took a new one)"),
      accessKey: Joi.string().example('35261111222333000181650010000000061000012580'),
      outcome: Joi.string()
        .valid('PENDING', 'SUBSTITUTED', 'VOIDED')
        .description(
          'SUBSTITUTED: authorized after all and cancelled by substitution (110112); VOIDED: never reached the authority, its number voided',
        ),
      protocol: Joi.string().allow(null).description('protocol of the 110112 event or of the voiding'),
    })
      .allow(null)
      .description('the online attempt the note replaced, when it may have reached the authority'),
    status: Joi.string().valid('SIGNED', 'AUTHORIZED', 'CONTINGENCY', 'REJECTED', 'CANCELLED'),
    contingency: Joi.boolean(),
    contingencyAt: timestamp().allow(null),
    contingencyReason: Joi.string().allow(null),
    issuedAt: timestamp(),
    total: money(),
    consumerDocument: Joi.string().allow(null),
    qrCodeUrl: Joi.string(),
    consultUrl: Joi.string(),
    protocol: Joi.string().allow(null),
    authorizedAt: timestamp().allow(null),
    cStat: Joi.string().allow(null),
    xMotivo: Joi.string().allow(null),
    version: Joi.number().integer(),
  }),
);

export const NfcePage = page('NfcePage', Nfce);
