import crypto from 'node:crypto';
import Joi from 'joi';
import { config, ConfigError } from './index';

/*
 * Tax-authority (SEFAZ) settings, validated like the core configuration (index.ts loads .env first).
 * Endpoints default to the national environment's published URLs (Ambiente Nacional, see
 * ../shared/docs/sefaz-protocol.md §1); a filial may be pointed elsewhere (the local simulator) by a
 * row of its own, never by editing these.
 */
const AN = {
  distProduction: 'https://www1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
  distHomologation: 'https://hom1.nfe.fazenda.gov.br/NFeDistribuicaoDFe/NFeDistribuicaoDFe.asmx',
  eventProduction: 'https://www.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx',
  eventHomologation: 'https://hom1.nfe.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx',
};

const url = () => Joi.string().uri({ scheme: ['https'] });

const schema = Joi.object({
  CERT_ENCRYPTION_KEY: Joi.string()
    .pattern(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/)
    .message('CERT_ENCRYPTION_KEY must be 32 bytes as 64 hex characters or base64')
    .when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional() }),
  SEFAZ_DIST_URL_PRODUCTION: url().default(AN.distProduction),
  SEFAZ_DIST_URL_HOMOLOGATION: url().default(AN.distHomologation),
  SEFAZ_EVENT_URL_PRODUCTION: url().default(AN.eventProduction),
  SEFAZ_EVENT_URL_HOMOLOGATION: url().default(AN.eventHomologation),
  SEFAZ_CA_FILE: Joi.string().description('PEM bundle trusted for the authority (e.g. the ICP-Brasil chain), added to the system roots'),
  SEFAZ_TIMEOUT_MS: Joi.number().integer().min(100).default(30_000),
  SEFAZ_RETRIES: Joi.number().integer().min(0).max(10).default(2),
  SEFAZ_RETRY_BASE_MS: Joi.number().integer().min(0).default(500),
  SEFAZ_KEEPALIVE_MS: Joi.number()
    .integer()
    .min(0)
    .default(4000)
    .description(
      "how long an idle connection to the authority is kept for the next call (0: one connection per call); below the authority's own keep-alive timeout",
    ),
  SEFAZ_MAX_PAGES: Joi.number().integer().min(1).max(200).default(20),
  SEFAZ_GAP_FILL_MAX: Joi.number().integer().min(0).max(100).default(20),
  SEFAZ_WAIT_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(3600)
    .description('wait after 137/656 or reaching maxNSU (the authority asks one hour; shorter only against the local simulator)'),
  SEFAZ_SIMULATOR: Joi.boolean().description(
    'start the local authority simulator with `npm start` (default: on for the embedded database outside production)',
  ),
  SEFAZ_SIMULATOR_PORT: Joi.number().port().default(0),
  SEFAZ_SIMULATOR_HOST: Joi.string().default('127.0.0.1'),
  SEFAZ_SIMULATOR_XSD_DIR: Joi.string().description(
    'the PL_010 schemas (nfe_v4.00.xsd…): the simulator validates each NF-e sent for authorization with xmllint and answers 225 with its message; unset: a structural check only',
  ),
  DFE_SCHEDULER: Joi.boolean().description('run the scheduled DF-e sync in this process (default: on, except in tests)'),
  DFE_SCHEDULER_TICK_SECONDS: Joi.number().integer().min(1).default(60).description('how often the scheduler looks for filiais due'),
  DFE_SCHEDULER_LEASE_SECONDS: Joi.number()
    .integer()
    .min(60)
    .default(900)
    .description("a replica's hold on a filial's run; a dead replica's expires after this"),
  DFE_SCHEDULER_CIENCIA_PER_RUN: Joi.number()
    .integer()
    .min(0)
    .max(1000)
    .default(100)
    .description('automatic ciências (autoCiencia) sent per filial and run'),
  SEFAZ_SIMULATOR_WAIT_SECONDS: Joi.number()
    .integer()
    .min(1)
    .default(60)
    .description(
      "the local simulator's quiet period and block after a caught-up sync (short, so the demo can sync again within a minute; the real authority's is SEFAZ_WAIT_SECONDS, one hour)",
    ),
})
  .unknown(true)
  .prefs({ convert: true });

// Development and tests get a fixed, clearly non-production key so a fresh clone works.
const DEV_KEY = crypto.createHash('sha256').update('dev-only-certificate-key-change-me').digest();

function loadSefazConfig(env: NodeJS.ProcessEnv) {
  const { value, error } = schema.validate(env, { abortEarly: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details[0].path.join('.')} — ${error.details[0].message}`);
  const rawKey = value.CERT_ENCRYPTION_KEY as string | undefined;
  const key = rawKey ? Buffer.from(rawKey, rawKey.length === 64 ? 'hex' : 'base64') : DEV_KEY;
  return Object.freeze({
    certificateKey: key,
    endpoints: Object.freeze({
      PRODUCTION: Object.freeze({ dist: value.SEFAZ_DIST_URL_PRODUCTION as string, event: value.SEFAZ_EVENT_URL_PRODUCTION as string }),
      HOMOLOGATION: Object.freeze({
        dist: value.SEFAZ_DIST_URL_HOMOLOGATION as string,
        event: value.SEFAZ_EVENT_URL_HOMOLOGATION as string,
      }),
    }),
    caFile: value.SEFAZ_CA_FILE as string | undefined,
    timeoutMs: value.SEFAZ_TIMEOUT_MS as number,
    retries: value.SEFAZ_RETRIES as number,
    retryBaseMs: value.SEFAZ_RETRY_BASE_MS as number,
    keepAliveMs: value.SEFAZ_KEEPALIVE_MS as number,
    maxPages: value.SEFAZ_MAX_PAGES as number,
    gapFillMax: value.SEFAZ_GAP_FILL_MAX as number,
    waitMs: (value.SEFAZ_WAIT_SECONDS as number) * 1000,
    scheduler: Object.freeze({
      enabled: (value.DFE_SCHEDULER as boolean | undefined) ?? config.env !== 'test',
      tickMs: (value.DFE_SCHEDULER_TICK_SECONDS as number) * 1000,
      leaseMs: (value.DFE_SCHEDULER_LEASE_SECONDS as number) * 1000,
      cienciaPerRun: value.DFE_SCHEDULER_CIENCIA_PER_RUN as number,
    }),
    simulator: Object.freeze({
      enabled: (value.SEFAZ_SIMULATOR as boolean | undefined) ?? (config.db.engine === 'sqlite' && config.env !== 'production'),
      port: value.SEFAZ_SIMULATOR_PORT as number,
      host: value.SEFAZ_SIMULATOR_HOST as string,
      waitMs: (value.SEFAZ_SIMULATOR_WAIT_SECONDS as number) * 1000,
      xsdDir: (value.SEFAZ_SIMULATOR_XSD_DIR as string | undefined) ?? null,
    }),
  });
}

export type SefazConfig = ReturnType<typeof loadSefazConfig>;

export const sefazConfig: SefazConfig = loadSefazConfig(process.env);

/** For tests of the validation itself. */
export const validateSefazConfig = loadSefazConfig;
