import { EntityManager } from 'typeorm';
import { toFixed } from '../../../core/decimal';
import type { TaxRegime } from '../../tenancy';
import type { ComputedItem } from '../entry-document.calculator';
import { EntryDocumentItem } from '../entities/entry-document-item.entity';
import { EntryDocument } from '../entities/entry-document.entity';
import { sqlNow } from '../../../core/db/sql-time';

/** SQL of a confirmation's booking: the regime it was booked by, and the lines as booked. */

const BOOKED = [
  'entryCfop',
  'entryCfopSource',
  'operationClass',
  'operationClassSource',
  'creditIcms',
  'creditPis',
  'creditCofins',
  'creditIpi',
  'creditCbs',
  'creditIbs',
  'creditBase',
  'costTotal',
  'unitCost',
] as const;

const same = (a: unknown, b: unknown) =>
  a && typeof a === 'object' && 'toFixed' in a && b && typeof b === 'object' && 'toFixed' in b
    ? toFixed(a as never, 10) === toFixed(b as never, 10)
    : a === b;

/**
 * Records the regime on the document and brings its stored lines to what was posted: a line differs
 * only when the filial's regime or the company's rules changed since the draft was last written
 * (one UPDATE per such line; none otherwise).
 */
export async function recordBooking(
  em: EntityManager,
  companyId: number,
  documentId: number,
  taxRegime: TaxRegime,
  stored: EntryDocumentItem[],
  computed: ComputedItem[],
): Promise<void> {
  await em
    .createQueryBuilder()
    .update(EntryDocument)
    .set({ taxRegime, updatedAt: () => sqlNow() } as never)
    .where('id = :id AND company_id = :companyId', { id: documentId, companyId })
    .execute();
  for (let i = 0; i < stored.length; i++) {
    const changed = BOOKED.filter((f) => !same(stored[i][f], computed[i][f]));
    if (changed.length)
      await em.update(
        EntryDocumentItem,
        { id: stored[i].id, companyId },
        Object.fromEntries(changed.map((f) => [f, computed[i][f]])) as never,
      );
  }
}
