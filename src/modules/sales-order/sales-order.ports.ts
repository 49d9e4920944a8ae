import type { TenantContext } from '../../core/context';
import { definePort } from '../../core/port';

/*
 * Ports the sales-order module needs from modules that depend on it (docs/architecture.md, "Module
 * seams"): the fiscal documents of an order (NF-e 55 of invoices, NFC-e 65 of nfce), which its detail
 * links. Provided by nfce/order-documents.ts (nfce reaches invoices through its front door).
 */

/** One fiscal document of an order, with the address of its detail. */
export interface OrderFiscalDocumentView {
  model: 55 | 65;
  /** The document's hashid (type 'invoice' for model 55, 'nfce' for 65). */
  id: string;
  /** SALE (the order's billing or counter note) or RETURN (a devolução of the order's goods). */
  purpose: 'SALE' | 'RETURN';
  series: number;
  number: number;
  accessKey: string;
  status: string;
  issuedAt: string;
  total: number;
  /** GET address of the document's detail (/api/invoices/detail/:id or /api/nfce/detail/:id). */
  href: string;
}

export interface OrderFiscalDocuments {
  /** Every fiscal document of the order, oldest first, whatever its status. */
  ofOrder(ctx: TenantContext, salesOrderId: number): Promise<OrderFiscalDocumentView[]>;
}

export const orderFiscalDocuments = definePort<OrderFiscalDocuments>('orderFiscalDocuments');
