import { Dec } from '../../../core/decimal';

/*
 * Fixed-width CNAB records: a writer that lays fields one after another and checks each lands at the
 * position the layout says (so a layout typo fails at once, not at the bank), and a reader that
 * names the line and field of what it cannot read.
 */

/** Numeric field: digits right-aligned, zero-filled. */
export const num = (value: string | number, length: number): string => {
  const s = String(value);
  if (!/^\d*$/.test(s)) throw new Error(`not numeric: ${s}`);
  if (s.length > length) throw new Error(`${s} does not fit ${length} positions`);
  return s.padStart(length, '0');
};

/** Alphanumeric field: upper case without accents, left-aligned, blank-filled, cut at the length. */
export const alpha = (value: string | null | undefined, length: number): string =>
  (value ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .toUpperCase()
    .slice(0, length)
    .padEnd(length, ' ');

/** Money: cents, zero-filled (the layouts' "V99"). */
export const money = (value: Dec, length: number): string => num(value.times(100).toFixed(0), length);

/** DDMMAAAA / DDMMAA of an ISO date (zeros when null). */
export const ddmmyyyy = (iso: string | null) => (iso ? iso.slice(8, 10) + iso.slice(5, 7) + iso.slice(0, 4) : '00000000');
export const ddmmyy = (iso: string | null) => (iso ? iso.slice(8, 10) + iso.slice(5, 7) + iso.slice(2, 4) : '000000');

/** Lays out fields given as [first position (1-based), text]: every field must start where the previous ended. */
export function record(width: number, fields: [number, string][]): string {
  let line = '';
  for (const [position, text] of fields) {
    if (line.length + 1 !== position) throw new Error(`layout: field at ${position} follows position ${line.length}`);
    line += text;
  }
  if (line.length !== width) throw new Error(`layout: record of ${line.length} positions, ${width} expected`);
  return line;
}

/** A problem of an uploaded file: the line and field it is in. */
export interface FileProblem {
  line: number;
  field: string;
  message: string;
}

export class CnabParseError extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map((p) => `line ${p.line}, ${p.field}: ${p.message}`).join('; '));
  }
}

/** Reads fields of one line by position, collecting what is malformed. */
export class LineReader {
  constructor(
    readonly text: string,
    readonly line: number,
    private readonly problems: FileProblem[],
  ) {}

  str(from: number, to: number): string {
    return this.text.slice(from - 1, to);
  }

  digits(from: number, to: number, field: string): string {
    const s = this.str(from, to);
    if (!/^\d+$/.test(s))
      this.problems.push({ line: this.line, field: `${field} (${from}-${to})`, message: `expected digits, found "${s}"` });
    return s;
  }

  money(from: number, to: number, field: string): Dec {
    const s = this.digits(from, to, field);
    return /^\d+$/.test(s) ? new Dec(s).div(100) : new Dec(0);
  }

  /** DDMMAAAA (or DDMMAA) → ISO; null for zeros. */
  date(from: number, to: number, field: string, optional = false): string | null {
    const s = this.digits(from, to, field);
    if (/^0+$/.test(s) && optional) return null;
    const iso =
      s.length === 8 ? `${s.slice(4, 8)}-${s.slice(2, 4)}-${s.slice(0, 2)}` : `20${s.slice(4, 6)}-${s.slice(2, 4)}-${s.slice(0, 2)}`;
    const d = new Date(`${iso}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) {
      this.problems.push({ line: this.line, field: `${field} (${from}-${to})`, message: `not a date: "${s}"` });
      return null;
    }
    return iso;
  }

  expect(from: number, to: number, field: string, value: string): void {
    const s = this.str(from, to);
    if (s !== value)
      this.problems.push({ line: this.line, field: `${field} (${from}-${to})`, message: `expected "${value}", found "${s}"` });
  }
}

/** Splits a file into records (CRLF or LF), checking every record's width. */
export function linesOf(content: string, width: number, problems: FileProblem[]): string[] {
  const lines = content.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  lines.forEach((l, i) => {
    if (l.length !== width)
      problems.push({ line: i + 1, field: 'record', message: `${l.length} positions, a CNAB ${width} record has ${width}` });
  });
  return lines;
}
