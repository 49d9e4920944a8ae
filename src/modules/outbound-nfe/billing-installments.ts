import type { EntityManager } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { BusinessRuleError } from '../../core/errors';
import { fiscalDocumentInstallments } from '../receivables';
import { billingSnapshot, realignBoletosOfBilling } from '../collection';
import { Fulfillment, installmentDaysOf, SalesOrder } from '../sales-order';
import type { ResolvedSource } from './issue-source';
import type { Installment } from './xml/nfe-xml';

/*
 * cobr/dup and pag of a billing NF-e (a fulfilment, or an order as a whole) agree with its
 * receivables to the cent (SPEC §12.2): the receivables are made from the document's amount due
 * (vNFTot, else vNF: ST, FCP-ST, IPI, freight, insurance and other expenses included) split by the
 * installments given at issue, or else by the order's payment terms; the duplicatas are those
 * receivables. Only the issuing transaction writes them (`write`); a preview shows what it would make.
 */

const money = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

/** The installments given at issue, checked against the amount due (422 INSTALLMENTS_MISMATCH). */
export function givenInstallments(
  given: { dueDate: string; amount: Dec }[] | undefined,
  amountDue: Dec,
): { dueDate: string; amount: Dec }[] | null {
  if (!given?.length) return null;
  const list = given.map((d) => ({ dueDate: d.dueDate, amount: money(new Dec(d.amount)) }));
  const sum = list.reduce((s, d) => s.add(d.amount), new Dec(0));
  if (!sum.eq(money(amountDue))) {
    throw new BusinessRuleError(
      'INSTALLMENTS_MISMATCH',
      `The installments add up to ${sum.toFixed(2)}, the document's total is ${money(amountDue).toFixed(2)}`,
      {
        installmentsTotal: Number(sum.toFixed(2)),
        total: Number(money(amountDue).toFixed(2)),
      },
    );
  }
  return list;
}

export interface BillingPayment {
  installments: Installment[];
  /** tPag the receivables imply: 15 (boleto/duplicata) for the customer's receivables. */
  paymentType: string | null;
}

/** The duplicatas of a billing NF-e, its receivables made equal to them when `write`. */
export async function billingInstallments(
  ctx: TenantContext,
  source: ResolvedSource,
  given: { dueDate: string; amount: Dec }[] | undefined,
  amountDue: Dec,
  issueDate: string,
  em: EntityManager,
  write: boolean,
): Promise<BillingPayment> {
  const installments = givenInstallments(given, amountDue);
  if (source.salesOrderId === null) return { installments: [], paymentType: null };
  const order = await em.findOneByOrFail(SalesOrder, { id: source.salesOrderId, companyId: ctx.companyId });
  const fulfillmentIds =
    source.fulfillmentId !== null
      ? [source.fulfillmentId]
      : (
          await em.find(Fulfillment, {
            where: { companyId: ctx.companyId, salesOrderId: order.id },
            select: { id: true },
            order: { id: 'ASC' },
          })
        ).map((f) => f.id);
  // The boletos of the receivables follow what the document makes of them (collection-boleto.md "Boleto on billing").
  const before = write ? await billingSnapshot(em, ctx.companyId, fulfillmentIds) : null;
  const rows = await fiscalDocumentInstallments(
    em,
    ctx,
    {
      fulfillmentIds,
      order: { id: order.id, code: order.code, filialId: order.filialId, customerId: order.customerId },
      amount: money(amountDue),
      issueDate,
      installments,
      installmentDays: installmentDaysOf(order.paymentTerms),
    },
    write,
  );
  if (before) await realignBoletosOfBilling(em, ctx, { fulfillmentIds, bankAccountId: order.boletoBankAccountId, before });
  return {
    installments: rows.map((r) => ({ number: String(r.number).padStart(3, '0'), dueDate: r.dueDate, amount: money(r.amount) })),
    paymentType: rows.length ? '15' : null,
  };
}

/** The fulfilments whose receivables a billing document stands for: its own, or every fulfilment of the order it bills as a whole. */
export async function billedFulfillments(
  em: EntityManager,
  companyId: number,
  doc: { source: string; fulfillmentId: number | null; salesOrderId: number | null },
): Promise<number[]> {
  if (doc.fulfillmentId !== null) return [doc.fulfillmentId];
  if (doc.source !== 'ORDER' || doc.salesOrderId === null) return [];
  return (
    await em.find(Fulfillment, { where: { companyId, salesOrderId: doc.salesOrderId }, select: { id: true }, order: { id: 'ASC' } })
  ).map((f) => f.id);
}
