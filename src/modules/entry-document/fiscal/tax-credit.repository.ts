import { EntityManager } from 'typeorm';
import { EntryDocumentTaxCredit } from '../entities/entry-document-tax-credit.entity';
import { sqlNow } from '../../../core/db/sql-time';

/** SQL of the credits a confirmed entry document records, per tax. Scoped by company. */

export async function insertTaxCredits(em: EntityManager, rows: Partial<EntryDocumentTaxCredit>[]): Promise<void> {
  if (rows.length)
    await em
      .createQueryBuilder()
      .insert()
      .into(EntryDocumentTaxCredit)
      .values(rows as never)
      .updateEntity(false)
      .execute();
}

export function taxCreditsOf(em: EntityManager, companyId: number, entryDocumentId: number): Promise<EntryDocumentTaxCredit[]> {
  return em.find(EntryDocumentTaxCredit, { where: { companyId, entryDocumentId }, order: { id: 'ASC' } });
}

/** Marks the document's recorded credits reversed; the number of rows changed. */
export async function reverseTaxCredits(em: EntityManager, companyId: number, entryDocumentId: number): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(EntryDocumentTaxCredit)
    .set({ status: 'REVERSED', reversedAt: () => sqlNow() } as never)
    .where('company_id = :companyId AND entry_document_id = :entryDocumentId AND status = :status', {
      companyId,
      entryDocumentId,
      status: 'RECORDED',
    })
    .execute();
  return result.affected ?? 0;
}
