import { logger } from '../../core/logger';

/*
 * The recovery pass every document kind runs (SPEC §12.2), written once: the documents a crash or a
 * lost answer left without a verdict, past their age, are taken oldest first and each is brought to
 * its verdict by the kind — under the kind's lease (a document's own, or the queue's), consulting the
 * key before sending anything, recording what the authority holds. A document that fails is logged
 * and left for the next pass; the others go on. Which documents are due, how one is settled and
 * what is abandoned (a number voided, a note sent in offline contingency) are the kind's.
 */

export interface RecoveryPass<D> {
  /** The documents due this pass, oldest first (unsettled past their age, or abandoned). */
  due(now: Date): Promise<D[]>;
  /** Brings one to its verdict under its kind's rules; true when it has one now (counted). */
  settle(doc: D): Promise<boolean>;
  /** The warn line when one could not be settled: its message and what names the document. */
  failure(doc: D): { message: string; fields: Record<string, unknown> };
}

/** One pass over the due documents; answers how many have their verdict now. */
export async function runRecoveryPass<D>(pass: RecoveryPass<D>, now: Date): Promise<number> {
  let settled = 0;
  for (const doc of await pass.due(now)) {
    try {
      if (await pass.settle(doc)) settled++;
    } catch (err) {
      const { message, fields } = pass.failure(doc);
      logger.warn(message, { ...fields, err: (err as Error).message });
    }
  }
  return settled;
}
