import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { OrderFiscalDocumentView } from '../sales-order';
import { OutboundNfe } from './entities/outbound-nfe.entity';

/** The NF-e (model 55) of a sales order: its billing and the devoluções of its goods, oldest first (the order's detail links them). */
export async function invoicesOfOrder(ctx: TenantContext, salesOrderId: number): Promise<OrderFiscalDocumentView[]> {
  const docs = await readerOf(ctx).find(OutboundNfe, {
    select: { id: true, source: true, series: true, number: true, accessKey: true, status: true, issuedAt: true, total: true },
    where: { companyId: ctx.companyId, salesOrderId },
    order: { id: 'ASC' },
  });
  return docs.map((d) => {
    const id = encodeId('invoice', d.id);
    return {
      model: 55 as const,
      id,
      purpose: d.source === 'CUSTOMER_RETURN' ? ('RETURN' as const) : ('SALE' as const),
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      status: d.status,
      issuedAt: new Date(d.issuedAt).toISOString(),
      total: toJsonNumber(d.total, 'amount') ?? 0,
      href: `/api/invoices/detail/${id}`,
    };
  });
}
