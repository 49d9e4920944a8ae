import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, page, percent, quantity, taxDocument, timestamp, unitPrice } from '../../core/http/response-schema';

/** Response bodies of the catalog routes (catalog.mapper.ts). */
const audit = { version: Joi.number().integer().example(1), createdAt: timestamp(), updatedAt: timestamp() };

export const Product = named(
  'Product',
  obj({
    id: hashid('product'),
    code: Joi.string().example('CAFE-500'),
    name: Joi.string().example('Café torrado e moído 500 g'),
    unit: Joi.string().example('UN'),
    gtin: Joi.string().allow(null).example('7891000315507'),
    ncm: Joi.string().allow(null).example('09012100'),
    cest: Joi.string().allow(null).example('1709600'),
    price: unitPrice().description('sale price, up to 10 decimal places'),
    active: Joi.boolean(),
    stockControlled: Joi.boolean(),
    origin: Joi.number().integer().min(0).max(8).example(0),
    taxableUnit: Joi.string().allow(null).example('KG'),
    taxableFactor: Joi.number().example(1),
    taxGroupId: hashid('tax-group').allow(null),
    ...audit,
  }),
);

export const Customer = named(
  'Customer',
  obj({
    id: hashid('customer'),
    name: Joi.string().example('Maria da Silva'),
    tradeName: Joi.string().allow(null).example('Padaria Pão Quente'),
    document: taxDocument().allow(null),
    email: Joi.string().allow(null).example('maria.silva@example.com.br'),
    phone: Joi.string().allow(null).example('+55 11 98765-4321'),
    active: Joi.boolean(),
    personType: oneOf('PF', 'PJ', 'FOREIGN').allow(null),
    ieIndicator: Joi.number().valid(1, 2, 9).example(9),
    stateRegistration: Joi.string().allow(null).example('110042490114'),
    finalConsumer: Joi.boolean().allow(null).description('indFinal of its documents; null: from the IE (ieIndicator 1 → false, else true)'),
    address: named(
      'FiscalAddress',
      obj({
        street: Joi.string().allow(null).example('Rua das Flores'),
        number: Joi.string().allow(null).example('100'),
        complement: Joi.string().allow(null).example('Sala 2'),
        district: Joi.string().allow(null).example('Centro'),
        municipalityCode: Joi.string().example('3550308'),
        municipalityName: Joi.string().allow(null).example('São Paulo'),
        uf: Joi.string().allow(null).example('SP'),
        postalCode: Joi.string().allow(null).example('01310100'),
        countryCode: Joi.string().example('1058'),
        countryName: Joi.string().example('BRASIL'),
      }),
    ).allow(null),
    ...audit,
  }),
);

export const Seller = named(
  'Seller',
  obj({
    id: hashid('seller'),
    name: Joi.string().example('João Pereira'),
    alias: Joi.string().allow(null).example('JP'),
    active: Joi.boolean(),
    ...audit,
  }),
);

export const Supplier = named(
  'Supplier',
  obj({
    id: hashid('supplier'),
    document: taxDocument(),
    name: Joi.string().example('Distribuidora Alimentos Paulista Ltda'),
    tradeName: Joi.string().allow(null).example('DAP Alimentos'),
    stateRegistration: Joi.string().allow(null).example('110042490114'),
    uf: Joi.string().allow(null).example('SP'),
    active: Joi.boolean(),
    ...audit,
  }),
);

export const PaymentMethod = named(
  'PaymentMethod',
  obj({
    id: hashid('payment-method'),
    code: Joi.string().example('DINHEIRO'),
    name: Joi.string().example('Dinheiro'),
    kind: oneOf('CASH', 'CREDIT_CARD', 'DEBIT_CARD', 'PIX', 'BANK_SLIP', 'STORE_CREDIT', 'OTHER'),
    givesChange: Joi.boolean(),
    active: Joi.boolean(),
    settlement: oneOf('AT_ONCE', 'ACQUIRER', 'ON_CREDIT').description(
      'how its sales are received: at once (born RECEIVED), by the card acquirer, or by the customer a prazo',
    ),
    settlementDays: Joi.number().integer().example(30).description('days from the sale to the due date'),
    feePercent: percent().example(2.99).description("the acquirer's fee"),
  }),
);

export const StockBalance = named(
  'StockBalance',
  obj({
    filialId: hashid('filial'),
    productId: hashid('product'),
    productCode: Joi.string().optional().example('CAFE-500'),
    productName: Joi.string().optional().example('Café torrado e moído 500 g'),
    unit: Joi.string().optional().example('UN'),
    quantity: quantity(),
    averageCost: unitPrice().description('weighted average cost, up to 10 decimal places'),
    updatedAt: timestamp(),
  }),
);

export const ProductPage = page('ProductPage', Product);
export const CustomerPage = page('CustomerPage', Customer);
export const SellerPage = page('SellerPage', Seller);
export const SupplierPage = page('SupplierPage', Supplier);
export const StockBalancePage = page('StockBalancePage', StockBalance);
export const PaymentMethodList = named('PaymentMethodList', obj({ data: Joi.array().items(PaymentMethod) }));
