import { encodeId, encodeOptionalId } from '../../core/hashids';
import { toJsonNumber } from '../../core/decimal';
import type { QuickSaleConfiguration } from './entities/quick-sale-configuration.entity';
import { toSalesOrderDto } from '../sales-order';
import { toBoletoDto } from '../collection';
import type { QuickSaleResult } from './quick-sale.service';

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
  requireCashSession: c.requireCashSession,
  cashDifferenceLimit: toJsonNumber(c.cashDifferenceLimit, 'amount'),
  version: c.version,
  updatedAt: c.updatedAt ? new Date(c.updatedAt).toISOString() : null,
});

/** The FULFILLED order with the payments taken and the change given. */
export const toQuickSaleDto = (r: QuickSaleResult) => ({
  ...toSalesOrderDto(r.view),
  payments: r.payments.map((p) => ({
    method: p.methodCode,
    paymentMethodId: encodeId('payment-method', p.paymentMethodId),
    amount: toJsonNumber(p.amount, 'amount'),
    change: toJsonNumber(p.changeGiven, 'amount'),
  })),
  change: toJsonNumber(r.change, 'amount'),
  boletos: r.boletos.map(toBoletoDto),
  ...(r.fiscal
    ? {
        fiscalDocument: {
          id: encodeId('nfce', r.fiscal.id),
          model: 65,
          status: r.fiscal.status,
          accessKey: r.fiscal.accessKey,
          number: r.fiscal.number,
          series: r.fiscal.series,
          qrCodeUrl: r.fiscal.qrCode,
          contingency: r.fiscal.emissionType === 9,
          protocol: r.fiscal.protocol,
          cStat: r.fiscal.cStat,
        },
      }
    : {}),
});
