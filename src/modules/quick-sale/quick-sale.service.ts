import type { EntityManager } from 'typeorm';
import type { TenantContext } from '../../core/context';
import { acceptFilial, assertFilialAccess, filialRead } from '../tenancy';
import { inTransaction, readBatch, readerOf } from '../../core/db/transaction';
import { Dec, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { SalesOrder, SalesOrderItem, SalesOrderView } from '../sales-order';
import { CreateRequest, installmentDaysOf, reserveSalesOrderCode, startDeliveredOrder } from '../sales-order';
import { SalePayment } from './entities/sale-payment.entity';
import { PaymentInput, SettledPayment, settlePayments } from './quick-sale.payments';
import { cashSessionRequired, sessionOfSale } from '../cash-sessions';
import { loadSaleSetup } from './quick-sale-configuration.service';
import { deferInsertRows } from '../../core/db/sql';
import {
  abandonCounterNote,
  CounterNotePayment,
  NfceDocument,
  OpenedCounterNote,
  openCounterNote,
  prepareCounterNote,
  PreparedNote,
  transmitCounterNote,
} from '../nfce';
import { businessToday } from '../../core/business-date';
import { billSale } from '../receivables';
import { assertBoletoTerms, type BoletoView, issueBoletosOnBilling } from '../collection';

export type QuickSaleRequest = Omit<CreateRequest, 'code'> & {
  payments?: PaymentInput[];
  consumerDocument?: string | null;
  terminalId?: string;
};

export interface QuickSaleResult {
  view: SalesOrderView;
  payments: SalePayment[];
  change: Dec;
  /** Boleto on billing: the boletos of the sale's a-prazo payments (the body's boletoBankAccountId), else none. */
  boletos: BoletoView[];
  /** The sale's NFC-e, when the filial issues one with every quick sale. */
  fiscal?: NfceDocument;
  /**
   * In a request's unit (a keyed request), where the sale is not committed yet: the note's synchronous
   * attempt, to run once it is (respondAfterCommit) — never inside the transaction (SPEC §12.2).
   */
  transmitAfterCommit?: () => Promise<NfceDocument>;
}

/** The payment's identification columns (card: TEF/POS; Pix: the endToEndId as cAut; where it was taken). */
function identificationOf(p: SettledPayment): Partial<SalePayment> {
  const c = p.input.card;
  const x = p.input.pix;
  return {
    tpIntegra: c ? (c.integration === 'TEF' ? '1' : '2') : x ? '2' : null,
    institutionCnpj: c?.acquirerCnpj ?? x?.pspCnpj ?? null,
    cardBrand: c?.brand ?? null,
    authorizationCode: c?.authorizationCode ?? x?.endToEndId ?? null,
    nsu: c?.nsu ?? null,
    endToEndId: x?.endToEndId ?? null,
    pixStatic: x?.static ?? false,
    payerCnpj: p.input.takenAt?.cnpj ?? null,
    payerUf: p.input.takenAt?.uf ?? null,
  };
}

/** The NFC-e detPag of a payment: its tPag by kind, its card group from the identification. */
function notePaymentOf(p: SettledPayment, row: SalePayment): CounterNotePayment {
  const identified = row.tpIntegra !== null;
  return {
    kind: p.method.kind,
    amount: p.amount,
    pixStatic: row.pixStatic,
    card: identified
      ? { tpIntegra: row.tpIntegra as '1' | '2', cnpj: row.institutionCnpj, tBand: row.cardBrand, cAut: row.authorizationCode }
      : null,
    payer: row.payerCnpj && row.payerUf ? { cnpj: row.payerCnpj, uf: row.payerUf } : null,
  };
}

/** Line and order discounts within the counter's limit (percent of the amounts they reduce). */
function checkDiscounts(order: SalesOrder, items: SalesOrderItem[], maxPercent: Dec): void {
  const limit = maxPercent.div(100);
  const errors = items
    .filter((i) => i.discount.gt(i.quantity.times(i.unitPrice).times(limit)))
    .map((i) => ({ path: `items[${i.lineNumber - 1}].discount`, message: `above the ${maxPercent.toString()}% allowed at the counter` }));
  if (order.discount.gt(order.grossTotal.minus(order.itemsDiscount).times(limit))) {
    errors.push({ path: 'discount', message: `above the ${maxPercent.toString()}% allowed at the counter` });
  }
  if (errors.length) throw new BusinessRuleError('DISCOUNT_ABOVE_LIMIT', 'A discount is above what the counter allows', { errors });
}

/**
 * A counter sale (SPEC §7): one transaction creates the ORDER with the configuration's defaults,
 * fulfils every line through the stock ledger, and records the payments; any failure (stock,
 * payments) rolls all of it back, so nothing is left behind.
 */
export async function sellAtCounter(
  ctx: TenantContext,
  body: QuickSaleRequest,
  options: { filialUnchecked?: boolean } = {},
): Promise<QuickSaleResult> {
  if (!ctx.filialId)
    throw new ValidationError(
      'x-filial-id header is required for a quick sale',
      [{ path: 'x-filial-id', message: 'required' }],
      'MISSING_FILIAL',
    );
  const filialId = ctx.filialId;
  if (body.type && body.type !== 'ORDER') {
    // A filial the request pipeline left unchecked (RouteDef.filialCheck) is refused first.
    if (options.filialUnchecked) await assertFilialAccess(ctx, filialId);
    throw new ValidationError('A quick sale is an ORDER', [{ path: 'type', message: 'must be ORDER' }]);
  }

  // The order code (one autocommitted statement on the sequence pool) is on its way while the
  // transaction's first round trip reads; a sale refused after this leaves a gap, as any rollback does.
  const code = reserveSalesOrderCode(readerOf(ctx), ctx.companyId);
  code.catch(() => undefined);
  let note: PreparedNote | null = null;
  const sale = await inTransaction(ctx, async (em) => {
    note = null;
    const opened = await openCounterSale(em, ctx, filialId, body, options);
    try {
      const { delivered, settlement } = await deliverCounterOrder(opened, body, code);
      const { settled, change } = settlement;
      const s: CounterSale = { em, ctx, filialId, body, delivered, settled, change, cashSessionId: opened.cashSessionId, payments: [] };
      s.payments = await recordSalePayments(s);
      const boletos = await billCounterSale(s);
      // The NFC-e is numbered, signed and stored in this transaction: the sale and its note commit together.
      if (opened.setup.nfceAutoIssue) note = await prepareSaleNote(s, opened.note);
      await publishSaleCompleted(s);
      // Everything the answer shows was written here: no read-back.
      const view: SalesOrderView = {
        order: delivered.order,
        items: delivered.items,
        customerName: delivered.customer?.name ?? null,
        sellerName: delivered.seller?.name ?? null,
        groupedFromIds: [],
      };
      return { view, payments: s.payments, change, boletos };
    } catch (err) {
      // The note's reads sent ahead are over before the transaction ends (no statement of theirs after it).
      await opened.note?.settled;
      throw err;
    }
  });
  // Sent after the commit, with the filial's short deadline; no answer in time → offline contingency.
  const prepared = note as PreparedNote | null;
  if (!prepared) return sale;
  if (ctx.uow) {
    const outside = { ...ctx, uow: undefined };
    return { ...sale, fiscal: prepared.doc, transmitAfterCommit: () => transmitCounterNote(outside, prepared) };
  }
  return { ...sale, fiscal: await transmitCounterNote(ctx, prepared) };
}

type OpenedSale = Awaited<ReturnType<typeof openCounterSale>>;
type DeliveredSale = Awaited<ReturnType<OpenedSale['delivery']['complete']>>;

/** The sale as it is written: its transaction, the delivered order, the settled payments and their rows. */
interface CounterSale {
  em: EntityManager;
  ctx: TenantContext;
  filialId: number;
  body: QuickSaleRequest;
  delivered: DeliveredSale;
  settled: SettledPayment[];
  change: Dec;
  cashSessionId: number | null;
  payments: SalePayment[];
}

/**
 * Per filial, whether its last sale read that it issues an NFC-e with every sale: a hint, not a copy of
 * the setting (the sale reads the setting itself, in the same round trip). Where it says so, the note's
 * reads go with the sale's first round trip; wrong, it costs reads (or a round trip), never a number.
 */
const issuesNfce = new Map<string, boolean>();
const HINTS_KEPT = 10_000;

function hintNfce(key: string, issues: boolean): void {
  if (issuesNfce.get(key) === issues) return;
  if (issuesNfce.size >= HINTS_KEPT) issuesNfce.clear();
  issuesNfce.set(key, issues);
}

/**
 * One round trip: the filial (when the pipeline left it to us), the counter's setup, and what the
 * order reads when it starts (its products, the customer and seller the body names, the lock of the
 * products' stock balances) — with the NFC-e's reads and number where the filial issues one with every
 * sale (hintNfce); then the counter's own requirements (a session, a named customer).
 */
async function openCounterSale(
  em: EntityManager,
  ctx: TenantContext,
  filialId: number,
  body: QuickSaleRequest,
  options: { filialUnchecked?: boolean },
) {
  const filialRows = options.filialUnchecked ? readBatch(em, [filialRead(ctx, filialId)]) : undefined;
  const setupRead = loadSaleSetup(em, ctx.companyId, filialId, body.terminalId ?? null);
  const delivery = startDeliveredOrder(em, ctx, { filialId, items: body.items, customerId: body.customerId, sellerId: body.sellerId });
  const hint = `${ctx.companyId}:${filialId}`;
  let note: OpenedCounterNote | null = issuesNfce.get(hint)
    ? openCounterNote(
        em,
        ctx,
        {
          filialId,
          customerId: body.customerId ?? null,
          consumerDocument: body.consumerDocument ?? null,
          productIds: body.items.map((i) => i.productId),
        },
        { speculative: true },
      )
    : null;
  await Promise.allSettled([filialRows, setupRead]);
  try {
    if (filialRows) acceptFilial(em, ctx, filialId, ((await filialRows) as Record<string, unknown>[][])[0]);
    const setup = await setupRead;
    hintNfce(hint, setup.nfceAutoIssue === true);
    if (note && !setup.nfceAutoIssue) {
      await abandonCounterNote(note);
      note = null;
    }
    return { ...counterRequirements(setup, body), delivery, setup, note };
  } catch (err) {
    await note?.settled;
    throw err;
  }
}

/** The counter's own requirements: configured and enabled, a session where required, a named customer where required. */
function counterRequirements(setup: Awaited<ReturnType<typeof loadSaleSetup>>, body: QuickSaleRequest) {
  const { configuration, problems, session } = setup;
  if (problems.length || !configuration)
    throw new BusinessRuleError('QUICK_SALE_NOT_CONFIGURED', 'Quick sale is not available in this filial', { problems });
  const config = configuration;
  // The sale belongs to its terminal's open session; a counter that requires one refuses a sale without it (409 naming the terminal).
  if (config.requireCashSession && !body.terminalId) cashSessionRequired();
  const cashSessionId = body.terminalId ? sessionOfSale(session ?? [], body.terminalId) : null;
  if (config.requireCustomer && !body.customerId) {
    throw new BusinessRuleError('CUSTOMER_REQUIRED', 'This counter requires the customer to be named', {
      errors: [{ path: 'customerId', message: 'required by the quick-sale configuration' }],
    });
  }
  return { config, cashSessionId };
}

/**
 * The order is written already delivered (every line fulfilled through the stock ledger) once the
 * counter's rules (discounts, payments) passed on the priced order.
 */
async function deliverCounterOrder(
  { delivery, setup, config }: OpenedSale,
  body: QuickSaleRequest,
  code: ReturnType<typeof reserveSalesOrderCode>,
) {
  let settlement: ReturnType<typeof settlePayments> | undefined;
  const delivered = await delivery.complete(
    {
      ...body,
      code: await code,
      flowMode: 'QUICK_SALE',
      defaults: { customer: setup.defaultCustomer ?? null, seller: setup.defaultSeller ?? null },
    },
    {
      allowNegativeStock: config.allowNegativeStock,
      // The sale bills its payments (below), not the fulfilment's value.
      bill: false,
      check: (order, items) => {
        checkDiscounts(order, items, config.maxDiscountPercent);
        const tendered = body.payments?.length
          ? body.payments
          : config.defaultPaymentMethod
            ? [{ method: config.defaultPaymentMethod, amount: order.total }]
            : [];
        if (!tendered.length)
          throw new BusinessRuleError('PAYMENTS_REQUIRED', 'Payments are required (no default payment method is configured)', {
            errors: [{ path: 'payments', message: 'required' }],
          });
        settlement = settlePayments(order.total, tendered, setup.methods, config.paymentMethods);
      },
    },
  );
  return { delivered, settlement: settlement! };
}

async function recordSalePayments({ em, ctx, delivered, settled, cashSessionId }: CounterSale): Promise<SalePayment[]> {
  const { order } = delivered;
  const payments = settled.map((p) =>
    Object.assign(new SalePayment(), {
      companyId: ctx.companyId,
      salesOrderId: order.id,
      paymentMethodId: p.method.id,
      methodCode: p.method.code,
      amount: p.amount,
      changeGiven: p.change,
      cashSessionId,
      ...identificationOf(p),
    }),
  );
  await deferInsertRows(em, SalePayment, payments);
  return payments;
}

/** The sale bills its payments (receivables for the a-prazo ones), with their boletos on billing. */
async function billCounterSale({ em, ctx, filialId, delivered, settled, payments }: CounterSale): Promise<BoletoView[]> {
  const { order } = delivered;
  // Boleto on billing: the account is checked even when no payment is a prazo (a sale in cash names no bad account).
  if (order.boletoBankAccountId !== null)
    await assertBoletoTerms(em, ctx, { bankAccountId: order.boletoBankAccountId, filialId, customerId: null });
  await billSale(em, ctx, {
    filialId,
    salesOrderId: order.id,
    salesOrderCode: order.code,
    fulfillmentId: delivered.fulfillment.id,
    customerId: order.customerId,
    issueDate: businessToday(),
    installmentDays: order.paymentTerms ? installmentDaysOf(order.paymentTerms) : null,
    payments: settled.map((p, i) => ({
      method: p.method,
      amount: p.amount.minus(p.change),
      card: p.input.card
        ? {
            nsu: payments[i].nsu,
            authorizationCode: payments[i].authorizationCode,
            cardBrand: payments[i].cardBrand,
            acquirerCnpj: payments[i].institutionCnpj,
          }
        : null,
    })),
  });
  // Each a-prazo payment's receivables (cash, Pix and cards are left out) get their boletos in this transaction.
  return order.boletoBankAccountId !== null
    ? await issueBoletosOnBilling(em, ctx, { bankAccountId: order.boletoBankAccountId, fulfillmentId: delivered.fulfillment.id })
    : [];
}

function prepareSaleNote(
  { em, ctx, filialId, body, delivered, settled, payments, change }: CounterSale,
  opened: OpenedCounterNote | null,
): Promise<PreparedNote> {
  const { order, items } = delivered;
  const input = {
    filialId,
    salesOrderId: order.id,
    customerId: body.customerId ?? null,
    consumerDocument: body.consumerDocument ?? null,
    lines: items.map((i) => ({
      productId: i.productId,
      salesOrderItemId: i.id,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      discount: i.discount,
    })),
    discount: order.discount,
    total: order.total,
    payments: settled.map((p, i) => notePaymentOf(p, payments[i])),
    change,
  };
  return opened ? prepareCounterNote(em, ctx, input, opened) : prepareCounterNote(em, ctx, input);
}

async function publishSaleCompleted({ em, ctx, filialId, body, delivered, settled, change, cashSessionId }: CounterSale) {
  const { order } = delivered;
  await publishEvent(em, ctx, {
    type: 'quick-sale.completed',
    filialId,
    aggregateType: 'sales-order',
    aggregateId: order.id,
    data: {
      salesOrderId: encodeId('sales-order', order.id),
      code: order.code,
      total: toJsonNumber(order.total, 'amount'),
      change: toJsonNumber(change, 'amount'),
      payments: settled.map((p) => ({ method: p.method.code, amount: toJsonNumber(p.amount, 'amount') })),
      cashSessionId: cashSessionId === null ? null : encodeId('cash-session', cashSessionId),
      terminalId: body.terminalId ?? null,
    },
  });
}
