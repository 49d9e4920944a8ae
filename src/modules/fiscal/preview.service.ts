import type { TenantContext } from '../../core/context';
import { assertFilialAccess } from '../tenancy';
import { BusinessRuleError } from '../../core/errors';
import { getFulfillmentForBilling, getOrder } from '../sales-order';
import { computeFiscalDocument } from './compute.service';
import type { ComputedFiscalDocument, FiscalComputationRequest, FiscalItemInput, FiscalModel, FiscalOperation } from './fiscal-document';

/*
 * POST /fiscal/preview (SPEC §12.1): the computed document of a sales order, a fulfilment or a free
 * body, with the rule each line used. It reads through sales-order's exported functions and writes
 * nothing.
 */

export interface PreviewInput {
  salesOrderId?: number;
  fulfillmentId?: number;
  filialId?: number;
  customerId?: number | null;
  consumerDocument?: string | null;
  operation?: FiscalOperation;
  model?: FiscalModel;
  date: string;
  items?: FiscalItemInput[];
  freight?: string | number;
  insurance?: string | number;
  discount?: string | number;
  otherExpenses?: string | number;
  presence?: number;
  finalConsumer?: boolean;
}

const noCustomer = () =>
  new BusinessRuleError('FISCAL_DATA_INVALID', 'customerId: the sales order has no customer (an NF-e needs one)', {
    errors: [{ path: 'customerId', message: 'the order has no customer' }],
  });

export async function previewDocument(ctx: TenantContext, input: PreviewInput): Promise<ComputedFiscalDocument> {
  const base = {
    operation: input.operation ?? 'SALE',
    model: input.model ?? 55,
    date: input.date,
    presence: input.presence,
    finalConsumer: input.finalConsumer,
  };
  let request: FiscalComputationRequest;
  if (input.fulfillmentId !== undefined) {
    const f = await getFulfillmentForBilling(ctx, input.fulfillmentId);
    const customerId = input.customerId ?? f.order.customerId;
    if (customerId === null && base.model === 55) throw noCustomer();
    request = {
      ...base,
      finalConsumer: base.finalConsumer ?? f.order.finalConsumer ?? undefined,
      filialId: f.order.filialId,
      customerId: customerId ?? null,
      items: f.lines,
      freight: f.freight,
      insurance: input.insurance ?? f.insurance,
      otherExpenses: input.otherExpenses ?? f.otherExpenses,
    };
  } else if (input.salesOrderId !== undefined) {
    const view = await getOrder(ctx, input.salesOrderId);
    const customerId = input.customerId ?? view.order.customerId;
    if (customerId === null && base.model === 55) throw noCustomer();
    const items = view.items
      .map((i) => ({
        salesOrderItemId: i.id,
        productId: i.productId,
        quantity: i.quantity.minus(i.cancelledQuantity),
        unitPrice: i.unitPrice,
        discount: i.discount,
        ratio: i.quantity,
      }))
      .filter((i) => i.quantity.gt(0))
      .map(({ ratio, ...i }) => ({
        ...i,
        discount: ratio.isZero() ? i.discount : i.discount.times(i.quantity).div(ratio).toDecimalPlaces(2),
      }));
    request = {
      ...base,
      finalConsumer: base.finalConsumer ?? view.order.finalConsumer ?? undefined,
      filialId: view.order.filialId,
      customerId: customerId ?? null,
      items,
      discount: view.order.discount,
      freight: view.order.freight,
      insurance: input.insurance ?? view.order.insurance,
      otherExpenses: input.otherExpenses ?? view.order.otherExpenses,
    };
  } else {
    const filialId = input.filialId ?? ctx.filialId!;
    await assertFilialAccess(ctx, filialId);
    request = {
      ...base,
      filialId,
      customerId: input.customerId ?? null,
      consumerDocument: input.consumerDocument,
      items: input.items ?? [],
      freight: input.freight,
      insurance: input.insurance,
      otherExpenses: input.otherExpenses,
      discount: input.discount,
    };
  }
  return computeFiscalDocument(ctx, request);
}
