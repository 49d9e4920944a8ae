/* The counter's fixture shared by the quick-sale and library-internals benches: opening stock, the default customer, cash, the counter's configuration. */
import type { EntityManager } from 'typeorm';
import { dataSource } from '../src/core/db/data-source';
import { Dec } from '../src/core/decimal';
import { Customer } from '../src/modules/catalog/entities/customer.entity';
import { PaymentMethod } from '../src/modules/catalog/entities/payment-method.entity';
import type { Product } from '../src/modules/catalog/entities/product.entity';
import { QuickSaleConfiguration } from '../src/modules/quick-sale/entities/quick-sale-configuration.entity';
import { postToLedger } from '../src/modules/stock/stock-ledger.service';

/** `openTransaction` runs its work in one transaction (the benches pass the form the measured commit takes). */
export async function seedCounter(
  openTransaction: <T>(work: (em: EntityManager) => Promise<T>) => Promise<T>,
  companyId: number,
  filialId: number,
  products: Product[],
  stock: number,
): Promise<{ customer: Customer }> {
  const em = dataSource.manager;
  await openTransaction((tx) =>
    postToLedger(tx, {
      companyId,
      filialId,
      reason: 'OPENING_BALANCE',
      referenceType: 'bench',
      referenceId: 1,
      lines: products.map((p) => ({ productId: p.id, direction: 'IN' as const, quantity: new Dec(stock), unitCost: new Dec('5') })),
    }),
  );
  const customer = await em.save(
    em.create(Customer, { companyId, name: 'Consumidor Final', searchName: 'CONSUMIDOR FINAL', tradeName: null, searchTradeName: null, document: null, email: null, phone: null, active: true }),
  );
  await em.save(em.create(PaymentMethod, { companyId, code: 'CASH', name: 'Dinheiro', kind: 'CASH', givesChange: true, active: true }));
  await em.save(
    em.create(QuickSaleConfiguration, {
      companyId,
      filialId,
      enabled: true,
      defaultCustomerId: customer.id,
      defaultSellerId: null,
      paymentMethods: ['CASH'],
      defaultPaymentMethod: 'CASH',
      allowNegativeStock: false,
      requireCustomer: false,
      maxDiscountPercent: new Dec(0),
    }),
  );
  return { customer };
}
