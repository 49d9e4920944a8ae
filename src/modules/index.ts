import type { RouteDef } from '../core/http/route';
import { catalogRoutes, taxGroupLookup } from './catalog';
import { cteBatchHandler, cteRoutes } from './cte';
import { counterNotes, invoiceRoutes } from './outbound-nfe';
import { transferRoutes } from './transfers';
import { counterNotesProvider, nfceRoutes, orderFiscalDocumentsProvider } from './nfce';
import {
  assertDocumentAccess,
  entryDocumentRoutes,
  fixedAssetCredits,
  inboundNfe,
  purchaseHistoryProvider,
  supplierReturnsOfDocument,
} from './entry-document';
import { ciapRoutes, fixedAssetCreditsProvider } from './ciap';
import { eventRoutes } from './events';
import { inboundNfeLink, nfeRoutes, nfeVolumeRoutes, registerBatchHandler } from './inbound-nfe';
import { entryDocumentAccess, payableRoutes } from './payables';
import { productMapRoutes, purchaseHistory } from './product-map';
import { purchaseRoutes } from './purchase';
import { counterSalesProvider, quickSaleRoutes, salesOrderCreateRoutes } from './quick-sale';
import { cashSessionRoutes, counterSales } from './cash-sessions';
import { receivableRoutes } from './receivables';
import { collectionRoutes, pixRoutes } from './collection';
import { returnRoutes } from './returns';
import { orderFiscalDocuments, salesOrderRoutes } from './sales-order';
import { dfeRoutes, nfeEventBatchHandler } from './dfe';
import { sefazRoutes } from './sefaz';
import { systemRoutes } from './system';
import { emissionSetupRoutes, simulatorRoutes } from './emission-setup';
import { assertFilialAccess, tenancyRoutes } from './tenancy';
import { fiscalRoutes, taxGroupLookupProvider } from './fiscal';
import { supplierReturnRoutes, supplierReturnsOfDocumentProvider } from './supplier-returns';
import { fiscalBookRoutes } from './fiscal-books';
import { inventoryCountRoutes } from './inventory-counts';
import { spedRoutes } from './sped';
import { filialAccess } from '../core/auth/tenancy';
import { fiscalPeriodRoutes, periodDocuments } from './fiscal-periods';
import { accountantPackageRoutes, closingWindow } from './accountant-package';

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
// The number report of a model 65 série reads the NFC-e (and their online attempts) that hold its numbers.
counterNotes.provide(counterNotesProvider);
// A sales order's detail links its fiscal documents: NFC-e (nfce) and NF-e (invoices, through nfce).
orderFiscalDocuments.provide(orderFiscalDocumentsProvider);
// A cash session's expected totals and reports read the counter's sales (quick-sale, which finds the session of its terminal).
counterSales.provide(counterSalesProvider);
// The fiscal close asks which documents of the month are still inside a legal window: NF-e, NFC-e and DF-e, read by the accountant package.
periodDocuments.provide(closingWindow);
// Fixed assets of a confirmed entry go to the CIAP (which reads the fiscal books, which read entry documents), and leave it with the entry's cancellation.
fixedAssetCredits.provide(fixedAssetCreditsProvider);

/**
 * Every module's routes with their owner, in mounting order, which is also their order in the OpenAPI
 * document. Within a module, literal paths come before parameterized ones. Across modules the order
 * decides nothing: several modules answer under /entry-document (product-map, inbound-nfe, dfe and sefaz under
 * /entry-document/nfe, cte, payables under /entry-document/contas-pagar, entry-document itself), but
 * no module's route can take another module's requests whichever is mounted first
 * (tests/core/route-shadowing.test.ts). POST /sales-order is quick-sale's (it dispatches to
 * sales-order's create), listed where sales orders begin.
 */
export function routesByModule(): { module: string; routes: RouteDef[] }[] {
  return [
    { module: 'product-map', routes: productMapRoutes },
    { module: 'inbound-nfe', routes: nfeVolumeRoutes },
    { module: 'inbound-nfe', routes: nfeRoutes },
    { module: 'cte', routes: cteRoutes },
    { module: 'dfe', routes: dfeRoutes },
    { module: 'sefaz', routes: sefazRoutes },
    { module: 'payables', routes: payableRoutes },
    { module: 'entry-document', routes: entryDocumentRoutes },
    { module: 'system', routes: systemRoutes },
    { module: 'tenancy', routes: tenancyRoutes },
    { module: 'emission-setup', routes: simulatorRoutes },
    { module: 'emission-setup', routes: emissionSetupRoutes },
    { module: 'catalog', routes: catalogRoutes },
    { module: 'events', routes: eventRoutes },
    { module: 'quick-sale', routes: quickSaleRoutes },
    { module: 'cash-sessions', routes: cashSessionRoutes },
    { module: 'returns', routes: returnRoutes },
    { module: 'receivables', routes: receivableRoutes },
    { module: 'collection', routes: collectionRoutes },
    { module: 'collection', routes: pixRoutes },
    { module: 'quick-sale', routes: salesOrderCreateRoutes },
    { module: 'sales-order', routes: salesOrderRoutes },
    { module: 'purchase', routes: purchaseRoutes },
    { module: 'fiscal', routes: fiscalRoutes },
    { module: 'outbound-nfe', routes: invoiceRoutes },
    { module: 'transfers', routes: transferRoutes },
    { module: 'nfce', routes: nfceRoutes },
    { module: 'supplier-returns', routes: supplierReturnRoutes },
    { module: 'fiscal-books', routes: fiscalBookRoutes },
    { module: 'inventory-counts', routes: inventoryCountRoutes },
    { module: 'sped', routes: spedRoutes },
    { module: 'fiscal-periods', routes: fiscalPeriodRoutes },
    { module: 'ciap', routes: ciapRoutes },
    { module: 'accountant-package', routes: accountantPackageRoutes },
  ];
}

/** Every module's routes, in mounting order. */
export function allRoutes(): RouteDef[] {
  return routesByModule().flatMap((m) => m.routes);
}
