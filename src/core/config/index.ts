import path from 'node:path';
import dotenv from 'dotenv';
import Joi from 'joi';
import pkg from '../../../package.json';
import { parseDbUrl, parseHosts } from './db-url';

// A local .env wins over nothing but never over the real environment.
dotenv.config({ path: path.resolve(process.cwd(), '.env'), quiet: true });

export type DbEngine = 'mysql' | 'sqlite';

const schema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development'),
  PORT: Joi.number().port().default(3000),
  HOST: Joi.string().default('127.0.0.1'),
  DB_URL: Joi.string()
    .allow('')
    .custom((value: string, helpers) => {
      if (!value) return value;
      try {
        parseDbUrl(value);
      } catch (err) {
        return helpers.message({ custom: (err as Error).message });
      }
      return value;
    })
    .description('mysql://user:pass@host:port[,host:port…]/db; unset → embedded SQLite'),
  DB_HOSTS: Joi.string()
    .custom((value: string, helpers) => {
      try {
        parseHosts(value);
      } catch (err) {
        return helpers.message({ custom: (err as Error).message });
      }
      return value;
    })
    .description("host:port,host:port… of DB_URL's database (a Galera cluster), replacing the URL's hosts"),
  DB_HOST_RETRY_MS: Joi.number()
    .integer()
    .min(100)
    .default(2000)
    .description(
      'how long a host that refused a connection, or whose Galera node was not Synced, is left out before it is tried again (doubling per failed try, up to 8×)',
    ),
  DB_ACQUIRE_TIMEOUT_MS: Joi.number()
    .integer()
    .min(100)
    .default(5000)
    .description(
      'how long opening a connection (and, with several hosts, its node state check) may take before the request answers 503; with several hosts that host is left out and the next is tried',
    ),
  DB_STATEMENT_TIMEOUT_MS: Joi.number()
    .integer()
    .min(0)
    .default(60000)
    .description(
      'how long a statement may go without an answer before its connection is closed (503; with several hosts its host is left out); 0: no deadline',
    ),
  SQLITE_FILE: Joi.string().default('data/backoffice.sqlite'),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(500).default(20),
  DB_LOGGING: Joi.boolean().default(false),
  JWT_SECRET: Joi.string()
    .min(16)
    .when('NODE_ENV', {
      is: 'production',
      then: Joi.when('JWT_PUBLIC_KEY', { is: Joi.exist(), then: Joi.optional(), otherwise: Joi.required() }),
      otherwise: Joi.optional(),
    }),
  JWT_PUBLIC_KEY: Joi.string().description('PEM; when set, tokens are RS256'),
  JWT_ISSUER: Joi.string(),
  JWT_AUDIENCE: Joi.string(),
  HASHIDS_SALT: Joi.string().min(8).when('NODE_ENV', {
    is: 'production',
    then: Joi.required(),
    otherwise: Joi.optional(),
  }),
  HASHIDS_MIN_LENGTH: Joi.number().integer().min(6).max(20).default(8),
  RATE_LIMIT_WINDOW_MS: Joi.number().integer().min(1000).default(60_000),
  RATE_LIMIT_MAX: Joi.number().integer().min(1).default(1200),
  RATE_LIMIT_ADDRESS_MAX: Joi.number()
    .integer()
    .min(1)
    .default(6000)
    .description('requests per client address and window, before authentication'),
  RATE_LIMIT_AUTH_FAILURES_MAX: Joi.number()
    .integer()
    .min(1)
    .default(60)
    .description('failed authentications (401) per client address and window'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'info', 'http', 'debug', 'silent').default('info'),
  LOG_FORMAT: Joi.string().valid('json', 'pretty').default('json'),
  IDEMPOTENCY_TTL_HOURS: Joi.number().integer().min(1).default(24),
  IDEMPOTENCY_LEASE_MS: Joi.number()
    .integer()
    .min(200)
    .default(30_000)
    .description('how long a request in progress holds its key without renewing it; a retry after that takes the key over'),
  DEMO_SEED: Joi.boolean().default(true),
  WEBHOOK_DISPATCH_INTERVAL_MS: Joi.number().integer().min(0).default(1000).description('0 disables webhook delivery in this process'),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000).description('one delivery attempt, response included'),
  WEBHOOK_LEASE_MS: Joi.number()
    .integer()
    .min(Joi.ref('WEBHOOK_TIMEOUT_MS', { adjust: (t: number) => t + 500 }))
    .default(30_000)
    .description('how long an attempt holds its delivery; outlives the timeout'),
  WEBHOOK_BACKOFF_BASE_MS: Joi.number().integer().min(1).default(10_000).description('first retry delay, doubled per attempt'),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: Joi.number().integer().min(1).max(64).default(4),
  WEBHOOK_MAX_IN_FLIGHT: Joi.number().integer().min(1).default(100).description('attempts under way in one process, all endpoints'),
  METRICS_TOKEN: Joi.string().min(16).description('bearer token of GET /metrics on the API port; unset → not served there'),
  METRICS_PORT: Joi.number().port().description('a listener of its own serving only GET /metrics (keep it on an internal network)'),
  METRICS_HOST: Joi.string().default('127.0.0.1'),
})
  .unknown(true)
  .prefs({ convert: true });

function loadConfig(env: NodeJS.ProcessEnv) {
  const { value, error } = schema.validate(env, { abortEarly: true });
  if (error) {
    const detail = error.details[0];
    // One line naming the variable; the start stops here.
    throw new ConfigError(`Invalid configuration: ${detail.path.join('.')} — ${detail.message}`);
  }
  const isTest = value.NODE_ENV === 'test';
  // Development and test get fixed, clearly non-production secrets so the two commands work on a fresh clone.
  const jwtSecret: string | undefined =
    value.JWT_SECRET ?? (value.NODE_ENV === 'production' ? undefined : 'dev-only-secret-change-me-0123456789');
  const engine: DbEngine = value.DB_URL ? 'mysql' : 'sqlite';
  const target = value.DB_URL ? parseDbUrl(value.DB_URL, value.DB_HOSTS) : undefined;
  return Object.freeze({
    env: value.NODE_ENV as 'development' | 'production' | 'test',
    isTest,
    version: pkg.version as string,
    http: { port: value.PORT as number, host: value.HOST as string, jsonLimit: '1mb', xmlLimit: '5mb' },
    db: Object.freeze({
      engine,
      /** The URL with its first host; `hosts` lists them all (one unless DB_URL or DB_HOSTS names several). */
      url: target?.url,
      hosts: Object.freeze(target?.hosts ?? []),
      /** The local server's Unix socket (DB_URL's `socketPath` parameter), used instead of host and port. */
      socketPath: target?.socketPath,
      hostRetryMs: value.DB_HOST_RETRY_MS as number,
      /** Deadlines of a pool over several hosts (host-pool.ts). */
      deadlines: Object.freeze({
        acquireTimeoutMs: value.DB_ACQUIRE_TIMEOUT_MS as number,
        statementTimeoutMs: value.DB_STATEMENT_TIMEOUT_MS as number,
      }),
      /** TypeORM compares schemas per flavour; a mariadb:// URL selects MariaDB's rules. */
      flavor: (String(value.DB_URL ?? '').startsWith('mariadb:') ? 'mariadb' : 'mysql') as 'mysql' | 'mariadb',
      sqliteFile: isTest && !env.SQLITE_FILE ? ':memory:' : (value.SQLITE_FILE as string),
      poolSize: value.DB_POOL_SIZE as number,
      logging: value.DB_LOGGING as boolean,
    }),
    auth: Object.freeze({
      secret: jwtSecret,
      publicKey: value.JWT_PUBLIC_KEY as string | undefined,
      issuer: value.JWT_ISSUER as string | undefined,
      audience: value.JWT_AUDIENCE as string | undefined,
    }),
    hashids: Object.freeze({
      salt: (value.HASHIDS_SALT as string | undefined) ?? 'dev-hashids-salt',
      minLength: value.HASHIDS_MIN_LENGTH as number,
    }),
    rateLimit: Object.freeze({
      windowMs: value.RATE_LIMIT_WINDOW_MS as number,
      max: value.RATE_LIMIT_MAX as number,
      redisUrl: value.REDIS_URL as string | undefined,
      perAddress: Object.freeze({
        windowMs: value.RATE_LIMIT_WINDOW_MS as number,
        max: value.RATE_LIMIT_ADDRESS_MAX as number,
        authFailuresMax: value.RATE_LIMIT_AUTH_FAILURES_MAX as number,
      }),
    }),
    log: Object.freeze({ level: value.LOG_LEVEL as string, format: value.LOG_FORMAT as 'json' | 'pretty' }),
    idempotencyTtlHours: value.IDEMPOTENCY_TTL_HOURS as number,
    idempotencyLeaseMs: value.IDEMPOTENCY_LEASE_MS as number,
    demoSeed: value.DEMO_SEED as boolean,
    webhookDispatchIntervalMs: value.WEBHOOK_DISPATCH_INTERVAL_MS as number,
    webhooks: Object.freeze({
      timeoutMs: value.WEBHOOK_TIMEOUT_MS as number,
      leaseMs: value.WEBHOOK_LEASE_MS as number,
      backoffBaseMs: value.WEBHOOK_BACKOFF_BASE_MS as number,
      perEndpoint: value.WEBHOOK_CONCURRENCY_PER_ENDPOINT as number,
      maxInFlight: value.WEBHOOK_MAX_IN_FLIGHT as number,
    }),
    metrics: Object.freeze({
      token: value.METRICS_TOKEN as string | undefined,
      port: value.METRICS_PORT as number | undefined,
      host: value.METRICS_HOST as string,
    }),
  });
}

export class ConfigError extends Error {}

export type Config = ReturnType<typeof loadConfig>;

export const config: Config = loadConfig(process.env);

/** For tests of the validation itself. */
export const validateConfig = loadConfig;
