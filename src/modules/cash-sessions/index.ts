/*
 * The cash-sessions module's front door: its routes and gauges for the composition root, the port it
 * needs from the counter's sales (quick-sale provides it), and what a quick sale uses to find the open
 * session of its terminal within its own first round trip.
 */
export { cashSessionRoutes } from './cash-sessions.router';
export { registerCashSessionMetrics } from './cash-sessions.metrics';
export { counterSales } from './cash-sessions.ports';
export type { CounterSales, SessionNote, SessionSalePayment } from './cash-sessions.ports';
export { openSessionStatement } from './cash-sessions.repository';
export { cashSessionRequired, sessionOfSale } from './cash-sessions.service';
export { registerTefAdapter, TefDeclined } from './tef';
export type { TefAdapter, TefApproval, TefRequest } from './tef';
