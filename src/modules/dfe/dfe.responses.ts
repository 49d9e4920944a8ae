import { CNPJ_PATTERN } from '../../core/br-documents';
import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, page, timestamp } from '../../core/http/response-schema';
import { accessKey, NfeInboundResponse as NfeInbound } from '../inbound-nfe';
import { SefazCertificateResponse as Certificate } from '../sefaz';

/** Response bodies of the DF-e routes (dfe.mapper.ts, dfe-schedule.mapper.ts); the certificate's is sefaz's. */

const nsu = () =>
  Joi.string()
    .pattern(/^\d{15}$/)
    .description('NSU, 15 digits')
    .example('000000000004521');
const cStat = () => Joi.string().example('138');
const xMotivo = () => Joi.string().example('Documento localizado');
const cnpj = () => Joi.string().pattern(CNPJ_PATTERN).example('11222333000181');

export const SyncResult = named(
  'DfeSyncResult',
  obj({
    received: Joi.number().integer().description('documents received in this sync').example(37),
    ultNSU: nsu(),
    maxNSU: nsu(),
    cStat: cStat().allow(null).example('137'),
    xMotivo: xMotivo().allow(null).example('Nenhum documento localizado'),
    nextAllowedAt: timestamp().allow(null).description('the authority asks to wait until then (cStat 137/656)'),
    calls: Joi.number().integer().example(1),
    stored: obj({
      summaries: Joi.number().integer().example(12),
      documents: Joi.number().integer().example(20),
      events: Joi.number().integer().example(5),
      cancellations: Joi.number().integer().example(0),
    }),
    gaps: obj({ filled: Joi.number().integer().example(0), pendingNsus: Joi.number().integer().example(0) }),
    skipped: Joi.array().items(
      obj({ nsu: nsu().allow(null), kind: Joi.string().example('resEvento'), accessKey: accessKey().allow(null), reason: Joi.string() }),
    ),
  }),
);

export const KeyQuery = named(
  'SefazKeyQuery',
  obj({ cStat: cStat(), xMotivo: xMotivo(), received: Joi.number().integer().example(1), inbound: NfeInbound.allow(null) }),
);

export const Manifestation = named(
  'SefazManifestation',
  obj({
    cStat: cStat().example('135'),
    xMotivo: xMotivo().example('Evento registrado e vinculado a NF-e'),
    protocol: Joi.string().allow(null).example('135260000654321'),
    registeredAt: Joi.string().allow(null).description("the authority's dhRegEvento, as sent").example('2026-03-14T10:22:31-03:00'),
    alreadyRegistered: Joi.boolean().description('573: the event was already registered'),
    inbound: NfeInbound,
  }),
);

export const Download = named(
  'SefazDownload',
  obj({
    downloaded: Joi.boolean(),
    cStat: cStat().allow(null).description('null when the XML was already stored (no call)'),
    xMotivo: xMotivo().allow(null),
    ciencia: obj({
      cStat: cStat().example('135'),
      xMotivo: xMotivo(),
      protocol: Joi.string().allow(null).example('135260000654321'),
      alreadyRegistered: Joi.boolean(),
    })
      .allow(null)
      .description('the CIENCIA sent first (autoCiencia)'),
    inbound: NfeInbound,
  }),
);

export const DfeState = named(
  'DfeState',
  obj({
    filialId: hashid('filial'),
    ultNSU: nsu(),
    maxNSU: nsu(),
    lastCStat: cStat().allow(null),
    lastXMotivo: xMotivo().allow(null),
    lastSyncAt: timestamp().allow(null),
    nextAllowedAt: timestamp().allow(null),
    pendingGaps: Joi.array().items(Joi.array().items(nsu()).length(2)).description('[first, last] NSU ranges still missing'),
    syncRunning: Joi.boolean(),
    endpoints: obj({
      label: Joi.string().example('SVRS homologação'),
      distribution: Joi.string().example('https://hom1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx'),
      events: Joi.string().example('https://hom1.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx'),
    }),
    certificate: Certificate.allow(null),
  }),
);

export const DfeSchedule = named(
  'DfeSchedule',
  obj({
    filialId: hashid('filial'),
    cnpj: cnpj(),
    settings: obj({ enabled: Joi.boolean(), intervalMinutes: Joi.number().integer().example(60), autoCiencia: Joi.boolean() }),
    hasCertificate: Joi.boolean(),
    status: oneOf('DISABLED', 'NO_CERTIFICATE', 'RUNNING', 'SCHEDULED'),
    nextRunAt: timestamp().allow(null),
    nextAllowedAt: timestamp().allow(null),
    lastRun: obj({
      startedAt: timestamp(),
      finishedAt: timestamp().allow(null),
      outcome: oneOf('OK', 'PARTIAL', 'WAITING', 'BLOCKED', 'NO_CERTIFICATE', 'ERROR').allow(null),
      cStat: cStat().allow(null),
      message: Joi.string().allow(null),
      documentsReceived: Joi.number().integer().example(37),
      ciencias: Joi.number().integer().example(3),
    }).allow(null),
    runs: Joi.number().integer().example(128),
    documentsReceived: Joi.number().integer().example(4521),
    errors: obj({
      consecutive: Joi.number().integer().example(0),
      lastAt: timestamp().allow(null),
      lastCode: Joi.string().allow(null).example('SEFAZ_TIMEOUT'),
    }),
    anotherSystemConsuming: obj({
      detected: Joi.boolean(),
      lastDetectedAt: timestamp().allow(null),
      reason: Joi.string().allow(null),
      detections: Joi.number().integer().example(0),
    }).description("another system is consuming this CNPJ's DF-e feed"),
    nsu: obj({ ultNSU: nsu(), maxNSU: nsu(), pendingGapNsus: Joi.number().integer().example(0) }),
    running: obj({ by: Joi.string().example('scheduler@host-1'), leaseUntil: timestamp() }).allow(null),
    cienciaRefusals: Joi.array()
      .items(obj({ accessKey: accessKey(), cStat: cStat().allow(null).example('596'), message: Joi.string(), at: timestamp() }))
      .description('recent CIENCIA refusals'),
  }),
);
export const DfeScheduleList = named('DfeScheduleList', obj({ data: Joi.array().items(DfeSchedule) }));

export const DfeLog = named(
  'DfeLogEntry',
  obj({
    at: timestamp(),
    service: oneOf('DIST_DFE', 'RECEPCAO_EVENTO'),
    operation: Joi.string().example('distNSU'),
    endpoint: Joi.string().example('https://hom1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx'),
    attempt: Joi.number().integer().example(1),
    httpStatus: Joi.number().integer().allow(null).example(200),
    cStat: cStat().allow(null),
    xMotivo: xMotivo().allow(null),
    error: Joi.string().allow(null),
    durationMs: Joi.number().integer().example(412),
    request: Joi.string().optional().description('the SOAP envelope sent (?envelopes=true)'),
    response: Joi.string().allow(null).optional().description('the SOAP envelope received (?envelopes=true)'),
  }),
);
export const DfeLogPage = page('DfeLogPage', DfeLog);

export const InboundConsultation = named(
  'InboundConsultation',
  obj({
    outcome: oneOf('CONFIRMED', 'NOT_FOUND', 'CANCELLED', 'DENIED', 'DIGEST_MISMATCH').description(
      "CONFIRMED: authorized, and its digVal is this document's DigestValue",
    ),
    cStat: Joi.string().example('100'),
    xMotivo: Joi.string().example('Autorizado o uso da NF-e'),
    protocol: Joi.string().allow(null).example('135260000123456'),
    inbound: NfeInbound,
  }),
);
