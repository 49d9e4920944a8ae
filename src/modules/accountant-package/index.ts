/*
 * The accountant-package module's front door: the provider of fiscal-periods' `periodDocuments` port (the
 * documents still inside a legal window at the close), the package builder, and its route for the
 * composition root (src/modules/index.ts).
 */
export { closingWindow } from './closing-window';
export { buildPackage, PACKAGE_LAYOUT } from './package.service';
export type { AccountantPackage } from './package.service';
export { accountantPackageRoutes } from './accountant-package.router';
