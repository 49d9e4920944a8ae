import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { invoicesOfOrder } from '../outbound-nfe';
import type { OrderFiscalDocuments } from '../sales-order';
import { NfceDocument } from './entities/nfce-document.entity';

/** The sales order's fiscal documents (sales-order's port): its counter NFC-e, then its NF-e through the invoices' front door. */
export const orderFiscalDocumentsProvider: OrderFiscalDocuments = {
  async ofOrder(ctx: TenantContext, salesOrderId: number) {
    const [notes, invoices] = await Promise.all([
      readerOf(ctx).find(NfceDocument, {
        select: { id: true, series: true, number: true, accessKey: true, status: true, issuedAt: true, total: true },
        where: { companyId: ctx.companyId, salesOrderId },
        order: { id: 'ASC' },
      }),
      invoicesOfOrder(ctx, salesOrderId),
    ]);
    const counter = notes.map((n) => {
      const id = encodeId('nfce', n.id);
      return {
        model: 65 as const,
        id,
        purpose: 'SALE' as const,
        series: n.series,
        number: n.number,
        accessKey: n.accessKey,
        status: n.status,
        issuedAt: new Date(n.issuedAt).toISOString(),
        total: toJsonNumber(n.total, 'amount') ?? 0,
        href: `/api/nfce/detail/${id}`,
      };
    });
    return [...counter, ...invoices];
  },
};
