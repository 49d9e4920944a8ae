import { documentSearchPrefix, normalizeText } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { ConflictError } from '../../core/errors';
import { catalogResource, ListQuery } from './catalog-resource';
import { Customer } from './entities/customer.entity';
import { Seller } from './entities/seller.entity';
import { Supplier } from './entities/supplier.entity';

/** Customers, sellers and suppliers: the people and companies documents point at. */


const customers = catalogResource<Customer>({
  target: Customer,
  name: 'Customer',
  auditEntity: 'customer',
  orderBy: 'search_name',
  unaudited: ['searchName', 'searchTradeName'],
  search: (qb, term) => {
    const t = `${normalizeText(term)}%`;
    qb.where('r.search_name LIKE :t', { t }).orWhere('r.search_trade_name LIKE :t', { t });
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
  search: (qb, term) => {
    qb.where('r.search_name LIKE :t', { t: `%${normalizeText(term)}%` });
  },
});

const suppliers = catalogResource<Supplier>({
  target: Supplier,
  name: 'Supplier',
  auditEntity: 'supplier',
  orderBy: 'search_name',
  unaudited: ['searchName', 'searchTradeName'],
  search: (qb, term) => {
    qb.where('r.search_name LIKE :t', { t: `%${normalizeText(term)}%` });
    const doc = documentSearchPrefix(term);
    if (doc) qb.orWhere('r.document LIKE :d', { d: `${doc}%` });
  },
});

type CustomerInput = Partial<Pick<Customer, 'name' | 'tradeName' | 'document' | 'email' | 'phone' | 'active'>>;
type SellerInput = Partial<Pick<Seller, 'name' | 'alias' | 'active'>>;
type SupplierInput = Partial<Pick<Supplier, 'document' | 'name' | 'tradeName' | 'stateRegistration' | 'uf' | 'active'>>;

const customerSearch = (i: CustomerInput): Partial<Customer> => ({
  ...i,
  ...(i.name !== undefined ? { searchName: normalizeText(i.name) } : {}),
  ...(i.tradeName !== undefined ? { searchTradeName: i.tradeName ? normalizeText(i.tradeName) : null } : {}),
});
const sellerSearch = (i: SellerInput, current?: Seller): Partial<Seller> => {
  const name = i.name ?? current?.name ?? '';
  const alias = i.alias !== undefined ? i.alias : current?.alias;
  return { ...i, searchName: normalizeText(`${name} ${alias ?? ''}`) };
};
const supplierSearch = (i: SupplierInput): Partial<Supplier> => ({ ...i, ...(i.name !== undefined ? { searchName: normalizeText(i.name) } : {}) });

export const customerService = {
  list: (ctx: ActorContext, q: ListQuery) => customers.list(ctx, q),
  get: (ctx: ActorContext, id: number) => customers.get(ctx, id),
  create: (ctx: ActorContext, input: CustomerInput) => customers.create(ctx, customerSearch(input)),
  update: (ctx: ActorContext, id: number, version: number, input: CustomerInput) => customers.update(ctx, id, version, customerSearch(input)),
};

export const sellerService = {
  list: (ctx: ActorContext, q: ListQuery) => sellers.list(ctx, q),
  get: (ctx: ActorContext, id: number) => sellers.get(ctx, id),
  create: (ctx: ActorContext, input: SellerInput) => sellers.create(ctx, sellerSearch(input)),
  async update(ctx: ActorContext, id: number, version: number, input: SellerInput) {
    const current = await sellers.get(ctx, id);
    return sellers.update(ctx, id, version, sellerSearch(input, current));
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
  update: (ctx: ActorContext, id: number, version: number, input: SupplierInput) => suppliers.update(ctx, id, version, supplierSearch(input)),
};
