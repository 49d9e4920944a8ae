import type { EntityManager } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { updateIfCurrent } from '../../core/versioned-update';
import { BankAccount } from './entities/bank-account.entity';
import { BoletoInstruction } from './entities/boleto-instruction.entity';
import { Boleto, BoletoStatus } from './entities/boleto.entity';

/* The SQL of bank accounts, boletos and their instructions; every statement is filtered by company_id. */

/** Takes the account's row lock inside `em`'s transaction (MySQL; SQLite serializes writers). */
export async function lockAccount(em: EntityManager, companyId: number, id: number): Promise<void> {
  if (isMysql) await em.query('SELECT id FROM bank_account WHERE company_id = ? AND id = ? FOR UPDATE', [companyId, id]);
}

/** A company's accounts, optionally of one filial or of the granted filiais, active or not: one page of at most 200. */
export function accountsOf(
  em: EntityManager,
  companyId: number,
  filter: { filialId?: number; filialIn?: number[]; active?: boolean },
): Promise<BankAccount[]> {
  const qb = em.createQueryBuilder(BankAccount, 'a').where('a.company_id = :companyId', { companyId });
  if (filter.filialId) qb.andWhere('a.filial_id = :filialId', { filialId: filter.filialId });
  else if (filter.filialIn) qb.andWhere('a.filial_id IN (:...granted)', { granted: filter.filialIn.length ? filter.filialIn : [0] });
  if (filter.active !== undefined) qb.andWhere('a.active = :active', { active: filter.active });
  return qb.orderBy('a.id', 'ASC').take(200).getMany();
}

/** Updates the account when its version is still `version` (optimistic); false when somebody changed it first. */
export async function updateAccountIf(
  em: EntityManager,
  companyId: number,
  id: number,
  version: number,
  set: Partial<BankAccount>,
): Promise<boolean> {
  return updateIfCurrent(em, BankAccount, { companyId, id }, { version }, set);
}

/** Reads a boleto under its row lock (MySQL; SQLite serializes) inside `em`'s transaction. */
export async function lockedBoleto(em: EntityManager, companyId: number, id: number): Promise<Boleto | null> {
  if (isMysql) await em.query('SELECT id FROM boleto WHERE company_id = ? AND id = ? FOR UPDATE', [companyId, id]);
  return em.findOneBy(Boleto, { id, companyId });
}

/** Moves a boleto when its status and version are still the ones read; false when it changed meanwhile. */
export async function updateBoletoIf(em: EntityManager, before: Boleto, values: Partial<Boleto>): Promise<boolean> {
  const { companyId, id, status, version } = before;
  return updateIfCurrent(em, Boleto, { companyId, id }, { status, version }, values);
}

/** The receivable's boleto in one of `statuses` (at most one stands at a time). */
export function standingBoletoOf(
  em: EntityManager,
  companyId: number,
  receivableId: number,
  statuses: readonly BoletoStatus[],
): Promise<Boleto | null> {
  return em
    .createQueryBuilder(Boleto, 'b')
    .where('b.company_id = :companyId AND b.receivable_id = :rid AND b.status IN (:...statuses)', {
      companyId,
      rid: receivableId,
      statuses,
    })
    .getOne();
}

/** The standing boletos (one per receivable at most) of these receivables. */
export function standingBoletosOfReceivables(
  em: EntityManager,
  companyId: number,
  receivableIds: number[],
  statuses: readonly BoletoStatus[],
): Promise<Boleto[]> {
  if (!receivableIds.length) return Promise.resolve([]);
  return em
    .createQueryBuilder(Boleto, 'b')
    .where('b.company_id = :companyId AND b.receivable_id IN (:...ids) AND b.status IN (:...statuses)', {
      companyId,
      ids: receivableIds,
      statuses,
    })
    .orderBy('b.id', 'ASC')
    .getMany();
}

/** An account's instructions no remessa has carried yet, oldest first, at most `limit`. */
export function pendingInstructionsOf(
  em: EntityManager,
  companyId: number,
  bankAccountId: number,
  limit: number,
): Promise<BoletoInstruction[]> {
  return em
    .createQueryBuilder(BoletoInstruction, 'i')
    .where('i.company_id = :companyId AND i.bank_account_id = :accountId AND i.remittance_id IS NULL', {
      companyId,
      accountId: bankAccountId,
    })
    .orderBy('i.id', 'ASC')
    .take(limit)
    .getMany();
}

/** Marks the instructions as carried by the remessa, only those still unclaimed; answers how many it took. */
export async function claimInstructions(em: EntityManager, companyId: number, remittanceId: number, ids: number[]): Promise<number> {
  const claimed = await em
    .createQueryBuilder()
    .update(BoletoInstruction)
    .set({ remittanceId })
    .where('company_id = :companyId AND id IN (:...ids) AND remittance_id IS NULL', { companyId, ids })
    .execute();
  return claimed.affected ?? 0;
}

/** Deletes the boleto's REGISTER instruction while no remessa carried it; false when one already did. */
export async function dropPendingRegistration(em: EntityManager, companyId: number, boletoId: number): Promise<boolean> {
  const claimed = await em
    .createQueryBuilder()
    .delete()
    .from(BoletoInstruction)
    .where('company_id = :companyId AND boleto_id = :id AND kind = :kind AND remittance_id IS NULL', {
      companyId,
      id: boletoId,
      kind: 'REGISTER',
    })
    .execute();
  return Boolean(claimed.affected);
}
