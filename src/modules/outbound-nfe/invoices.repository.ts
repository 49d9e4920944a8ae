import type { EntityManager } from 'typeorm';
import { insertedId, insertRows, setClause } from '../../core/db/sql';
import { ConflictError } from '../../core/errors';
import { CompanySmtp } from './entities/company-smtp.entity';
import { OutboundNfe } from './entities/outbound-nfe.entity';

/* SQL of the company's SMTP settings and of the document's delivery fields (the document's own row: invoice-store.ts). */

/** The company's own SMTP settings, if it set them. */
export function findCompanySmtp(em: EntityManager, companyId: number): Promise<CompanySmtp | null> {
  return em.findOneBy(CompanySmtp, { companyId });
}

/** Writes the company's SMTP settings (the row is created on first use); answers them as stored. */
export async function saveCompanySmtp(
  em: EntityManager,
  current: CompanySmtp | null,
  row: Omit<CompanySmtp, 'id' | 'version' | 'createdAt' | 'updatedAt'>,
): Promise<CompanySmtp> {
  if (!current) {
    const id = insertedId(await insertRows(em, CompanySmtp, [{ ...row, version: 1, createdAt: new Date(), updatedAt: new Date() }]));
    return em.findOneByOrFail(CompanySmtp, { id, companyId: row.companyId });
  }
  const r = await em
    .createQueryBuilder()
    .update(CompanySmtp)
    .set({
      host: row.host,
      port: row.port,
      secure: row.secure,
      user: row.user,
      passwordSealed: row.passwordSealed,
      from: row.from,
      version: () => 'version + 1',
    } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', {
      id: current.id,
      companyId: row.companyId,
      version: current.version,
    })
    .execute();
  if (!r.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The SMTP settings changed concurrently; retry');
  return em.findOneByOrFail(CompanySmtp, { id: current.id, companyId: row.companyId });
}

/**
 * The delivery fields (email status, attempts, error): outside the document's state machine, so its
 * version stays — a send running in the background never turns a cancellation into a concurrent update.
 */
export async function markDelivery(
  em: EntityManager,
  companyId: number,
  id: number,
  fields: Partial<Pick<OutboundNfe, 'emailStatus' | 'emailTo' | 'emailAttempts' | 'emailSentAt' | 'emailError'>>,
): Promise<void> {
  const set = setClause(em, OutboundNfe, { ...fields, updatedAt: new Date() });
  await em.query(`UPDATE ${em.connection.driver.escape('outbound_nfe')} SET ${set.sql} WHERE id = ? AND company_id = ?`, [
    ...(set.params ?? []),
    id,
    companyId,
  ]);
}
