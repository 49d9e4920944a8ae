/* The NFC-e module's front door for the modules that issue with it (quick-sale). */
export { prepareCounterNote, transmitCounterNote } from './issue.service';
export type { CounterNoteInput, PreparedNote } from './issue.service';
export type { NfceDocument } from './entities/nfce-document.entity';
export { authorizedNoteOfSale } from './originals';
