import { readerOf } from '../../core/db/transaction';
import type { TenantContext } from '../../core/context';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { StockBalance } from '../stock';
import { Product } from './entities/product.entity';

export interface StockRow {
  balance: StockBalance;
  product?: Product;
}

/** Stock balances of a filial (optionally one product), with the product's code and name. */
export async function listStock(
  ctx: TenantContext,
  filialId: number,
  query: PageRequest & { productId?: number },
): Promise<Page<StockRow>> {
  const em = readerOf(ctx);
  const qb = em
    .createQueryBuilder(StockBalance, 'b')
    .where('b.company_id = :companyId AND b.filial_id = :filialId', { companyId: ctx.companyId, filialId });
  if (query.productId !== undefined) qb.andWhere('b.product_id = :productId', { productId: query.productId });
  return paginate(
    qb,
    [
      { column: 'b.product_id', direction: 'ASC' },
      { column: 'b.id', direction: 'ASC' },
    ],
    query,
    async (ids) => {
      const balances = await em.createQueryBuilder(StockBalance, 'b').where('b.id IN (:...ids)', { ids }).getMany();
      const products = await em
        .createQueryBuilder(Product, 'p')
        .where('p.company_id = :companyId AND p.id IN (:...pids)', { companyId: ctx.companyId, pids: balances.map((b) => b.productId) })
        .getMany();
      const byId = new Map(products.map((p) => [p.id, p]));
      return balances.map((balance) => ({ balance, product: byId.get(balance.productId) }));
    },
    (row) => row.balance.id,
  );
}
