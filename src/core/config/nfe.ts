import Joi from 'joi';
import { config, ConfigError } from './index';

/*
 * Inbound NF-e at volume: batch uploads (ZIP or multipart of XML files) and manifestation deadlines.
 * Validated like the core configuration (index.ts loads .env first).
 */
const schema = Joi.object({
  NFE_BATCH_MAX_UPLOAD_MB: Joi.number()
    .integer()
    .min(1)
    .max(1024)
    .default(64)
    .description('largest ZIP or multipart body accepted (413 above)'),
  NFE_BATCH_MAX_TOTAL_MB: Joi.number()
    .integer()
    .min(1)
    .max(4096)
    .default(512)
    .description('uncompressed size of all the files of one batch (ZIP bombs)'),
  NFE_BATCH_MAX_RATIO: Joi.number()
    .integer()
    .min(10)
    .max(10_000)
    .default(200)
    .description('largest compression ratio of a ZIP entry (ZIP bombs)'),
  NFE_BATCH_WORKER: Joi.boolean().description('resume batch jobs left by a stopped or dead process (default: on, except in tests)'),
  NFE_BATCH_LEASE_SECONDS: Joi.number()
    .integer()
    .min(10)
    .default(120)
    .description("a process's hold on a running batch job; a dead process's expires after this"),
  NFE_DEADLINE_ALERTS: Joi.boolean().description(
    'compute manifestation deadlines and publish their alerts in the background (default: on, except in tests)',
  ),
  NFE_DEADLINE_ALERTS_MINUTES: Joi.number()
    .integer()
    .min(1)
    .default(15)
    .description('how often the deadlines of every filial are brought up to date'),
  NFE_MANIFESTATION_DEADLINE_DAYS: Joi.number()
    .integer()
    .min(1)
    .max(3650)
    .default(180)
    .description(
      'general deadline of a conclusive manifestation from the authorization (the national environment answers 596 "[6 meses]")',
    ),
  NFE_TRUSTED_ROOTS: Joi.string()
    .allow('')
    .description(
      'a PEM/DER file or a directory of them: the ICP-Brasil roots (AC Raiz v5, v10, v11…) and the ACs under them that sign NF-e/CT-e certificates (docs/operations.md); unset → signer chains are reported "not verifiable"',
    ),
  NFE_MANIFESTATION_THRESHOLDS: Joi.string()
    .pattern(/^\d{1,3}(,\d{1,3})*$/)
    .default('15,7,3,1,0')
    .description('days before a deadline at which nfe.manifestation-deadline is published (0: the deadline day)'),
})
  .unknown(true)
  .prefs({ convert: true });

function loadNfeConfig(env: NodeJS.ProcessEnv) {
  const { value, error } = schema.validate(env, { abortEarly: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details[0].path.join('.')} — ${error.details[0].message}`);
  const MB = 1024 * 1024;
  return Object.freeze({
    batch: Object.freeze({
      maxFiles: 2000,
      maxUploadBytes: (value.NFE_BATCH_MAX_UPLOAD_MB as number) * MB,
      maxTotalBytes: (value.NFE_BATCH_MAX_TOTAL_MB as number) * MB,
      /** One file: the XML routes' limit. */
      maxFileBytes: 5 * MB,
      maxRatio: value.NFE_BATCH_MAX_RATIO as number,
      worker: (value.NFE_BATCH_WORKER as boolean | undefined) ?? config.env !== 'test',
      leaseMs: (value.NFE_BATCH_LEASE_SECONDS as number) * 1000,
    }),
    /** Where the operator's trusted ICP-Brasil certificates are (null: none installed). */
    trustedRoots: (value.NFE_TRUSTED_ROOTS as string | undefined) || null,
    deadlines: Object.freeze({
      generalDays: value.NFE_MANIFESTATION_DEADLINE_DAYS as number,
      tracker: (value.NFE_DEADLINE_ALERTS as boolean | undefined) ?? config.env !== 'test',
      intervalMs: (value.NFE_DEADLINE_ALERTS_MINUTES as number) * 60_000,
      thresholds: Object.freeze([...new Set(String(value.NFE_MANIFESTATION_THRESHOLDS).split(',').map(Number))].sort((a, b) => b - a)),
    }),
  });
}

export type NfeConfig = ReturnType<typeof loadNfeConfig>;

export const nfeConfig: NfeConfig = loadNfeConfig(process.env);

/** For tests of the validation itself. */
export const validateNfeConfig = loadNfeConfig;
