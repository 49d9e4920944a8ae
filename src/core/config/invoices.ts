import Joi from 'joi';
import { config, ConfigError } from './index';

/*
 * Outbound fiscal documents (issue 30): the authority's timeout for emission calls, the recovery pass
 * that settles documents a crash left SIGNED/SENT, when an abandoned REJECTED number is voided, and the
 * SMTP server the authorized XML and DANFE are mailed through.
 */
const schema = Joi.object({
  INVOICE_SEFAZ_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .default(30_000)
    .description('deadline of one emission call; a lost answer is then settled by consulting the key'),
  INVOICE_RECOVERY: Joi.boolean().description('run the recovery pass (start and timer) in this process (default: on, except in tests)'),
  INVOICE_RECOVERY_TICK_SECONDS: Joi.number().integer().min(1).default(60),
  INVOICE_DELIVERY_TICK_SECONDS: Joi.number()
    .integer()
    .min(1)
    .default(5)
    .description('how often the delivery pass emails the recipients of NF-e authorized since (runs with INVOICE_RECOVERY)'),
  NFCE_QUEUE_TICK_SECONDS: Joi.number()
    .integer()
    .min(1)
    .default(15)
    .description('how often the NFC-e transmission queue looks for contingency notes to send'),
  INVOICE_LEASE_SECONDS: Joi.number()
    .integer()
    .min(1)
    .default(120)
    .description("a request's or the recovery pass's hold on one document while it talks to the authority"),
  INVOICE_ABANDON_HOURS: Joi.number()
    .integer()
    .min(1)
    .default(72)
    .description('a REJECTED document untouched this long has its number voided automatically'),
  INVOICE_CRASH_POINT: Joi.string()
    .valid('after-numbering', 'after-signing', 'after-sending', 'after-authorized', 'after-contingency-document')
    .description('tests only: the process kills itself (SIGKILL) at this step of an issue, to prove it is exactly once'),
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .description('the company SMTP server the authorized XML and DANFE are sent through (smtp://user:pass@host:port)'),
  SMTP_FROM: Joi.string().default('nfe@localhost'),
  INVOICE_EMAIL_RETRIES: Joi.number().integer().min(0).max(10).default(3),
})
  .unknown(true)
  .prefs({ convert: true });

function loadInvoicesConfig(env: NodeJS.ProcessEnv) {
  const { value, error } = schema.validate(env, { abortEarly: true });
  if (error) throw new ConfigError(`Invalid configuration: ${error.details[0].path.join('.')} — ${error.details[0].message}`);
  return Object.freeze({
    timeoutMs: value.INVOICE_SEFAZ_TIMEOUT_MS as number,
    recovery: Object.freeze({
      enabled: (value.INVOICE_RECOVERY as boolean | undefined) ?? config.env !== 'test',
      tickMs: (value.INVOICE_RECOVERY_TICK_SECONDS as number) * 1000,
      nfceTickMs: (value.NFCE_QUEUE_TICK_SECONDS as number) * 1000,
      deliveryTickMs: (value.INVOICE_DELIVERY_TICK_SECONDS as number) * 1000,
    }),
    leaseMs: (value.INVOICE_LEASE_SECONDS as number) * 1000,
    abandonMs: (value.INVOICE_ABANDON_HOURS as number) * 3600_000,
    crashPoint: (value.INVOICE_CRASH_POINT as string | undefined) ?? null,
    smtp: Object.freeze({
      url: (value.SMTP_URL as string | undefined) ?? null,
      from: value.SMTP_FROM as string,
      retries: value.INVOICE_EMAIL_RETRIES as number,
    }),
  });
}

export type InvoicesConfig = ReturnType<typeof loadInvoicesConfig>;

/** Mutable only through `setInvoicesConfig` (tests point SMTP at their own server). */
export let invoicesConfig: InvoicesConfig = loadInvoicesConfig(process.env);

export function setInvoicesConfig(
  overrides: Partial<{ timeoutMs: number; smtp: InvoicesConfig['smtp']; abandonMs: number; leaseMs: number }>,
): void {
  invoicesConfig = Object.freeze({ ...invoicesConfig, ...overrides });
}
