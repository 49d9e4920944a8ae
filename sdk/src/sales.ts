import { CallOptions, HttpClient, seg } from './http';
import type {
  CancelPreview,
  CreateSalesOrderRequest,
  FindSalesOrdersQuery,
  FulfillItemInput,
  FulfillmentView,
  FulfillResult,
  GroupPreview,
  Page,
  SalesOrder,
  UpdateSalesOrderRequest,
} from './types';

const BASE = '/sales-order';

/** `/api/sales-order`: the operations the interface names (get, find, create, fulfill) and the rest of the module. */
export class SalesOrders {
  constructor(private readonly http: HttpClient) {}

  /** GET /sales-order/:id */
  get(id: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}`, options });
  }

  /** GET /sales-order/:filialId — the client's filial unless `filialId` is given. */
  find(query: FindSalesOrdersQuery = {}, options?: CallOptions): Promise<Page<SalesOrder>> {
    const { filialId = this.http.filialId, ...rest } = query;
    if (!filialId) throw new TypeError('find() needs a filialId (in the query or the client options)');
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(filialId)}`, query: { ...rest }, options });
  }

  /** Every order matching `query`, page after page (keyset cursor). */
  async *findAll(query: Omit<FindSalesOrdersQuery, 'page' | 'cursor'> = {}, options?: CallOptions): AsyncGenerator<SalesOrder> {
    let cursor: string | undefined;
    do {
      const page = await this.find({ ...query, cursor, includeTotal: false }, options);
      yield* page.data;
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor);
  }

  /** POST /sales-order (Idempotency-Key sent). */
  create(body: CreateSalesOrderRequest, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: BASE, body, idempotent: true, options });
  }

  /** POST /sales-order/:id/fulfill with `{ items }` (Idempotency-Key sent). */
  fulfill(id: string, items: FulfillItemInput[], options?: CallOptions): Promise<FulfillResult> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/fulfill`, body: { items }, idempotent: true, options });
  }

  /** GET /sales-order/:id/fulfillment */
  fulfillment(id: string, options?: CallOptions): Promise<FulfillmentView> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}/fulfillment`, options });
  }

  /** GET /sales-order/detail/:id */
  detail(id: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** GET /sales-order/list/:filialId */
  list(filialId: string, query: Omit<FindSalesOrdersQuery, 'filialId'> = {}, options?: CallOptions): Promise<Page<SalesOrder>> {
    return this.http.request({ method: 'GET', path: `${BASE}/list/${seg(filialId)}`, query: { ...query }, options });
  }

  /** PATCH /sales-order/:id (needs the version read). */
  update(id: string, body: UpdateSalesOrderRequest, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'PATCH', path: `${BASE}/${seg(id)}`, body, options });
  }

  /** DELETE /sales-order/:id */
  remove(id: string, options?: CallOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: `${BASE}/${seg(id)}`, options });
  }

  /** POST /sales-order/:id/assign-customer */
  assignCustomer(id: string, customerId: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/assign-customer`, body: { customerId }, idempotent: true, options });
  }

  /** POST /sales-order/group/preview */
  groupPreview(salesOrderIds: string[], options?: CallOptions): Promise<GroupPreview> {
    return this.http.request({ method: 'POST', path: `${BASE}/group/preview`, body: { salesOrderIds }, options });
  }

  /** POST /sales-order/group (Idempotency-Key sent). */
  group(salesOrderIds: string[], options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/group`, body: { salesOrderIds }, idempotent: true, options });
  }

  /** POST /sales-order/convert-quote/:salesOrderId */
  convertQuote(salesOrderId: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/convert-quote/${seg(salesOrderId)}`, idempotent: true, options });
  }

  /** POST /sales-order/convert-order-to-quote/:salesOrderId */
  convertOrderToQuote(salesOrderId: string, validUntil?: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/convert-order-to-quote/${seg(salesOrderId)}`, body: validUntil ? { validUntil } : {}, idempotent: true, options });
  }

  /** GET /sales-order/cancel-preview/:salesOrderId */
  cancelPreview(salesOrderId: string, options?: CallOptions): Promise<CancelPreview> {
    return this.http.request({ method: 'GET', path: `${BASE}/cancel-preview/${seg(salesOrderId)}`, options });
  }

  /** POST /sales-order/cancel/:salesOrderId (Idempotency-Key sent). */
  cancel(salesOrderId: string, reason: string, options?: CallOptions): Promise<SalesOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/cancel/${seg(salesOrderId)}`, body: { reason }, idempotent: true, options });
  }
}
