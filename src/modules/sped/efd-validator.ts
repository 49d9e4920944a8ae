import { Dec } from '../../core/decimal';
import type { SpedFinding } from './entities/sped-file.entity';
import { BLOCK_ORDER, FieldFormat, LAYOUT } from './layout';

/*
 * The service's own check of an EFD file before release, over the rendered text (not the builder's
 * numbers): structure (known register, field count, every field's format, required fields, block order,
 * x001/x990, 9900/9990/9999 counts), references (COD_PART → 0150, COD_ITEM → 0200, UNID → 0190,
 * a C170 unit other than the item's → its 0220, COD_NAT → 0400, COD_OBS → 0460, COD_INF → 0450) and
 * arithmetic (C190 vs C100, E110 vs C190/D190 and its own identity, E116 vs E110, H010 vs H005),
 * the rules OCA's validator and the PVA refusals (#4874, #4886, #4887) name.
 */

const FORMAT: Record<FieldFormat, RegExp> = {
  C: /^[^|\r\n]*$/,
  N: /^\d*$/,
  D: /^(|(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])\d{4})$/,
  V2: /^(|-?\d+(,\d{1,2})?)$/,
  V3: /^(|-?\d+(,\d{1,3})?)$/,
  V4: /^(|-?\d+(,\d{1,4})?)$/,
  V6: /^(|-?\d+(,\d{1,6})?)$/,
};

const num = (s: string | undefined) => new Dec((s ?? '').replace(',', '.') || '0');

export interface ParsedLine {
  line: number;
  reg: string;
  fields: string[];
}

export function parseEfd(text: string): { lines: ParsedLine[]; problems: SpedFinding[] } {
  const problems: SpedFinding[] = [];
  if (!text.endsWith('\r\n')) problems.push({ severity: 'BLOCKING', code: 'LINE_ENDING', message: 'The file does not end with CRLF' });
  const raw = text.split('\r\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const lines = raw.map((l, i) => {
    if (l.includes('\n') || l.includes('\r'))
      problems.push({ severity: 'BLOCKING', code: 'LINE_ENDING', message: 'A bare LF or CR inside a line', line: i + 1 });
    if (!l.startsWith('|') || !l.endsWith('|'))
      problems.push({ severity: 'BLOCKING', code: 'LINE_DELIMITER', message: 'A line must start and end with "|"', line: i + 1 });
    const fields = l.slice(1, -1).split('|');
    return { line: i + 1, reg: fields[0], fields };
  });
  return { lines, problems };
}

export function validateEfd(text: string): SpedFinding[] {
  const { lines, problems } = parseEfd(text);
  const out: SpedFinding[] = [...problems];
  const report: Report = {
    block: (msg, code, l) => out.push({ severity: 'BLOCKING', code, message: msg, ...(l ? { register: l.reg, line: l.line } : {}) }),
    warn: (msg, code, l) => out.push({ severity: 'WARNING', code, message: msg, ...(l ? { register: l.reg, line: l.line } : {}) }),
  };
  checkFields(lines, report);
  checkBlocks(lines, report);
  checkRegisterCounts(lines, report);
  checkReferences(lines, report);
  checkC190AgainstC100(lines, report);
  checkE110(lines, report);
  checkH005(lines, report);
  return out;
}

/** Where the checks write their findings: blocking (the PVA refuses the file) or a warning. */
interface Report {
  block: (msg: string, code: string, l?: ParsedLine) => void;
  warn: (msg: string, code: string, l?: ParsedLine) => void;
}

/** Structure: every register in the layout, with its field count, formats and required fields. */
function checkFields(lines: ParsedLine[], { block }: Report) {
  for (const l of lines) {
    const layout = LAYOUT[l.reg];
    if (!layout) {
      block(`Register ${l.reg} is not in the layout`, 'UNKNOWN_REGISTER', l);
      continue;
    }
    if (l.fields.length !== layout.length) {
      block(`${l.reg} has ${l.fields.length} fields; the layout has ${layout.length}`, 'FIELD_COUNT', l);
      continue;
    }
    layout.forEach((f, i) => {
      const v = l.fields[i];
      if (!FORMAT[f.format].test(v)) block(`${l.reg}.${f.name} "${v}" is not a valid ${f.format}`, 'FIELD_FORMAT', l);
      if (f.required && v === '') block(`${l.reg}.${f.name} is required`, 'FIELD_REQUIRED', l);
    });
  }
}

/** Structure: 0000 first and 9999 last, the blocks in order, each with its x001/x990 and its line count. */
function checkBlocks(lines: ParsedLine[], { block }: Report) {
  if (lines[0]?.reg !== '0000') block('The file must open with 0000', 'FILE_OPENING');
  if (lines[lines.length - 1]?.reg !== '9999') block('The file must close with 9999', 'FILE_CLOSING');
  let lastBlock = 0;
  for (const l of lines) {
    const b = BLOCK_ORDER.indexOf(l.reg === '0000' ? '0' : l.reg[0]);
    if (b < lastBlock) block(`${l.reg} is out of block order`, 'BLOCK_ORDER', l);
    lastBlock = Math.max(lastBlock, b);
  }
  for (const b of BLOCK_ORDER) {
    const inBlock = lines.filter((l) => l.reg[0] === b && l.reg !== '0000');
    const closing = lines.find((l) => l.reg === `${b}990`);
    const opening = lines.find((l) => l.reg === `${b}001`);
    if (!opening || !closing) {
      block(`Block ${b} needs ${b}001 and ${b}990`, 'BLOCK_PAIR');
      continue;
    }
    const expected = inBlock.length + (b === '0' ? 1 : 0);
    if (Number(closing.fields[1]) !== expected)
      block(`${b}990 says ${closing.fields[1]} lines; the block has ${expected}`, 'BLOCK_COUNT', closing);
    if (opening.fields[1] === '1' && inBlock.length > 2)
      block(`${b}001 says no data (IND_MOV 1) but the block has registers`, 'BLOCK_IND_MOV', opening);
    if (opening.fields[1] === '0' && inBlock.length === 2 && b !== '9')
      block(`${b}001 says data (IND_MOV 0) but the block has none`, 'BLOCK_IND_MOV', opening);
  }
}

/** Structure: the 9900 counts, 9990 and 9999, the registers the file cannot go without, COD_VER. */
function checkRegisterCounts(lines: ParsedLine[], { block }: Report) {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l.reg, (counts.get(l.reg) ?? 0) + 1);
  const declared = new Map<string, number>();
  for (const l of lines.filter((x) => x.reg === '9900')) {
    if (declared.has(l.fields[1])) block(`9900 lists ${l.fields[1]} twice`, 'REGISTER_COUNT', l);
    declared.set(l.fields[1], Number(l.fields[2]));
  }
  for (const [reg, n] of counts) {
    if (!declared.has(reg)) block(`${reg} has no 9900 line`, 'REGISTER_COUNT');
    else if (declared.get(reg) !== n) block(`9900 says ${declared.get(reg)} ${reg}; the file has ${n}`, 'REGISTER_COUNT');
  }
  for (const reg of declared.keys()) if (!counts.has(reg)) block(`9900 lists ${reg}, absent from the file`, 'REGISTER_COUNT');
  const l9990 = lines.find((l) => l.reg === '9990');
  if (l9990 && Number(l9990.fields[1]) !== lines.filter((l) => l.reg[0] === '9').length)
    block('9990 does not count block 9', 'BLOCK_COUNT', l9990);
  const l9999 = lines.find((l) => l.reg === '9999');
  if (l9999 && Number(l9999.fields[1]) !== lines.length)
    block(`9999 says ${l9999.fields[1]} lines; the file has ${lines.length}`, 'FILE_COUNT', l9999);
  if (!counts.has('0100')) block('0100 (the accountant) is required: give accountant in the request', 'ACCOUNTANT_MISSING');
  if (!counts.has('1010')) block('1010 is required', 'REGISTER_1010');
  const head = lines[0];
  if (head?.reg === '0000' && head.fields.length === LAYOUT['0000'].length && !/^\d{3}$/.test(head.fields[1]))
    block('COD_VER must have three digits', 'COD_VER', head);
}

/** References: every code a register uses declared in block 0 (0150, 0190, 0200, 0220, 0400, 0450, 0460). */
function checkReferences(lines: ParsedLine[], { block, warn }: Report) {
  const set = (reg: string, i: number) => new Set(lines.filter((l) => l.reg === reg).map((l) => l.fields[i]));
  const parts = set('0150', 1);
  const itemsUnit = new Map(lines.filter((l) => l.reg === '0200').map((l) => [l.fields[1], l.fields[5]]));
  const unitsDeclared = set('0190', 1);
  const natures = set('0400', 1);
  const obs = set('0460', 1);
  const infs = set('0450', 1);
  const conversions = new Set<string>();
  let currentItem = '';
  for (const l of lines) {
    if (l.reg === '0200') currentItem = l.fields[1];
    if (l.reg === '0220') conversions.add(`${currentItem}|${l.fields[1]}`);
  }
  for (const l of lines) {
    if ((l.reg === 'C100' || l.reg === 'D100') && l.fields[3] && !parts.has(l.fields[3]))
      block(`${l.reg} uses participant ${l.fields[3]}, not in 0150`, 'REFERENCE_0150', l);
    if (l.reg === 'C170' || l.reg === 'H010') {
      const code = l.fields[l.reg === 'C170' ? 2 : 1];
      const unit = l.fields[l.reg === 'C170' ? 5 : 2];
      if (!itemsUnit.has(code))
        block(`${l.reg} uses item ${code}: informar o código no registro 0200 antes de utilizá-lo`, 'REFERENCE_0200', l);
      if (unit && !unitsDeclared.has(unit)) block(`${l.reg} uses unit ${unit}, not in 0190`, 'REFERENCE_0190', l);
      if (l.reg === 'C170' && itemsUnit.has(code) && unit && unit !== itemsUnit.get(code) && !conversions.has(`${code}|${unit}`))
        block(`C170 unit ${unit} differs from item ${code}'s ${itemsUnit.get(code)} without a 0220`, 'REFERENCE_0220', l);
      if (l.reg === 'C170' && l.fields[11] && !natures.has(l.fields[11]))
        block(`C170 uses nature ${l.fields[11]}, not in 0400`, 'REFERENCE_0400', l);
    }
    if (l.reg === '0200' && !unitsDeclared.has(l.fields[5])) block(`0200 unit ${l.fields[5]} is not in 0190`, 'REFERENCE_0190', l);
    if (
      (l.reg === 'C190' || l.reg === 'D190' || l.reg === 'C195') &&
      l.fields[l.reg === 'C195' ? 1 : l.reg === 'C190' ? 11 : 8] &&
      !obs.has(l.fields[l.reg === 'C195' ? 1 : l.reg === 'C190' ? 11 : 8])
    )
      block(`${l.reg} uses an observation not in 0460`, 'REFERENCE_0460', l);
    if (l.reg === 'D100' && l.fields[21] && !infs.has(l.fields[21])) block('D100 uses a COD_INF not in 0450', 'REFERENCE_0450', l);
    if (l.reg === '0150' && l.fields[3] === '01058' && !l.fields[7])
      warn(`Participant ${l.fields[1]} has no municipality code (COD_MUN): the PVA asks for it`, 'PARTICIPANT_CITY_MISSING', l);
    if (l.reg === 'H010' && !l.fields[9])
      warn(`H010 of ${l.fields[1]} has no COD_CTA (the accounting account of the inventory)`, 'INVENTORY_ACCOUNT_MISSING', l);
  }
}

/** Arithmetic: each regular C100's ICMS, base and value against the sum of its C190. */
function checkC190AgainstC100(lines: ParsedLine[], { block, warn }: Report) {
  let doc: ParsedLine | null = null;
  let children: ParsedLine[] = [];
  const closeDoc = () => {
    if (!doc || doc.fields[5] !== '00') return;
    const c190 = children.filter((c) => c.reg === 'C190');
    const sumOf = (i: number) => c190.reduce((a, c) => a.plus(num(c.fields[i])), new Dec(0));
    if (!sumOf(6).eq(num(doc.fields[21])))
      block(`C100 ${doc.fields[7]}: VL_ICMS ${doc.fields[21]} ≠ Σ C190 ${sumOf(6).toFixed(2)}`, 'C190_VS_C100', doc);
    if (!sumOf(5).eq(num(doc.fields[20]))) block(`C100 ${doc.fields[7]}: VL_BC_ICMS ≠ Σ C190`, 'C190_VS_C100', doc);
    if (!sumOf(4).eq(num(doc.fields[11])))
      warn(`C100 ${doc.fields[7]}: VL_DOC ${doc.fields[11]} ≠ Σ C190 VL_OPR ${sumOf(4).toFixed(2)}`, 'C190_VS_C100', doc);
    if (!c190.length) block(`C100 ${doc.fields[7]} has no C190`, 'C190_MISSING', doc);
  };
  for (const l of lines) {
    if (l.reg === 'C100' || l.reg === 'C990') {
      closeDoc();
      doc = l.reg === 'C100' ? l : null;
      children = [];
    } else if (doc) children.push(l);
  }
}

/** Arithmetic: E110 against the C190/D190 of exits and entries, its own identity, E116 against it. */
function checkE110(lines: ParsedLine[], { block }: Report) {
  const exitsIcms = lines
    .filter((l) => (l.reg === 'C190' || l.reg === 'D190') && /^[567]/.test(l.fields[2]))
    .reduce((a, l) => a.plus(num(l.fields[6])), new Dec(0));
  const entriesIcms = lines
    .filter((l) => (l.reg === 'C190' || l.reg === 'D190') && /^[123]/.test(l.fields[2]))
    .reduce((a, l) => a.plus(num(l.fields[6])), new Dec(0));
  const e110 = lines.find((l) => l.reg === 'E110');
  if (!e110) block('E110 is required', 'E110_MISSING');
  else if (e110.fields.length === LAYOUT.E110.length) {
    const v = e110.fields.map((x, i) => (i === 0 ? new Dec(0) : num(x)));
    if (!v[1].eq(exitsIcms))
      block(`E110 VL_TOT_DEBITOS ${e110.fields[1]} ≠ Σ C190/D190 VL_ICMS of exits ${exitsIcms.toFixed(2)}`, 'E110_VS_C190', e110);
    if (!v[5].eq(entriesIcms))
      block(`E110 VL_TOT_CREDITOS ${e110.fields[5]} ≠ Σ C190/D190 VL_ICMS of entries ${entriesIcms.toFixed(2)}`, 'E110_VS_C190', e110);
    const saldo = v[1].plus(v[2]).plus(v[3]).plus(v[4]).minus(v[5].plus(v[6]).plus(v[7]).plus(v[8]).plus(v[9]));
    if (!v[10].eq(Dec.max(saldo, 0))) block('E110 VL_SLD_APURADO does not follow from its fields', 'E110_IDENTITY', e110);
    if (!v[12].eq(Dec.max(v[10].minus(v[11]), 0))) block('E110 VL_ICMS_RECOLHER ≠ VL_SLD_APURADO − VL_TOT_DED', 'E110_IDENTITY', e110);
    if (saldo.lt(0) && !v[13].eq(saldo.negated())) block('E110 VL_SLD_CREDOR_TRANSPORTAR ≠ the credit balance', 'E110_IDENTITY', e110);
    const e116 = lines.filter((l) => l.reg === 'E116').reduce((a, l) => a.plus(num(l.fields[2])), new Dec(0));
    if (!e116.eq(v[12].plus(v[14])))
      block(`Σ E116 VL_OR ${e116.toFixed(2)} ≠ E110 VL_ICMS_RECOLHER + DEB_ESP ${v[12].plus(v[14]).toFixed(2)}`, 'E116_VS_E110', e110);
  }
}

/** Arithmetic: each H005's value against the sum of its H010. */
function checkH005(lines: ParsedLine[], { block }: Report) {
  const h005 = lines.filter((l) => l.reg === 'H005');
  for (const h of h005) {
    const after = lines.slice(h.line).filter((l) => l.reg !== 'H005');
    const end = after.findIndex((l) => l.reg !== 'H010' && l.reg !== 'H020');
    const h010 = (end < 0 ? after : after.slice(0, end)).filter((l) => l.reg === 'H010');
    const total = h010.reduce((a, l) => a.plus(num(l.fields[5])), new Dec(0));
    if (!total.eq(num(h.fields[2]))) block(`H005 VL_INV ${h.fields[2]} ≠ Σ H010 VL_ITEM ${total.toFixed(2)}`, 'H005_VS_H010', h);
  }
}
