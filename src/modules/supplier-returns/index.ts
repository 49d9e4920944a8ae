/*
 * The supplier-returns module's front door: its routes and the provider of entry-document's port for
 * the composition root (src/modules/index.ts).
 */
export { supplierReturnRoutes } from './supplier-returns.router';
export { supplierReturnsOfDocumentProvider } from './supplier-returns.service';
