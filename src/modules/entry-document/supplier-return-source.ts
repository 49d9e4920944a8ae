import { EntityManager } from 'typeorm';
import type { ActorContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { Dec, round } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { ENTRY_REASON } from './confirm';
import { costAdjustmentsByLine } from './cte-freight';
import type { EntryDocumentItem } from './entities/entry-document-item.entity';
import { EntryDocument } from './entities/entry-document.entity';
import { loadItems, postedMovements } from './entry-document.repository';

/*
 * What a return to the supplier (devolução de compra, the supplier-returns module) needs of the entry
 * document it sends goods back from: the document (locked on MySQL, so returns of one document and
 * the document's own cancellation queue on its row), its lines, and the cost each line's goods
 * entered stock with — the confirmation's movement, plus CT-e freight posted onto the line since —
 * which is what they leave at, whatever the average cost is now.
 */

export interface ReturnSourceLine {
  item: EntryDocumentItem;
  /** Per stock unit, as the goods entered (null: the line posted no own stock). */
  entryUnitCost: Dec | null;
}

export interface ReturnSource {
  doc: EntryDocument;
  lines: ReturnSourceLine[];
}

export async function supplierReturnSource(
  em: EntityManager,
  ctx: Pick<ActorContext, 'companyId'>,
  entryDocumentId: number,
  lock = false,
): Promise<ReturnSource> {
  const qb = em
    .createQueryBuilder(EntryDocument, 'd')
    .where('d.id = :id AND d.company_id = :companyId', { id: entryDocumentId, companyId: ctx.companyId });
  if (lock && isMysql) qb.setLock('pessimistic_write');
  const doc = await qb.getOne();
  if (!doc) throw new NotFoundError('Entry document');
  const [items, movements, adjusted] = [
    await loadItems(em, ctx.companyId, doc.id),
    await postedMovements(em, ctx.companyId, doc.id, ENTRY_REASON),
    await costAdjustmentsByLine(em, doc),
  ];
  const entered = new Map<number, { quantity: Dec; value: Dec }>();
  for (const m of movements) {
    if (m.referenceLineId === null || m.direction !== 'IN' || m.filialId !== doc.filialId) continue;
    const e = entered.get(m.referenceLineId) ?? { quantity: new Dec(0), value: new Dec(0) };
    entered.set(m.referenceLineId, {
      quantity: e.quantity.plus(m.quantity.abs()),
      value: e.value.plus(m.quantity.abs().times(m.unitCost)),
    });
  }
  return {
    doc,
    lines: items.map((item) => {
      const e = entered.get(item.id);
      if (!e || e.quantity.lte(0)) return { item, entryUnitCost: null };
      return { item, entryUnitCost: round(e.value.plus(adjusted.get(item.id) ?? 0).div(e.quantity), 'cost') };
    }),
  };
}
