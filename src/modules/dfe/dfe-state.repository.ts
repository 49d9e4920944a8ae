import { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { ConflictError } from '../../core/errors';
import { DfeState } from './entities/dfe-state.entity';

/** The per-filial DF-e state row: created on first use, changed only by conditional updates on `version`. */

export async function findState(companyId: number, filialId: number, em: EntityManager = readerOf(NO_UNIT)): Promise<DfeState | null> {
  return em.findOneBy(DfeState, { companyId, filialId });
}

export async function ensureState(companyId: number, filialId: number): Promise<DfeState> {
  const existing = await findState(companyId, filialId);
  if (existing) return existing;
  try {
    await inTransaction(NO_UNIT, (em) => em.insert(DfeState, { companyId, filialId }));
  } catch (err) {
    // Created at the same moment by another request: use theirs.
    if (!isUniqueViolation(err)) throw err;
  }
  return (await findState(companyId, filialId))!;
}

/** UPDATE … WHERE id AND company AND version; false when someone else changed the row first. */
export async function updateState(em: EntityManager, state: DfeState, values: Partial<DfeState>): Promise<boolean> {
  const res = await em
    .createQueryBuilder()
    .update(DfeState)
    .set({ ...values, version: () => 'version + 1' } as never)
    .where('id = :id AND company_id = :companyId AND version = :version', {
      id: state.id,
      companyId: state.companyId,
      version: state.version,
    })
    .execute();
  if (!res.affected) return false;
  Object.assign(state, values, { version: state.version + 1 });
  return true;
}

export async function updateStateOrFail(em: EntityManager, state: DfeState, values: Partial<DfeState>): Promise<void> {
  if (!(await updateState(em, state, values)))
    throw new ConflictError('SEFAZ_SYNC_IN_PROGRESS', 'The DF-e state of this filial was changed by another synchronisation');
}
