/*
 * The CIAP's front door (LC 87/1996 art. 20 §5): the provider of entry documents' fixed-asset port
 * (assets recorded on confirmation, cancelled with the entry) and the routes for the composition root.
 */
export { fixedAssetCreditsProvider } from './ciap.service';
export { ciapRoutes } from './ciap.router';
