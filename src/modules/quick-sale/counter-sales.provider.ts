import type { EntityManager } from 'typeorm';
import { hydrate } from '../../core/db/sql';
import { queryOn } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import type { CounterSales, SessionNote, SessionSalePayment } from '../cash-sessions';
import { notesOfSales } from '../nfce';
import { SalePayment } from './entities/sale-payment.entity';
import { findConfiguration } from './quick-sale-configuration.service';

/*
 * What a cash session reads of the counter's sales (the cash-sessions port, plugged in by
 * src/modules/index.ts): the payments of its sales, its sales' NFC-e, and the filial's difference limit.
 * A sale whose NFC-e was cancelled no longer stands: its payments leave the expected totals.
 */
async function paymentRows(em: EntityManager, companyId: number, cashSessionId: number): Promise<{ payment: SalePayment; kind: string }[]> {
  const rows = await queryOn<Record<string, unknown>[]>(
    em,
    'SELECT sp.*, pm.kind AS pm_kind FROM sale_payment sp JOIN payment_method pm ON pm.company_id = sp.company_id AND pm.id = sp.payment_method_id WHERE sp.company_id = ? AND sp.cash_session_id = ? ORDER BY sp.id',
    [companyId, cashSessionId],
  );
  const payments = hydrate(em, SalePayment, rows);
  return payments.map((payment, i) => ({ payment, kind: String(rows[i].pm_kind) }));
}

const orderIdsOf = (rows: { payment: SalePayment }[]) => [...new Set(rows.map((r) => r.payment.salesOrderId))];

export const counterSalesProvider: CounterSales = {
  async paymentsOfSession(em, companyId, cashSessionId): Promise<SessionSalePayment[]> {
    const rows = await paymentRows(em, companyId, cashSessionId);
    const notes = await notesOfSales(companyId, orderIdsOf(rows), em);
    const cancelled = new Set(notes.filter((n) => n.status === 'CANCELLED').map((n) => n.salesOrderId));
    return rows.map(({ payment: p, kind }) => ({
      salesOrderId: p.salesOrderId,
      methodCode: p.methodCode,
      kind,
      amount: p.amount,
      change: p.changeGiven,
      cancelled: cancelled.has(p.salesOrderId),
    }));
  },
  async notesOfSession(em, companyId, cashSessionId): Promise<SessionNote[]> {
    const rows = await paymentRows(em, companyId, cashSessionId);
    const notes = await notesOfSales(companyId, orderIdsOf(rows), em);
    return notes.map((n) => ({
      nfceId: n.noteId,
      salesOrderId: n.salesOrderId,
      series: n.series,
      number: n.number,
      accessKey: n.accessKey,
      status: n.status,
      emissionType: n.emissionType,
      total: n.total,
    }));
  },
  async differenceLimit(em, companyId, filialId): Promise<Dec> {
    return (await findConfiguration(em, companyId, filialId))?.cashDifferenceLimit ?? new Dec(0);
  },
};
