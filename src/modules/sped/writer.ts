import { Dec } from '../../core/decimal';
import { FieldFormat, LAYOUT } from './layout';

/* Rendering of EFD lines: each value formatted by its field's format in the layout, "|" around every field. */

export interface TraceSource {
  ref: string;
  lineNumber: number | null;
}

export interface EfdLine {
  reg: string;
  fields: string[];
  /** Book documents / lines behind the register (documents and analytic registers). */
  sources?: TraceSource[];
  /** File lines behind a derived register (E110 ← the C190/D190 lines it sums). */
  derivedFrom?: number[];
}

export type Value = string | number | Dec | null | undefined;

const DECIMALS: Partial<Record<FieldFormat, number>> = { V2: 2, V3: 3, V4: 4, V6: 6 };

/** Text fields: ISO-8859-1 representable, no "|" and no line break, trimmed, inner spaces collapsed. */
export function cleanText(v: string): string {
  let s = v.normalize('NFC').replace(/[|\r\n\t]+/g, ' ');
  s = [...s]
    .map((ch) =>
      ch.charCodeAt(0) <= 0xff
        ? ch
        : ch
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .replace(/[^\x20-\x7e]/g, '') || '?',
    )
    .join('');
  return s.replace(/\s+/g, ' ').trim();
}

export function formatValue(value: Value, format: FieldFormat): string {
  if (value === null || value === undefined || value === '') return '';
  const places = DECIMALS[format];
  if (places !== undefined) {
    const d = value instanceof Dec ? value : new Dec(value);
    return d.toDecimalPlaces(places, Dec.ROUND_HALF_UP).toFixed(places).replace('.', ',');
  }
  if (format === 'D') {
    const s = String(value);
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
    return m ? `${m[3]}${m[2]}${m[1]}` : s;
  }
  if (format === 'N') return String(value).replace(/\D/g, '');
  return cleanText(String(value));
}

export class EfdWriter {
  readonly lines: EfdLine[] = [];

  /** Appends a register; values follow the layout after REG. Returns its line number (1-based). */
  add(reg: string, values: Value[], trace: { sources?: TraceSource[]; derivedFrom?: number[] } = {}): number {
    const layout = LAYOUT[reg];
    if (!layout) throw new Error(`register ${reg} is not in the layout`);
    if (values.length !== layout.length - 1)
      throw new Error(`register ${reg}: ${values.length + 1} fields given, the layout has ${layout.length}`);
    const fields = [reg, ...values.map((v, i) => formatValue(v, layout[i + 1].format))];
    this.lines.push({
      reg,
      fields,
      ...(trace.sources ? { sources: trace.sources } : {}),
      ...(trace.derivedFrom ? { derivedFrom: trace.derivedFrom } : {}),
    });
    return this.lines.length;
  }

  count(prefix: string): number {
    return this.lines.filter((l) => l.reg.startsWith(prefix)).length;
  }
}

/** The file's text: "|F1|F2|…|" per line, CRLF after every line (the last one too). */
export const renderLines = (lines: EfdLine[]) => lines.map((l) => `|${l.fields.join('|')}|`).join('\r\n') + '\r\n';

/** The bytes filed: ISO-8859-1 (every character was made representable by cleanText). */
export const encodeLatin1 = (text: string) => Buffer.from(text, 'latin1');
