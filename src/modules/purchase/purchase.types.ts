import type { Dec } from '../../core/decimal';
import type { FreightTerms, PurchaseOrderStatus } from './entities/purchase-order.entity';

/** Inputs of the purchase-order use cases (the joi schemas produce these). */

export interface SupplierInput {
  document: string;
  name: string;
  stateRegistration?: string | null;
  uf?: string | null;
}

export interface PaymentTerms {
  installments: number;
  days: number;
}

export interface OrderLineInput {
  /** PATCH: keep this line (same id); omitted → a new line. */
  purchaseOrderItemId?: number;
  productId: number;
  supplierProductCode?: string | null;
  quantity: Dec;
  unitPrice: Dec;
  discount?: Dec;
  description?: string;
  expectedDate?: string | null;
}

export interface CreateOrderInput {
  filialId?: number;
  supplierId?: number;
  supplier?: SupplierInput;
  expectedDate?: string | null;
  paymentTerms?: PaymentTerms | null;
  freightTerms?: FreightTerms | null;
  notes?: string | null;
  items: OrderLineInput[];
}

export interface PatchOrderInput extends Omit<Partial<CreateOrderInput>, 'filialId'> {
  version: number;
}

export interface OrderListQuery {
  page: number;
  pageSize: number;
  cursor?: string;
  includeTotal?: boolean;
  status?: PurchaseOrderStatus;
  supplierId?: number;
  supplierDocument?: string;
  productId?: number;
  expectedFrom?: string;
  expectedTo?: string;
  search?: string;
  sort?: '-code' | 'code' | 'expectedDate' | '-expectedDate';
}

export interface OpenItemsQuery {
  page: number;
  pageSize: number;
  cursor?: string;
  includeTotal?: boolean;
  supplierDocument?: string;
  productId?: number;
}
