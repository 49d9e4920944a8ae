import { Dec, dec, sum } from '../../../core/decimal';
import type { Product } from '../../catalog';
import type { LedgerLine, ThirdPartyLine } from '../../stock';
import { ComputedItem, linePayable } from '../entry-document.calculator';
import type { CreditTax, NfePurpose, StockTarget } from './fiscal.types';
import { lineEffect } from './line-effect';

/*
 * What confirming does with each line, from its operation class: own stock (ledger), third-party stock
 * (its own ledger) or nothing; owed to the supplier or not; the credits it gives. confirm-preview shows
 * it line by line, confirm posts exactly this.
 */

export interface LineBooking {
  lineNumber: number;
  item: ComputedItem;
  /** Where the line's goods go (after review state, stock control and quantity). */
  stock: StockTarget;
  /** Why a line whose class posts stock posts none. */
  stockNote: string | null;
  payable: boolean;
  effect: string;
}

export interface TaxCreditTotal {
  tax: CreditTax;
  base: Dec;
  amount: Dec;
}

export interface Booking {
  lines: LineBooking[];
  ownStock: LedgerLine[];
  thirdParty: ThirdPartyLine[];
  credits: TaxCreditTotal[];
}

export interface BookingInput {
  items: ComputedItem[];
  /** The stored item ids, in line order (movements reference them). */
  itemIds: number[];
  products: Map<number, Product>;
  purpose: NfePurpose;
  supplierDocument: string;
  supplierId: number;
}

/** Where confirm puts a line's goods, and why a line whose class posts stock posts none (purchase receipts follow it too). */
export function lineStockTarget(
  it: ComputedItem,
  product: Product | undefined,
  purpose: NfePurpose = '1',
): { stock: StockTarget; note: string | null } {
  const target = lineEffect(it.operationClass, it.entryCfop, purpose)?.stock ?? 'NONE';
  if (target === 'NONE') return { stock: 'NONE', note: null };
  if (it.reviewStatus === 'IGNORED') return { stock: 'NONE', note: 'Ignored on review: kept on the document, posts no stock' };
  if (it.reviewStatus !== 'MATCHED' || !product)
    return { stock: 'NONE', note: 'No product yet: the line must be mapped before confirming' };
  if (target === 'OWN' && !product.stockControlled) return { stock: 'NONE', note: `Product ${product.code} is not stock-controlled` };
  if (!it.stockQuantity.gt(0)) return { stock: 'NONE', note: 'No stock quantity' };
  return { stock: target, note: null };
}

const taxBase = (it: ComputedItem, tax: 'icms' | 'ipi') => dec(it.taxes[tax]?.base ?? 0);

export function bookLines(input: BookingInput): Booking {
  const lines: LineBooking[] = [];
  const ownStock: LedgerLine[] = [];
  const thirdParty: ThirdPartyLine[] = [];
  input.items.forEach((it, i) => {
    const product = it.productId === null ? undefined : input.products.get(it.productId);
    const { stock, note } = lineStockTarget(it, product, input.purpose);
    const effect = lineEffect(it.operationClass, it.entryCfop, input.purpose);
    if (stock === 'OWN') {
      ownStock.push({
        productId: product!.id,
        direction: 'IN',
        quantity: it.stockQuantity,
        unitCost: it.unitCost,
        referenceLineId: input.itemIds[i],
      });
      // Goods held in consignment become ours: they leave the consignor's third-party stock (at its declared value).
      if (effect?.fromThirdParty) {
        thirdParty.push({
          productId: product!.id,
          ownerDocument: input.supplierDocument,
          ownerSupplierId: input.supplierId,
          direction: 'OUT',
          quantity: it.stockQuantity,
          value: it.total,
          referenceLineId: input.itemIds[i],
        });
      }
    } else if (stock === 'THIRD_PARTY') {
      thirdParty.push({
        productId: product!.id,
        ownerDocument: input.supplierDocument,
        ownerSupplierId: input.supplierId,
        direction: 'IN',
        quantity: it.stockQuantity,
        value: it.total,
        referenceLineId: input.itemIds[i],
      });
    }
    lines.push({
      lineNumber: it.lineNumber,
      item: it,
      stock,
      stockNote: note,
      payable: linePayable(it.operationClass, input.purpose, it.entryCfop),
      effect: effect?.effect ?? 'Operation class undetermined: the line cannot be booked yet',
    });
  });
  const credited = (pick: (it: ComputedItem) => Dec) => input.items.filter((it) => pick(it).gt(0));
  const credits: TaxCreditTotal[] = [
    {
      tax: 'ICMS' as const,
      base: sum(credited((it) => it.creditIcms).map((it) => taxBase(it, 'icms'))),
      amount: sum(input.items.map((it) => it.creditIcms)),
    },
    {
      tax: 'PIS' as const,
      base: sum(credited((it) => it.creditPis).map((it) => it.creditBase)),
      amount: sum(input.items.map((it) => it.creditPis)),
    },
    {
      tax: 'COFINS' as const,
      base: sum(credited((it) => it.creditCofins).map((it) => it.creditBase)),
      amount: sum(input.items.map((it) => it.creditCofins)),
    },
    {
      tax: 'IPI' as const,
      base: sum(credited((it) => it.creditIpi).map((it) => taxBase(it, 'ipi'))),
      amount: sum(input.items.map((it) => it.creditIpi)),
    },
    // CBS/IBS (2027 rule set): the base is the value of the lines credited, as for ICMS and IPI.
    {
      tax: 'CBS' as const,
      base: sum(credited((it) => it.creditCbs).map((it) => it.total.minus(it.discount))),
      amount: sum(input.items.map((it) => it.creditCbs)),
    },
    {
      tax: 'IBS' as const,
      base: sum(credited((it) => it.creditIbs).map((it) => it.total.minus(it.discount))),
      amount: sum(input.items.map((it) => it.creditIbs)),
    },
  ].filter((c) => c.amount.gt(0));
  return { lines, ownStock, thirdParty, credits };
}
