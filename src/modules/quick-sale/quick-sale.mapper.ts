import { encodeId, encodeOptionalId } from '../../core/hashids';
import { toJsonNumber } from '../../core/decimal';
import type { QuickSaleConfiguration } from './entities/quick-sale-configuration.entity';

export const toConfigurationDto = (c: QuickSaleConfiguration, configured: boolean) => ({
  filialId: encodeId('filial', c.filialId),
  configured,
  enabled: c.enabled,
  defaultCustomerId: encodeOptionalId('customer', c.defaultCustomerId),
  defaultSellerId: encodeOptionalId('seller', c.defaultSellerId),
  paymentMethods: c.paymentMethods,
  defaultPaymentMethod: c.defaultPaymentMethod,
  allowNegativeStock: c.allowNegativeStock,
  requireCustomer: c.requireCustomer,
  maxDiscountPercent: toJsonNumber(c.maxDiscountPercent, 'percent'),
  version: c.version,
  updatedAt: c.updatedAt ? new Date(c.updatedAt).toISOString() : null,
});
