import { Dec } from '../../core/decimal';
import { ValidationError } from '../../core/errors';

/*
 * The public IBPT table ("De Olho no Imposto", Lei 12.741/2012) as IBPT distributes it: one CSV per UF,
 * ';'-separated, header `codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;
 * vigenciainicio;vigenciafim;chave;versao;fonte`, rates in percent with a '.' (or ',') decimal, dates
 * dd/mm/yyyy. tipo 0 are NCM goods (the rows a sale of goods uses); 1 (NBS) and 2 (LC 116 services) are
 * skipped. Every row carries the table's validity, key, version and source.
 */

export interface IbptRow {
  ncm: string;
  ex: string;
  federalNationalRate: Dec;
  federalImportedRate: Dec;
  stateRate: Dec;
  municipalRate: Dec;
}

export interface IbptTable {
  tableVersion: string;
  tableKey: string;
  source: string;
  validFrom: string;
  validTo: string;
  rows: IbptRow[];
}

const HEADER = [
  'codigo',
  'ex',
  'tipo',
  'descricao',
  'nacionalfederal',
  'importadosfederal',
  'estadual',
  'municipal',
  'vigenciainicio',
  'vigenciafim',
  'chave',
  'versao',
  'fonte',
];

/** One line's fields: ';' separated, a field in double quotes may hold ';' and doubled quotes. */
function fieldsOf(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

const isoOf = (s: string): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s) ?? null;
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : null;
};

const rateOf = (s: string): Dec | null => {
  const t = s.replace(',', '.');
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(t)) return null;
  const d = new Dec(t);
  return d.gt(100) ? null : d;
};

/** Parses the CSV; every problem is a 400 naming the line (`csv:<n>`). One table per file: a second validity, key or version is refused. */
export function parseIbptCsv(csv: string): IbptTable {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = fieldsOf(lines[0] ?? '').map((h) => h.toLowerCase());
  if (HEADER.some((h, i) => header[i] !== h))
    throw new ValidationError('Not an IBPT table', [{ path: 'csv:1', message: `the header must be ${HEADER.join(';')}` }]);
  const problems: { path: string; message: string }[] = [];
  const rows: IbptRow[] = [];
  let table: Omit<IbptTable, 'rows'> | null = null;
  lines.slice(1).forEach((line, i) => {
    if (!line.trim()) return;
    const path = `csv:${i + 2}`;
    const f = fieldsOf(line);
    if (f.length < HEADER.length) return void problems.push({ path, message: `${HEADER.length} fields expected, ${f.length} found` });
    const [codigo, ex, tipo, , nac, imp, est, mun, ini, fim, chave, versao, fonte] = f;
    const validFrom = isoOf(ini);
    const validTo = isoOf(fim);
    if (!validFrom || !validTo || validTo < validFrom) return void problems.push({ path, message: `invalid validity ${ini}–${fim}` });
    const meta = { tableVersion: versao, tableKey: chave, source: fonte || 'IBPT', validFrom, validTo };
    if (!versao || versao.length > 20 || chave.length > 20 || meta.source.length > 60)
      return void problems.push({ path, message: 'versao (≤ 20), chave (≤ 20) and fonte (≤ 60) are required' });
    if (!table) table = meta;
    else if ((Object.keys(meta) as (keyof typeof meta)[]).some((k) => meta[k] !== table![k]))
      return void problems.push({ path, message: 'another validity, key, version or source than the first row: one table per file' });
    if (tipo !== '0') return;
    const rates = [nac, imp, est, mun].map(rateOf);
    if (!/^\d{8}$/.test(codigo)) return void problems.push({ path, message: `NCM ${codigo} must be 8 digits` });
    if (!/^\d{0,3}$/.test(ex)) return void problems.push({ path, message: `ex ${ex} must be up to 3 digits` });
    if (rates.some((r) => r === null)) return void problems.push({ path, message: 'rates must be percentages between 0 and 100' });
    rows.push({
      ncm: codigo,
      ex,
      federalNationalRate: rates[0]!,
      federalImportedRate: rates[1]!,
      stateRate: rates[2]!,
      municipalRate: rates[3]!,
    });
  });
  if (problems.length) throw new ValidationError('Invalid IBPT table', problems.slice(0, 50));
  if (!table || !rows.length) throw new ValidationError('Empty IBPT table', [{ path: 'csv', message: 'no NCM row (tipo 0)' }]);
  return { ...(table as Omit<IbptTable, 'rows'>), rows };
}
