import { Between, EntityManager, In } from 'typeorm';
import { EntryDocumentItem } from './entities/entry-document-item.entity';
import { EntryDocument } from './entities/entry-document.entity';

/* The entry documents a filial booked in a span (by entry date), with their lines, for the fiscal books and the EFD. */

export interface BookedEntryOfPeriod {
  document: EntryDocument;
  items: EntryDocumentItem[];
}

/** CONFIRMED documents whose entry date falls in [fromDate, toDate] (YYYY-MM-DD): a draft is not booked, a cancelled one no longer is. */
export async function bookedEntriesOfPeriod(
  em: EntityManager,
  companyId: number,
  filialId: number,
  fromDate: string,
  toDate: string,
): Promise<BookedEntryOfPeriod[]> {
  const docs = await em.find(EntryDocument, {
    where: { companyId, filialId, status: 'CONFIRMED', entryDate: Between(fromDate, toDate) },
    order: { entryDate: 'ASC', id: 'ASC' },
  });
  if (!docs.length) return [];
  const items = await em.find(EntryDocumentItem, {
    where: { companyId, entryDocumentId: In(docs.map((d) => d.id)) },
    order: { entryDocumentId: 'ASC', lineNumber: 'ASC' },
  });
  const byDoc = new Map<number, EntryDocumentItem[]>();
  for (const i of items) byDoc.set(i.entryDocumentId, [...(byDoc.get(i.entryDocumentId) ?? []), i]);
  return docs.map((document) => ({ document, items: byDoc.get(document.id) ?? [] }));
}
