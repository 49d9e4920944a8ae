import { Dec, round, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { PurchaseTolerances } from '../tenancy';
import type { PurchaseOrderItem } from './entities/purchase-order-item.entity';
import type { PurchaseOrder } from './entities/purchase-order.entity';
import { netUnitPrice, openQuantityOf } from './purchase.lines';
import type { OrderWithItems } from './purchase.repository';
import { canDo } from './purchase.state';

/*
 * The three-way match (SPEC §9): order × invoice × receipt, per linked line. Pure: the previews
 * (preview-import, the draft detail, confirm-preview) and the confirmation itself call computeMatch
 * on the lines as they read them — the confirmation under the order lines' locks — so what a preview
 * shows is what confirm decides.
 *
 * Quantities compare in the company's unit (invoice quantity × conversion factor). Prices compare net
 * of the line discount, before taxes and charges: the order's total ÷ quantity against the invoice
 * line's (value − discount) ÷ stock quantity. Divergences beyond the company's tolerances are
 * blocking, or warnings when the company's mode is WARN; a broken link (another filial or supplier,
 * an order that cannot receive, another product) always blocks.
 */

/** One line of an entry document as the match needs it (other modules build these). */
export interface ReceiptLine {
  lineNumber: number;
  /** The stored line (confirmation); absent in previews. */
  entryDocumentItemId?: number | null;
  purchaseOrderItemId: number | null;
  productId: number | null;
  /** IGNORED lines post no stock and receive nothing. */
  ignored?: boolean;
  /**
   * Why a line receives nothing although it is reviewed: confirm books it without posting own stock
   * as a purchase (third-party goods, a bonificação, a fixed asset, a product without stock control…).
   * Only goods entering own stock as bought are receipts of an order. Null/absent: it receives.
   */
  notReceived?: string | null;
  /** As invoiced, in the supplier's unit. */
  quantity: Dec;
  unit: string;
  conversionFactor: Dec;
  /** quantity × conversion factor, in the company's unit. */
  stockQuantity: Dec;
  /** The line's value (vProd) and discount. */
  total: Dec;
  discount: Dec;
}

export interface ReceiptSource {
  filialId: number;
  supplierDocument: string;
  lines: ReceiptLine[];
}

/** A finding in the entry document's check shape (code, message, blocksConfirmation, line, details). */
export interface MatchFinding {
  code: string;
  message: string;
  blocksConfirmation: boolean;
  lineNumber?: number;
  details?: Record<string, unknown>;
}

export type QuantityStatus = 'OK' | 'WITHIN_TOLERANCE' | 'OVER_TOLERANCE';
export type PriceStatus = 'OK' | 'BELOW_ORDER' | 'WITHIN_TOLERANCE' | 'OVER_TOLERANCE';

export interface MatchedLine {
  line: ReceiptLine;
  order: PurchaseOrder | null;
  item: PurchaseOrderItem | null;
  /** Link problems (codes); a line with any receives nothing. */
  problems: string[];
  /** Whether confirming adds this line to the order line's received quantity. */
  receives: boolean;
  ordered: Dec;
  cancelled: Dec;
  alreadyReceived: Dec;
  thisReceipt: Dec;
  /** Received after this document, all its lines on the same order line counted. */
  receivedAfter: Dec;
  openAfter: Dec;
  orderUnitPrice: Dec | null;
  invoiceUnitPrice: Dec;
  priceDifferencePct: Dec | null;
  quantityStatus: QuantityStatus | null;
  priceStatus: PriceStatus | null;
}

export interface MatchResult {
  tolerances: PurchaseTolerances;
  lines: MatchedLine[];
  findings: MatchFinding[];
  /** Order line id → quantity this document receives on it. */
  received: Map<number, Dec>;
}

const ZERO = new Dec(0);
const HUNDRED = new Dec(100);

export interface LinkTarget {
  filialId: number;
  supplierDocument: string;
  productId: number | null;
}

/** Why an order line cannot take a receipt of this document line (empty: it can). */
export function linkProblems(order: PurchaseOrder, item: PurchaseOrderItem, target: LinkTarget): { code: string; message: string }[] {
  const problems: { code: string; message: string }[] = [];
  if (order.filialId !== target.filialId)
    problems.push({ code: 'PURCHASE_ORDER_OTHER_FILIAL', message: `purchase order ${order.code} belongs to another filial` });
  if (order.supplierDocument !== target.supplierDocument)
    problems.push({ code: 'PURCHASE_ORDER_OTHER_SUPPLIER', message: `purchase order ${order.code} is from another supplier` });
  if (!canDo(order, 'receive'))
    problems.push({
      code: 'PURCHASE_ORDER_NOT_RECEIVABLE',
      message: `purchase order ${order.code} is ${order.status}; it receives nothing`,
    });
  if (target.productId !== null && target.productId !== item.productId) {
    problems.push({
      code: 'PURCHASE_ORDER_PRODUCT_MISMATCH',
      message: `line ${item.lineNumber} of purchase order ${order.code} is another product`,
    });
  }
  return problems;
}

/** Invoice price per company unit, net of the line discount. */
export const invoiceNetPrice = (l: ReceiptLine): Dec => (l.stockQuantity.gt(0) ? l.total.minus(l.discount).div(l.stockQuantity) : ZERO);

const pct = (tolerance: Dec) => new Dec(1).plus(tolerance.div(HUNDRED));
const q4 = (v: Dec) => v.toFixed(4);

export function computeMatch(source: ReceiptSource, orders: OrderWithItems[], tolerances: PurchaseTolerances): MatchResult {
  const m: Matching = {
    tolerances,
    findings: [],
    blocking: tolerances.mode === 'BLOCK',
    quantityFactor: pct(tolerances.quantityPct),
    priceFactor: pct(tolerances.pricePct),
    received: new Map<number, Dec>(),
    overReported: new Set<number>(),
  };
  const staged = stageLinks(source, orders, m);
  const lines: MatchedLine[] = staged.map((s) => matchLine(s, m));
  return { tolerances, lines, findings: m.findings, received: m.received };
}

/** What matching a receipt gathers as it goes, and the tolerances it measures by. */
interface Matching {
  tolerances: PurchaseTolerances;
  findings: MatchFinding[];
  blocking: boolean;
  quantityFactor: Dec;
  priceFactor: Dec;
  /** Per purchase-order line, the stock units this receipt gives it. */
  received: Map<number, Dec>;
  /** Order lines already reported over-received (once each, however many lines feed them). */
  overReported: Set<number>;
}

type StagedLink = {
  line: ReceiptLine;
  ref: { order: PurchaseOrder; item: PurchaseOrderItem } | null;
  problems: string[];
  receives: boolean;
};

/** Each linked line: its link checked (order line gone, other filial/supplier/product, not receivable), and what it receives. */
function stageLinks(source: ReceiptSource, orders: OrderWithItems[], m: Matching): StagedLink[] {
  const { findings, received } = m;
  const byItem = new Map<number, { order: PurchaseOrder; item: PurchaseOrderItem }>();
  for (const { order, items } of orders) for (const item of items) byItem.set(item.id, { order, item });
  return source.lines
    .filter((l) => l.purchaseOrderItemId !== null)
    .map((line) => {
      const ref = byItem.get(line.purchaseOrderItemId!);
      if (!ref) {
        findings.push({
          code: 'PURCHASE_ORDER_ITEM_NOT_FOUND',
          message: `Line ${line.lineNumber}: the purchase-order line it is linked to no longer exists`,
          blocksConfirmation: true,
          lineNumber: line.lineNumber,
        });
        return { line, ref: null, problems: ['PURCHASE_ORDER_ITEM_NOT_FOUND'], receives: false };
      }
      const problems = linkProblems(ref.order, ref.item, {
        filialId: source.filialId,
        supplierDocument: source.supplierDocument,
        productId: line.productId,
      });
      for (const p of problems)
        findings.push({
          code: p.code,
          message: `Line ${line.lineNumber}: ${p.message}`,
          blocksConfirmation: true,
          lineNumber: line.lineNumber,
          details: linkDetails(ref.order, ref.item),
        });
      if (line.ignored && !problems.length) {
        findings.push({
          code: 'PURCHASE_ORDER_LINK_IGNORED',
          message: `Line ${line.lineNumber} is IGNORED: it receives nothing on purchase order ${ref.order.code}`,
          blocksConfirmation: false,
          lineNumber: line.lineNumber,
        });
      } else if (line.notReceived && !problems.length) {
        findings.push({
          code: 'PURCHASE_ORDER_LINK_NOT_RECEIVED',
          message: `Line ${line.lineNumber} receives nothing on purchase order ${ref.order.code}: ${line.notReceived}`,
          blocksConfirmation: false,
          lineNumber: line.lineNumber,
          details: linkDetails(ref.order, ref.item),
        });
      }
      const receives = !problems.length && !line.ignored && !line.notReceived && line.productId !== null && line.stockQuantity.gt(0);
      if (receives) received.set(ref.item.id, (received.get(ref.item.id) ?? ZERO).plus(line.stockQuantity));
      return { line, ref, problems: problems.map((p) => p.code), receives };
    });
}

/** A line against its order line: quantities after this receipt, quantity and price within the tolerances. */
function matchLine({ line, ref, problems, receives }: StagedLink, m: Matching): MatchedLine {
  const { findings, blocking, quantityFactor, priceFactor, tolerances, received, overReported } = m;
  const exactInvoice = invoiceNetPrice(line);
  const invoiceUnitPrice = round(exactInvoice, 'price');
  if (!ref) {
    return {
      line,
      order: null,
      item: null,
      problems,
      receives,
      ordered: ZERO,
      cancelled: ZERO,
      alreadyReceived: ZERO,
      thisReceipt: line.stockQuantity,
      receivedAfter: ZERO,
      openAfter: ZERO,
      orderUnitPrice: null,
      invoiceUnitPrice,
      priceDifferencePct: null,
      quantityStatus: null,
      priceStatus: null,
    };
  }
  const { order, item } = ref;
  const mine = received.get(item.id) ?? ZERO;
  const receivedAfter = item.receivedQuantity.plus(mine);
  const openAfter = openQuantityOf({ quantity: item.quantity, receivedQuantity: receivedAfter, cancelledQuantity: item.cancelledQuantity });
  const allowed = item.quantity.times(quantityFactor);
  const done = receivedAfter.plus(item.cancelledQuantity);
  const quantityStatus: QuantityStatus | null = !receives
    ? null
    : done.gt(allowed)
      ? 'OVER_TOLERANCE'
      : done.gt(item.quantity)
        ? 'WITHIN_TOLERANCE'
        : 'OK';
  if (quantityStatus === 'OVER_TOLERANCE' && !overReported.has(item.id)) {
    overReported.add(item.id);
    findings.push({
      code: 'PURCHASE_OVER_RECEIPT',
      message: `Line ${line.lineNumber}: purchase order ${order.code} line ${item.lineNumber} would receive ${q4(receivedAfter)} of ${q4(item.quantity)} ordered (${q4(item.receivedQuantity)} already received; tolerance ${tolerances.quantityPct.toString()} %)`,
      blocksConfirmation: blocking,
      lineNumber: line.lineNumber,
      details: {
        ...linkDetails(order, item),
        ordered: num(item.quantity),
        alreadyReceived: num(item.receivedQuantity),
        thisReceipt: num(mine),
        allowed: num(allowed),
        tolerancePct: toJsonNumber(tolerances.quantityPct, 'percent'),
      },
    });
  }
  const exactOrder = netUnitPrice(item);
  const orderUnitPrice = round(exactOrder, 'price');
  const priceDifferencePct = exactOrder.gt(0) ? round(exactInvoice.minus(exactOrder).div(exactOrder).times(HUNDRED), 'percent') : null;
  let priceStatus: PriceStatus | null = null;
  if (receives) {
    priceStatus = exactInvoice.gt(exactOrder.times(priceFactor))
      ? 'OVER_TOLERANCE'
      : exactInvoice.gt(exactOrder)
        ? 'WITHIN_TOLERANCE'
        : exactInvoice.lt(exactOrder)
          ? 'BELOW_ORDER'
          : 'OK';
    if (priceStatus === 'OVER_TOLERANCE') {
      findings.push({
        code: 'PURCHASE_PRICE_ABOVE_TOLERANCE',
        message: `Line ${line.lineNumber}: invoiced at ${invoiceUnitPrice.toFixed(4)} per ${item.unit}, ${priceDifferencePct ? `${priceDifferencePct.toFixed(2)} % ` : ''}above purchase order ${order.code} (${orderUnitPrice.toFixed(4)}; tolerance ${tolerances.pricePct.toString()} %)`,
        blocksConfirmation: blocking,
        lineNumber: line.lineNumber,
        details: {
          ...linkDetails(order, item),
          orderUnitPrice: toJsonNumber(orderUnitPrice, 'price'),
          invoiceUnitPrice: toJsonNumber(invoiceUnitPrice, 'price'),
          differencePct: priceDifferencePct === null ? null : toJsonNumber(priceDifferencePct, 'percent'),
          tolerancePct: toJsonNumber(tolerances.pricePct, 'percent'),
        },
      });
    }
  }
  return {
    line,
    order,
    item,
    problems,
    receives,
    ordered: item.quantity,
    cancelled: item.cancelledQuantity,
    alreadyReceived: item.receivedQuantity,
    thisReceipt: line.stockQuantity,
    receivedAfter,
    openAfter,
    orderUnitPrice,
    invoiceUnitPrice,
    priceDifferencePct,
    quantityStatus,
    priceStatus,
  };
}

const num = (v: Dec) => toJsonNumber(v, 'quantity');

const linkDetails = (order: PurchaseOrder, item: PurchaseOrderItem) => ({
  purchaseOrderId: encodeId('purchase-order', order.id),
  purchaseOrderCode: order.code,
  purchaseOrderItemId: encodeId('purchase-order-item', item.id),
  orderLineNumber: item.lineNumber,
});

/** The match as other modules' responses show it: hashids and numbers at their scales. */
export function matchView(m: MatchResult) {
  return {
    tolerances: {
      quantityPct: toJsonNumber(m.tolerances.quantityPct, 'percent'),
      pricePct: toJsonNumber(m.tolerances.pricePct, 'percent'),
      mode: m.tolerances.mode,
    },
    lines: m.lines.map((l) => ({
      lineNumber: l.line.lineNumber,
      purchaseOrderItemId: encodeId('purchase-order-item', l.line.purchaseOrderItemId!),
      purchaseOrderId: l.order ? encodeId('purchase-order', l.order.id) : null,
      purchaseOrderCode: l.order?.code ?? null,
      purchaseOrderStatus: l.order?.status ?? null,
      orderLineNumber: l.item?.lineNumber ?? null,
      productId: l.item ? encodeId('product', l.item.productId) : null,
      unit: l.item?.unit ?? null,
      ordered: num(l.ordered),
      cancelled: num(l.cancelled),
      alreadyReceived: num(l.alreadyReceived),
      thisReceipt: num(l.thisReceipt),
      openAfter: num(l.openAfter),
      orderUnitPrice: l.orderUnitPrice === null ? null : toJsonNumber(l.orderUnitPrice, 'price'),
      invoiceUnitPrice: toJsonNumber(l.invoiceUnitPrice, 'price'),
      priceDifferencePct: l.priceDifferencePct === null ? null : toJsonNumber(l.priceDifferencePct, 'percent'),
      quantityStatus: l.quantityStatus,
      priceStatus: l.priceStatus,
      receives: l.receives,
      problems: l.problems,
    })),
    blockingProblems: m.findings.filter((f) => f.blocksConfirmation),
    warnings: m.findings.filter((f) => !f.blocksConfirmation),
  };
}
export type MatchView = ReturnType<typeof matchView>;
