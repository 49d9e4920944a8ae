import { EntityManager } from 'typeorm';
import { systemContext } from '../core/context';
import { unitOfWork, Uow } from '../core/db/transaction';
import { Dec } from '../core/decimal';
import { encodeId } from '../core/hashids';
import { normalizeText } from '../core/br-documents';
import {
  Customer,
  indexCustomers,
  indexProductNames,
  indexSellers,
  PaymentMethod,
  Product,
  PRODUCT_CODE_SEQUENCE,
  Seller,
  Supplier,
} from '../modules/catalog';
import { raiseSequenceTo } from '../core/sequence/sequence.service';
import { findConfiguration, quickSaleConfigurationService } from '../modules/quick-sale';
import { postToLedger } from '../modules/stock';
import { Company, createTenant, Filial } from '../modules/tenancy';
import { configureDemoFiscal } from './demo-fiscal';

export const DEMO_COMPANY_CNPJ = '11222333000181';

const PRODUCTS = [
  {
    code: '1',
    name: 'Cerveja Pilsen 350ml lata',
    unit: 'UN',
    gtin: '7891234567895',
    ncm: '22030000',
    price: '4.99',
    stock: '240',
    cost: '2.80',
  },
  {
    code: '2',
    name: 'Refrigerante Cola 2L',
    unit: 'UN',
    gtin: '7894900011517',
    ncm: '22021000',
    price: '9.49',
    stock: '120',
    cost: '5.10',
  },
  { code: '3', name: 'Arroz Branco Tipo 1 5kg', unit: 'PCT', gtin: null, ncm: '10063021', price: '27.90', stock: '60', cost: '19.35' },
  { code: '4', name: 'Feijão Carioca 1kg', unit: 'PCT', gtin: null, ncm: '07133319', price: '8.79', stock: '80', cost: '5.62' },
  { code: '5', name: 'Café Torrado e Moído 500g', unit: 'PCT', gtin: null, ncm: '09012100', price: '18.90', stock: '50', cost: '12.40' },
];

export interface DemoTenantSummary {
  companyId: string;
  filialIds: string[];
  productIds: string[];
  customerIds: string[];
  sellerIds: string[];
  supplierIds: string[];
}

export async function summarize(em: EntityManager, company: Company): Promise<DemoTenantSummary> {
  const byCompany = { where: { companyId: company.id }, order: { id: 'ASC' as const } };
  const ids = async <T extends { id: number }>(target: new () => T) => (await em.find(target, byCompany as never)).map((r) => r.id);
  return {
    companyId: encodeId('company', company.id),
    filialIds: (await ids(Filial)).map((id) => encodeId('filial', id)),
    productIds: (await ids(Product)).map((id) => encodeId('product', id)),
    customerIds: (await ids(Customer)).map((id) => encodeId('customer', id)),
    sellerIds: (await ids(Seller)).map((id) => encodeId('seller', id)),
    supplierIds: (await ids(Supplier)).map((id) => encodeId('supplier', id)),
  };
}

/**
 * Quick sale ready at every demo filial (once; a configuration somebody saved is left alone): the
 * counter customer by default, the demo's payment methods, cash first. So a quick sale works right
 * after `npm start` (README walkthrough), also on a database seeded before this existed.
 */
async function configureQuickSale(uow: Uow, company: Company): Promise<void> {
  const em = uow.em;
  const counter = await em.findOneBy(Customer, { companyId: company.id, name: 'Consumidor Final' });
  const methods = (await em.find(PaymentMethod, { where: { companyId: company.id, active: true }, order: { id: 'ASC' } })).map(
    (m) => m.code,
  );
  if (!counter || !methods.includes('CASH')) return;
  // The seed acts for the whole company (every filial granted), as an operator's token would.
  // …inside the seed's unit of work, which the configuration service joins.
  const ctx = { ...systemContext(company.id, 'demo-seed'), grantedFiliais: '*' as const, scopes: ['*'], uow };
  for (const filial of await em.find(Filial, { where: { companyId: company.id }, order: { id: 'ASC' } })) {
    if (await findConfiguration(em, company.id, filial.id)) continue;
    await quickSaleConfigurationService.put(ctx, filial.id, {
      enabled: true,
      defaultCustomerId: counter.id,
      defaultSellerId: null,
      paymentMethods: methods,
      defaultPaymentMethod: 'CASH',
      allowNegativeStock: false,
      requireCustomer: false,
      maxDiscountPercent: new Dec(10),
      requireCashSession: false,
      cashDifferenceLimit: new Dec(5),
    });
  }
}

/** Creates the demo tenant once (two filiais, products with stock, customers, sellers, suppliers). */
export async function seedDemoTenant(): Promise<{ created: boolean; summary: DemoTenantSummary }> {
  return unitOfWork(async (uow) => {
    const em = uow.em;
    const existing = await em.findOneBy(Company, { cnpj: DEMO_COMPANY_CNPJ });
    if (existing) {
      await configureQuickSale(uow, existing);
      await configureDemoFiscal(em, existing);
      return { created: false, summary: await summarize(em, existing) };
    }
    const { company, filiais } = await createDemoCompany(em);
    await seedProducts(em, company, filiais);
    await seedCustomersAndSellers(em, company);
    await seedSuppliers(em, company);
    await seedPaymentMethods(em, company);
    await configureQuickSale(uow, company);
    await configureDemoFiscal(em, company);
    return { created: true, summary: await summarize(em, company) };
  });
}

/** The demo company: the São Paulo head office and the Campinas filial, both in homologation. */
function createDemoCompany(em: EntityManager) {
  return createTenant(
    {
      name: 'Mercado Demonstração Ltda',
      cnpj: DEMO_COMPANY_CNPJ,
      filiais: [
        {
          name: 'Matriz São Paulo',
          cnpj: DEMO_COMPANY_CNPJ,
          uf: 'SP',
          stateRegistration: '110042490114',
          nfeEnvironment: 'HOMOLOGATION',
        },
        { name: 'Filial Campinas', cnpj: '11222333000262', uf: 'SP', stateRegistration: '244123457116', nfeEnvironment: 'HOMOLOGATION' },
      ],
    },
    em,
  );
}

/** The demo products (indexed, the code sequence past them) and their opening balance at every filial. */
async function seedProducts(em: EntityManager, company: Company, filiais: Filial[]): Promise<void> {
  const ctx = systemContext(company.id, 'demo-seed');
  const products = await em.save(
    PRODUCTS.map((p) =>
      em.create(Product, {
        companyId: company.id,
        code: p.code,
        name: p.name,
        searchName: normalizeText(p.name),
        unit: p.unit,
        gtin: p.gtin,
        ncm: p.ncm,
        cest: null,
        price: new Dec(p.price),
        active: true,
        stockControlled: true,
      }),
    ),
  );
  await indexProductNames(em, company.id, products);
  await raiseSequenceTo(em, company.id, PRODUCT_CODE_SEQUENCE, PRODUCTS.length);
  for (const filial of filiais) {
    await postToLedger(em, {
      companyId: company.id,
      filialId: filial.id,
      reason: 'OPENING_BALANCE',
      referenceType: 'demo-seed',
      referenceId: filial.id,
      actor: ctx.actor,
      lines: products.map((p, i) => ({
        productId: p.id,
        direction: 'IN' as const,
        quantity: new Dec(PRODUCTS[i].stock),
        unitCost: new Dec(PRODUCTS[i].cost),
      })),
    });
  }
}

/** The counter customer, a person and a company as customers; two sellers; both indexed. */
async function seedCustomersAndSellers(em: EntityManager, company: Company): Promise<void> {
  const customer = (name: string, document: string | null, tradeName: string | null = null) =>
    em.create(Customer, {
      companyId: company.id,
      name,
      searchName: normalizeText(name),
      tradeName,
      searchTradeName: tradeName === null ? null : normalizeText(tradeName),
      document,
      active: true,
    });
  const customers = await em.save([
    customer('Consumidor Final', null),
    customer('Maria da Silva', '52998224725'),
    customer('Padaria Pão Quente Ltda', '04252011000110', 'Pão Quente'),
  ]);
  const seller = (name: string, alias: string) =>
    em.create(Seller, { companyId: company.id, name, alias, searchName: normalizeText(`${name} ${alias}`), active: true });
  const sellers = await em.save([seller('João Pereira', 'JP'), seller('Ana Souza', 'Aninha')]);
  await indexCustomers(em, company.id, customers);
  await indexSellers(em, company.id, sellers);
}

/** Two suppliers: a beverage distributor in SP and a cereal one in PR. */
async function seedSuppliers(em: EntityManager, company: Company): Promise<void> {
  await em.save(
    [
      {
        document: '60746948000112',
        name: 'Distribuidora de Bebidas Paulista S.A.',
        tradeName: 'Bebidas Paulista',
        stateRegistration: '123456789110',
        uf: 'SP',
      },
      { document: '33000167000101', name: 'Cerealista Grão de Ouro Ltda', tradeName: null, stateRegistration: null, uf: 'PR' },
    ].map((s) => em.create(Supplier, { companyId: company.id, ...s, searchName: normalizeText(s.name), active: true })),
  );
}

/** Cash, PIX and the two cards. */
async function seedPaymentMethods(em: EntityManager, company: Company): Promise<void> {
  await em.save(
    [
      { code: 'CASH', name: 'Dinheiro', kind: 'CASH' as const, givesChange: true },
      { code: 'PIX', name: 'PIX', kind: 'PIX' as const, givesChange: false },
      { code: 'CREDIT_CARD', name: 'Cartão de crédito', kind: 'CREDIT_CARD' as const, givesChange: false },
      { code: 'DEBIT_CARD', name: 'Cartão de débito', kind: 'DEBIT_CARD' as const, givesChange: false },
    ].map((m) => em.create(PaymentMethod, { companyId: company.id, ...m, active: true })),
  );
}
