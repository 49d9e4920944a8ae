import type { EntityManager } from 'typeorm';
import type { BankAccount } from './entities/bank-account.entity';
import { Boleto } from './entities/boleto.entity';

/** Whether an account has boletos: its identity (bank, agência, conta, carteira, convênio, layout) is then fixed. */
export async function accountHasTitles(em: EntityManager, account: BankAccount): Promise<boolean> {
  return (await em.count(Boleto, { where: { companyId: account.companyId, bankAccountId: account.id }, take: 1 })) > 0;
}
