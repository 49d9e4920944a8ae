import { EntityManager } from 'typeorm';
import { inOwnTransaction } from '../db/transaction';
import { Sequence } from './sequence.entity';

/*
 * Values are taken in a short transaction of their own, so the counter row is locked for one
 * statement, not for the caller's whole unit of work. A caller that rolls back leaves a gap; codes are
 * unique and increasing, not gap-free (see README).
 */
async function bump(em: EntityManager, companyId: number, name: string, by: number): Promise<number> {
  const update = () =>
    em
      .createQueryBuilder()
      .update(Sequence)
      .set({ value: () => `value + ${Math.trunc(by)}` })
      .where('company_id = :companyId AND name = :name', { companyId, name })
      .execute();
  let res = await update();
  if (!res.affected) {
    await em.createQueryBuilder().insert().into(Sequence).values({ companyId, name, value: 0 }).orIgnore().execute();
    res = await update();
  }
  const row = await em.findOneByOrFail(Sequence, { companyId, name });
  return row.value;
}

/** Reserves `count` consecutive values and returns the first. */
export async function nextSequenceValues(companyId: number, name: string, count = 1): Promise<number> {
  return inOwnTransaction(async (em) => (await bump(em, companyId, name, count)) - count + 1);
}

export const nextSequenceValue = (companyId: number, name: string) => nextSequenceValues(companyId, name, 1);

/** Moves the counter up to at least `value` (e.g. after codes were taken by hand). */
export async function raiseSequenceTo(em: EntityManager, companyId: number, name: string, value: number): Promise<void> {
  await em.createQueryBuilder().insert().into(Sequence).values({ companyId, name, value: 0 }).orIgnore().execute();
  await em
    .createQueryBuilder()
    .update(Sequence)
    .set({ value })
    .where('company_id = :companyId AND name = :name AND value < :value', { companyId, name, value })
    .execute();
}
