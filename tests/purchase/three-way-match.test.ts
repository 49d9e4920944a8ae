import { expect } from 'chai';
import { Dec } from '../../src/core/decimal';
import type { PurchaseOrderItem } from '../../src/modules/purchase/entities/purchase-order-item.entity';
import type { PurchaseOrder, PurchaseOrderStatus } from '../../src/modules/purchase/entities/purchase-order.entity';
import { parseOrderCode } from '../../src/modules/purchase/receiving.service';
import { computeMatch, ReceiptLine } from '../../src/modules/purchase/three-way-match';
import type { PurchaseTolerances } from '../../src/modules/tenancy/settings.service';

/** computeMatch without a database: quantities, prices, tolerances, modes and broken links. */

const SUPPLIER = '12345678000195';
const order = (over: Partial<PurchaseOrder> = {}): PurchaseOrder =>
  ({
    id: 1,
    companyId: 1,
    filialId: 10,
    code: 501,
    status: 'APPROVED' as PurchaseOrderStatus,
    supplierDocument: SUPPLIER,
    ...over,
  }) as PurchaseOrder;
const orderLine = (over: Partial<PurchaseOrderItem> = {}): PurchaseOrderItem =>
  ({
    id: 7,
    companyId: 1,
    purchaseOrderId: 1,
    lineNumber: 1,
    productId: 99,
    unit: 'UN',
    quantity: new Dec(100),
    unitPrice: new Dec(10),
    discount: new Dec(0),
    total: new Dec(1000),
    receivedQuantity: new Dec(0),
    cancelledQuantity: new Dec(0),
    isOpen: true,
    ...over,
  }) as PurchaseOrderItem;
const line = (over: Partial<ReceiptLine> = {}): ReceiptLine => ({
  lineNumber: 1,
  purchaseOrderItemId: 7,
  productId: 99,
  quantity: new Dec(10),
  unit: 'CX',
  conversionFactor: new Dec(1),
  stockQuantity: new Dec(10),
  total: new Dec(100),
  discount: new Dec(0),
  ...over,
});
const tolerances = (q: string, p: string, mode: 'BLOCK' | 'WARN' = 'BLOCK'): PurchaseTolerances => ({
  quantityPct: new Dec(q),
  pricePct: new Dec(p),
  mode,
});
const match = (lines: ReceiptLine[], t = tolerances('0', '2'), o = order(), items = [orderLine()]) =>
  computeMatch({ filialId: 10, supplierDocument: SUPPLIER, lines }, [{ order: o, items }], t);

describe('Purchase orders: the three-way match (unit)', () => {
  it('ordered / already received / this receipt / open after, in the company unit (invoice × factor)', () => {
    const m = match(
      [line({ quantity: new Dec(2), conversionFactor: new Dec(12), stockQuantity: new Dec(24), total: new Dec(240) })],
      tolerances('0', '2'),
      order(),
      [orderLine({ receivedQuantity: new Dec(60) })],
    );
    const [l] = m.lines;
    expect([l.ordered, l.alreadyReceived, l.thisReceipt, l.receivedAfter, l.openAfter].map(String)).to.deep.equal([
      '100',
      '60',
      '24',
      '84',
      '16',
    ]);
    expect(l.quantityStatus).to.equal('OK');
    // 240 / 24 = 10 per unit: the order's price.
    expect([l.orderUnitPrice!.toString(), l.invoiceUnitPrice.toString(), l.priceStatus]).to.deep.equal(['10', '10', 'OK']);
    expect(m.findings).to.deep.equal([]);
    expect(m.received.get(7)!.toString()).to.equal('24');
  });

  it('over-receipt: within the quantity tolerance a status only; beyond it PURCHASE_OVER_RECEIPT, blocking or a warning by mode', () => {
    const ordered = [orderLine({ receivedQuantity: new Dec(90) })];
    expect(
      match([line({ stockQuantity: new Dec(15), total: new Dec(150) })], tolerances('5', '2'), order(), ordered).lines[0].quantityStatus,
    ).to.equal('WITHIN_TOLERANCE');
    const blocked = match([line({ stockQuantity: new Dec(16), total: new Dec(160) })], tolerances('5', '2'), order(), ordered);
    expect(blocked.lines[0].quantityStatus).to.equal('OVER_TOLERANCE');
    expect(blocked.findings.map((f) => [f.code, f.blocksConfirmation])).to.deep.equal([['PURCHASE_OVER_RECEIPT', true]]);
    expect(blocked.findings[0].details).to.include({ ordered: 100, alreadyReceived: 90, thisReceipt: 16, allowed: 105 });
    const warned = match([line({ stockQuantity: new Dec(16), total: new Dec(160) })], tolerances('5', '2', 'WARN'), order(), ordered);
    expect(warned.findings.map((f) => [f.code, f.blocksConfirmation])).to.deep.equal([['PURCHASE_OVER_RECEIPT', false]]);
  });

  it('two invoice lines on one order line count together, reported once', () => {
    const m = match([
      line({ lineNumber: 1, stockQuantity: new Dec(60), total: new Dec(600) }),
      line({ lineNumber: 2, stockQuantity: new Dec(50), total: new Dec(500) }),
    ]);
    expect(m.lines.map((l) => l.receivedAfter.toString())).to.deep.equal(['110', '110']);
    expect(m.findings.map((f) => f.code)).to.deep.equal(['PURCHASE_OVER_RECEIPT']);
    expect(m.received.get(7)!.toString()).to.equal('110');
  });

  it('price net of discounts after the factor: 8 % above with 5 % tolerance blocks; within, a status; below, BELOW_ORDER', () => {
    const above = match([line({ total: new Dec(108) })], tolerances('0', '5'));
    expect(above.lines[0].priceDifferencePct!.toString()).to.equal('8');
    expect(above.findings.map((f) => [f.code, f.blocksConfirmation])).to.deep.equal([['PURCHASE_PRICE_ABOVE_TOLERANCE', true]]);
    expect(above.findings[0].details).to.include({ orderUnitPrice: 10, invoiceUnitPrice: 10.8, differencePct: 8, tolerancePct: 5 });
    expect(match([line({ total: new Dec(108) })], tolerances('0', '10')).lines[0].priceStatus).to.equal('WITHIN_TOLERANCE');
    // The invoice's discount counts: 108 − 8 = 100 → the order's price.
    expect(match([line({ total: new Dec(108), discount: new Dec(8) })], tolerances('0', '5')).lines[0].priceStatus).to.equal('OK');
    expect(match([line({ total: new Dec(95) })]).lines[0].priceStatus).to.equal('BELOW_ORDER');
    // So does the order's: 1000 − 100 over 100 units = 9 per unit.
    const discounted = match([line({ total: new Dec(100) })], tolerances('0', '5'), order(), [
      orderLine({ discount: new Dec(100), total: new Dec(900) }),
    ]);
    expect(discounted.lines[0].orderUnitPrice!.toString()).to.equal('9');
    expect(discounted.findings.map((f) => f.code)).to.deep.equal(['PURCHASE_PRICE_ABOVE_TOLERANCE']);
  });

  it('broken links always block and receive nothing: other filial, other supplier, order not receivable, other product, line gone', () => {
    expect(match([line()], undefined, order({ filialId: 11 })).findings.map((f) => f.code)).to.deep.equal(['PURCHASE_ORDER_OTHER_FILIAL']);
    expect(match([line()], undefined, order({ supplierDocument: '11111111000191' })).findings.map((f) => f.code)).to.deep.equal([
      'PURCHASE_ORDER_OTHER_SUPPLIER',
    ]);
    for (const status of ['DRAFT', 'CANCELLED', 'CLOSED'] as PurchaseOrderStatus[]) {
      const m = match([line()], tolerances('0', '2', 'WARN'), order({ status }));
      expect(m.findings.map((f) => [f.code, f.blocksConfirmation])).to.deep.equal([['PURCHASE_ORDER_NOT_RECEIVABLE', true]]);
      expect(m.received.size).to.equal(0);
    }
    expect(match([line({ productId: 98 })]).findings.map((f) => f.code)).to.deep.equal(['PURCHASE_ORDER_PRODUCT_MISMATCH']);
    expect(match([line({ purchaseOrderItemId: 8 })]).findings.map((f) => f.code)).to.deep.equal(['PURCHASE_ORDER_ITEM_NOT_FOUND']);
  });

  it('an IGNORED, product-less or not-own-stock line receives nothing; unlinked lines are not in the match', () => {
    const m = match([
      line({ ignored: true }),
      line({ lineNumber: 2, productId: null }),
      line({ lineNumber: 3, purchaseOrderItemId: null }),
      line({ lineNumber: 4, notReceived: 'third-party goods' }),
    ]);
    expect(m.lines.map((l) => [l.line.lineNumber, l.receives, l.quantityStatus])).to.deep.equal([
      [1, false, null],
      [2, false, null],
      [4, false, null],
    ]);
    expect(m.findings.map((f) => [f.code, f.blocksConfirmation, f.lineNumber])).to.deep.equal([
      ['PURCHASE_ORDER_LINK_IGNORED', false, 1],
      ['PURCHASE_ORDER_LINK_NOT_RECEIVED', false, 4],
    ]);
    expect(m.received.size).to.equal(0);
  });

  it('parseOrderCode: the only run of digits of xPed', () => {
    expect(['4512', 'PC-004512', ' 4512 ', 'PED 4512/1', '', null, 'ABC', '0'].map((x) => parseOrderCode(x))).to.deep.equal([
      4512,
      4512,
      4512,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
