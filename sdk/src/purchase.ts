import { CallOptions, HttpClient, seg } from './http';
import type { Page, PageQuery } from './types';
import type {
  CreatePurchaseOrderRequest,
  FindPurchaseOrdersQuery,
  OpenPurchaseItem,
  OpenPurchaseItemsQuery,
  PurchaseOrder,
  PurchaseReceipts,
  UpdatePurchaseOrderRequest,
} from './purchase-types';

const BASE = '/purchase';

/** `/api/purchase`: purchase orders, their approval, receipts and the open lines invoices match against. */
export class PurchaseOrders {
  constructor(private readonly http: HttpClient) {}

  private filial(filialId: string | undefined, call: string): string {
    const id = filialId ?? this.http.filialId;
    if (!id) throw new TypeError(`${call}() needs a filialId (in the query or the client options)`);
    return id;
  }

  /** POST /purchase (Idempotency-Key sent). */
  create(body: CreatePurchaseOrderRequest, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'POST', path: BASE, body, idempotent: true, options });
  }

  /** GET /purchase/detail/:id */
  get(id: string, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'GET', path: `${BASE}/detail/${seg(id)}`, options });
  }

  /** GET /purchase/list/:filialId — the client's filial unless `filialId` is given. */
  find(query: FindPurchaseOrdersQuery = {}, options?: CallOptions): Promise<Page<PurchaseOrder>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/list/${seg(this.filial(filialId, 'find'))}`, query: { ...rest }, options });
  }

  /** Every order matching `query`, page after page (keyset cursor). */
  async *findAll(query: Omit<FindPurchaseOrdersQuery, 'page' | 'cursor'> = {}, options?: CallOptions): AsyncGenerator<PurchaseOrder> {
    let cursor: string | undefined;
    do {
      const page = await this.find({ ...query, cursor, includeTotal: false }, options);
      yield* page.data;
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor);
  }

  /** PATCH /purchase/:id (a DRAFT, with the version read). */
  update(id: string, body: UpdatePurchaseOrderRequest, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'PATCH', path: `${BASE}/${seg(id)}`, body, options });
  }

  /** DELETE /purchase/:id (a DRAFT). */
  remove(id: string, options?: CallOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: `${BASE}/${seg(id)}`, options });
  }

  /** POST /purchase/:id/approve (needs the purchase:approve scope; Idempotency-Key sent). */
  approve(id: string, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/approve`, idempotent: true, options });
  }

  /** POST /purchase/:id/cancel — a DRAFT or APPROVED order (Idempotency-Key sent). */
  cancel(id: string, reason?: string, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/cancel`, body: reason ? { reason } : {}, idempotent: true, options });
  }

  /** POST /purchase/:id/close — a PARTIALLY_RECEIVED order whose rest will not come (Idempotency-Key sent). */
  close(id: string, reason?: string, options?: CallOptions): Promise<PurchaseOrder> {
    return this.http.request({ method: 'POST', path: `${BASE}/${seg(id)}/close`, body: reason ? { reason } : {}, idempotent: true, options });
  }

  /** GET /purchase/:id/receipts — the order's lines and a page of its receipts. */
  receipts(id: string, query: PageQuery = {}, options?: CallOptions): Promise<PurchaseReceipts> {
    return this.http.request({ method: 'GET', path: `${BASE}/${seg(id)}/receipts`, query: { ...query }, options });
  }

  /** GET /purchase/open-items/:filialId — the client's filial unless `filialId` is given. */
  openItems(query: OpenPurchaseItemsQuery = {}, options?: CallOptions): Promise<Page<OpenPurchaseItem>> {
    const { filialId, ...rest } = query;
    return this.http.request({ method: 'GET', path: `${BASE}/open-items/${seg(this.filial(filialId, 'openItems'))}`, query: { ...rest }, options });
  }
}
