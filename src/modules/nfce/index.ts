/* The NFC-e module's front door for the modules that issue with it (quick-sale), and its routes for the composition root. */
export { prepareCounterNote, transmitCounterNote } from './issue.service';
export type { CounterNoteInput, PreparedNote } from './issue.service';
export type { NfceDocument } from './entities/nfce-document.entity';
export { authorizedNoteOfSale } from './originals';
export { nfceRoutes } from './nfce.router';
