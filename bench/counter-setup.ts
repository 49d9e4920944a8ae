/* The counter's fixture shared by the quick-sale, sale-floor-parts and library-internals benches: opening stock, the default customer, cash, the counter's configuration. */
import type { EntityManager } from 'typeorm';
import { normalizeText } from '../src/core/br-documents';
import { dataSource } from '../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../src/core/db/transaction';
import { Dec } from '../src/core/decimal';
import { Customer } from '../src/modules/catalog/entities/customer.entity';
import { PaymentMethod } from '../src/modules/catalog/entities/payment-method.entity';
import { Product } from '../src/modules/catalog/entities/product.entity';
import { QuickSaleConfiguration } from '../src/modules/quick-sale/entities/quick-sale-configuration.entity';
import { postToLedger } from '../src/modules/stock/stock-ledger.service';
import { createTenant } from '../src/modules/tenancy/tenant.service';

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
    em.create(Customer, {
      companyId,
      name: 'Consumidor Final',
      searchName: 'CONSUMIDOR FINAL',
      tradeName: null,
      searchTradeName: null,
      document: null,
      email: null,
      phone: null,
      active: true,
    }),
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

/** The baselines compared under BENCH_TARGET (635b482, b856826) take `inTransaction(work)`; this checkout `inTransaction(scope, work)`. */
const openTransaction = <T>(work: (em: EntityManager) => Promise<T>): Promise<T> =>
  inTransaction.length >= 2 ? inTransaction(NO_UNIT, work) : (inTransaction as unknown as (w: typeof work) => Promise<T>)(work);

/** A tenant with one filial (SP) and `count` products at 10.00, each with `stock` units, ready to sell at the counter. */
export async function counterTenant(count: number, stock: number) {
  const { company, filiais } = await createTenant({
    name: 'Bench Counter',
    cnpj: '11222333000181',
    filiais: [{ name: 'Loja', cnpj: '11222333000181', uf: 'SP' }],
  });
  const filial = filiais[0];
  const em = dataSource.manager;
  const products: Product[] = [];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_v, j) => {
      const name = `Produto ${i + j + 1}`;
      return em.create(Product, {
        companyId: company.id,
        code: String(i + j + 1),
        name,
        searchName: normalizeText(name),
        unit: 'UN',
        gtin: null,
        ncm: null,
        cest: null,
        price: new Dec('10.00'),
        active: true,
        stockControlled: true,
      });
    });
    products.push(...(await em.save(rows)));
  }
  const { customer } = await seedCounter(openTransaction, company.id, filial.id, products, stock);
  return { company, filial, products, customer };
}
