/* The NFC-e module's front door for the modules that issue with it (quick-sale); its routes and contingency queue for the composition root and src/main.ts. */
export { abandonCounterNote, openCounterNote, prepareCounterNote, transmitCounterNote } from './issue.service';
export type { CounterNoteInput, CounterNoteOpening, CounterNotePayment, OpenedCounterNote, PreparedNote } from './issue.service';
export type { NfceDocument } from './entities/nfce-document.entity';
export { authorizedNoteOfSale, notesOfSales, pendingNotesOfSales } from './originals';
export { nfceRoutes } from './nfce.router';
export { getNfceConfiguration } from './configuration.service';
export { nfceQueueWorker } from './transmission-queue';
export { counterNotesProvider } from './series-numbers';
export { orderFiscalDocumentsProvider } from './order-documents';
export { issuedNfceOfPeriod } from './book-documents';
export type { IssuedNfceOfPeriod } from './book-documents';
export { notesOfMonth, pendingNotesOfMonth } from './period-documents';
export type { MonthNote } from './period-documents';
