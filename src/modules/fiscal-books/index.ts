/*
 * The fiscal books' front door: the month's book of a filial (every document it issued, booked or took,
 * with their lines) that the Livros and the EFD ICMS/IPI share, and its routes for the composition root.
 */
export { loadFiscalBook, efdCst } from './book';
export type { BookDocument, BookLine, BookParticipant, FiscalBook, VoidedNumber } from './book.types';
export { bookRowsOf, summarize } from './summary';
export type { BookSummary, SummaryRow } from './summary';
export { fiscalMonth, PERIOD_PATTERN } from './period';
export type { FiscalMonth } from './period';
export { period as periodSchema } from './fiscal-books.schemas';
export { fiscalBookRoutes } from './fiscal-books.router';
