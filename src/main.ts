/*
 * `npm start`: configuration → database (migrations on the embedded file, and on MySQL unless
 * DB_MIGRATE_ON_START=false) → demo tenant (once) → local tax-authority simulator (embedded default)
 * → HTTP server → the demo's documents through that server (once, with the simulator: src/demo/demo-documents.ts).
 * Configuration errors stop the start with one line naming the variable.
 */
async function main() {
  let config: typeof import('./core/config').config;
  try {
    ({ config } = await import('./core/config'));
    await import('./core/config/sefaz');
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const { dataSource } = await import('./core/db/data-source');
  const { openDatabase } = await import('./core/db/connect');
  const { runMigrations } = await import('./core/db/migrate');
  const { logger } = await import('./core/logger');
  const { createApp } = await import('./app');
  const { DEMO_COMPANY_CNPJ, seedDemoTenant } = await import('./demo/demo-seed');

  await openDatabase();
  if (config.db.engine === 'sqlite' || process.env.DB_MIGRATE_ON_START !== 'false') {
    const applied = await runMigrations(dataSource);
    if (applied.length) logger.info('migrations applied', { applied });
  }

  let rateLimit: import('./core/http/rate-limit').RateLimitOptions | undefined;
  let addressRateLimit: import('./core/http/rate-limit').AddressRateLimitOptions | undefined;
  if (config.rateLimit.redisUrl) {
    const { createRedisRateLimitStore } = await import('./core/http/rate-limit-store');
    const store = async (prefix: string) => (await createRedisRateLimitStore(config.rateLimit.redisUrl!, prefix)).store;
    rateLimit = { ...config.rateLimit, store: await store('rl:') };
    addressRateLimit = {
      ...config.rateLimit.perAddress,
      stores: { requests: await store('rl-addr:'), authFailures: await store('rl-auth:') },
    };
  }
  const app = createApp({ rateLimit, addressRateLimit });
  const server = app.listen(config.http.port, config.http.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  let metricsServer: import('node:http').Server | undefined;
  if (config.metrics.port) {
    const { startMetricsServer } = await import('./core/metrics');
    metricsServer = await startMetricsServer({ ...config.metrics, port: config.metrics.port });
  }
  // Every background job (webhooks, DF-e schedule, certificates, batches, deadlines, recovery, NFC-e queue): src/workers.ts.
  const { backgroundWorkers, shutdown: stopService } = await import('./workers');
  const { startWorkers } = await import('./core/worker');
  const workers = backgroundWorkers();
  startWorkers(workers);
  const baseUrl = `http://${config.http.host}:${config.http.port}`;
  const lines = [
    '',
    `Retail back-office API ${config.version} on ${baseUrl}/api  (database: ${config.db.engine === 'sqlite' ? config.db.sqliteFile : 'MySQL'})`,
    `  docs:    ${baseUrl}/api/docs      health: ${baseUrl}/api/health`,
  ];
  if (config.metrics.token) lines.push(`  metrics: ${baseUrl}/metrics (bearer METRICS_TOKEN)`);
  if (config.metrics.port) lines.push(`  metrics: http://${config.metrics.host}:${config.metrics.port}/metrics (own listener)`);
  if (config.demoSeed && config.env !== 'production') {
    const { created, summary } = await seedDemoTenant();
    lines.push(
      `  demo tenant ${created ? 'created' : 'present'}: company ${summary.companyId}, filiais ${summary.filialIds.join(', ')}`,
      `  get a token: npm run token -- --company ${summary.companyId} --filiais '*' --scope '*' --ttl 8h`,
      '',
      JSON.stringify(summary),
    );
  }
  // The simulator is development tooling (src/dev): loaded only when it is to run, never by a production start.
  const { sefazConfig } = await import('./core/config/sefaz');
  const authority = sefazConfig.simulator.enabled
    ? await (await import('./dev/sefaz-simulator')).startLocalAuthority(DEMO_COMPANY_CNPJ)
    : null;
  if (authority) {
    lines.splice(
      3,
      0,
      `  tax authority: local simulator on ${authority.url} (the demo filiais point at it)`,
      `  feed it:       npm run simulator:feed -- --generate 3 --cnpj 11222333000181 --homologacao`,
    );
    // The TEF simulator goes with it (development only): POST /cash-sessions/:id/tef-authorizations answers.
    (await import('./dev/tef-simulator')).useTefSimulator();
  }
  // One of each document the API's examples name, made through the routes once the demo is attached to the
  // local authority (the NF-e and NFC-e are authorized by it); a restart finds them recorded and makes none.
  if (authority && config.demoSeed && config.env !== 'production') {
    const { seedDemoDocuments } = await import('./demo/demo-documents');
    const local = ['0.0.0.0', '::'].includes(config.http.host) ? '127.0.0.1' : config.http.host;
    const docs = await seedDemoDocuments({
      baseUrl: `http://${local}:${config.http.port}/api`,
      feedAuthority: (xml) => authority.simulator.authority.feed(xml),
    });
    if (docs) {
      // Beside the demo tenant's lines, before its JSON summary (the last line).
      const at = lines.findIndex((l) => l.startsWith('  get a token')) + 1;
      lines.splice(
        at,
        0,
        docs.made.length
          ? `  demo documents made: ${docs.made.join(', ')}`
          : `  demo documents present: ${docs.present.length} kinds (not seeded again)`,
        ...docs.failed.map((f) => `  demo documents not made: ${f.kinds.join(', ')} (${f.reason})`),
      );
    }
  }
  console.log(lines.join('\n'));

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void stopService({ server, metricsServer, authority, workers }).finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(`Failed to start: ${(err as Error).message}`);
  process.exit(1);
});
