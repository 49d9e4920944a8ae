import { ClientOptions, HttpClient } from './http';
import { Ctes } from './cte';
import { EntryDocuments } from './entry-documents';
import { Events } from './events';
import { PurchaseOrders } from './purchase';
import { Payables } from './payables';
import { SalesOrders } from './sales';
import { Settings } from './settings';
import { Catalog } from './catalog';
import { Nfe, TaxAuthority } from './nfe';
import { ProductMap } from './product-map';
import { QuickSale } from './quick-sale';
import { Returns } from './returns';
import { Fiscal } from './fiscal';
import { Invoices } from './invoices';
import { Receivables } from './receivables';
import { Nfce } from './nfce';
import { FiscalPeriods } from './fiscal-periods';

import { Operations } from './operations';

export {
  ApiConnectionError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  BusinessRuleError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  UpstreamError,
} from './errors';
export type { ProblemDocument, TypedApiError } from './errors';
export { PROBLEM_CODES } from './problems';
export type { ProblemCode, ProblemCodes } from './problems';
export { OPERATIONS, Operations } from './operations';
export type { OperationId, OperationProblems } from './operations';
export type { ArgsOf, ItemOf, OperationSpec, RawBody, ResultOf } from './operation';
export type { CallOptions, ClientOptions, RequestSpec, TokenSource } from './http';
export { retryAfterMs } from './http';
export * from './types';
export * from './purchase-types';
export { verifyWebhookSignature } from './events';
export type { paths, components, operations } from './openapi';
export type { BodyOf, QueryOf, ResponseOf, Schema } from './typed';
export type { DomainEvent, EventsQuery, Webhook, WebhookDelivery } from './events';
export type * from './receivables';

export interface Client {
  /** `/api/sales-order`. */
  sales: SalesOrders;
  /** `/api/purchase`. */
  purchase: PurchaseOrders;
  /** `/api/events` (list, long-poll subscribe) and `/api/webhooks`. */
  events: Events;
  /** `/api/entry-document`: detail and line review. */
  entryDocuments: EntryDocuments;
  /** `/api/entry-document/contas-pagar`: payables, payments, reversals. */
  payables: Payables;
  /** `/api/receivables`: what customers and card acquirers owe, receipts, reversals, aging, statements, CSV. */
  receivables: Receivables;
  /** `/api/entry-document/cte`: CT-e freight staged, apportioned onto the goods, cancelled. */
  ctes: Ctes;
  /** `/api/settings`: filial fiscal settings, company purchase tolerances. */
  settings: Settings;
  /** `/api/catalog`: products, customers, sellers, suppliers, payment methods, stock. */
  catalog: Catalog;
  /** `/api/quick-sale`: the filial's counter-sale configuration. */
  quickSale: QuickSale;
  /** `/api/returns`: customer returns. */
  returns: Returns;
  /** `/api/entry-document/product-map`: supplier codes → products. */
  productMap: ProductMap;
  /** `/api/entry-document/nfe`: inbound NF-e, DANFE, deadlines, batch uploads. */
  nfe: Nfe;
  /** `/api/entry-document/nfe` tax-authority routes: DF-e sync, downloads, manifestations, certificate. */
  taxAuthority: TaxAuthority;
  /** `/api/fiscal`: tax preview, tax groups, operation rules, UF rates, Lei 12.741 table. */
  fiscal: Fiscal;
  /** `/api/invoices`: outbound NF-e — preview, issue, cancel, correct, downloads, séries and voided numbers. */
  invoices: Invoices;
  /** `/api/nfce`: NFC-e settings per filial, the notes, their XML and DANFE NFC-e. */
  nfce: Nfce;
  /** `/api/fiscal-periods`: months closed and reopened per filial, the accountant's package. */
  fiscalPeriods: FiscalPeriods;
  /**
   * Every operation of the API, one method each, generated from its OpenAPI document (named after the
   * operationId: `operations.getEntryDocumentListFilialId({ query })`, `operations.postEntryDocumentConfirmId({ id })`),
   * with `…All` iterators on every paginated list. The namespaces above wrap the common flows.
   */
  operations: Operations;
  /** Any route by path, with the same headers, errors and retries. */
  request: HttpClient['request'];
}

/**
 * The API client: `createClient({ baseUrl, token, companyId, filialId })`. `operations` covers every
 * route (generated); the namespaces are the hand-written flows over the common ones.
 */
export function createClient(options: ClientOptions): Client {
  const http = new HttpClient(options);
  return {
    sales: new SalesOrders(http),
    purchase: new PurchaseOrders(http),
    events: new Events(http),
    entryDocuments: new EntryDocuments(http),
    payables: new Payables(http),
    receivables: new Receivables(http),
    ctes: new Ctes(http),
    settings: new Settings(http),
    catalog: new Catalog(http),
    quickSale: new QuickSale(http),
    returns: new Returns(http),
    productMap: new ProductMap(http),
    nfe: new Nfe(http),
    taxAuthority: new TaxAuthority(http),
    fiscal: new Fiscal(http),
    invoices: new Invoices(http),
    nfce: new Nfce(http),
    fiscalPeriods: new FiscalPeriods(http),
    operations: new Operations(http),
    request: http.request.bind(http),
  };
}
