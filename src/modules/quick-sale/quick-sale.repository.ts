import { EntityManager } from 'typeorm';
import { hydrate } from '../../core/db/sql';
import { readBatch } from '../../core/db/transaction';
import { Customer, PaymentMethod, Seller } from '../catalog';
import { QuickSaleConfiguration } from './entities/quick-sale-configuration.entity';
import { openSessionStatement } from '../cash-sessions';

export interface SaleSetupRows {
  configuration: QuickSaleConfiguration | null;
  /** Every payment method of the company (a short list); the caller keeps the configured ones. */
  paymentMethods: PaymentMethod[];
  defaultCustomer: Customer | null;
  defaultSeller: Seller | null;
  /** The filial issues an NFC-e with every quick sale (nfce_configuration, joined to the configuration's read). */
  nfceAutoIssue: boolean;
  /** The rows of the terminal's open cash session (read only when the sale names a terminal). */
  session: Record<string, unknown>[] | null;
}

/** A filial's quick-sale configuration and the records it names, in one round trip. */
export async function readSaleSetup(
  em: EntityManager,
  companyId: number,
  filialId: number,
  terminalId: string | null = null,
): Promise<SaleSetupRows> {
  const named = (table: 'customer' | 'seller', column: 'default_customer_id' | 'default_seller_id') => ({
    sql: `SELECT r.* FROM ${table} r JOIN quick_sale_configuration q ON q.company_id = r.company_id AND q.${column} = r.id WHERE q.company_id = ? AND q.filial_id = ?`,
    params: [companyId, filialId],
  });
  const [configurations, methods, customers, sellers, session] = (await readBatch(em, [
    {
      sql: 'SELECT q.*, n.auto_issue AS nfce_auto_issue FROM quick_sale_configuration q LEFT JOIN nfce_configuration n ON n.company_id = q.company_id AND n.filial_id = q.filial_id WHERE q.company_id = ? AND q.filial_id = ?',
      params: [companyId, filialId],
    },
    { sql: 'SELECT * FROM payment_method WHERE company_id = ?', params: [companyId] },
    named('customer', 'default_customer_id'),
    named('seller', 'default_seller_id'),
    // The terminal's open session, in the same round trip (shared lock on MySQL: a close waits for this sale).
    ...(terminalId ? [openSessionStatement(companyId, filialId, terminalId)] : []),
  ])) as Record<string, unknown>[][];
  return {
    configuration: hydrate(em, QuickSaleConfiguration, configurations)[0] ?? null,
    paymentMethods: hydrate(em, PaymentMethod, methods),
    defaultCustomer: hydrate(em, Customer, customers)[0] ?? null,
    defaultSeller: hydrate(em, Seller, sellers)[0] ?? null,
    nfceAutoIssue: configurations.length > 0 && [1, true, '1'].includes(configurations[0].nfce_auto_issue as never),
    session: terminalId ? (session ?? []) : null,
  };
}
