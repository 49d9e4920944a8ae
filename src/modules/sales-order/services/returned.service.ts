import { EntityManager } from 'typeorm';
import { Dec } from '../../../core/decimal';
import { deferItemQuantities } from '../sales-order.repository';

/*
 * The returns module's one write into sales_order_item: the returned quantity of each line, inside the
 * return's transaction. Returns reads orders and items itself (joins, locks); writes to this module's
 * tables go through here.
 */

/** Sets `returned_quantity` of the given items (the new totals, not increments). Deferred on MySQL: it goes out with the next statement. */
export const recordReturnedQuantities = (
  em: EntityManager,
  companyId: number,
  items: { id: number; returnedQuantity: Dec }[],
): Promise<void> =>
  deferItemQuantities(
    em,
    companyId,
    'returned_quantity',
    items.map((i) => ({ id: i.id, value: i.returnedQuantity })),
  );
