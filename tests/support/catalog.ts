import { normalizeText } from '../../src/core/br-documents';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { dataSource } from '../../src/core/db/data-source';
import { Dec, dec, DecimalInput } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { PaymentMethod, PaymentKind } from '../../src/modules/catalog/entities/payment-method.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { indexCustomers, indexSellers } from '../../src/modules/catalog/party-search-index';
import { indexProductNames } from '../../src/modules/catalog/product-search-index';
import { Seller } from '../../src/modules/catalog/entities/seller.entity';
import { Supplier } from '../../src/modules/catalog/entities/supplier.entity';
import { StockBalance } from '../../src/modules/stock/entities/stock-balance.entity';
import { findStockMismatches } from '../../src/modules/stock/stock.repository';
import { postToLedger } from '../../src/modules/stock/stock-ledger.service';
import { randomCnpj, TestTenant } from './tenant';

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/** Factories write through the entities directly: fast, and independent of the routes under test. */
export async function makeProduct(t: TestTenant, over: Partial<Product> = {}): Promise<Product & { hash: string }> {
  const name = over.name ?? `Produto Teste ${unique()}`;
  const p = await dataSource.manager.save(
    dataSource.manager.create(Product, {
      companyId: t.companyId,
      code: over.code ?? `T${unique()}`,
      name,
      searchName: normalizeText(name),
      unit: 'UN',
      gtin: null,
      ncm: null,
      cest: null,
      price: new Dec('10'),
      active: true,
      stockControlled: true,
      ...over,
    }),
  );
  await indexProductNames(dataSource.manager, t.companyId, [p]);
  return Object.assign(p, { hash: encodeId('product', p.id) });
}

export async function makeCustomer(t: TestTenant, over: Partial<Customer> = {}): Promise<Customer & { hash: string }> {
  const name = over.name ?? `Cliente ${unique()}`;
  const c = await dataSource.manager.save(
    dataSource.manager.create(Customer, {
      companyId: t.companyId,
      name,
      searchName: normalizeText(name),
      tradeName: null,
      searchTradeName: null,
      document: null,
      email: null,
      phone: null,
      active: true,
      ...over,
    }),
  );
  await indexCustomers(dataSource.manager, t.companyId, [c]);
  return Object.assign(c, { hash: encodeId('customer', c.id) });
}

export async function makeSeller(t: TestTenant, over: Partial<Seller> = {}): Promise<Seller & { hash: string }> {
  const name = over.name ?? `Vendedor ${unique()}`;
  const s = await dataSource.manager.save(
    dataSource.manager.create(Seller, {
      companyId: t.companyId,
      name,
      alias: null,
      searchName: normalizeText(`${name} ${over.alias ?? ''}`),
      active: true,
      ...over,
    }),
  );
  await indexSellers(dataSource.manager, t.companyId, [s]);
  return Object.assign(s, { hash: encodeId('seller', s.id) });
}

export async function makeSupplier(t: TestTenant, over: Partial<Supplier> = {}): Promise<Supplier & { hash: string }> {
  const name = over.name ?? `Fornecedor ${unique()}`;
  const s = await dataSource.manager.save(
    dataSource.manager.create(Supplier, {
      companyId: t.companyId,
      document: randomCnpj(),
      name,
      searchName: normalizeText(name),
      tradeName: null,
      stateRegistration: null,
      uf: 'SP',
      active: true,
      ...over,
    }),
  );
  return Object.assign(s, { hash: encodeId('supplier', s.id) });
}

export async function makePaymentMethod(
  t: TestTenant,
  code: string,
  kind: PaymentKind,
  over: Partial<PaymentMethod> = {},
): Promise<PaymentMethod & { hash: string }> {
  const m = await dataSource.manager.save(
    dataSource.manager.create(PaymentMethod, {
      companyId: t.companyId,
      code,
      name: code,
      kind,
      givesChange: kind === 'CASH',
      active: true,
      ...over,
    }),
  );
  return Object.assign(m, { hash: encodeId('payment-method', m.id) });
}

/** Puts stock in through the ledger (an opening balance), so balances always equal movements. */
export async function addStock(
  t: TestTenant,
  filialIndex: number,
  productId: number,
  quantity: DecimalInput,
  unitCost: DecimalInput = '1',
): Promise<void> {
  await inTransaction(NO_UNIT, (em) =>
    postToLedger(em, {
      companyId: t.companyId,
      filialId: t.filialIds[filialIndex],
      reason: 'OPENING_BALANCE',
      referenceType: 'test',
      referenceId: 1,
      lines: [{ productId, direction: 'IN', quantity: dec(quantity), unitCost: dec(unitCost) }],
    }),
  );
}

export async function stockOf(t: TestTenant, filialIndex: number, productId: number): Promise<{ quantity: string; averageCost: string }> {
  const b = await dataSource.manager.findOneBy(StockBalance, { companyId: t.companyId, filialId: t.filialIds[filialIndex], productId });
  return { quantity: (b?.quantity ?? new Dec(0)).toFixed(4), averageCost: (b?.averageCost ?? new Dec(0)).toFixed(10) };
}

/** `npm run check:stock` for one tenant: balances that differ from the sum of their movements. */
export const stockMismatches = (t: TestTenant) => findStockMismatches(dataSource.manager, t.companyId);
