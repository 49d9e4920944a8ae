import { AsyncLocalStorage } from 'node:async_hooks';

/** What a log line or an audit row needs to know about the request it belongs to. */
export interface RequestScope {
  requestId: string;
  companyId?: number;
  actor?: string;
  /** Filiais already loaded (and checked) during this request, by id: later reads reuse them. */
  filiais?: Map<number, unknown>;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

export const currentScope = (): RequestScope | undefined => requestScope.getStore();
