import type { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { documentSearchPrefix, normalizeText } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction } from '../../core/db/transaction';
import { ConflictError } from '../../core/errors';
import { publishEvent } from '../../core/outbox/outbox.service';
import { catalogResource, ListQuery } from './catalog-resource';
import { toCustomerDto, toSellerDto, toSupplierDto } from './catalog.mapper';
import { Customer } from './entities/customer.entity';
import { addressColumns, AddressInput, checkCustomerFiscal, normalizeIe } from './fiscal-fields';
import { Seller } from './entities/seller.entity';
import { Supplier } from './entities/supplier.entity';
import { indexCustomers, indexSellers, partySearchCondition } from './party-search-index';

/** Customers, sellers and suppliers: the people and companies documents point at. */

// Event payloads: the resource as the API shows it, its id under a named key.
const customerEventData = (c: Customer) => {
  const { id, ...rest } = toCustomerDto(c);
  return { customerId: id, ...rest };
};
const sellerEventData = (s: Seller) => {
  const { id, ...rest } = toSellerDto(s);
  return { sellerId: id, ...rest };
};
const supplierEventData = (s: Supplier) => {
  const { id, ...rest } = toSupplierDto(s);
  return { supplierId: id, ...rest };
};

const customers = catalogResource<Customer>({
  target: Customer,
  name: 'Customer',
  auditEntity: 'customer',
  orderBy: 'search_name',
  unaudited: ['searchName', 'searchTradeName'],
  events: { type: 'customer', data: customerEventData },
  search: (qb, term, companyId) => {
    const words = partySearchCondition('r.id', companyId, 'CUSTOMER', term);
    qb.where(words ? words.sql : '1 = 0', words?.params);
    const doc = documentSearchPrefix(term);
    if (doc) qb.orWhere('r.document LIKE :d', { d: `${doc}%` });
  },
});

const sellers = catalogResource<Seller>({
  target: Seller,
  name: 'Seller',
  auditEntity: 'seller',
  orderBy: 'search_name',
  unaudited: ['searchName', 'searchTradeName'],
  events: { type: 'seller', data: sellerEventData },
  search: (qb, term, companyId) => {
    const words = partySearchCondition('r.id', companyId, 'SELLER', term);
    qb.where(words ? words.sql : '1 = 0', words?.params);
  },
});

const suppliers = catalogResource<Supplier>({
  target: Supplier,
  name: 'Supplier',
  auditEntity: 'supplier',
  orderBy: 'search_name',
  unaudited: ['searchName', 'searchTradeName'],
  events: { type: 'supplier', data: supplierEventData },
  search: (qb, term) => {
    qb.where('r.search_name LIKE :t', { t: `%${normalizeText(term)}%` });
    const doc = documentSearchPrefix(term);
    if (doc) qb.orWhere('r.document LIKE :d', { d: `${doc}%` });
  },
});

export type CustomerInput = Partial<
  Pick<
    Customer,
    'name' | 'tradeName' | 'document' | 'email' | 'phone' | 'active' | 'personType' | 'ieIndicator' | 'stateRegistration' | 'finalConsumer'
  >
> & {
  address?: AddressInput | null;
};

/** The customer's columns from the API's input: the address object flattened, the IE compacted. */
function customerColumns(i: CustomerInput): Partial<Customer> {
  const { address, ...rest } = i;
  const out: Partial<Customer> = { ...rest, ...(address !== undefined ? addressColumns(address) : {}) };
  if (i.stateRegistration !== undefined) out.stateRegistration = normalizeIe(i.stateRegistration) ?? null;
  return out;
}
export type SellerInput = Partial<Pick<Seller, 'name' | 'alias' | 'active'>>;
export type SupplierInput = Partial<Pick<Supplier, 'document' | 'name' | 'tradeName' | 'stateRegistration' | 'uf' | 'active'>>;

const customerSearch = (i: CustomerInput): Partial<Customer> => ({
  ...customerColumns(i),
  ...(i.name !== undefined ? { searchName: normalizeText(i.name) } : {}),
  ...(i.tradeName !== undefined ? { searchTradeName: i.tradeName ? normalizeText(i.tradeName) : null } : {}),
});
const sellerSearch = (i: SellerInput, current?: Seller): Partial<Seller> => {
  const name = i.name ?? current?.name ?? '';
  const alias = i.alias !== undefined ? i.alias : current?.alias;
  return { ...i, searchName: normalizeText(`${name} ${alias ?? ''}`) };
};
const supplierSearch = (i: SupplierInput): Partial<Supplier> => ({
  ...i,
  ...(i.name !== undefined ? { searchName: normalizeText(i.name) } : {}),
});

// The word index follows the names in the same transaction as the change.
const indexCustomer = (em: EntityManager, c: Customer) => indexCustomers(em, c.companyId, [c]);
const indexSeller = (em: EntityManager, s: Seller) => indexSellers(em, s.companyId, [s]);

export const customerService = {
  list: (ctx: ActorContext, q: ListQuery) => customers.list(ctx, q),
  get: (ctx: ActorContext, id: number) => customers.get(ctx, id),
  create: (ctx: ActorContext, input: CustomerInput) =>
    inTransaction(ctx, async (em) => {
      const columns = customerColumns(input);
      checkCustomerFiscal({
        personType: null,
        document: null,
        ieIndicator: 9,
        stateRegistration: null,
        municipalityCode: null,
        uf: null,
        countryCode: '1058',
        ...columns,
      });
      const customer = await customers.createIn(em, ctx, customerSearch(input));
      await indexCustomer(em, customer);
      return customer;
    }),
  update: (ctx: ActorContext, id: number, version: number, input: CustomerInput) =>
    inTransaction(ctx, async (em) => {
      const current = await em.findOneBy(Customer, { id, companyId: ctx.companyId });
      if (current) checkCustomerFiscal({ ...current, ...customerColumns(input) });
      const customer = await customers.updateIn(em, ctx, id, version, customerSearch(input));
      if (input.name !== undefined || input.tradeName !== undefined) await indexCustomer(em, customer);
      return customer;
    }),
};

export const sellerService = {
  list: (ctx: ActorContext, q: ListQuery) => sellers.list(ctx, q),
  get: (ctx: ActorContext, id: number) => sellers.get(ctx, id),
  create: (ctx: ActorContext, input: SellerInput) =>
    inTransaction(ctx, async (em) => {
      const seller = await sellers.createIn(em, ctx, sellerSearch(input));
      await indexSeller(em, seller);
      return seller;
    }),
  async update(ctx: ActorContext, id: number, version: number, input: SellerInput) {
    const current = await sellers.get(ctx, id);
    return inTransaction(ctx, async (em) => {
      const seller = await sellers.updateIn(em, ctx, id, version, sellerSearch(input, current));
      if (input.name !== undefined || input.alias !== undefined) await indexSeller(em, seller);
      return seller;
    });
  },
};

export const supplierService = {
  list: (ctx: ActorContext, q: ListQuery) => suppliers.list(ctx, q),
  get: (ctx: ActorContext, id: number) => suppliers.get(ctx, id),
  async create(ctx: ActorContext, input: SupplierInput) {
    try {
      return await suppliers.create(ctx, supplierSearch(input));
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('SUPPLIER_EXISTS', `A supplier with document ${input.document} already exists`);
      throw err;
    }
  },
  update: (ctx: ActorContext, id: number, version: number, input: SupplierInput) =>
    suppliers.update(ctx, id, version, supplierSearch(input)),
};

export interface SupplierIdentity {
  /** Normalized CNPJ/CPF. */
  document: string;
  name: string;
  stateRegistration?: string | null;
  uf?: string | null;
}

/**
 * The supplier master row of a CNPJ/CPF inside the caller's transaction, created (and audited) when
 * new — unless `create` is false, then null. An existing row is not overwritten. Entry documents and
 * purchase orders name their supplier this way.
 */
export async function findOrCreateSupplier(
  em: EntityManager,
  ctx: ActorContext,
  given: SupplierIdentity,
  create = true,
): Promise<Supplier | null> {
  const existing = await em.findOneBy(Supplier, { companyId: ctx.companyId, document: given.document });
  if (existing || !create) return existing;
  try {
    const inserted = await em.insert(Supplier, {
      companyId: ctx.companyId,
      document: given.document,
      name: given.name,
      searchName: normalizeText(given.name),
      tradeName: null,
      stateRegistration: given.stateRegistration ?? null,
      uf: given.uf ?? null,
      active: true,
    });
    const id = Number(inserted.identifiers[0].id);
    await recordAudit(em, ctx, { entity: 'supplier', entityId: id, action: 'CREATED' });
    const supplier = await em.findOneByOrFail(Supplier, { id, companyId: ctx.companyId });
    await publishEvent(em, ctx, {
      type: 'supplier.created',
      aggregateType: 'supplier',
      aggregateId: id,
      data: supplierEventData(supplier),
    });
    return supplier;
  } catch (err) {
    // Another request created the same supplier first: use that row.
    if (!isUniqueViolation(err)) throw err;
    return em.findOneByOrFail(Supplier, { companyId: ctx.companyId, document: given.document });
  }
}
