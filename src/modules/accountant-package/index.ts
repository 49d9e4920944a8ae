/*
 * The accountant-package module's front door: the provider of fiscal-periods' `periodDocuments` port (the
 * documents still inside a legal window at the close) for the composition root (src/modules/index.ts).
 */
export { closingWindow } from './closing-window';
