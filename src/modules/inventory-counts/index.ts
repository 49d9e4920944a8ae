/* The stock counts' front door: the inventory snapshot Bloco H reads, and the routes for the composition root. */
export { inventorySnapshot } from './inventory-counts.service';
export type { InventorySnapshot } from './inventory-counts.service';
export { inventoryCountRoutes } from './inventory-counts.router';
