import type { RouteDef } from '../core/http/route';
import { catalogRoutes, taxGroupLookup } from './catalog';
import { cteBatchHandler, cteRoutes } from './cte';
import { invoiceRoutes } from './invoices';
import { transferRoutes } from './transfers';
import { nfceRoutes } from './nfce';
import { assertDocumentAccess, entryDocumentRoutes, inboundNfe, purchaseHistoryProvider, supplierReturnsOfDocument } from './entry-document';
import { eventRoutes } from './events';
import { inboundNfeLink, nfeRoutes, nfeVolumeRoutes, registerBatchHandler } from './nfe';
import { entryDocumentAccess, payableRoutes } from './payables';
import { productMapRoutes, purchaseHistory } from './product-map';
import { purchaseRoutes } from './purchase';
import { quickSaleRoutes, salesOrderCreateRoutes } from './quick-sale';
import { receivableRoutes } from './receivables';
import { returnRoutes } from './returns';
import { salesOrderRoutes } from './sales-order';
import { nfeEventBatchHandler, sefazRoutes } from './sefaz';
import { systemRoutes } from './system';
import { assertFilialAccess, tenancyRoutes } from './tenancy';
import { fiscalRoutes, taxGroupLookupProvider } from './fiscal';
import { supplierReturnRoutes, supplierReturnsOfDocumentProvider } from './supplier-returns';
import { filialAccess } from '../core/auth/tenancy';

/*
 * Module wiring: where a module needs work from a module that depends on it, it declares a port
 * (core/port.ts) and the provider is plugged in here, so no two modules import each other
 * (docs/architecture.md, "Module seams"; tests/core/module-boundaries.test.ts).
 */
// Documents of batch uploads other modules handle: NF-e events (cancellation, CC-e) and CT-e.
registerBatchHandler(nfeEventBatchHandler);
registerBatchHandler(cteBatchHandler);
// core's filial check before the body is read (core/http/authorize-filial.ts) is tenancy's.
filialAccess.provide({ assertFilialAccess });
// Entry documents show the inbound NF-e they were imported from and release it on delete/cancel.
inboundNfe.provide(inboundNfeLink);
// GET /entry-document/contas-pagar/documento/:entryDocumentId checks the document as entry documents do.
entryDocumentAccess.provide(assertDocumentAccess);
// Products point to a company tax group (fiscal): the catalog checks it exists.
taxGroupLookup.provide(taxGroupLookupProvider);
// Returns to the supplier that stand against an entry document block its cancellation.
supplierReturnsOfDocument.provide(supplierReturnsOfDocumentProvider);
// The product map's history shows each supplier code's last purchases: entry documents' lines, read by entry-document.
purchaseHistory.provide(purchaseHistoryProvider);

/** Every module's routes, in mounting order (specific paths before parameterized ones within a module). */
export function allRoutes(): RouteDef[] {
  // product-map first: its literal paths live under /entry-document and must precede /entry-document/:id.
  // Entry documents (payables' literal /entry-document/contas-pagar/... first) come after every other
  // /entry-document/<literal> route (product-map, nfe): their own list ends with /entry-document/:id.
  // POST /sales-order is quick-sale's (it dispatches to sales-order's create), listed where sales orders begin.
  return [
    ...productMapRoutes,
    ...nfeVolumeRoutes,
    ...nfeRoutes,
    ...cteRoutes,
    ...sefazRoutes,
    ...payableRoutes,
    ...entryDocumentRoutes,
    ...systemRoutes,
    ...tenancyRoutes,
    ...catalogRoutes,
    ...eventRoutes,
    ...quickSaleRoutes,
    ...returnRoutes,
    ...receivableRoutes,
    ...salesOrderCreateRoutes,
    ...salesOrderRoutes,
    ...purchaseRoutes,
    ...fiscalRoutes,
    ...invoiceRoutes,
    ...transferRoutes,
    ...nfceRoutes,
    ...supplierReturnRoutes,
  ];
}
