import { encodeId } from '../../core/hashids';
import { toJsonNumber } from '../../core/decimal';
import type { Customer } from './entities/customer.entity';
import { type PaymentMethod, settlementOf } from './entities/payment-method.entity';
import type { Product } from './entities/product.entity';
import type { Seller } from './entities/seller.entity';
import type { Supplier } from './entities/supplier.entity';
import type { StockBalance } from '../stock';

const iso = (d: Date | string) => new Date(d).toISOString();

export const toProductDto = (p: Product) => ({
  id: encodeId('product', p.id),
  code: p.code,
  name: p.name,
  unit: p.unit,
  gtin: p.gtin,
  ncm: p.ncm,
  cest: p.cest,
  price: toJsonNumber(p.price, 'price'),
  active: p.active,
  stockControlled: p.stockControlled,
  origin: p.origin,
  taxableUnit: p.taxableUnit,
  taxableFactor: toJsonNumber(p.taxableFactor, 'factor'),
  taxGroupId: p.taxGroupId === null ? null : encodeId('tax-group', p.taxGroupId),
  version: p.version,
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});

export const toCustomerDto = (c: Customer) => ({
  id: encodeId('customer', c.id),
  name: c.name,
  tradeName: c.tradeName,
  document: c.document,
  email: c.email,
  phone: c.phone,
  active: c.active,
  personType: c.personType,
  ieIndicator: c.ieIndicator,
  stateRegistration: c.stateRegistration,
  finalConsumer: c.finalConsumer,
  address:
    c.municipalityCode === null
      ? null
      : {
          street: c.addressStreet,
          number: c.addressNumber,
          complement: c.addressComplement,
          district: c.addressDistrict,
          municipalityCode: c.municipalityCode,
          municipalityName: c.municipalityName,
          uf: c.uf,
          postalCode: c.postalCode,
          countryCode: c.countryCode,
          countryName: c.countryName,
        },
  version: c.version,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});

export const toSellerDto = (s: Seller) => ({
  id: encodeId('seller', s.id),
  name: s.name,
  alias: s.alias,
  active: s.active,
  version: s.version,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const toSupplierDto = (s: Supplier) => ({
  id: encodeId('supplier', s.id),
  document: s.document,
  name: s.name,
  tradeName: s.tradeName,
  stateRegistration: s.stateRegistration,
  uf: s.uf,
  active: s.active,
  version: s.version,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const toPaymentMethodDto = (m: PaymentMethod) => ({
  id: encodeId('payment-method', m.id),
  code: m.code,
  name: m.name,
  kind: m.kind,
  givesChange: m.givesChange,
  active: m.active,
  // The effective settlement (the kind's default where the row leaves it unset).
  ...settlementDto(m),
});

const settlementDto = (m: PaymentMethod) => {
  const s = settlementOf(m);
  return { settlement: s.settlement, settlementDays: s.settlementDays, feePercent: toJsonNumber(s.feePercent, 'percent') };
};

export const toStockBalanceDto = (b: StockBalance, product?: Pick<Product, 'code' | 'name' | 'unit'>) => ({
  filialId: encodeId('filial', b.filialId),
  productId: encodeId('product', b.productId),
  ...(product ? { productCode: product.code, productName: product.name, unit: product.unit } : {}),
  quantity: toJsonNumber(b.quantity, 'quantity'),
  averageCost: toJsonNumber(b.averageCost, 'cost'),
  updatedAt: iso(b.updatedAt),
});
