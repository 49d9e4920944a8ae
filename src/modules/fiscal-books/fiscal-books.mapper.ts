import { toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import { BookSummary, FIGURES, Figure, SummaryRow } from './summary';
import type { Dec } from '../../core/decimal';

const figuresDto = (f: Record<Figure, Dec>) => Object.fromEntries(FIGURES.map((k) => [k, toJsonNumber(f[k], 'amount')]));
const rowDto = (r: SummaryRow) => ({
  cfop: r.cfop,
  cst: r.cst,
  rate: toJsonNumber(r.rate, 'percent'),
  documents: r.documents,
  ...figuresDto(r.figures),
});

export function toSummaryDto(s: BookSummary) {
  return {
    filialId: encodeId('filial', s.filialId),
    period: s.period,
    entries: s.entries.map(rowDto),
    exits: s.exits.map(rowDto),
    totals: { entries: figuresDto(s.totals.entries), exits: figuresDto(s.totals.exits) },
  };
}
