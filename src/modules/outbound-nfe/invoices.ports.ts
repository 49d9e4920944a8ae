import type { EntityManager } from 'typeorm';
import { definePort } from '../../core/port';

/*
 * The séries are this module's, but the NFC-e (model 65) that take their numbers are the nfce
 * module's, which depends on this one: the number report reads them through this port, provided by
 * nfce (series-numbers.ts).
 */

/** What became of a number of a model 65 série, as the NFC-e module records it. */
export type CounterNumberFate =
  'AUTHORIZED' | 'CANCELLED' | 'REJECTED' | 'SIGNED' | 'CONTINGENCY' | 'SUBSTITUTED' | 'SUBSTITUTION_PENDING' | 'VOIDED';

export interface CounterNumber {
  number: number;
  fate: CounterNumberFate;
  /** The note that holds the number: its own, or the online attempt it replaced. */
  nfceId: number;
  /** The key the number was issued under (the attempt's for SUBSTITUTED/SUBSTITUTION_PENDING); null once voided. */
  accessKey: string | null;
}

export interface CounterNotes {
  /** The numbers `from`..`to` of the série the NFC-e hold, their notes' and their online attempts'. */
  numbersOf(em: EntityManager, companyId: number, seriesId: number, from: number, to: number): Promise<CounterNumber[]>;
  /** procInutNFe of a number the NFC-e module voided (an online attempt that never reached the authority); null when none. */
  voidedNumberXml(em: EntityManager, companyId: number, seriesId: number, number: number): Promise<string | null>;
}
export const counterNotes = definePort<CounterNotes>('counterNotes');
