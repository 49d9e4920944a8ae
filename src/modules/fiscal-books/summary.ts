import { Dec, round } from '../../core/decimal';
import type { BookDocument, FiscalBook } from './book.types';

/*
 * Livros (entradas / saídas) of a month: the book's regular documents (COD_SIT 00; cancelled, denied and
 * voided left out) grouped by direction, CFOP, CST and ICMS rate. The EFD's C190/D190 group the same
 * lines the same way per document; this is their sum over the month.
 */

export const FIGURES = ['operationValue', 'icmsBase', 'icms', 'stBase', 'st', 'ipi', 'difal', 'fcp', 'pis', 'cofins'] as const;
export type Figure = (typeof FIGURES)[number];

export interface SummaryRow {
  direction: 'IN' | 'OUT';
  cfop: string;
  cst: string;
  rate: Dec;
  documents: number;
  figures: Record<Figure, Dec>;
  /** Book refs (document ref + line) that made the row: its trace. */
  sources: { ref: string; lineNumber: number | null }[];
}

export interface BookSummary {
  filialId: number;
  period: string;
  entries: SummaryRow[];
  exits: SummaryRow[];
  totals: { entries: Record<Figure, Dec>; exits: Record<Figure, Dec> };
}

const zeros = (): Record<Figure, Dec> => Object.fromEntries(FIGURES.map((f) => [f, new Dec(0)])) as Record<Figure, Dec>;

/** What one line (or a CT-e's whole service) adds to its row. */
export function bookRowsOf(
  doc: BookDocument,
): { cfop: string; cst: string; rate: Dec; lineNumber: number | null; figures: Record<Figure, Dec> }[] {
  if (doc.freightService) {
    const f = doc.freightService;
    return [
      {
        cfop: f.cfop,
        cst: f.cst,
        rate: f.rate,
        lineNumber: null,
        figures: { ...zeros(), operationValue: f.value, icmsBase: f.base, icms: f.icms },
      },
    ];
  }
  return doc.lines.map((l) => ({
    cfop: l.cfop,
    cst: l.cstIcms,
    rate: l.icmsRate,
    lineNumber: l.lineNumber,
    figures: {
      operationValue: l.operationValue,
      icmsBase: l.icmsBase,
      icms: l.icms,
      stBase: l.stBase,
      st: l.st,
      ipi: l.ipi,
      difal: l.difal,
      fcp: l.fcp.plus(l.difalFcp),
      pis: l.pis,
      cofins: l.cofins,
    },
  }));
}

export function summarize(book: FiscalBook): BookSummary {
  const rows = new Map<string, SummaryRow & { docRefs: Set<string> }>();
  for (const doc of book.documents) {
    if (doc.situation !== '00') continue;
    for (const r of bookRowsOf(doc)) {
      const key = `${doc.direction}|${r.cfop}|${r.cst}|${r.rate.toFixed(2)}`;
      let row = rows.get(key);
      if (!row)
        rows.set(
          key,
          (row = {
            direction: doc.direction,
            cfop: r.cfop,
            cst: r.cst,
            rate: round(r.rate, 2),
            documents: 0,
            figures: zeros(),
            sources: [],
            docRefs: new Set(),
          }),
        );
      for (const f of FIGURES) row.figures[f] = row.figures[f].plus(r.figures[f]);
      row.docRefs.add(doc.ref);
      row.sources.push({ ref: doc.ref, lineNumber: r.lineNumber });
    }
  }
  const sorted = [...rows.values()]
    .map(({ docRefs, ...row }) => ({
      ...row,
      documents: docRefs.size,
      figures: Object.fromEntries(FIGURES.map((f) => [f, round(row.figures[f], 'amount')])) as Record<Figure, Dec>,
    }))
    .sort((a, b) => (a.cfop + a.cst + a.rate.toFixed(2)).localeCompare(b.cfop + b.cst + b.rate.toFixed(2)));
  const entries = sorted.filter((r) => r.direction === 'IN');
  const exits = sorted.filter((r) => r.direction === 'OUT');
  const totalOf = (list: SummaryRow[]) => {
    const t = zeros();
    for (const r of list) for (const f of FIGURES) t[f] = t[f].plus(r.figures[f]);
    return t;
  };
  return { filialId: book.filialId, period: book.period, entries, exits, totals: { entries: totalOf(entries), exits: totalOf(exits) } };
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The summary as CSV (comma-separated, dot decimals, CRLF), one row per direction/CFOP/CST/rate. */
export function summaryCsv(s: BookSummary): string {
  const head = ['direction', 'cfop', 'cst', 'rate', 'documents', ...FIGURES];
  const lines = [head.join(',')];
  for (const r of [...s.entries, ...s.exits])
    lines.push(
      [
        r.direction === 'IN' ? 'ENTRADA' : 'SAIDA',
        r.cfop,
        r.cst,
        r.rate.toFixed(2),
        String(r.documents),
        ...FIGURES.map((f) => r.figures[f].toFixed(2)),
      ]
        .map(csvCell)
        .join(','),
    );
  return lines.join('\r\n') + '\r\n';
}
