import { sourceIdOf } from './document-sources';
import { Dec, toJsonNumber } from '../../core/decimal';
import { encodeId } from '../../core/hashids';
import type { FiscalItem } from '../fiscal';
import type { CompanySmtp } from './entities/company-smtp.entity';
import type { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import type { InvoiceSeries } from './entities/invoice-series.entity';
import type { OutboundNfe } from './entities/outbound-nfe.entity';
import type { OutboundNfeEvent } from './entities/outbound-nfe-event.entity';
import type { InvoicePreview } from './issue.service';
import type { NumberReport } from './series.service';

/* Entities → response DTOs (hashids, rounded decimals); mirrors invoices.responses.ts. */

const money = (d: Dec | null | undefined) => (d === null || d === undefined ? 0 : toJsonNumber(d, 2));
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toInvoiceDto(d: OutboundNfe) {
  const s = d.summary;
  return {
    id: encodeId('invoice', d.id),
    filialId: encodeId('filial', d.filialId),
    salesOrderId: d.salesOrderId === null ? null : encodeId('sales-order', d.salesOrderId),
    fulfillmentId: d.fulfillmentId === null ? null : encodeId('fulfillment', d.fulfillmentId),
    customerId: d.customerId === null ? null : encodeId('customer', d.customerId),
    source: d.source,
    sourceId: sourceIdOf(d),
    direction: d.summary.direction ?? 1,
    purpose: d.summary.purpose ?? 1,
    references: d.summary.references ?? [],
    model: d.model,
    series: d.series,
    number: d.number,
    accessKey: d.accessKey,
    status: d.status,
    emissionType: d.emissionType,
    contingencyReason: d.contingencyReason,
    issuedAt: d.issuedAtText,
    total: money(d.total),
    cStat: d.cStat,
    xMotivo: d.xMotivo,
    protocol: d.protocol,
    authorizedAt: iso(d.authorizedAt),
    cancelledAt: iso(d.cancelledAt),
    cancelProtocol: d.cancelProtocol,
    correctionSequence: d.correctionSequence,
    lastAttempt: d.lastAttemptAt ? { at: d.lastAttemptAt.toISOString(), error: d.lastAttemptError } : null,
    contingencyOf: d.contingencyOf === null ? null : encodeId('invoice', d.contingencyOf),
    recipient: { name: s.recipientName, document: s.recipientDocument, email: s.recipientEmail },
    operationNature: s.operationNature,
    itemCount: s.itemCount,
    totals: Object.fromEntries(Object.entries(s.totals).map(([k, v]) => [k, Number(v)])),
    installments: s.installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amount: toJsonNumber(i.amount, 'amount') })),
    additionalInfo: s.additionalInfo,
    warnings: s.warnings ?? [],
    email: { status: d.emailStatus, to: d.emailTo, attempts: d.emailAttempts, sentAt: iso(d.emailSentAt), error: d.emailError },
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function toInvoiceEventDto(e: OutboundNfeEvent) {
  return {
    type: e.type,
    kind: e.type === '110111' ? 'CANCELLATION' : 'CORRECTION',
    sequence: e.sequence,
    text: e.text,
    cStat: e.cStat,
    xMotivo: e.xMotivo,
    protocol: e.protocol,
    registeredAt: e.registeredAt.toISOString(),
  };
}

export const toInvoiceDetailDto = (d: OutboundNfe, events: OutboundNfeEvent[]) => ({
  ...toInvoiceDto(d),
  events: events.map(toInvoiceEventDto),
});

const previewItem = (i: FiscalItem) => ({
  lineNumber: i.lineNumber,
  productId: encodeId('product', i.productId),
  salesOrderItemId: i.salesOrderItemId === null ? null : encodeId('sales-order-item', i.salesOrderItemId),
  code: i.code,
  description: i.description,
  ncm: i.ncm,
  cest: i.cest,
  cfop: i.cfop,
  unit: i.unit,
  quantity: toJsonNumber(i.quantity, 4),
  unitPrice: toJsonNumber(i.unitPrice, 10),
  grossTotal: money(i.grossTotal),
  discount: money(i.discount),
  freight: money(i.freight),
  icms: {
    cst: i.icms.cst,
    csosn: i.icms.csosn,
    base: money(i.icms.base),
    rate: toJsonNumber(i.icms.rate, 4),
    value: money(i.icms.value),
    fcpValue: money(i.icms.fcpValue),
    stBase: money(i.icms.st?.base),
    stValue: money(i.icms.st?.value),
    fcpStValue: money(i.icms.st?.fcpValue),
  },
  ipiValue: money(i.ipi?.value),
  pisValue: money(i.pis.value),
  cofinsValue: money(i.cofins.value),
  difal: i.difal
    ? { destinationValue: money(i.difal.destinationValue), fcpValue: money(i.difal.fcpValue), originValue: money(i.difal.originValue) }
    : null,
  ibsCbs: i.ibsCbs ? { base: money(i.ibsCbs.base), ibsValue: money(i.ibsCbs.ibsValue), cbsValue: money(i.ibsCbs.cbsValue) } : null,
  approximateTaxes: money(i.approximateTaxes),
  total: money(i.total),
  rule: i.rule.description,
});

export function toPreviewDto(p: InvoicePreview) {
  const d = p.document;
  const t = d.totals;
  return {
    model: d.model,
    series: p.series,
    emissionType: p.emissionType,
    operationNature: d.operationNature,
    destination: d.destination,
    finalConsumer: d.finalConsumer,
    issuer: { document: d.issuer.document, name: d.issuer.name, uf: d.issuer.address.uf },
    recipient: { document: d.recipient.document, name: d.recipient.name, email: d.recipient.email, uf: d.recipient.address?.uf ?? null },
    items: d.items.map(previewItem),
    totals: {
      vBC: money(t.vBC),
      vICMS: money(t.vICMS),
      vBCST: money(t.vBCST),
      vST: money(t.vST),
      vFCP: money(t.vFCP),
      vFCPST: money(t.vFCPST),
      vFCPUFDest: money(t.vFCPUFDest),
      vICMSUFDest: money(t.vICMSUFDest),
      vICMSUFRemet: money(t.vICMSUFRemet),
      vProd: money(t.vProd),
      vFrete: money(t.vFrete),
      vSeg: money(t.vSeg),
      vDesc: money(t.vDesc),
      vIPI: money(t.vIPI),
      vPIS: money(t.vPIS),
      vCOFINS: money(t.vCOFINS),
      vOutro: money(t.vOutro),
      vNF: money(t.vNF),
      vTotTrib: money(t.vTotTrib),
    },
    installments: p.installments.map((i) => ({ number: i.number, dueDate: i.dueDate, amount: money(i.amount) })),
    paymentType: p.paymentType,
    transport: {
      mode: p.transport.mode,
      volumes: p.transport.volumes
        ? {
            quantity: p.transport.volumes.quantity,
            kind: p.transport.volumes.kind,
            grossWeight: p.transport.volumes.grossWeight ? toJsonNumber(p.transport.volumes.grossWeight, 4) : null,
            netWeight: p.transport.volumes.netWeight ? toJsonNumber(p.transport.volumes.netWeight, 4) : null,
          }
        : null,
    },
    additionalInfo: p.additionalInfo,
    warnings: d.warnings,
  };
}

export const toSeriesDto = (s: InvoiceSeries) => ({
  id: encodeId('invoice-series', s.id),
  filialId: encodeId('filial', s.filialId),
  model: s.model,
  series: s.series,
  nextNumber: s.nextNumber,
  isDefault: s.isDefault,
  version: s.version,
});

export const toNumberReportDto = (r: NumberReport) => ({
  series: toSeriesDto(r.series),
  from: r.from,
  to: r.to,
  numbers: r.numbers.map((n) => ({
    number: n.number,
    fate: n.fate,
    invoiceId: n.invoiceId === null ? null : encodeId('invoice', n.invoiceId),
    nfceId: n.nfceId === null ? null : encodeId('nfce', n.nfceId),
    accessKey: n.accessKey,
  })),
  unaccounted: r.unaccounted,
});

export const toVoidDto = (v: InvoiceNumberVoid) => ({
  seriesId: encodeId('invoice-series', v.seriesId),
  filialId: encodeId('filial', v.filialId),
  model: v.model,
  series: v.series,
  first: v.firstNumber,
  last: v.lastNumber,
  justification: v.justification,
  status: v.status,
  cStat: v.cStat,
  xMotivo: v.xMotivo,
  protocol: v.protocol,
  voidedAt: iso(v.voidedAt),
});

/** The company's SMTP settings: never the password, only whether one is stored. */
export const toSmtpSettingsDto = (s: CompanySmtp) => ({
  host: s.host,
  port: s.port,
  secure: s.secure,
  user: s.user,
  passwordSet: s.passwordSealed !== null,
  from: s.from,
  version: s.version,
  updatedAt: s.updatedAt.toISOString(),
});
