/*
 * The local Pix PSP (development and tests): src/dev, never imported by production code. Tests start
 * it with `startPspSimulator()` and point a bank account's PSP connection at its `apiUrl`.
 */
export { PspSimulator, startPspSimulator } from './simulator';
export type { Delivery, DeliverOptions, PayRequest, PspSimulatorOptions } from './simulator';
