import { Dec, SCALE, toJsonNumber } from '../../core/decimal';
import { encodeId, encodeOptionalId } from '../../core/hashids';
import type { EntryDocument } from '../entry-document';
import { reformFieldScale, toEntryDocumentSummaryDto, toPreparedDraftDto } from '../entry-document';
import type { ItemMatch } from '../product-map';
import type { ItemResolution } from './nfe-draft';
import type { ImportPreview, ImportResult } from './nfe-import.service';
import type { NfeInboundEvent } from './entities/nfe-inbound-event.entity';
import type { NfeInbound } from './entities/nfe-inbound.entity';
import type { NfeInspection } from './xml/inspect';
import type { ParsedNfe } from '../fiscal-xml';
import type { ValidationReport } from './xml/validation-report';
import { signerOf } from './upload-trust';

/*
 * Response shapes. The parsed invoice keeps its structure; every Dec in it becomes a JSON number
 * rounded to its scale, chosen by the field's meaning: quantities 4, unit prices 10, rates 4,
 * amounts 2 (SPEC §0); the tax-reform groups follow their naming (`…Rate`, `…Quantity`), the same
 * rule the entry document applies to their stored copy.
 */

const QUANTITY_FIELDS = new Set(['quantity', 'taxableQuantity', 'netWeight', 'grossWeight']);
const PRICE_FIELDS = new Set(['unitPrice', 'taxableUnitPrice', 'unitValue']);
const RATE_FIELDS = new Set(['rate', 'baseReduction', 'stMva', 'stBaseReduction', 'fcpRate', 'fcpStRate', 'deferralRate', 'snCreditRate']);

function scaleFor(field: string): number {
  if (QUANTITY_FIELDS.has(field)) return SCALE.quantity;
  if (PRICE_FIELDS.has(field)) return SCALE.price;
  if (RATE_FIELDS.has(field)) return SCALE.percent;
  return reformFieldScale(field);
}

/** Field names are the few of the layout: each one's scale is worked out once. */
const scales = new Map<string, number>();
function scaleOf(field: string): number {
  let scale = scales.get(field);
  if (scale === undefined) {
    scale = scaleFor(field);
    if (scales.size < 10_000) scales.set(field, scale);
  }
  return scale;
}

/** The invoice with each Dec as a JSON number at its field's scale (a 990-item invoice has ~100k fields: plain loops). */
function plain(value: unknown, field: string): unknown {
  if (value instanceof Dec) return toJsonNumber(value, scaleOf(field));
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plain(value[i], field);
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (k === '__proto__') Object.defineProperty(out, k, { value: plain(v, k), enumerable: true, writable: true, configurable: true });
      else out[k] = plain(v, k);
    }
    return out;
  }
  return value;
}

export const toParsedNfeDto = (nfe: ParsedNfe) => plain(nfe, '') as Record<string, unknown>;

export const toReportDto = (report: ValidationReport) => report;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function signerDto(n: NfeInbound) {
  const s = signerOf(n);
  return s && { verdict: s.verdict, reasons: s.reasons, signerDocument: s.signerDocument };
}

export function toInboundDto(n: NfeInbound) {
  return {
    id: encodeId('nfe-inbound', n.id),
    filialId: encodeId('filial', n.filialId),
    accessKey: n.accessKey,
    issuer: { document: n.issuerDocument, name: n.issuerName, uf: n.issuerUf },
    model: n.model,
    series: n.series,
    number: n.number,
    issueDate: n.issueDate,
    issuedAt: iso(n.issuedAt),
    total: toJsonNumber(n.total, 'amount'),
    nsu: n.nsu,
    kind: n.kind,
    authorityStatus: n.authorityStatus,
    environment: n.environment,
    protocol: n.protocolNumber,
    authorizedAt: iso(n.authorizedAt),
    manifestation: { status: n.manifestation, protocol: n.manifestationProtocol, at: iso(n.manifestationAt) },
    hasXml: n.hasXml,
    source: n.source,
    importStatus: n.importStatus,
    entryDocumentId: encodeOptionalId('entry-document', n.entryDocumentId),
    /** 610600 in the DF-e feed: a freight CT-e was authorized for this NF-e (its key when the event named it). */
    freightCte: n.freightCteAnnouncedAt ? { announced: true, accessKey: n.freightCteKey, announcedAt: iso(n.freightCteAnnouncedAt) } : null,
    validation: n.validation
      ? { valid: n.validation.valid, blockingCodes: n.validation.blockingCodes, warnings: n.validation.warnings }
      : null,
    signer: signerDto(n),
    authorityCheck: n.authorityCheck
      ? { outcome: n.authorityCheck, cStat: n.authorityCheckCStat, checkedAt: iso(n.authorityCheckedAt) }
      : null,
    version: n.version,
    createdAt: iso(n.createdAt),
    updatedAt: iso(n.updatedAt),
  };
}

export const toInboundEventDto = (e: NfeInboundEvent) => ({
  type: e.type,
  eventCode: e.eventCode,
  sequence: e.sequence,
  protocol: e.protocol,
  description: e.description,
  actor: e.actor,
  occurredAt: iso(e.occurredAt),
  data: e.data,
});

/** Public event payload: hashids only. */
/* ---- previews and imports ---- */

const matchDto = (m: ItemMatch | null) =>
  m && {
    status: m.status,
    productId: encodeOptionalId('product', m.productId),
    conversionFactor: m.conversionFactor ? toJsonNumber(m.conversionFactor, 'factor') : null,
    source: m.source,
    product: m.product ? { code: m.product.code, name: m.product.name, unit: m.product.unit } : null,
    suggestions: m.suggestions.map((s) => ({
      productId: encodeId('product', s.productId),
      score: s.score,
      product: { code: s.product.code, name: s.product.name, unit: s.product.unit },
    })),
  };

export const toResolutionDto = (r: ItemResolution) => ({
  lineNumber: r.lineNumber,
  productId: encodeOptionalId('product', r.productId),
  conversionFactor: toJsonNumber(r.conversionFactor, 'factor'),
  source: r.source,
  reviewStatus: r.ignored ? 'IGNORED' : r.productId ? 'MATCHED' : 'PENDING',
  mappingSaved: r.saveMapping && !!r.productId,
  match: matchDto(r.match),
  purchaseOrderItemId: encodeOptionalId('purchase-order-item', r.purchaseOrderLink?.purchaseOrderItemId),
  purchaseOrderLinkSource: r.purchaseOrderLink?.source ?? null,
});

const alreadyImportedDto = (d: EntryDocument | null) =>
  d && { entryDocumentId: encodeId('entry-document', d.id), status: d.status, filialId: encodeId('filial', d.filialId) };

/** preview: the parsed invoice and its report. */
export function toPreviewResponse(p: { inspection: NfeInspection; inbound: NfeInbound | null; alreadyImported: EntryDocument | null }) {
  return {
    accessKey: p.inspection.nfe.accessKey,
    invoice: toParsedNfeDto(p.inspection.nfe),
    report: toReportDto(p.inspection.report),
    inbound: p.inbound ? toInboundDto(p.inbound) : null,
    alreadyImported: alreadyImportedDto(p.alreadyImported),
  };
}

/** preview-import: the preview, each line's product-map resolution and the draft the import would create. */
export function toImportPreviewResponse(p: ImportPreview) {
  const draft = toPreparedDraftDto(p.prepared, p.supplier ?? null, 'DRAFT');
  return {
    ...toPreviewResponse(p),
    items: p.resolutions.map(toResolutionDto),
    draft,
    purchaseMatch: p.purchase.match,
    openPurchaseOrders: p.purchase.openOrders,
  };
}

export function toImportResponse(r: ImportResult) {
  return {
    entryDocument: toEntryDocumentSummaryDto(r.entryDocument),
    inbound: toInboundDto(r.inbound),
    items: r.resolutions.map(toResolutionDto),
    report: toReportDto(r.inspection.report),
  };
}
