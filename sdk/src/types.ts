/* Request and response types of the API, as the service's mappers and schemas define them. */

/** Decimal inputs accept numbers or numeric strings; outputs are numbers rounded to their scale. */
export type DecimalInput = number | string;

export interface Pagination {
  page: number;
  pageSize: number;
  /** Counted up to a cap on big lists (`totalCapped`); null with `includeTotal: false`. */
  total: number | null;
  totalCapped?: boolean;
  totalPages: number | null;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface PageQuery {
  page?: number;
  pageSize?: number;
  /** Keyset cursor from `pagination.nextCursor` (deep scrolling). */
  cursor?: string;
  includeTotal?: boolean;
}

// ---- sales orders -----------------------------------------------------------------------------

export type SalesOrderType = 'ORDER' | 'QUOTE';
export type FlowMode = 'STANDARD' | 'QUICK_SALE';
/** New values may be added; clients must tolerate unknown ones. */
export type SalesOrderStatus = 'OPEN' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED' | 'CLOSED' | 'GROUPED';

export interface LineOrigin {
  salesOrderId: string;
  salesOrderItemId: string;
  quantity: number;
}

export interface SalesOrderItem {
  salesOrderItemId: string;
  lineNumber: number;
  productId: string;
  description: string;
  unit: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  total: number;
  orderDiscountShare: number;
  fulfilledQuantity: number;
  returnedQuantity: number;
  cancelledQuantity: number;
  remainingQuantity: number;
  origins: LineOrigin[] | null;
}

export interface SalesOrderTotals {
  gross: number;
  itemsDiscount: number;
  items: number;
  discount: number;
  freight: number;
  total: number;
}

export interface SalesOrder {
  id: string;
  code: number;
  filialId: string;
  type: SalesOrderType;
  flowMode: FlowMode;
  status: SalesOrderStatus;
  customerId: string | null;
  customerName: string | null;
  sellerId: string | null;
  sellerName: string | null;
  alias: string | null;
  items: SalesOrderItem[];
  discount: number;
  freight: number;
  totals: SalesOrderTotals;
  notes: string | null;
  validUntil: string | null;
  expired: boolean;
  groupedIntoId: string | null;
  groupedFromIds: string[];
  cancelReason: string | null;
  cancelledAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface SalesOrderItemInput {
  productId: string;
  quantity: DecimalInput;
  /** Defaults to the product's price. */
  unitPrice?: DecimalInput;
  discount?: DecimalInput;
  description?: string;
}

export interface CreateSalesOrderRequest {
  type?: SalesOrderType;
  flowMode?: FlowMode;
  customerId?: string | null;
  sellerId?: string | null;
  alias?: string | null;
  notes?: string | null;
  discount?: DecimalInput;
  freight?: DecimalInput;
  /** Quotes only, 'YYYY-MM-DD' (default 30 days). */
  validUntil?: string | null;
  items: SalesOrderItemInput[];
}

export interface UpdateSalesOrderRequest {
  version: number;
  customerId?: string | null;
  sellerId?: string | null;
  alias?: string | null;
  notes?: string | null;
  discount?: DecimalInput;
  freight?: DecimalInput;
  validUntil?: string | null;
  /** The full new list of lines; `salesOrderItemId` keeps a line, lines left out are removed. */
  items?: (SalesOrderItemInput & { salesOrderItemId?: string })[];
}

export interface FindSalesOrdersQuery extends PageQuery {
  /** Default: the client's filial. */
  filialId?: string;
  /** Numeric: code equal or prefix. Text: customer name/trade name/document, seller name/alias, order alias. */
  search?: string;
  status?: SalesOrderStatus;
  type?: SalesOrderType;
  customerId?: string;
  sellerId?: string;
  /** 'YYYY-MM-DD' (Brasília dates). */
  createdFrom?: string;
  createdTo?: string;
  sort?: '-code' | 'code' | '-createdAt' | 'createdAt';
}

export interface FulfillItemInput {
  salesOrderItemId: string;
  quantity: DecimalInput;
}

export interface ItemProgress {
  salesOrderItemId: string;
  productId: string;
  description: string;
  unit: string;
  ordered: number;
  fulfilled: number;
  returned: number;
  cancelled: number;
  remaining: number;
}

export interface Fulfillment {
  id: string;
  salesOrderId: string;
  filialId: string;
  actor: string | null;
  createdAt: string;
  items: { salesOrderItemId: string; productId: string; quantity: number; unitCost: number }[];
}

export interface FulfillResult {
  fulfillment: Fulfillment;
  order: { id: string; code: number; status: SalesOrderStatus; version: number; items: ItemProgress[] };
}

export interface FulfillmentView {
  salesOrderId: string;
  code: number;
  status: SalesOrderStatus;
  version: number;
  items: ItemProgress[];
  fulfillments: Fulfillment[];
}

export interface GroupPreview {
  canGroup: boolean;
  blockingProblems: { code: string; message: string; salesOrderId: string | null; currentStatus?: string }[];
  warnings: { code: string; message: string }[];
  order: {
    filialId: string;
    type: 'ORDER';
    customerId: string | null;
    sellerId: string | null;
    notes: string;
    discount: number;
    freight: number;
    totals: SalesOrderTotals;
    items: (Omit<SalesOrderItem, 'salesOrderItemId' | 'fulfilledQuantity' | 'returnedQuantity' | 'cancelledQuantity' | 'remainingQuantity' | 'origins'> & { origins: LineOrigin[] })[];
    groupedFromIds: string[];
  };
}

export interface CancelPreview {
  canCancel: boolean;
  currentStatus: SalesOrderStatus;
  resultingStatus: SalesOrderStatus | null;
  blockingProblems: { code: string; message: string }[];
  itemsCancelled: { salesOrderItemId: string; quantity: number }[];
}
