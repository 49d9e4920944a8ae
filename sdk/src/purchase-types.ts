/* Request and response types of `/api/purchase`, as the service's mappers and schemas define them. */
import type { DecimalInput, Page, PageQuery } from './types';

/** New values may be added; clients must tolerate unknown ones. */
export type PurchaseOrderStatus = 'DRAFT' | 'APPROVED' | 'PARTIALLY_RECEIVED' | 'RECEIVED' | 'CANCELLED' | 'CLOSED';
export type FreightTerms = 'CIF' | 'FOB' | 'THIRD_PARTY' | 'NONE';

export interface PurchaseOrderItem {
  purchaseOrderItemId: string;
  /** What the supplier writes in the NF-e's nItemPed. */
  lineNumber: number;
  productId: string;
  description: string;
  unit: string;
  supplierProductCode: string | null;
  /** In the company's unit. */
  quantity: number;
  unitPrice: number;
  discount: number;
  total: number;
  expectedDate: string | null;
  receivedQuantity: number;
  cancelledQuantity: number;
  openQuantity: number;
}

export interface PurchaseOrderSupplier {
  id: string;
  document: string;
  name: string;
}

export interface PurchaseOrder {
  id: string;
  /** Sequential per company: what the supplier writes in the NF-e's xPed. */
  code: number;
  filialId: string;
  status: PurchaseOrderStatus;
  supplier: PurchaseOrderSupplier;
  expectedDate: string | null;
  paymentTerms: { installments: number; days: number | null } | null;
  freightTerms: FreightTerms | null;
  notes: string | null;
  items: PurchaseOrderItem[];
  totals: { products: number; discount: number; total: number };
  approvedAt: string | null;
  approvedBy: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  closedAt: string | null;
  closeReason: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface PurchaseOrderItemInput {
  productId: string;
  quantity: DecimalInput;
  unitPrice: DecimalInput;
  discount?: DecimalInput;
  supplierProductCode?: string | null;
  /** Default: the product's name. */
  description?: string;
  /** 'YYYY-MM-DD'; default: the order's. */
  expectedDate?: string | null;
}

export interface PurchaseOrderHeaderInput {
  /** A supplier of the catalog, or `supplier` (found by CNPJ/CPF, or registered). */
  supplierId?: string;
  supplier?: { document: string; name: string; stateRegistration?: string | null; uf?: string | null };
  expectedDate?: string | null;
  paymentTerms?: { installments: number; days: number } | null;
  freightTerms?: FreightTerms | null;
  notes?: string | null;
}

export interface CreatePurchaseOrderRequest extends PurchaseOrderHeaderInput {
  /** Default: the client's filial (x-filial-id). */
  filialId?: string;
  items: PurchaseOrderItemInput[];
}

export interface UpdatePurchaseOrderRequest extends PurchaseOrderHeaderInput {
  version: number;
  /** The full new list of lines; `purchaseOrderItemId` keeps a line, lines left out are removed. */
  items?: (PurchaseOrderItemInput & { purchaseOrderItemId?: string })[];
}

export interface FindPurchaseOrdersQuery extends PageQuery {
  /** Default: the client's filial. */
  filialId?: string;
  status?: PurchaseOrderStatus;
  supplierId?: string;
  supplierDocument?: string;
  productId?: string;
  expectedFrom?: string;
  expectedTo?: string;
  /** Numeric: the order's code, or (4+ digits) the start of the supplier's CNPJ/CPF; text: the supplier's name. */
  search?: string;
  sort?: '-code' | 'code' | 'expectedDate' | '-expectedDate';
}

export interface OpenPurchaseItemsQuery extends PageQuery {
  /** Default: the client's filial. */
  filialId?: string;
  supplierDocument?: string;
  productId?: string;
}

export interface OpenPurchaseItem {
  purchaseOrderItemId: string;
  purchaseOrderId: string;
  purchaseOrderCode: number;
  purchaseOrderStatus: PurchaseOrderStatus;
  supplier: PurchaseOrderSupplier;
  lineNumber: number;
  productId: string;
  description: string;
  unit: string;
  supplierProductCode: string | null;
  quantity: number;
  receivedQuantity: number;
  openQuantity: number;
  unitPrice: number;
  /** Net of the line discount: what invoices are compared with. */
  netUnitPrice: number;
  expectedDate: string | null;
}

export interface PurchaseReceipt {
  purchaseOrderItemId: string;
  entryDocumentId: string;
  entryDocumentItemId: string;
  /** The entry document's line. */
  lineNumber: number;
  number: string;
  series: string;
  accessKey: string | null;
  issueDate: string;
  entryDate: string;
  status: 'CONFIRMED' | 'CANCELLED';
  /** In the company's unit. */
  quantity: number;
  invoiceQuantity: number;
  invoiceUnit: string;
  conversionFactor: number;
  /** Invoice price per company unit, net of the line discount. */
  unitPrice: number;
  orderUnitPrice: number;
  receivedAt: string;
  cancelledAt: string | null;
}

/** The order's lines and a page of its receipts (`data`, `pagination`), oldest first. */
export interface PurchaseReceipts extends Page<PurchaseReceipt> {
  purchaseOrderId: string;
  code: number;
  status: PurchaseOrderStatus;
  version: number;
  items: { purchaseOrderItemId: string; lineNumber: number; productId: string; ordered: number; received: number; cancelled: number; open: number }[];
}

/** The three-way match entry documents and NF-e previews carry as `purchaseMatch`. */
export interface PurchaseMatch {
  tolerances: { quantityPct: number; pricePct: number; mode: 'BLOCK' | 'WARN' };
  lines: {
    lineNumber: number;
    purchaseOrderItemId: string;
    purchaseOrderId: string | null;
    purchaseOrderCode: number | null;
    purchaseOrderStatus: PurchaseOrderStatus | null;
    orderLineNumber: number | null;
    productId: string | null;
    unit: string | null;
    ordered: number;
    cancelled: number;
    alreadyReceived: number;
    thisReceipt: number;
    openAfter: number;
    orderUnitPrice: number | null;
    invoiceUnitPrice: number;
    priceDifferencePct: number | null;
    quantityStatus: 'OK' | 'WITHIN_TOLERANCE' | 'OVER_TOLERANCE' | null;
    priceStatus: 'OK' | 'BELOW_ORDER' | 'WITHIN_TOLERANCE' | 'OVER_TOLERANCE' | null;
    receives: boolean;
    problems: string[];
  }[];
  blockingProblems: { code: string; message: string; blocksConfirmation: boolean; lineNumber?: number; details?: Record<string, unknown> }[];
  warnings: { code: string; message: string; blocksConfirmation: boolean; lineNumber?: number; details?: Record<string, unknown> }[];
}
