import express, { Express, RequestHandler } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { errorMiddleware, notFoundRoute } from './core/errors/error-middleware';
import { AddressRateLimitOptions, rateLimitPerAddress, rateLimitPerToken, RateLimitOptions } from './core/http/rate-limit';
import { requestContext } from './core/http/request-id';
import { buildRouter } from './core/http/router';
import { installMetrics, MetricsOptions, routeMount } from './core/metrics';
import type { ExampleIds } from './core/openapi/example-ids';
import { freshTryItOutKey, servedOpenApi } from './core/openapi/served-document';
import { demoExampleIds } from './demo/demo-ids';
import { config } from './core/config';
import { allRoutes } from './modules';
import { registerModuleMetrics } from './modules/metrics';

export interface AppOptions {
  rateLimit?: RateLimitOptions;
  addressRateLimit?: AddressRateLimitOptions;
  /** Operators' metrics (default: METRICS_TOKEN / METRICS_PORT). */
  metrics?: MetricsOptions;
  /** The ids the OpenAPI document's examples show (default: the demo tenant's, when seeded). */
  exampleIds?: () => Promise<ExampleIds | undefined>;
}

/** The express app, not listening: the server and supertest both use it. */
export function createApp(options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext);
  app.use(helmet({ contentSecurityPolicy: false }));
  installMetrics(app, options.metrics ?? config.metrics, registerModuleMetrics);

  const routes = allRoutes();
  const openapi = servedOpenApi(routes, options.exampleIds ?? demoExampleIds);
  const limiter: RequestHandler = rateLimitPerToken(options.rateLimit);
  const addressLimiter: RequestHandler[] = rateLimitPerAddress(options.addressRateLimit);

  app.get('/api/openapi.json', (_req, res, next) => {
    openapi().then((text) => res.type('application/json').send(text), next);
  });
  // Swagger UI reads the document served above (the demo's ids, fresh keys) and sends a fresh Idempotency-Key with every try.
  app.use(
    '/api/docs',
    swaggerUi.serve,
    swaggerUi.setup(undefined, {
      customSiteTitle: 'Retail back-office API',
      swaggerOptions: { url: '/api/openapi.json', persistAuthorization: true, requestInterceptor: freshTryItOutKey },
    }) as RequestHandler,
  );
  app.use('/api', routeMount, buildRouter(routes, limiter, addressLimiter));
  app.use(notFoundRoute as RequestHandler);
  app.use(errorMiddleware);
  return app;
}
