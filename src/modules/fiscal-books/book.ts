import { EntityManager, In } from 'typeorm';
import { Dec, dec, round, sum } from '../../core/decimal';
import { NotFoundError } from '../../core/errors';
import { Product } from '../catalog';
import { takenCteOfPeriod } from '../cte';
import { bookedEntriesOfPeriod, EntryDocument, EntryDocumentItem } from '../entry-document';
import { issuedNfeOfPeriod, voidedRangesOfPeriod } from '../outbound-nfe';
import { issuedNfceOfPeriod } from '../nfce';
import { asArray, attrOf, childAt, readXml, textAt } from '../fiscal-xml';
import type { XNode } from '../fiscal-xml';
import { issuersOfKeys } from '../inbound-nfe';
import { readNfe } from '../fiscal-xml';
import type { NfeItem, NfeParty, ParsedNfe } from '../fiscal-xml';
import { Filial } from '../tenancy';
import type { BookDocument, BookLine, BookParticipant, DocumentSituation, FiscalBook, VoidedNumber } from './book.types';
import { fiscalMonth } from './period';

/*
 * The one query layer of the fiscal books: the month's documents of a filial read through their owners'
 * front doors and turned into book documents and lines. Outbound NF-e and NFC-e are read from their XML
 * (what was issued is what is booked); entry documents from their booked lines; CT-e from their XML.
 */

const ZERO = new Dec(0);
const d = (v: Dec | string | number | null | undefined) => (v === null || v === undefined || v === '' ? ZERO : dec(v));
const a2 = (v: Dec) => round(v, 'amount');
/** Rates of the non-cumulative PIS/COFINS credit (Leis 10.637/2002 and 10.833/2003). */
const PIS_CREDIT_RATE = new Dec('1.65');
const COFINS_CREDIT_RATE = new Dec('7.6');

/** CST_ICMS of the EFD: origin + the two digits of Tabela B; a Simples Nacional CSOSN is booked as origin + 90 (decision record). */
export function efdCst(origin: string | number | null | undefined, cst: string | null | undefined, csosn?: string | null): string {
  const o = String(origin ?? '0').slice(0, 1) || '0';
  if (cst && cst.length === 2) return o + cst;
  if (cst && cst.length === 3 && Number(cst) < 100) return cst;
  if (csosn || (cst && cst.length === 3)) return o + '90';
  return o + '90';
}

function participantOfParty(p: NfeParty | null): BookParticipant | null {
  if (!p || !p.document) return null;
  const isCnpj = p.documentKind === 'CNPJ' || p.document.length === 14;
  return {
    code: p.document,
    name: p.name ?? p.document,
    cnpj: isCnpj ? p.document : null,
    cpf: isCnpj ? null : p.document,
    stateRegistration: p.stateRegistration && p.stateRegistration !== 'ISENTO' ? p.stateRegistration : null,
    uf: p.uf ?? p.address?.uf ?? null,
    cityCode: p.address?.cityCode ?? null,
    street: p.address?.street ?? null,
    number: p.address?.number ?? null,
    complement: null,
    district: p.address?.district ?? null,
  };
}

/** ICMSUFDest of each det, by nItem (the NF-e reader keeps only the document totals of it). */
function difalOfItems(tree: Record<string, unknown>): Map<number, { dest: Dec; fcp: Dec; origin: Dec }> {
  const out = new Map<number, { dest: Dec; fcp: Dec; origin: Dec }>();
  const inf = childAt(tree, 'nfeProc', 'NFe', 'infNFe') ?? childAt(tree, 'NFe', 'infNFe');
  for (const det of asArray(inf?.det as XNode | XNode[] | undefined)) {
    const g = childAt(det, 'imposto', 'ICMSUFDest');
    if (!g) continue;
    out.set(Number(attrOf(det, 'nItem')), {
      dest: d(textAt(g, 'vICMSUFDest')),
      fcp: d(textAt(g, 'vFCPUFDest')),
      origin: d(textAt(g, 'vICMSUFRemet')),
    });
  }
  return out;
}

function lineOfNfeItem(item: NfeItem, difal: { dest: Dec; fcp: Dec; origin: Dec } | undefined, productIds: Map<string, number>): BookLine {
  const icms = item.taxes.icms;
  const ipi = item.taxes.ipi;
  const pis = item.taxes.pis;
  const cofins = item.taxes.cofins;
  const cst = efdCst(icms?.origin, icms?.cst, icms?.csosn);
  const base = d(icms?.base);
  const st = d(icms?.stValue);
  const fcpSt = d(icms?.fcpStValue);
  const operationValue = a2(
    item.total
      .minus(item.discount)
      .plus(item.freight)
      .plus(item.insurance)
      .plus(item.otherExpenses)
      .plus(st)
      .plus(fcpSt)
      .plus(d(ipi?.value)),
  );
  const reduced = ['20', '70'].includes(cst.slice(1))
    ? Dec.max(0, item.total.minus(item.discount).plus(item.freight).plus(item.insurance).plus(item.otherExpenses).minus(base))
    : ZERO;
  return {
    lineNumber: item.lineNumber,
    productId: productIds.get(item.code) ?? null,
    itemCode: item.code,
    description: item.description,
    unit: item.unit,
    quantity: item.quantity,
    gross: item.total,
    discount: item.discount,
    freight: item.freight,
    insurance: item.insurance,
    other: item.otherExpenses,
    cfop: item.cfop,
    cstIcms: cst,
    icmsRate: d(icms?.rate),
    icmsBase: base,
    icms: d(icms?.value),
    stBase: d(icms?.stBase),
    stRate: d(icms?.stRate),
    st,
    fcp: d(icms?.fcpValue),
    fcpSt,
    ipiCst: ipi?.cst ?? null,
    ipiBase: d(ipi?.base),
    ipiRate: d(ipi?.rate),
    ipi: d(ipi?.value),
    pisCst: pis?.cst ?? null,
    pisBase: d(pis?.base),
    pisRate: d(pis?.rate),
    pis: d(pis?.value),
    cofinsCst: cofins?.cst ?? null,
    cofinsBase: d(cofins?.base),
    cofinsRate: d(cofins?.rate),
    cofins: d(cofins?.value),
    difal: difal?.dest ?? ZERO,
    difalFcp: difal?.fcp ?? ZERO,
    difalOrigin: difal?.origin ?? ZERO,
    operationValue,
    baseReduction: a2(reduced),
  };
}

const SITUATION: Record<string, DocumentSituation> = { AUTHORIZED: '00', CONTINGENCY: '00', CANCELLED: '02', DENIED: '04' };

function documentOfNfe(
  kind: 'NFE' | 'NFCE',
  id: number,
  status: string,
  parsed: ParsedNfe,
  tree: Record<string, unknown>,
  productIds: Map<string, number>,
): BookDocument {
  const difal = difalOfItems(tree);
  const direction = parsed.ide.operationType === '0' ? 'IN' : 'OUT';
  const day = parsed.ide.issuedAt.slice(0, 10);
  const t = parsed.totals;
  return {
    ref: `${kind}:${id}`,
    kind,
    direction,
    ownIssue: true,
    model: parsed.ide.model,
    series: parsed.ide.series,
    number: parsed.ide.number,
    accessKey: parsed.accessKey,
    situation: SITUATION[status] ?? '00',
    purpose: parsed.ide.purpose ?? '1',
    issueDate: day,
    ioDate: (parsed.ide.exitAt ?? parsed.ide.issuedAt).slice(0, 10),
    participant: kind === 'NFCE' ? null : participantOfParty(parsed.recipient),
    partnerUf: parsed.recipient?.uf ?? parsed.recipient?.address?.uf ?? null,
    operationNature: parsed.ide.operationNature,
    paymentIndicator: parsed.billing?.installments.length ? '1' : '0',
    freightMode: parsed.transport?.freightMode ?? '9',
    total: t.invoice,
    products: t.products,
    discount: t.discount,
    freight: t.freight,
    insurance: t.insurance,
    other: t.otherExpenses,
    lines: parsed.items.map((i) => lineOfNfeItem(i, difal.get(i.lineNumber), productIds)),
    ...(status === 'CONTINGENCY' ? { pendingAuthorization: true } : {}),
  };
}

/** An entry line without its booked CFOP: the supplier's exit CFOP turned into the entry one (5→1, 6→2, 7→3). */
function entryCfopOf(cfop: string | null): string {
  if (!cfop) return '1102';
  const swap: Record<string, string> = { '5': '1', '6': '2', '7': '3' };
  return (swap[cfop[0]] ?? cfop[0]) + cfop.slice(1);
}

function lineOfEntryItem(item: EntryDocumentItem, product: Product | undefined): BookLine {
  const t = item.taxes;
  const credit = d(item.creditIcms);
  const icmsBase = credit.gt(0) ? d(t.icms?.base) : ZERO;
  const st = d(item.icmsSt);
  const ipi = d(item.ipi);
  const cst = efdCst(product?.origin ?? 0, t.icms?.cst ?? null);
  const before = item.total.minus(item.discount).plus(item.freight).plus(item.insurance).plus(item.otherExpenses);
  return {
    lineNumber: item.lineNumber,
    productId: item.productId,
    itemCode: product?.code ?? item.supplierProductCode ?? `L${item.lineNumber}`,
    description: item.declaredDescription ?? item.description,
    unit: item.unit,
    quantity: item.quantity,
    gross: item.total,
    discount: item.discount,
    freight: item.freight,
    insurance: item.insurance,
    other: item.otherExpenses,
    cfop: item.entryCfop ?? entryCfopOf(item.cfop),
    cstIcms: cst,
    icmsRate: credit.gt(0) ? d(t.icms?.rate) : ZERO,
    icmsBase,
    icms: credit,
    stBase: st.gt(0) ? d(t.icmsSt?.base) : ZERO,
    stRate: st.gt(0) ? d(t.icmsSt?.rate) : ZERO,
    st,
    fcp: ZERO,
    fcpSt: ZERO,
    ipiCst: t.ipi?.cst ?? null,
    ipiBase: d(t.ipi?.base),
    ipiRate: d(t.ipi?.rate),
    ipi,
    pisCst: t.pis?.cst ?? null,
    // A credit taken (non-cumulative regime) is on the credit base at the regime's rates (1,65 % / 7,6 %).
    pisBase: d(item.creditPis).gt(0) ? d(item.creditBase) : d(t.pis?.base),
    pisRate: d(item.creditPis).gt(0) ? PIS_CREDIT_RATE : d(t.pis?.rate),
    pis: d(item.creditPis),
    cofinsCst: t.cofins?.cst ?? null,
    cofinsBase: d(item.creditCofins).gt(0) ? d(item.creditBase) : d(t.cofins?.base),
    cofinsRate: d(item.creditCofins).gt(0) ? COFINS_CREDIT_RATE : d(t.cofins?.rate),
    cofins: d(item.creditCofins),
    difal: ZERO,
    difalFcp: ZERO,
    difalOrigin: ZERO,
    operationValue: a2(before.plus(st).plus(ipi)),
    conversionFactor: d(item.conversionFactor),
    baseReduction: ['20', '70'].includes(cst.slice(1)) && icmsBase.gt(0) ? a2(Dec.max(0, before.minus(icmsBase))) : ZERO,
  };
}

function documentOfEntry(
  doc: EntryDocument,
  items: EntryDocumentItem[],
  products: Map<number, Product>,
  issuer: NfeParty | undefined,
): BookDocument {
  const digits = doc.supplierDocument.replace(/\D/g, '');
  const address = issuer?.address ?? null;
  return {
    ref: `ENTRY:${doc.id}`,
    kind: 'ENTRY',
    direction: 'IN',
    ownIssue: false,
    model: doc.model || '55',
    series: doc.series,
    number: doc.number,
    accessKey: doc.accessKey,
    situation: '00',
    purpose: String(doc.purpose ?? '1'),
    issueDate: doc.issueDate,
    ioDate: doc.entryDate,
    participant: {
      code: digits,
      name: doc.supplierName,
      cnpj: digits.length === 14 ? digits : null,
      cpf: digits.length === 11 ? digits : null,
      stateRegistration: doc.supplierStateRegistration,
      uf: doc.supplierUf,
      // The supplier's address as its NF-e gives it (a draft typed by hand has none: the EFD warns).
      cityCode: address?.cityCode ?? null,
      street: address?.street ?? null,
      number: address?.number ?? null,
      complement: null,
      district: address?.district ?? null,
    },
    partnerUf: doc.supplierUf,
    operationNature: doc.operationNature,
    paymentIndicator: '1',
    freightMode: '9',
    total: doc.total,
    products: doc.totalProducts,
    discount: doc.totalDiscount,
    freight: doc.totalFreight,
    insurance: doc.totalInsurance,
    other: doc.totalOtherExpenses,
    lines: items
      .filter((i) => i.reviewStatus !== 'IGNORED' || i.total.gt(0))
      .map((i) => lineOfEntryItem(i, i.productId ? products.get(i.productId) : undefined)),
  };
}

/** Voided ranges → one voided number per number (C100 COD_SIT 05 is one register per number). */
function voidedNumbers(ranges: { model: number; series: number; firstNumber: number; lastNumber: number }[]): VoidedNumber[] {
  const out: VoidedNumber[] = [];
  for (const r of ranges)
    for (let n = r.firstNumber; n <= r.lastNumber; n++) out.push({ model: String(r.model), series: String(r.series), number: String(n) });
  return out;
}

export async function loadFiscalBook(em: EntityManager, companyId: number, filialId: number, period: string): Promise<FiscalBook> {
  const filial = await em.findOneBy(Filial, { id: filialId, companyId });
  if (!filial) throw new NotFoundError('Filial');
  const month = fiscalMonth(period);
  const [nfe, nfce, entries, ctes, voided] = [
    await issuedNfeOfPeriod(em, companyId, filialId, month.from, month.to),
    await issuedNfceOfPeriod(em, companyId, filialId, month.from, month.to),
    await bookedEntriesOfPeriod(em, companyId, filialId, month.firstDay, month.lastDay),
    await takenCteOfPeriod(em, companyId, filialId, month.firstDay, month.lastDay),
    await voidedRangesOfPeriod(em, companyId, filialId, month.from, month.to),
  ];
  // one read of each document: the NF-e reader and the items' DIFAL both walk its tree
  const treesOut = [...nfe, ...nfce].map((n) => readXml(n.xml));
  const parsedOut = treesOut.map(readNfe);
  const codes = [...new Set(parsedOut.flatMap((p) => p.items.map((i) => i.code)))];
  const entryProductIds = [...new Set(entries.flatMap((e) => e.items.map((i) => i.productId).filter((x): x is number => x !== null)))];
  const products = [
    ...(codes.length ? await em.find(Product, { where: { companyId, code: In(codes) } }) : []),
    ...(entryProductIds.length ? await em.find(Product, { where: { companyId, id: In(entryProductIds) } }) : []),
  ];
  const issuers = await issuersOfKeys(
    em,
    companyId,
    entries.map((e) => e.document.accessKey).filter((k): k is string => !!k),
  );
  const byCode = new Map(products.map((p) => [p.code, p.id]));
  const byId = new Map(products.map((p) => [p.id, p]));

  const documents: BookDocument[] = [
    ...nfe.map((n, i) => documentOfNfe('NFE', n.invoiceId, n.status, parsedOut[i], treesOut[i], byCode)),
    ...nfce.map((n, i) => documentOfNfe('NFCE', n.noteId, n.status, parsedOut[nfe.length + i], treesOut[nfe.length + i], byCode)),
    ...entries.map((e) => documentOfEntry(e.document, e.items, byId, e.document.accessKey ? issuers.get(e.document.accessKey) : undefined)),
    ...ctes.map((c): BookDocument => {
      const rate = d(c.icms?.rate);
      const icms = d(c.icms?.value);
      const base = icms.gt(0) ? d(c.icms?.base) : ZERO;
      const sameUf = !c.carrier.uf || c.carrier.uf === filial.uf;
      const cst = efdCst(0, c.icms?.cst && c.icms.cst.length === 2 ? c.icms.cst : '90');
      const digits = c.carrier.document.replace(/\D/g, '');
      return {
        ref: `CTE:${c.cteId}`,
        kind: 'CTE',
        direction: 'IN',
        ownIssue: false,
        model: '57',
        series: c.series,
        number: c.number,
        accessKey: c.accessKey,
        situation: c.status === 'CANCELLED' ? '02' : '00',
        purpose: '1',
        issueDate: c.issueDate,
        ioDate: c.entryDate,
        participant: {
          code: digits,
          name: c.carrier.name,
          cnpj: digits.length === 14 ? digits : null,
          cpf: digits.length === 11 ? digits : null,
          stateRegistration: c.carrier.stateRegistration,
          uf: c.carrier.uf,
          cityCode: c.carrier.cityCode,
          street: null,
          number: null,
          complement: null,
          district: null,
        },
        partnerUf: c.carrier.uf,
        operationNature: null,
        paymentIndicator: '1',
        freightMode: '1',
        total: c.serviceTotal,
        products: ZERO,
        discount: ZERO,
        freight: ZERO,
        insurance: ZERO,
        other: ZERO,
        lines: [],
        freightService: {
          cst,
          // The taker's entry CFOP for freight bought by a trading establishment (1.353 / 2.353).
          cfop: sameUf ? '1353' : '2353',
          rate: icms.gt(0) ? rate : ZERO,
          base,
          icms,
          value: c.serviceTotal,
          untaxed: icms.gt(0) ? Dec.max(0, c.serviceTotal.minus(base)) : c.serviceTotal,
          startCityCode: c.startCityCode,
          endCityCode: c.endCityCode,
          cteType: c.cteType,
        },
      };
    }),
  ];
  return {
    companyId,
    filialId,
    period,
    firstDay: month.firstDay,
    lastDay: month.lastDay,
    filialUf: filial.uf,
    documents,
    voided: voidedNumbers(voided),
  };
}

/** Σ over lines, rounded to the cent. */
export const total = (lines: BookLine[], pick: (l: BookLine) => Dec) => a2(sum(lines.map(pick)));
