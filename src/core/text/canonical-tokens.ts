/*
 * Canonical description tokens (pure functions, no I/O): measures in one base unit ("2 LT" →
 * "2000ML"), packaging synonyms ("LT" → "LATA"), stopwords dropped. The catalog's product name index
 * stores them so description matching (product map) can look them up; similarity scoring builds on them.
 */

/** Measure units: canonical unit and the power of ten to it (volumes to ML, masses to G). */
const MEASURES: Record<string, { unit: string; shift: number }> = {
  ML: { unit: 'ML', shift: 0 },
  MLS: { unit: 'ML', shift: 0 },
  CL: { unit: 'ML', shift: 1 },
  L: { unit: 'ML', shift: 3 },
  LT: { unit: 'ML', shift: 3 },
  LTS: { unit: 'ML', shift: 3 },
  LITRO: { unit: 'ML', shift: 3 },
  LITROS: { unit: 'ML', shift: 3 },
  G: { unit: 'G', shift: 0 },
  GR: { unit: 'G', shift: 0 },
  GRS: { unit: 'G', shift: 0 },
  GRAMA: { unit: 'G', shift: 0 },
  GRAMAS: { unit: 'G', shift: 0 },
  KG: { unit: 'G', shift: 3 },
  KGS: { unit: 'G', shift: 3 },
  KILO: { unit: 'G', shift: 3 },
  KILOS: { unit: 'G', shift: 3 },
  QUILO: { unit: 'G', shift: 3 },
  MG: { unit: 'MG', shift: 0 },
  M: { unit: 'M', shift: 0 },
  MT: { unit: 'M', shift: 0 },
  MTS: { unit: 'M', shift: 0 },
  METRO: { unit: 'M', shift: 0 },
  METROS: { unit: 'M', shift: 0 },
  CM: { unit: 'CM', shift: 0 },
  MM: { unit: 'MM', shift: 0 },
};

/** Packaging and unit words written many ways (a standalone "LT" is a can; after a number it is litres). */
const SYNONYMS: Record<string, string> = {
  LT: 'LATA',
  LTA: 'LATA',
  LATINHA: 'LATA',
  UND: 'UN',
  UNID: 'UN',
  UNIDADE: 'UN',
  UNIDADES: 'UN',
  UNI: 'UN',
  UNS: 'UN',
  CXA: 'CX',
  CAIXA: 'CX',
  CAIXAS: 'CX',
  PACOTE: 'PCT',
  PACOTES: 'PCT',
  PAC: 'PCT',
  GF: 'GARRAFA',
  GFA: 'GARRAFA',
  GARRAFAS: 'GARRAFA',
  FD: 'FARDO',
  FDO: 'FARDO',
  FARDOS: 'FARDO',
  DUZIA: 'DZ',
  DUZIAS: 'DZ',
  SC: 'SACO',
  SACOS: 'SACO',
  FR: 'FRASCO',
  FRS: 'FRASCO',
  FRASCOS: 'FRASCO',
  PT: 'POTE',
  POTES: 'POTE',
  PCTE: 'PCT',
  // "C/GAS" and "S/GAS" differ in one letter and mean opposite things
  C: 'COM',
  S: 'SEM',
};

/** Words that carry no meaning for matching. */
const STOPWORDS = new Set(['DE', 'DA', 'DO', 'DAS', 'DOS', 'E', 'PARA', 'EM', 'NA', 'NO', 'P', 'X', 'A', 'O']);

const NUMBER = /^\d+(\.\d+)?$/;

/** "1.5" shifted 3 places → "1500": exact decimal-point arithmetic on the digits (no floats). */
function shiftDecimal(value: string, places: number): string {
  const [int, frac = ''] = value.split('.');
  const digits = int + frac.padEnd(places, '0');
  const point = int.length + places;
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(point).replace(/0+$/, '');
  return rest ? `${whole}P${rest}` : whole;
}

function canonicalMeasure(value: string, unit: string): string {
  const m = MEASURES[unit];
  return `${shiftDecimal(value, m.shift)}${m.unit}`;
}

/**
 * Upper case, accents and punctuation removed, decimal commas kept inside numbers ("1,5L"), numbers
 * split from letters ("350ML" → "350 ML"); the raw words every other step starts from.
 */
export function splitWords(text: string): string[] {
  // One pass over the characters (this runs for every candidate name, so no regex chain).
  const src = text.normalize('NFD');
  const words: string[] = [];
  let word = '';
  let kind = 0; // 0 none, 1 letters, 2 digits
  const flush = () => {
    if (word) words.push(word);
    word = '';
    kind = 0;
  };
  for (let i = 0; i < src.length; i++) {
    let c = src.charCodeAt(i);
    if (c >= 0x300 && c <= 0x36f) continue; // combining accent
    if (c >= 97 && c <= 122) c -= 32;
    if (c >= 65 && c <= 90) {
      if (kind === 2) flush();
      word += String.fromCharCode(c);
      kind = 1;
    } else if (c >= 48 && c <= 57) {
      if (kind === 1) flush();
      word += String.fromCharCode(c);
      kind = 2;
    } else if ((c === 44 || c === 46) && kind === 2 && i + 1 < src.length && src.charCodeAt(i + 1) >= 48 && src.charCodeAt(i + 1) <= 57) {
      word += '.'; // decimal comma or point inside a number ("1,5L")
    } else {
      flush();
    }
  }
  flush();
  return words;
}

/** Canonical tokens of a description, in order, without repeats. */
export function similarityTokens(text: string): string[] {
  const words = splitWords(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (NUMBER.test(w) && next && MEASURES[next]) {
      out.push(canonicalMeasure(w, next));
      i++;
      continue;
    }
    const word = SYNONYMS[w] ?? w;
    if (STOPWORDS.has(word)) continue;
    out.push(word.replace('.', 'P'));
  }
  return [...new Set(out)];
}
