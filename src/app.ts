import express, { Express, RequestHandler } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { errorMiddleware, notFoundRoute } from './core/errors/error-middleware';
import { AddressRateLimitOptions, rateLimitPerAddress, rateLimitPerToken, RateLimitOptions } from './core/http/rate-limit';
import { requestContext } from './core/http/request-id';
import { buildRouter } from './core/http/router';
import { installMetrics, MetricsOptions, routeMount } from './core/metrics';
import { buildOpenApi } from './core/openapi/openapi';
import { config } from './core/config';
import { allRoutes } from './modules';
import { registerModuleMetrics } from './modules/metrics';

export interface AppOptions {
  rateLimit?: RateLimitOptions;
  addressRateLimit?: AddressRateLimitOptions;
  /** Operators' metrics (default: METRICS_TOKEN / METRICS_PORT). */
  metrics?: MetricsOptions;
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
  const openapi = buildOpenApi(routes);
  const limiter: RequestHandler = rateLimitPerToken(options.rateLimit);
  const addressLimiter: RequestHandler[] = rateLimitPerAddress(options.addressRateLimit);

  app.get('/api/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/api/docs', swaggerUi.serve, swaggerUi.setup(openapi, { customSiteTitle: 'Retail back-office API', swaggerOptions: { persistAuthorization: true } }) as RequestHandler);
  app.use('/api', routeMount, buildRouter(routes, limiter, addressLimiter));
  app.use(notFoundRoute as RequestHandler);
  app.use(errorMiddleware);
  return app;
}
