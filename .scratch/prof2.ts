import { dataSource } from '../src/core/db/data-source';
import { openDatabase } from '../src/core/db/connect';
import { Dec } from '../src/core/decimal';
import { findItems, ordersWithItems } from '../src/modules/purchase/purchase.repository';
import { computeMatch, matchView } from '../src/modules/purchase/three-way-match';
import { getPurchaseTolerances } from '../src/modules/tenancy/settings.service';
import { PurchaseOrder } from '../src/modules/purchase/entities/purchase-order.entity';
import { PurchaseOrderItem } from '../src/modules/purchase/entities/purchase-order-item.entity';

async function main() {
  await openDatabase();
  const em = dataSource.manager;
  const o = (await em.find(PurchaseOrder, { order: { id: 'DESC' }, take: 1 }))[0];
  const all = await em.find(PurchaseOrderItem, { where: { companyId: o.companyId }, order: { id: 'ASC' } });
  const rl = all.map((it, i) => ({ lineNumber: i + 1, purchaseOrderItemId: it.id, productId: it.productId, quantity: new Dec(2), unit: 'UN', conversionFactor: new Dec(1), stockQuantity: new Dec(2), total: new Dec(20), discount: new Dec(0) }));
  for (let r = 0; r < 4; r++) {
    const t0 = performance.now();
    const items = await findItems(em, o.companyId, all.map((i) => i.id));
    const t1 = performance.now();
    const orders = await ordersWithItems(em, o.companyId, items.map((i) => i.purchaseOrderId));
    const t2 = performance.now();
    const tol = await getPurchaseTolerances(em, o.companyId);
    const t3 = performance.now();
    const m = computeMatch({ filialId: o.filialId, supplierDocument: o.supplierDocument, lines: rl }, orders, tol);
    const t4 = performance.now();
    matchView(m);
    const t5 = performance.now();
    const raw = await em.query('SELECT * FROM purchase_order_item WHERE company_id = ?', [o.companyId]);
    const t6 = performance.now();
    console.log({ findItems: Math.round(t1 - t0), ordersWithItems: Math.round(t2 - t1), tol: Math.round(t3 - t2), compute: Math.round(t4 - t3), view: Math.round(t5 - t4), rawSelect: Math.round(t6 - t5), n: raw.length });
  }
  await dataSource.destroy();
}
main();
