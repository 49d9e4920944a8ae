/* The SPED module's front door: the EFD ICMS/IPI routes and its worker for the composition root. */
export { spedRoutes } from './sped.router';
export { runSpedQueue, spedWorker } from './sped.service';
