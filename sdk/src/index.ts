import { ClientOptions, HttpClient } from './http';
import { SalesOrders } from './sales';

export { ApiError } from './errors';
export type { ProblemDocument } from './errors';
export type { CallOptions, ClientOptions, RequestSpec, TokenSource } from './http';
export { retryAfterMs } from './http';
export * from './types';

export interface Client {
  /** `/api/sales-order`. */
  sales: SalesOrders;
  /** Any route, with the same headers, errors and retries (for modules not wrapped yet). */
  request: HttpClient['request'];
}

/**
 * The API client: `createClient({ baseUrl, token, companyId, filialId })`. Further modules add their
 * namespaces here as they land.
 */
export function createClient(options: ClientOptions): Client {
  const http = new HttpClient(options);
  return { sales: new SalesOrders(http), request: http.request.bind(http) };
}
