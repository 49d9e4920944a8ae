import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';
import { Dec } from '../src/core/decimal';
import { linkReceiptLines, threeWayMatch, openOrdersOfSupplier } from '../src/modules/purchase/receiving.service';
import { PurchaseOrder } from '../src/modules/purchase/entities/purchase-order.entity';
import { PurchaseOrderItem } from '../src/modules/purchase/entities/purchase-order-item.entity';

async function main() {
  await openDatabase();
  const em = dataSource.manager;
  const o = (await em.find(PurchaseOrder, { order: { id: 'DESC' }, take: 1 }))[0];
  const ctx = { companyId: o.companyId, actor: 'x' };
  const items = await em.find(PurchaseOrderItem, { where: { companyId: o.companyId }, order: { id: 'ASC' } });
  const codes = new Map((await em.find(PurchaseOrder, { where: { companyId: o.companyId } })).map((x) => [x.id, x.code]));
  const target = { filialId: o.filialId, supplierDocument: o.supplierDocument };
  const lines = items.map((it, i) => ({ productId: it.productId, quantity: new Dec(2), conversionFactor: new Dec(1), orderCode: i % 2 ? null : String(codes.get(it.purchaseOrderId)), orderLine: i % 2 ? null : String(it.lineNumber) }));
  for (let r = 0; r < 4; r++) {
    let t0 = performance.now();
    const links = await linkReceiptLines(em, ctx, target, lines);
    const t1 = performance.now();
    const rl = items.map((it, i) => ({ lineNumber: i + 1, purchaseOrderItemId: links[i].purchaseOrderItemId, productId: it.productId, quantity: new Dec(2), unit: 'UN', conversionFactor: new Dec(1), stockQuantity: new Dec(2), total: new Dec(20), discount: new Dec(0) }));
    await threeWayMatch(em, ctx, { ...target, lines: rl });
    const t2 = performance.now();
    await openOrdersOfSupplier(em, ctx, target, items.map((i) => i.productId));
    const t3 = performance.now();
    t0 = performance.now() - t0;


    console.log({ link: Math.round(t1 - (t3 - t0)), match: Math.round(t2 - t1), open: Math.round(t3 - t2) });
  }
  await dataSource.destroy();
}
main();
