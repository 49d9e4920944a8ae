import { Dec, round, sum } from '../../core/decimal';
import type { Product } from '../catalog';
import type { BookDocument, BookLine, BookParticipant, FiscalBook } from '../fiscal-books';
import type { InventorySnapshot } from '../inventory-counts';
import type { Company, Filial } from '../tenancy';
import { BLOCK_ORDER } from './layout';
import { EfdLine, EfdWriter, TraceSource } from './writer';

/*
 * The EFD ICMS/IPI of a filial's month, written from the fiscal book (the Livros' query layer) per the
 * Guia Prático: block 0 (only the participants, units, items and natures the file uses), C (C100 per NF-e
 * and NFC-e, C101 DIFAL, C170 for third parties' documents, C190 per CST/CFOP/rate), D (D100/D190 per
 * CT-e taken), E (E110 from the C190/D190 of the file, E116; E200/E210 per UF with ST; E300/E310/E316
 * per UF with DIFAL/FCP), H (the closed stock count given), 1 (1010), 9.
 */

export interface Accountant {
  name: string;
  cpf: string;
  crc: string;
  cnpj?: string | null;
  postalCode?: string | null;
  street?: string | null;
  number?: string | null;
  complement?: string | null;
  district?: string | null;
  phone?: string | null;
  email?: string | null;
  municipalityCode?: string | null;
}

export interface EfdInput {
  book: FiscalBook;
  company: Company;
  filial: Filial;
  layoutVersion: string;
  finalidade: string;
  perfil: string;
  accountant: Accountant | null;
  products: Map<number, Product>;
  inventory: InventorySnapshot | null;
  /** VL_SLD_CREDOR_ANT: the credit the previous month's file carried over. */
  previousCredit: Dec;
  /** E116 COD_REC: the UF's revenue code of the ICMS of own operations. */
  revenueCode: string;
}

const ZERO = new Dec(0);
const a2 = (v: Dec) => round(v, 'amount');
const tot = <T>(xs: T[], pick: (x: T) => Dec) => a2(sum(xs.map(pick)));

/** Unit descriptions of 0190 (the code itself for units not listed). */
const UNIT_NAMES: Record<string, string> = {
  UN: 'Unidade',
  UND: 'Unidade',
  PC: 'Peca',
  PCT: 'Pacote',
  CX: 'Caixa',
  FD: 'Fardo',
  DZ: 'Duzia',
  KG: 'Quilograma',
  G: 'Grama',
  LT: 'Litro',
  L: 'Litro',
  ML: 'Mililitro',
  M: 'Metro',
  M2: 'Metro quadrado',
  M3: 'Metro cubico',
  GF: 'Garrafa',
  LATA: 'Lata',
  SC: 'Saco',
  PAR: 'Par',
  KIT: 'Kit',
  TON: 'Tonelada',
};

const onlyDigits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '');

/** The CST of PIS/COFINS on an entry (Tabela 4.3.4): 50 with credit, 70 without. */
const entryContributionCst = (credit: Dec) => (credit.gt(0) ? '50' : '70');
/** CST_IPI of an entry (Tabela 4.3.2): a retailer takes no IPI credit, 49 (other entries). */
const entryIpiCst = () => '49';

interface Group {
  cst: string;
  cfop: string;
  rate: Dec;
  lines: BookLine[];
}

function groupLines(lines: BookLine[]): Group[] {
  const map = new Map<string, Group>();
  for (const l of lines) {
    const key = `${l.cstIcms}|${l.cfop}|${l.icmsRate.toFixed(2)}`;
    let g = map.get(key);
    if (!g) map.set(key, (g = { cst: l.cstIcms, cfop: l.cfop, rate: l.icmsRate, lines: [] }));
    g.lines.push(l);
  }
  return [...map.values()].sort((a, b) => (a.cst + a.cfop + a.rate.toFixed(2)).localeCompare(b.cst + b.cfop + b.rate.toFixed(2)));
}

const isExitCfop = (cfop: string) => /^[567]/.test(cfop);
const isEntryCfop = (cfop: string) => /^[123]/.test(cfop);

export interface BuiltEfd {
  lines: EfdLine[];
}

export function buildEfd(input: EfdInput): BuiltEfd {
  const docs = sortedDocuments(input.book);
  const goods = docs.filter((d) => d.kind !== 'CTE');
  const ctes = docs.filter((d) => d.kind === 'CTE');
  const decl = collectDeclarations(input, docs, goods);
  const w = new EfdWriter();
  writeBlock0(w, input, decl);
  writeUnusedBlock(w, 'B'); // DF only
  const c = writeBlockC(w, input, decl, goods);
  const d190Lines = writeBlockD(w, ctes);
  writeBlockE(w, input, c, d190Lines);
  writeUnusedBlock(w, 'G'); // no CIAP kept
  writeBlockH(w, input.inventory);
  writeUnusedBlock(w, 'K'); // retail: no stock bookkeeping required
  writeBlock1(w);
  writeBlock9(w);
  return { lines: w.lines };
}

const regular = (d: BookDocument) => d.situation === '00';
/** C170 for third parties' documents only (own NF-e and NFC-e carry none: Guia Prático, C170 exceptions). */
const withItems = (d: BookDocument) => regular(d) && !d.ownIssue && d.model === '55';

function sortedDocuments(book: FiscalBook): BookDocument[] {
  return [...book.documents].sort((a, b) =>
    (a.direction + a.model + a.series.padStart(3, '0') + a.number.padStart(9, '0')).localeCompare(
      b.direction + b.model + b.series.padStart(3, '0') + b.number.padStart(9, '0'),
    ),
  );
}

interface DeclaredItem {
  code: string;
  description: string;
  unit: string;
  gtin: string | null;
  ncm: string | null;
  cest: string | null;
  conversions: Map<string, Dec>;
}

/** What block 0 must declare: the participants, items, units and natures blocks C, D and H use. */
interface Declarations {
  participants: Map<string, BookParticipant>;
  items: Map<string, DeclaredItem>;
  natures: Map<string, string>;
  units: Set<string>;
  itemOf: (l: { productId: number | null; itemCode: string; description: string; unit: string }) => DeclaredItem;
  natureCode: (text: string | null) => string | null;
}

function collectDeclarations(input: EfdInput, docs: BookDocument[], goods: BookDocument[]): Declarations {
  const participants = new Map<string, BookParticipant>();
  for (const d of docs) if (d.participant && regular(d) && !(d.model === '65')) participants.set(d.participant.code, d.participant);
  const items = new Map<string, DeclaredItem>();
  const itemOf: Declarations['itemOf'] = (l) => {
    const p = l.productId ? input.products.get(l.productId) : undefined;
    const code = p?.code ?? l.itemCode;
    let it = items.get(code);
    if (!it)
      items.set(
        code,
        (it = {
          code,
          description: p?.name ?? l.description,
          unit: (p?.unit ?? l.unit).toUpperCase(),
          gtin: p?.gtin ?? null,
          ncm: p?.ncm ?? null,
          cest: p?.cest ?? null,
          conversions: new Map(),
        }),
      );
    return it;
  };
  const natures = new Map<string, string>();
  const natureCode: Declarations['natureCode'] = (text) => {
    if (!text) return null;
    const key = text.trim().toUpperCase().slice(0, 60);
    if (!natures.has(key)) natures.set(key, String(natures.size + 1).padStart(2, '0'));
    return natures.get(key)!;
  };
  for (const d of goods.filter(withItems)) {
    natureCode(d.operationNature);
    for (const l of d.lines) {
      const it = itemOf(l);
      const unit = l.unit.toUpperCase();
      if (unit !== it.unit && l.conversionFactor && !it.conversions.has(unit)) it.conversions.set(unit, l.conversionFactor);
    }
  }
  for (const i of input.inventory?.items ?? []) itemOf({ productId: i.productId, itemCode: i.code, description: i.code, unit: i.unit });
  const units = new Set<string>();
  for (const it of items.values()) {
    units.add(it.unit);
    for (const u of it.conversions.keys()) units.add(u);
  }
  return { participants, items, natures, units, itemOf, natureCode };
}

/** A block the file declares without data: its opening (indicator 1) and its closing of two lines. */
function writeUnusedBlock(w: EfdWriter, block: string) {
  w.add(`${block}001`, ['1']);
  w.add(`${block}990`, [2]);
}

function writeBlock0(w: EfdWriter, input: EfdInput, decl: Declarations) {
  const { book, filial, company } = input;
  w.add('0000', [
    input.layoutVersion,
    input.finalidade,
    book.firstDay,
    book.lastDay,
    company.name,
    onlyDigits(filial.cnpj),
    null,
    filial.uf,
    onlyDigits(filial.stateRegistration),
    filial.municipalityCode,
    null,
    null,
    input.perfil,
    filial.industrial ? '0' : '1',
  ]);
  w.add('0001', ['0']);
  const phone = onlyDigits(filial.phone);
  w.add('0005', [
    filial.tradeName ?? filial.name,
    onlyDigits(filial.postalCode),
    filial.addressStreet,
    filial.addressNumber,
    filial.addressComplement,
    filial.addressDistrict,
    phone.length >= 10 && phone.length <= 11 ? phone : null,
    null,
    null,
  ]);
  if (input.accountant) writeAccountant(w, input.accountant);
  for (const p of [...decl.participants.values()].sort((a, b) => a.code.localeCompare(b.code))) {
    w.add('0150', [
      p.code,
      p.name,
      '01058',
      p.cnpj,
      p.cpf,
      onlyDigits(p.stateRegistration) || null,
      p.cityCode,
      null,
      p.street,
      p.number,
      p.complement,
      p.district,
    ]);
  }
  for (const u of [...decl.units].sort()) w.add('0190', [u, UNIT_NAMES[u] ?? u]);
  for (const it of [...decl.items.values()].sort((a, b) => a.code.localeCompare(b.code))) {
    const gtin = it.gtin && /^\d{8,14}$/.test(it.gtin) ? it.gtin : null;
    w.add('0200', [
      it.code,
      it.description,
      gtin,
      null,
      it.unit,
      '00',
      it.ncm,
      null,
      it.ncm ? it.ncm.slice(0, 2) : null,
      null,
      null,
      it.cest,
    ]);
    for (const [u, factor] of [...it.conversions.entries()].sort()) w.add('0220', [u, factor, null]);
  }
  for (const [text, code] of [...decl.natures.entries()].sort((a, b) => a[1].localeCompare(b[1]))) w.add('0400', [code, text]);
  w.add('0990', [w.count('0') + 1]);
}

function writeAccountant(w: EfdWriter, a: Accountant) {
  const aPhone = onlyDigits(a.phone);
  w.add('0100', [
    a.name,
    onlyDigits(a.cpf),
    a.crc,
    onlyDigits(a.cnpj),
    onlyDigits(a.postalCode),
    a.street,
    a.number,
    a.complement,
    a.district,
    aPhone.length >= 10 && aPhone.length <= 11 ? aPhone : null,
    null,
    a.email,
    a.municipalityCode,
  ]);
}

/** What block C leaves for block E: the C190 lines with their direction, DIFAL and ST per UF. */
interface BlockCTotals {
  c190Lines: { line: number; exit: boolean; icms: Dec; cfop: string }[];
  difalByUf: Map<string, { difal: Dec; fcp: Dec; lines: number[] }>;
  stByUf: Map<string, { retained: Dec; returned: Dec; lines: number[] }>;
}

function writeBlockC(w: EfdWriter, input: EfdInput, decl: Declarations, goods: BookDocument[]): BlockCTotals {
  const { book } = input;
  const cStart = w.lines.length;
  const hasC = goods.length > 0 || book.voided.length > 0;
  w.add('C001', [hasC ? '0' : '1']);
  const totals: BlockCTotals = { c190Lines: [], difalByUf: new Map(), stByUf: new Map() };
  for (const d of goods) {
    if (!regular(d)) {
      writeIrregularC100(w, d);
      continue;
    }
    writeRegularC100(w, d);
    writeC101(w, d, totals);
    if (withItems(d)) writeC170s(w, decl, d);
    writeC190s(w, input.filial, d, totals);
  }
  for (const v of book.voided) {
    w.add(
      'C100',
      [
        '1',
        '0',
        null,
        v.model,
        '05',
        v.series,
        v.number,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ],
      {
        sources: [{ ref: `VOID:${v.model}:${v.series}:${v.number}`, lineNumber: null }],
      },
    );
  }
  w.add('C990', [w.lines.length - cStart + 1]);
  return totals;
}

const c100Oper = (d: BookDocument) => (d.direction === 'IN' ? '0' : '1');
const c100Emit = (d: BookDocument) => (d.ownIssue ? '0' : '1');

/** C100 of a cancelled, denied or voided document: its identification only. */
function writeIrregularC100(w: EfdWriter, d: BookDocument) {
  w.add(
    'C100',
    [
      c100Oper(d),
      c100Emit(d),
      null,
      d.model,
      d.situation,
      d.series,
      d.number,
      d.accessKey,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ],
    { sources: [{ ref: d.ref, lineNumber: null }] },
  );
}

function writeRegularC100(w: EfdWriter, d: BookDocument) {
  const L = d.lines;
  const nfce = d.model === '65';
  w.add(
    'C100',
    [
      c100Oper(d),
      c100Emit(d),
      nfce ? null : d.participant?.code,
      d.model,
      d.situation,
      d.series,
      d.number,
      d.accessKey,
      d.issueDate,
      nfce ? null : d.ioDate,
      d.total,
      d.paymentIndicator,
      d.discount,
      ZERO,
      d.products,
      nfce ? '9' : d.freightMode,
      d.freight,
      d.insurance,
      d.other,
      tot(L, (l) => l.icmsBase),
      tot(L, (l) => l.icms),
      nfce ? null : tot(L, (l) => l.stBase),
      nfce ? null : tot(L, (l) => l.st),
      nfce ? null : tot(L, (l) => l.ipi),
      nfce ? null : tot(L, (l) => l.pis),
      nfce ? null : tot(L, (l) => l.cofins),
      nfce ? null : ZERO,
      nfce ? null : ZERO,
    ],
    { sources: [{ ref: d.ref, lineNumber: null }] },
  );
}

/** C101 of an exit with DIFAL, summed per destination UF for E300. */
function writeC101(w: EfdWriter, d: BookDocument, totals: BlockCTotals) {
  const L = d.lines;
  const difal = tot(L, (l) => l.difal);
  const difalFcp = tot(L, (l) => l.difalFcp);
  const difalOrigin = tot(L, (l) => l.difalOrigin);
  if (d.direction === 'OUT' && (difal.gt(0) || difalFcp.gt(0) || difalOrigin.gt(0))) {
    const line = w.add('C101', [difalFcp, difal, difalOrigin], {
      sources: L.filter((l) => l.difal.gt(0) || l.difalFcp.gt(0)).map((l) => ({ ref: d.ref, lineNumber: l.lineNumber })),
    });
    const uf = d.partnerUf ?? '';
    const acc = totals.difalByUf.get(uf) ?? { difal: ZERO, fcp: ZERO, lines: [] };
    totals.difalByUf.set(uf, { difal: acc.difal.plus(difal), fcp: acc.fcp.plus(difalFcp), lines: [...acc.lines, line] });
  }
}

function writeC170s(w: EfdWriter, decl: Declarations, d: BookDocument) {
  for (const l of d.lines) {
    const it = decl.itemOf(l);
    const hasIpi = l.ipi.gt(0);
    w.add(
      'C170',
      [
        l.lineNumber,
        it.code,
        l.description,
        l.quantity,
        l.unit.toUpperCase(),
        l.gross,
        l.discount,
        '0',
        l.cstIcms,
        l.cfop,
        decl.natureCode(d.operationNature),
        l.icmsBase,
        l.icmsRate,
        l.icms,
        l.stBase,
        l.stRate,
        l.st,
        hasIpi ? '0' : null,
        entryIpiCst(),
        null,
        hasIpi ? l.ipiBase : null,
        hasIpi ? l.ipiRate : null,
        hasIpi ? l.ipi : null,
        entryContributionCst(l.pis),
        l.pis.gt(0) ? l.pisBase : ZERO,
        l.pis.gt(0) ? l.pisRate : ZERO,
        null,
        null,
        l.pis,
        entryContributionCst(l.cofins),
        l.cofins.gt(0) ? l.cofinsBase : ZERO,
        l.cofins.gt(0) ? l.cofinsRate : ZERO,
        null,
        null,
        l.cofins,
        null,
        ZERO,
      ],
      { sources: [{ ref: d.ref, lineNumber: l.lineNumber }] },
    );
  }
}

/** C190 per CST/CFOP/rate; the ST of each summed per UF for E200. */
function writeC190s(w: EfdWriter, filial: Filial, d: BookDocument, totals: BlockCTotals) {
  const nfce = d.model === '65';
  for (const g of groupLines(d.lines)) {
    const icms = tot(g.lines, (l) => l.icms);
    const st = tot(g.lines, (l) => l.st);
    const line = w.add(
      'C190',
      [
        g.cst,
        g.cfop,
        g.rate,
        tot(g.lines, (l) => l.operationValue),
        tot(g.lines, (l) => l.icmsBase),
        icms,
        tot(g.lines, (l) => l.stBase),
        st,
        tot(g.lines, (l) => l.baseReduction),
        tot(g.lines, (l) => l.ipi),
        null,
      ],
      { sources: g.lines.map((l) => ({ ref: d.ref, lineNumber: l.lineNumber })) },
    );
    totals.c190Lines.push({ line, exit: isExitCfop(g.cfop), icms, cfop: g.cfop });
    if (st.gt(0)) {
      const uf = d.direction === 'OUT' ? (nfce ? filial.uf : (d.partnerUf ?? filial.uf)) : (d.partnerUf ?? filial.uf);
      const acc = totals.stByUf.get(uf) ?? { retained: ZERO, returned: ZERO, lines: [] };
      // ST withheld by us on exits; ST of our own returns (entries we issue, CFOP 1.410/2.410) given back.
      if (d.direction === 'OUT') totals.stByUf.set(uf, { ...acc, retained: acc.retained.plus(st), lines: [...acc.lines, line] });
      else if (d.ownIssue) totals.stByUf.set(uf, { ...acc, returned: acc.returned.plus(st), lines: [...acc.lines, line] });
    }
  }
}

type D190Line = { line: number; icms: Dec; cfop: string };

function writeBlockD(w: EfdWriter, ctes: BookDocument[]): D190Line[] {
  const dStart = w.lines.length;
  w.add('D001', [ctes.length ? '0' : '1']);
  const d190Lines: D190Line[] = [];
  for (const c of ctes) {
    const src: TraceSource[] = [{ ref: c.ref, lineNumber: null }];
    if (!regular(c) || !c.freightService) {
      w.add(
        'D100',
        [
          '0',
          '1',
          null,
          '57',
          c.situation,
          c.series,
          null,
          c.number,
          c.accessKey,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
        ],
        {
          sources: src,
        },
      );
      continue;
    }
    const f = c.freightService;
    w.add(
      'D100',
      [
        '0',
        '1',
        c.participant?.code,
        '57',
        '00',
        c.series,
        null,
        c.number,
        c.accessKey,
        c.issueDate,
        c.ioDate,
        f.cteType,
        null,
        c.total,
        ZERO,
        '1',
        f.value,
        f.base,
        f.icms,
        f.untaxed,
        null,
        null,
        f.startCityCode,
        f.endCityCode,
      ],
      { sources: src },
    );
    const line = w.add('D190', [f.cst, f.cfop, f.rate, f.value, f.base, f.icms, ZERO, null], { sources: src });
    d190Lines.push({ line, icms: f.icms, cfop: f.cfop });
  }
  w.add('D990', [w.lines.length - dStart + 1]);
  return d190Lines;
}

/** The due date (the 20th of the next month) and the reference month (MMYYYY) of the period's payments. */
function paymentDates(period: string) {
  const [y, m] = period.split('-').map(Number);
  const nextMonth20 = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-20`;
  const mesRef = `${String(m).padStart(2, '0')}${y}`;
  return { nextMonth20, mesRef };
}

function writeBlockE(w: EfdWriter, input: EfdInput, c: BlockCTotals, d190Lines: D190Line[]) {
  const { book } = input;
  const eStart = w.lines.length;
  w.add('E001', ['0']);
  w.add('E100', [book.firstDay, book.lastDay]);
  const { nextMonth20, mesRef } = paymentDates(book.period);
  writeOwnIcms(w, input, c, d190Lines, { nextMonth20, mesRef });
  writeStPerUf(w, input, c, { nextMonth20, mesRef });
  writeDifalPerUf(w, input, c, mesRef);
  w.add('E990', [w.lines.length - eStart + 1]);
}

/** E110 (the month's own ICMS from the file's C190/D190) and E116 when there is some to pay. */
function writeOwnIcms(
  w: EfdWriter,
  input: EfdInput,
  totals: BlockCTotals,
  d190Lines: D190Line[],
  dates: { nextMonth20: string; mesRef: string },
) {
  const { c190Lines } = totals;
  const debits = tot(
    c190Lines.filter((c) => c.exit),
    (c) => c.icms,
  );
  const credits = a2(
    tot(
      c190Lines.filter((c) => isEntryCfop(c.cfop)),
      (c) => c.icms,
    ).plus(
      tot(
        d190Lines.filter((c) => isEntryCfop(c.cfop)),
        (c) => c.icms,
      ),
    ),
  );
  const balance = debits.minus(credits.plus(input.previousCredit));
  const apurado = Dec.max(balance, 0);
  const toPay = apurado;
  const carry = balance.lt(0) ? balance.negated() : ZERO;
  w.add('E110', [debits, ZERO, ZERO, ZERO, credits, ZERO, ZERO, ZERO, input.previousCredit, apurado, ZERO, toPay, carry, ZERO], {
    derivedFrom: [...c190Lines.map((c) => c.line), ...d190Lines.map((c) => c.line)].sort((a, b) => a - b),
  });
  if (toPay.gt(0)) w.add('E116', ['000', toPay, dates.nextMonth20, input.revenueCode, null, null, null, null, dates.mesRef]);
}

/** E200/E210/E250 per UF with ST. */
function writeStPerUf(w: EfdWriter, input: EfdInput, c: BlockCTotals, dates: { nextMonth20: string; mesRef: string }) {
  const { book, filial } = input;
  for (const [uf, st] of [...c.stByUf.entries()].sort()) {
    w.add('E200', [uf, book.firstDay, book.lastDay]);
    const recol = Dec.max(st.retained.minus(st.returned), 0);
    const credit = Dec.max(st.returned.minus(st.retained), 0);
    w.add('E210', ['1', ZERO, a2(st.returned), ZERO, ZERO, ZERO, a2(st.retained), ZERO, ZERO, ZERO, ZERO, a2(recol), a2(credit), ZERO], {
      derivedFrom: st.lines,
    });
    if (recol.gt(0))
      w.add('E250', [
        uf === filial.uf ? '002' : '999',
        a2(recol),
        dates.nextMonth20,
        input.revenueCode,
        null,
        null,
        null,
        null,
        dates.mesRef,
      ]);
  }
}

/** E300/E310/E316 per destination UF (not the filial's) with DIFAL/FCP. */
function writeDifalPerUf(w: EfdWriter, input: EfdInput, c: BlockCTotals, mesRef: string) {
  const { book, filial } = input;
  for (const [uf, v] of [...c.difalByUf.entries()].sort()) {
    if (!uf || uf === filial.uf) continue;
    w.add('E300', [uf, book.firstDay, book.lastDay]);
    const difal = a2(v.difal);
    const fcp = a2(v.fcp);
    w.add(
      'E310',
      ['1', ZERO, difal, ZERO, ZERO, ZERO, ZERO, ZERO, difal, ZERO, ZERO, ZERO, fcp, ZERO, ZERO, ZERO, ZERO, ZERO, fcp, ZERO, ZERO],
      { derivedFrom: v.lines },
    );
    if (difal.gt(0)) w.add('E316', ['000', difal, book.lastDay, input.revenueCode, null, null, null, null, mesRef]);
    if (fcp.gt(0)) w.add('E316', ['006', fcp, book.lastDay, input.revenueCode, null, null, null, null, mesRef]);
  }
}

function writeBlockH(w: EfdWriter, inv: InventorySnapshot | null) {
  const hStart = w.lines.length;
  w.add('H001', [inv ? '0' : '1']);
  if (inv) {
    w.add('H005', [inv.countDate, inv.totalValue, inv.motive], { sources: [{ ref: `COUNT:${inv.countId}`, lineNumber: null }] });
    for (const i of [...inv.items].sort((a, b) => a.code.localeCompare(b.code))) {
      w.add('H010', [i.code, i.unit.toUpperCase(), i.quantity, i.unitCost, i.value, '0', null, null, null, null], {
        sources: [{ ref: `COUNT:${inv.countId}`, lineNumber: i.productId }],
      });
    }
  }
  w.add('H990', [w.lines.length - hStart + 1]);
}

function writeBlock1(w: EfdWriter) {
  w.add('1001', ['0']);
  w.add('1010', ['N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N', 'N']);
  w.add('1990', [3]);
}

/** 9001, the 9900 lines (one per register, theirs included), 9990 and 9999. */
function writeBlock9(w: EfdWriter) {
  const counts = new Map<string, number>();
  for (const l of w.lines) counts.set(l.reg, (counts.get(l.reg) ?? 0) + 1);
  const registers = [...counts.keys()];
  const all = [...registers, '9001', '9900', '9990', '9999'];
  const ordered = all.sort((a, b) => BLOCK_ORDER.indexOf(a[0]) - BLOCK_ORDER.indexOf(b[0]) || a.localeCompare(b));
  counts.set('9001', 1);
  counts.set('9990', 1);
  counts.set('9999', 1);
  counts.set('9900', ordered.length);
  w.add('9001', ['0']);
  for (const reg of ordered) w.add('9900', [reg, counts.get(reg)]);
  const lines9 = 1 + ordered.length + 2;
  w.add('9990', [lines9]);
  w.add('9999', [w.lines.length + 1]);
}
