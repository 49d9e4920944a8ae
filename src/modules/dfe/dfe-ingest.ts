import { EntityManager } from 'typeorm';
import { ACCESS_KEY_PATTERN, normalizeText } from '../../core/br-documents';
import { diff, recordAudit } from '../../core/audit/audit.service';
import type { ActorContext } from '../../core/context';
import { Dec } from '../../core/decimal';
import { ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { Manifestation, NfeInbound } from '../inbound-nfe';
import {
  AUDIT_ENTITY,
  findInboundByKey,
  inboundEvents,
  insertInbound,
  insertInboundEvent,
  inspectNfeXml,
  NfeInspection,
  recipientOf,
  toInboundEventData,
  updateInbound,
  upsertInbound,
} from '../inbound-nfe';
import type { Filial } from '../tenancy';
import {
  type DfeDocument,
  EVENT_TYPES,
  type EventDocument,
  eventOfType,
  type EventSummary,
  ManifestationEvent,
  type NfeSummary,
  TP_CANCELAMENTO,
  TP_CTE_AUTORIZADO,
  ufOfCode,
} from '../authority';
import { flagIssuerCancellation } from '../entry-document';

/*
 * Documents of the DF-e distribution land on the filial's inbound NF-e records (the NF-e module's
 * entity and services): a summary creates a SUMMARY record, a full document stores its XML (FULL),
 * events are appended to the record's history — an issuer cancellation marks it CANCELLED (import
 * blocked; an already imported entry document is flagged), a manifestation syncs its state.
 * Parsing and signature checks run before the transaction; the writes of a page run inside one.
 */

export interface SkippedDocument {
  nsu: string | null;
  kind: string;
  accessKey: string | null;
  reason: string;
}

export interface IngestSummary {
  received: number;
  summaries: number;
  documents: number;
  events: number;
  cancellations: number;
  skipped: SkippedDocument[];
}

export const emptySummary = (): IngestSummary => ({ received: 0, summaries: 0, documents: 0, events: 0, cancellations: 0, skipped: [] });

export type PreparedDocument = { doc: DfeDocument; inspection?: NfeInspection; error?: string };

/** The CPU work (XML parsing, signature) of a page, outside any transaction. */
export async function prepareDocuments(filial: Filial, docs: DfeDocument[]): Promise<PreparedDocument[]> {
  const out: PreparedDocument[] = [];
  for (const doc of docs) {
    if (doc.kind !== 'procNFe') {
      out.push({ doc });
      continue;
    }
    try {
      out.push({ doc, inspection: await inspectNfeXml(doc.xml, recipientOf(filial)) });
    } catch (err) {
      out.push({ doc, error: (err as Error).message });
    }
  }
  return out;
}

export const MANIFESTATION_OF: Record<ManifestationEvent, Manifestation> = {
  CIENCIA: 'CIENCIA',
  CONFIRMACAO: 'CONFIRMADA',
  DESCONHECIMENTO: 'DESCONHECIDA',
  NAO_REALIZADA: 'NAO_REALIZADA',
};

const rank = (m: Manifestation) => (m === 'NONE' ? 0 : m === 'CIENCIA' ? 1 : 2);

const parseInstant = (text: string | null | undefined): Date | null => {
  const t = text ? Date.parse(text) : NaN;
  return Number.isNaN(t) ? null : new Date(t);
};

async function lockedByKey(em: EntityManager, ctx: ActorContext, filialId: number, accessKey: string): Promise<NfeInbound | null> {
  return findInboundByKey(em, ctx.companyId, filialId, accessKey, true);
}

async function update(em: EntityManager, ctx: ActorContext, inbound: NfeInbound, values: Partial<NfeInbound>): Promise<NfeInbound> {
  if (!(await updateInbound(em, ctx.companyId, inbound.id, inbound.version, values))) {
    throw new ConflictError('CONCURRENT_UPDATE', `The inbound NF-e ${inbound.accessKey} changed concurrently; retry`, { retryable: true });
  }
  return Object.assign(inbound, values, { version: inbound.version + 1 });
}

/** Records a manifestation the authority accepted (135/136) or already had (573). */
export async function recordManifestation(
  em: EntityManager,
  ctx: ActorContext,
  inbound: NfeInbound,
  m: { event: ManifestationEvent; protocol: string | null; at: Date; cStat: string; origin: 'REQUEST' | 'DISTRIBUTION' },
): Promise<NfeInbound> {
  const status = MANIFESTATION_OF[m.event];
  const before = { manifestation: inbound.manifestation, manifestationProtocol: inbound.manifestationProtocol };
  // A ciência never overrides a final manifestation (the authority refuses it with 655).
  const statusChanges = status !== inbound.manifestation && rank(status) >= rank(inbound.manifestation);
  // The same manifestation again with the protocol we lacked: two requests crossed (the 573 was
  // recorded before the 135) or the stream brought the event after a 573. It completes the
  // manifestation already recorded, so it is audited as an update and announced no second time.
  const protocolOnly = status === inbound.manifestation && !!m.protocol && !inbound.manifestationProtocol;
  if (statusChanges || protocolOnly) {
    inbound = await update(em, ctx, inbound, {
      manifestation: status,
      manifestationProtocol: m.protocol ?? inbound.manifestationProtocol,
      manifestationAt: m.at,
    });
  }
  const { tpEvento, descEvento } = EVENT_TYPES[m.event];
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: inbound.filialId,
    inboundId: inbound.id,
    type: 'MANIFESTED',
    eventCode: tpEvento,
    sequence: 1,
    protocol: m.protocol,
    description: m.cStat === '573' ? `${descEvento} (already registered at the authority)` : descEvento,
    actor: ctx.actor,
    occurredAt: m.at,
    data: { cStat: m.cStat, origin: m.origin },
  });
  if (protocolOnly) {
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: inbound.id,
      action: 'UPDATED',
      changes: { manifestationProtocol: [null, inbound.manifestationProtocol] },
    });
  }
  if (statusChanges) {
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: inbound.id,
      action: 'MANIFESTED',
      changes: {
        manifestation: [before.manifestation, status],
        manifestationProtocol: [before.manifestationProtocol, inbound.manifestationProtocol],
      },
    });
    await publishEvent(em, ctx, {
      type: 'nfe.manifested',
      filialId: inbound.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: inbound.id,
      data: { ...toInboundEventData(inbound), manifestation: status, protocol: inbound.manifestationProtocol, cStat: m.cStat },
    });
  }
  return inbound;
}

async function createSummary(
  em: EntityManager,
  ctx: ActorContext,
  filial: Filial,
  doc: NfeSummary & { nsu: string | null },
  tpAmb: string | null,
): Promise<NfeInbound> {
  const name = doc.issuerName.slice(0, 150);
  const id = await insertInbound(em, {
    companyId: ctx.companyId,
    filialId: filial.id,
    accessKey: doc.accessKey,
    issuerDocument: doc.issuerDocument.slice(0, 14),
    issuerName: name,
    issuerSearch: normalizeText(name).slice(0, 150),
    issuerUf: ufOfCode(doc.accessKey.slice(0, 2)),
    model: doc.accessKey.slice(20, 22),
    series: String(Number(doc.accessKey.slice(22, 25))),
    number: String(Number(doc.accessKey.slice(25, 34))),
    issuedAt: parseInstant(doc.issuedAt) ?? new Date(),
    // The calendar date as the issuer wrote it (dhEmi carries its own offset), not the instant's UTC day.
    ...(/^\d{4}-\d{2}-\d{2}/.test(doc.issuedAt ?? '') ? { issueDate: doc.issuedAt.slice(0, 10) } : {}),
    total: new Dec(doc.total),
    nsu: doc.nsu,
    kind: 'SUMMARY',
    authorityStatus: doc.situation === '3' ? 'CANCELLED' : doc.situation === '2' ? 'DENIED' : 'AUTHORIZED',
    environment: (tpAmb ?? (filial.nfeEnvironment === 'HOMOLOGATION' ? '2' : '1')) === '2' ? 'HOMOLOGATION' : 'PRODUCTION',
    protocolNumber: doc.protocol,
    authorizedAt: parseInstant(doc.receivedAt),
    manifestation: 'NONE',
    manifestationProtocol: null,
    manifestationAt: null,
    hasXml: false,
    xmlGzip: null,
    xmlSha256: null,
    source: 'SEFAZ',
    importStatus: 'PENDING',
    entryDocumentId: null,
    validation: null,
    version: 1,
  });
  const inbound = (await findInboundByKey(em, ctx.companyId, filial.id, doc.accessKey))!;
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: filial.id,
    inboundId: id,
    type: 'SUMMARY_RECEIVED',
    eventCode: null,
    sequence: null,
    protocol: doc.protocol,
    description: `Summary received from the tax authority (NSU ${doc.nsu ?? 'none'})`,
    actor: ctx.actor,
    occurredAt: new Date(),
    data: { nsu: doc.nsu, situation: doc.situation },
  });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: id,
    action: 'CREATED',
    changes: { kind: [null, 'SUMMARY'], importStatus: [null, 'PENDING'] },
  });
  await publishEvent(em, ctx, {
    type: 'nfe.inbound.received',
    filialId: filial.id,
    aggregateType: AUDIT_ENTITY,
    aggregateId: id,
    data: toInboundEventData(inbound),
  });
  return inbound;
}

/** Issuer cancellation: the record becomes CANCELLED (import blocked); an imported entry document is flagged. */
async function applyCancellation(
  em: EntityManager,
  ctx: ActorContext,
  inbound: NfeInbound,
  ev: EventSummary | EventDocument,
): Promise<NfeInbound> {
  const before = inbound.authorityStatus;
  inbound = await update(em, ctx, inbound, { authorityStatus: 'CANCELLED' });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: inbound.id,
    action: 'CANCELLED_BY_ISSUER',
    changes: { authorityStatus: [before, 'CANCELLED'] },
  });
  await publishEvent(em, ctx, {
    type: 'nfe.inbound.cancelled',
    filialId: inbound.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: inbound.id,
    data: { ...toInboundEventData(inbound), protocol: ev.protocol },
  });
  if (inbound.importStatus === 'IMPORTED' && inbound.entryDocumentId) {
    // The purchase was booked from an invoice that no longer exists: flag the entry document for review
    // (a DRAFT can no longer be confirmed; a confirmed one shows the flag and is for the user to cancel).
    await flagIssuerCancellation(em, inbound.companyId, inbound.entryDocumentId);
    await recordAudit(em, ctx, {
      entity: 'entry-document',
      entityId: inbound.entryDocumentId,
      action: 'NFE_CANCELLED_BY_ISSUER',
      changes: { nfeAuthorityStatus: [before, 'CANCELLED'] },
    });
    await publishEvent(em, ctx, {
      type: 'entry-document.nfe-cancelled',
      filialId: inbound.filialId,
      aggregateType: 'entry-document',
      aggregateId: inbound.entryDocumentId,
      data: {
        entryDocumentId: encodeId('entry-document', inbound.entryDocumentId),
        inboundId: encodeId('nfe-inbound', inbound.id),
        filialId: encodeId('filial', inbound.filialId),
        accessKey: inbound.accessKey,
        cancellationProtocol: ev.protocol,
      },
    });
  }
  return inbound;
}

/**
 * 610600 (CT-e authorized for the NF-e): the record is marked "freight CT-e announced", with the CT-e's
 * key when the event names it (procEventoNFe; the resEvento summary does not), so the user knows a
 * freight invoice is coming. A later 610600 (another CT-e) names the newer key.
 */
async function markFreightCteAnnounced(
  em: EntityManager,
  ctx: ActorContext,
  inbound: NfeInbound,
  ev: (EventSummary | EventDocument) & { nsu: string | null },
  at: Date,
): Promise<NfeInbound> {
  const cteKey = ev.kind === 'procEventoNFe' && ev.cteKey && ACCESS_KEY_PATTERN.test(ev.cteKey) ? ev.cteKey : null;
  const values: Partial<NfeInbound> = {
    freightCteAnnouncedAt: inbound.freightCteAnnouncedAt ?? at,
    freightCteKey: cteKey ?? inbound.freightCteKey,
  };
  const before = { freightCteAnnouncedAt: inbound.freightCteAnnouncedAt?.toISOString() ?? null, freightCteKey: inbound.freightCteKey };
  const after = { freightCteAnnouncedAt: values.freightCteAnnouncedAt!.toISOString(), freightCteKey: values.freightCteKey ?? null };
  if (before.freightCteAnnouncedAt === after.freightCteAnnouncedAt && before.freightCteKey === after.freightCteKey) return inbound;
  inbound = await update(em, ctx, inbound, values);
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: inbound.id, action: 'FREIGHT_CTE_ANNOUNCED', changes: diff(before, after) });
  await publishEvent(em, ctx, {
    type: 'nfe.inbound.freight-cte-announced',
    filialId: inbound.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: inbound.id,
    data: { ...toInboundEventData(inbound), cteAccessKey: after.freightCteKey, protocol: ev.protocol },
  });
  return inbound;
}

async function applyEvent(
  em: EntityManager,
  ctx: ActorContext,
  filial: Filial,
  ev: (EventSummary | EventDocument) & { nsu: string | null },
  summary: IngestSummary,
): Promise<void> {
  let inbound = await lockedByKey(em, ctx, filial.id, ev.accessKey);
  if (!inbound) {
    summary.skipped.push({
      nsu: ev.nsu,
      kind: ev.kind,
      accessKey: ev.accessKey,
      reason: `event ${ev.eventType} for an NF-e the filial has not received`,
    });
    return;
  }
  const known = (await inboundEvents(em, ctx.companyId, inbound.id)).some(
    (e) => e.type === 'AUTHORITY_EVENT' && e.eventCode === ev.eventType && e.sequence === ev.sequence,
  );
  if (known) return;
  const registered = ev.kind === 'procEventoNFe' ? ev.registeredAt : ev.receivedAt;
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: filial.id,
    inboundId: inbound.id,
    type: 'AUTHORITY_EVENT',
    eventCode: ev.eventType.slice(0, 6),
    sequence: ev.sequence,
    protocol: ev.protocol?.slice(0, 20) ?? null,
    description: (ev.description ?? `Event ${ev.eventType}`).slice(0, 255),
    actor: 'SEFAZ',
    occurredAt: parseInstant(registered) ?? parseInstant(ev.eventAt) ?? new Date(),
    data: {
      nsu: ev.nsu,
      document: ev.kind,
      author: ev.authorDocument,
      ...(ev.kind === 'procEventoNFe'
        ? { cStat: ev.cStat, justification: ev.justification, ...(ev.cteKey ? { cteKey: ev.cteKey } : {}) }
        : {}),
    },
  });
  summary.events++;
  if (ev.eventType === TP_CTE_AUTORIZADO) {
    await markFreightCteAnnounced(em, ctx, inbound, ev, parseInstant(registered) ?? parseInstant(ev.eventAt) ?? new Date());
    return;
  }
  if (ev.eventType === TP_CANCELAMENTO && (ev.kind === 'resEvento' || ['135', '136', null].includes(ev.cStat))) {
    if (inbound.authorityStatus !== 'CANCELLED') {
      inbound = await applyCancellation(em, ctx, inbound, ev);
      summary.cancellations++;
    }
    return;
  }
  const manifestation = eventOfType(ev.eventType);
  // The filial's own manifestation, registered by another system or seen again: the state follows it.
  if (manifestation && (ev.authorDocument ?? '').slice(0, 8) === filial.cnpj.slice(0, 8)) {
    await recordManifestation(em, ctx, inbound, {
      event: manifestation,
      protocol: ev.protocol,
      at: parseInstant(registered) ?? new Date(),
      cStat: ev.kind === 'procEventoNFe' ? (ev.cStat ?? '135') : '135',
      origin: 'DISTRIBUTION',
    });
  }
}

/** Applies one page of prepared documents inside the caller's transaction. */
export async function applyDocuments(
  em: EntityManager,
  ctx: ActorContext,
  filial: Filial,
  prepared: PreparedDocument[],
  tpAmb: string | null,
  summary: IngestSummary,
): Promise<NfeInbound[]> {
  const touched: NfeInbound[] = [];
  for (const { doc, inspection, error } of prepared) {
    summary.received++;
    switch (doc.kind) {
      case 'resNFe': {
        const existing = await lockedByKey(em, ctx, filial.id, doc.accessKey);
        if (!existing) {
          touched.push(await createSummary(em, ctx, filial, doc, tpAmb));
          summary.summaries++;
        } else {
          touched.push(existing.nsu || !doc.nsu ? existing : await update(em, ctx, existing, { nsu: doc.nsu }));
        }
        break;
      }
      case 'procNFe': {
        if (!inspection) {
          summary.skipped.push({ nsu: doc.nsu, kind: doc.kind, accessKey: doc.accessKey || null, reason: `unreadable NF-e: ${error}` });
          break;
        }
        const { inbound } = await upsertInbound(em, ctx, filial.id, doc.xml, inspection, 'SEFAZ');
        touched.push(inbound.nsu || !doc.nsu ? inbound : await update(em, ctx, inbound, { nsu: doc.nsu }));
        summary.documents++;
        break;
      }
      case 'resEvento':
      case 'procEventoNFe':
        await applyEvent(em, ctx, filial, doc, summary);
        break;
      default:
        summary.skipped.push({ nsu: doc.nsu, kind: doc.root, accessKey: null, reason: `document ${doc.root} (${doc.schema}) is not used` });
    }
  }
  return touched;
}
