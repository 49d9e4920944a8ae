import crypto from 'node:crypto';
import { businessToday } from '../../core/business-date';
import type { TenantContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { Dec, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { zip, ZipEntry } from '../../core/zip';
import { FiscalPeriod, periodRange } from '../fiscal-periods';
import { voidingId } from '../fiscal-xml';
import { invoicesOfMonth, MonthInvoice, MonthVoid } from '../outbound-nfe';
import { MonthNote, notesOfMonth } from '../nfce';
import { MonthReceived, receivedOfMonth } from '../inbound-nfe';
import { Filial } from '../tenancy';

/*
 * The accountant's package (issue 47, SPEC §15): one ZIP per filial (one CNPJ) and month, with every XML the
 * filial issued and received dated in it, by model and série — each authorized, cancelled or denied nfeProc
 * as stored (protocol inside), the procEventoNFe of each registered event (cancellation 110111, CC-e 110110,
 * substitution 110112), the procInutNFe of the voidings registered in the month — and `manifest.json`:
 * counts and value totals per model/série/status and per CFOP, the sha256 of every file, the number ranges,
 * every gap of the numbering not covered by an inutilização (blocking), the notes still in contingency, the
 * received keys never manifested or imported, and `complete`: false while any authorized (or cancelled,
 * denied) document lacks its XML, a cancellation lacks its event file, or a gap lacks its inutilização.
 * Nothing in it depends on when it is asked (no generation time): the same data give the same bytes.
 */

export const PACKAGE_LAYOUT = 'pacote-contabil/1';
const FISCAL_STATUSES = new Set(['AUTHORIZED', 'CANCELLED', 'DENIED']);

interface FileRow {
  path: string;
  data: Buffer;
  kind: 'NFE' | 'EVENT' | 'VOIDING' | 'RECEIVED';
}

interface Blocking {
  kind: 'NUMBER_GAP' | 'XML_MISSING' | 'EVENT_MISSING';
  model: number;
  series: number;
  first: number;
  last: number;
  accessKey: string | null;
  reason: string;
}

const pad3 = (n: number) => String(n).padStart(3, '0');
const seriesDir = (model: number, series: number) => `emitidas/${model}/serie-${pad3(series)}`;
const money = (d: Dec) => toJsonNumber(d, 'amount');
const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const numKey = (...parts: (string | number)[]) => parts.map((p) => (typeof p === 'number' ? String(p).padStart(10, '0') : p)).join('|');

/** Items of an nfeProc by CFOP: vProd summed per det (the layout's item value). */
function cfopValues(xml: string): Map<string, { items: number; total: Dec }> {
  const out = new Map<string, { items: number; total: Dec }>();
  for (const det of xml.matchAll(/<det\b[^>]*>([\s\S]*?)<\/det>/g)) {
    const cfop = /<CFOP>(\d{4})<\/CFOP>/.exec(det[1])?.[1];
    const vProd = /<vProd>([\d.]+)<\/vProd>/.exec(det[1])?.[1];
    if (!cfop || !vProd) continue;
    const row = out.get(cfop) ?? { items: 0, total: new Dec(0) };
    row.items += 1;
    row.total = row.total.plus(vProd);
    out.set(cfop, row);
  }
  return out;
}

/** Consecutive numbers as ranges. */
function ranges(numbers: number[]): { first: number; last: number }[] {
  const out: { first: number; last: number }[] = [];
  for (const n of [...numbers].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && n === last.last + 1) last.last = n;
    else out.push({ first: n, last: n });
  }
  return out;
}

/** One issued document as the manifest lists it, whichever module holds it. */
interface Issued {
  model: number;
  seriesId: number;
  series: number;
  number: number;
  accessKey: string;
  status: string;
  emissionType: number;
  issuedAt: Date;
  total: Dec;
  procXml: string | null;
  events: { type: string; sequence: number; accessKey: string; xml: string | null }[];
  resource: { type: 'invoice' | 'nfce'; id: string };
}

const fromInvoice = (d: MonthInvoice): Issued => ({
  model: d.model,
  seriesId: d.seriesId,
  series: d.series,
  number: d.number,
  accessKey: d.accessKey,
  status: d.status,
  emissionType: d.emissionType,
  issuedAt: d.issuedAt,
  total: d.total,
  procXml: d.procXml,
  events: d.events.map((e) => ({ type: e.type, sequence: e.sequence, accessKey: d.accessKey, xml: e.xml })),
  resource: { type: 'invoice', id: encodeId('invoice', d.id) },
});

const fromNote = (n: MonthNote): Issued => ({
  model: 65,
  seriesId: n.seriesId,
  series: n.series,
  number: n.number,
  accessKey: n.accessKey,
  status: n.status,
  emissionType: n.emissionType,
  issuedAt: n.issuedAt,
  total: n.total,
  procXml: n.procXml,
  events: [
    ...(n.status === 'CANCELLED' ? [{ type: '110111', sequence: 1, accessKey: n.accessKey, xml: n.cancelXml }] : []),
    // The online attempt authorized after all, cancelled by substitution (110112) under its own key.
    ...(n.original?.outcome === 'SUBSTITUTED' && n.original.accessKey
      ? [{ type: '110112', sequence: 1, accessKey: n.original.accessKey, xml: n.original.xml }]
      : []),
  ],
  resource: { type: 'nfce', id: encodeId('nfce', n.id) },
});

export interface AccountantPackage {
  fileName: string;
  zip: Buffer;
  manifest: Record<string, unknown>;
}

type MonthInvoices = Awaited<ReturnType<typeof invoicesOfMonth>>;
type MonthNotes = Awaited<ReturnType<typeof notesOfMonth>>;

/** What the package gathers as it goes: the files of the ZIP and what keeps it incomplete. */
interface Gathered {
  files: FileRow[];
  blocking: Blocking[];
}

export async function buildPackage(ctx: TenantContext, filialId: number, period: string): Promise<AccountantPackage> {
  if (period > businessToday().slice(0, 7))
    throw new BusinessRuleError('FISCAL_PERIOD_IN_FUTURE', `The period ${period} has not begun`, { period });
  const em = readerOf(ctx);
  const filial = await em.findOne(Filial, {
    where: { companyId: ctx.companyId, id: filialId },
    select: { id: true, cnpj: true, name: true, uf: true },
  });
  if (!filial) throw new NotFoundError('Filial');
  const range = periodRange(period);
  const [nfe, nfce, received, periodRow] = await Promise.all([
    invoicesOfMonth(em, ctx.companyId, filialId, range),
    notesOfMonth(em, ctx.companyId, filialId, range),
    receivedOfMonth(em, ctx.companyId, filialId, range),
    em.findOne(FiscalPeriod, { where: { companyId: ctx.companyId, filialId, period } }),
  ]);
  const issued = [...nfe.invoices.map(fromInvoice), ...nfce.notes.map(fromNote)].sort(
    byKey((d) => numKey(d.model, d.series, d.number, d.accessKey)),
  );
  const gathered: Gathered = { files: [], blocking: [] };
  const documents = issuedDocuments(issued, gathered);
  const { totals, cfops } = issuedTotals(issued);
  const voided = voidingsOfMonth(range, nfe, nfce, gathered);
  const numberRanges = numberingPerSeries(issued, nfe, nfce, gathered);
  const { contingencyPending, unanswered } = pendingAtAuthority(issued);
  const receivedPart = receivedSection(received, gathered);

  const { files, blocking } = gathered;
  files.sort(byKey((f) => f.path));
  blocking.sort(byKey((b) => numKey(b.kind, b.model, b.series, b.first)));
  const manifest = {
    layout: PACKAGE_LAYOUT,
    cnpj: filial.cnpj,
    filialId: encodeId('filial', filialId),
    period,
    periodStatus: periodRow?.status ?? 'OPEN',
    complete: blocking.length === 0,
    blocking,
    issued: {
      totals: sortedValues(totals).map((t) => ({ ...t, total: money(t.total) })),
      cfopTotals: sortedValues(cfops).map((c) => ({ ...c, total: money(c.total) })),
      numberRanges,
      documents,
      voided,
      contingencyPending,
      unanswered,
    },
    received: receivedPart,
    files: files.map((f) => ({
      path: f.path,
      kind: f.kind,
      bytes: f.data.length,
      sha256: crypto.createHash('sha256').update(f.data).digest('hex'),
    })),
  };
  const entries: ZipEntry[] = [
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8') },
    ...files.map((f) => ({ name: f.path, data: f.data })),
  ];
  return { fileName: `${filial.cnpj}-${period.replace('-', '')}-pacote-contabil.zip`, zip: zip(entries), manifest };
}

const sortedValues = <T>(m: Map<string, T>) => [...m.entries()].sort(byKey(([k]) => k)).map(([, v]) => v);

/** The issued documents of fiscal status: their nfeProc and event files, what lacks its XML. */
function issuedDocuments(issued: Issued[], { files, blocking }: Gathered): Record<string, unknown>[] {
  const documents: Record<string, unknown>[] = [];
  for (const d of issued) {
    if (!FISCAL_STATUSES.has(d.status)) continue;
    const dir = seriesDir(d.model, d.series);
    const path = d.procXml ? `${dir}/${d.accessKey}-procNFe.xml` : null;
    if (path) files.push({ path, data: Buffer.from(d.procXml!, 'utf8'), kind: 'NFE' });
    else
      blocking.push({
        kind: 'XML_MISSING',
        model: d.model,
        series: d.series,
        first: d.number,
        last: d.number,
        accessKey: d.accessKey,
        reason: `${d.status} without its nfeProc`,
      });
    const events = d.events.map((e) => {
      const eventPath = e.xml ? `${dir}/eventos/${e.accessKey}-${e.type}-${String(e.sequence).padStart(2, '0')}-procEventoNFe.xml` : null;
      if (eventPath) files.push({ path: eventPath, data: Buffer.from(e.xml!, 'utf8'), kind: 'EVENT' });
      return { type: e.type, sequence: e.sequence, file: eventPath };
    });
    if (d.status === 'CANCELLED' && !d.events.some((e) => e.type === '110111' && e.xml)) {
      blocking.push({
        kind: 'EVENT_MISSING',
        model: d.model,
        series: d.series,
        first: d.number,
        last: d.number,
        accessKey: d.accessKey,
        reason: 'CANCELLED without its procEventoNFe 110111',
      });
    }
    documents.push({
      model: d.model,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      status: d.status,
      emissionType: d.emissionType,
      issuedAt: d.issuedAt.toISOString(),
      total: money(d.total),
      protocol: d.procXml ? (/<nProt>(\d+)<\/nProt>/.exec(d.procXml)?.[1] ?? null) : null,
      file: path,
      events,
      resourceType: d.resource.type,
      resourceId: d.resource.id,
    });
  }
  return documents;
}

/** Totals per model/série/status and per model/série/CFOP/status (the items' vProd). */
function issuedTotals(issued: Issued[]) {
  const totals = new Map<string, { model: number; series: number; status: string; count: number; total: Dec }>();
  const cfops = new Map<
    string,
    { model: number; series: number; cfop: string; status: string; documents: number; items: number; total: Dec }
  >();
  for (const d of issued.filter((x) => FISCAL_STATUSES.has(x.status))) {
    const k = numKey(d.model, d.series, d.status);
    const t = totals.get(k) ?? { model: d.model, series: d.series, status: d.status, count: 0, total: new Dec(0) };
    t.count += 1;
    t.total = t.total.plus(d.total);
    totals.set(k, t);
    if (!d.procXml) continue;
    for (const [cfop, v] of cfopValues(d.procXml)) {
      const ck = numKey(d.model, d.series, cfop, d.status);
      const c = cfops.get(ck) ?? { model: d.model, series: d.series, cfop, status: d.status, documents: 0, items: 0, total: new Dec(0) };
      c.documents += 1;
      c.items += v.items;
      c.total = c.total.plus(v.total);
      cfops.set(ck, c);
    }
  }
  return { totals, cfops };
}

/** Voidings: the files of those registered in the month; any VOIDED range (of any month) covers a gap. */
function voidingsOfMonth(
  range: { from: string; to: string },
  nfe: MonthInvoices,
  nfce: MonthNotes,
  { files }: Gathered,
): Record<string, unknown>[] {
  const monthStart = new Date(range.from.replace(' ', 'T') + 'Z').getTime();
  const monthEnd = new Date(range.to.replace(' ', 'T') + 'Z').getTime();
  const inMonth = (d: Date | null) => !!d && d.getTime() >= monthStart && d.getTime() < monthEnd;
  const voided: Record<string, unknown>[] = [];
  const voidFile = (model: number, series: number, xml: string, fallback: string) => {
    const id = voidingId(xml) ?? fallback;
    const path = `${seriesDir(model, series)}/inutilizacoes/${id}-procInutNFe.xml`;
    if (!files.some((f) => f.path === path)) files.push({ path, data: Buffer.from(xml, 'utf8'), kind: 'VOIDING' });
    return path;
  };
  for (const v of nfe.voids
    .filter((x: MonthVoid) => x.status === 'VOIDED' && inMonth(x.voidedAt))
    .sort(byKey((x) => numKey(x.model, x.series, x.first)))) {
    voided.push({
      model: v.model,
      series: v.series,
      first: v.first,
      last: v.last,
      protocol: v.protocol,
      file: v.xml ? voidFile(v.model, v.series, v.xml, `${v.model}-${v.series}-${v.first}`) : null,
    });
  }
  for (const n of nfce.notes.filter((x) => x.original?.outcome === 'VOIDED')) {
    const o = n.original!;
    voided.push({
      model: 65,
      series: n.series,
      first: o.number,
      last: o.number,
      protocol: o.protocol,
      file: o.xml ? voidFile(65, n.series, o.xml, `65-${n.series}-${o.number}`) : null,
    });
  }
  return voided;
}

/** Numbering per série: from the number after the série's last before the month to the month's highest. */
function numberingPerSeries(issued: Issued[], nfe: MonthInvoices, nfce: MonthNotes, { blocking }: Gathered): Record<string, unknown>[] {
  const numberRanges: Record<string, unknown>[] = [];
  const seriesIds = [...new Set(issued.map((d) => d.seriesId))];
  for (const seriesId of seriesIds) {
    const docs = issued.filter((d) => d.seriesId === seriesId);
    const { model, series } = docs[0];
    const holders = new Map<number, string>();
    for (const d of docs) holders.set(d.number, d.status);
    for (const n of nfce.notes.filter((x) => x.seriesId === seriesId && x.original))
      holders.set(n.original!.number, n.original!.outcome === 'VOIDED' ? 'VOIDED' : n.original!.outcome);
    const numbers = [...holders.keys()].sort((a, b) => a - b);
    const before = (model === 65 ? nfce.lastBefore : nfe.lastBefore).get(seriesId);
    const from = before !== undefined ? before + 1 : numbers[0];
    const to = numbers[numbers.length - 1];
    const covering = nfe.voids.filter((v) => v.seriesId === seriesId && v.status === 'VOIDED');
    const pendingVoid = nfe.voids.filter((v) => v.seriesId === seriesId && v.status === 'PENDING');
    const covered = (n: number) => covering.some((v) => n >= v.first && n <= v.last);
    const gaps: number[] = [];
    const waiting: number[] = [];
    for (let n = from; n <= to; n++) {
      const fate = holders.get(n);
      if (fate && fate !== 'REJECTED' && fate !== 'VOIDED') continue;
      if (covered(n) || (fate === 'VOIDED' && model === 65)) continue;
      if (pendingVoid.some((v) => n >= v.first && n <= v.last)) waiting.push(n);
      gaps.push(n);
    }
    for (const g of ranges(gaps)) {
      const pending = waiting.includes(g.first);
      blocking.push({
        kind: 'NUMBER_GAP',
        model,
        series,
        first: g.first,
        last: g.last,
        accessKey: null,
        reason: pending
          ? 'numbers without a document; their inutilização is still pending at the authority'
          : 'numbers without a document and without an inutilização',
      });
    }
    numberRanges.push({ model, series, first: from, last: to, documents: docs.length, gaps: ranges(gaps) });
  }
  return numberRanges;
}

/** The notes still in contingency and the normal emissions the authority has not answered. */
function pendingAtAuthority(issued: Issued[]) {
  const contingencyPending = issued
    .filter(
      (d) =>
        (d.model === 65 && d.status === 'CONTINGENCY') ||
        (d.model === 55 && d.emissionType !== 1 && (d.status === 'SIGNED' || d.status === 'SENT')),
    )
    .map((d) => ({
      model: d.model,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      status: d.status,
      issuedAt: d.issuedAt.toISOString(),
      total: money(d.total),
    }));
  const unanswered = issued
    .filter((d) => d.emissionType === 1 && (d.status === 'SIGNED' || d.status === 'SENT'))
    .map((d) => ({
      model: d.model,
      series: d.series,
      number: d.number,
      accessKey: d.accessKey,
      status: d.status,
      issuedAt: d.issuedAt.toISOString(),
    }));
  return { contingencyPending, unanswered };
}

/** Received: the XML as received, by model and issuer; the keys never manifested or never imported. */
function receivedSection(received: MonthReceived[], { files }: Gathered) {
  const receivedDocs = received.map((r: MonthReceived) => {
    const path = r.xml ? `recebidas/${r.model}/${r.issuerDocument}/${r.accessKey}-procNFe.xml` : null;
    if (path) files.push({ path, data: Buffer.from(r.xml!, 'utf8'), kind: 'RECEIVED' });
    return {
      model: r.model,
      series: r.series,
      number: r.number,
      accessKey: r.accessKey,
      issuerDocument: r.issuerDocument,
      issuerName: r.issuerName,
      issuedAt: r.issuedAt.toISOString(),
      total: money(r.total),
      authorityStatus: r.authorityStatus,
      manifestation: r.manifestation,
      importStatus: r.importStatus,
      file: path,
    };
  });
  const receivedTotals = new Map<string, { model: number; authorityStatus: string; count: number; total: Dec }>();
  for (const r of received) {
    const k = numKey(r.model, r.authorityStatus);
    const t = receivedTotals.get(k) ?? { model: r.model, authorityStatus: r.authorityStatus, count: 0, total: new Dec(0) };
    t.count += 1;
    t.total = t.total.plus(r.total);
    receivedTotals.set(k, t);
  }
  const brief = (r: (typeof receivedDocs)[number]) => ({
    accessKey: r.accessKey,
    issuerDocument: r.issuerDocument,
    issuerName: r.issuerName,
    issuedAt: r.issuedAt,
    total: r.total,
  });
  return {
    totals: sortedValues(receivedTotals).map((t) => ({ ...t, total: money(t.total) })),
    documents: receivedDocs,
    notManifested: receivedDocs.filter((r) => r.manifestation === 'NONE').map(brief),
    notImported: receivedDocs.filter((r) => r.importStatus === 'PENDING').map(brief),
  };
}
