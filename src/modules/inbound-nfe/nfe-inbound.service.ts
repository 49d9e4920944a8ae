import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { normalizeText } from '../../core/br-documents';
import type { ActorContext, TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { Filial } from '../tenancy';
import { AuthorityStatus, InboundSource, NfeInbound } from './entities/nfe-inbound.entity';
import type { NfeInboundEvent } from './entities/nfe-inbound-event.entity';
import { toInboundEventData } from './nfe.events';
import {
  eventsOf,
  findInbound,
  findInboundByKey,
  inboundListQuery,
  InboundFilters,
  insertInbound,
  insertInboundEvent,
  loadInboundByIds,
  inboundOfKeys,
  loadXmlGzip,
  pendingQuery,
  updateInbound,
} from './nfe-inbound.repository';
import { compressXml, decompressXml, xmlSha256 } from './xml-storage';
import { inspectNfeXml, NfeInspection } from './xml/inspect';
import type { RecipientContext, ValidationReport } from './xml/validation-report';

/**
 * The inbound records' API for other modules (dfe's ingest and queries, entry documents), used
 * inside the caller's transaction. The repository stays private to nfe.
 */
export { eventsOf as inboundEvents, findInboundByKey, insertInbound, insertInboundEvent, updateInbound } from './nfe-inbound.repository';

/*
 * Inbound NF-e records (SPEC §4): staging a validated XML, the lists of a filial, the detail with the
 * parsed invoice and events. One record per access key per filial; staging is idempotent per key.
 */

export const AUDIT_ENTITY = 'nfe-inbound';

/** The filial that governs the call (x-filial-id), as the validation needs it. */
export async function governingFilial(ctx: TenantContext, em: EntityManager = readerOf(ctx)): Promise<Filial> {
  if (!ctx.filialId)
    throw new ValidationError('x-filial-id header is required', [{ path: 'x-filial-id', message: 'required' }], 'MISSING_TENANT_HEADER');
  const filial = await em.findOneBy(Filial, { id: ctx.filialId, companyId: ctx.companyId });
  if (!filial) throw new NotFoundError('Filial');
  return filial;
}

export const recipientOf = (f: Filial): RecipientContext => ({ document: f.cnpj, environment: f.nfeEnvironment });

/** Blocking failures refuse stage/import: 422 with the first failure's code and the whole report. */
export function assertImportable(report: ValidationReport): void {
  if (report.valid) return;
  const first = report.checks.find((c) => c.blocking)!;
  throw new BusinessRuleError(first.code!, first.message, { blockingCodes: report.blockingCodes, report });
}

const notFound = () => new NotFoundError('Inbound NF-e', 'NFE_INBOUND_NOT_FOUND');

/** protNFe cStat → status: 110/301/302/303/205 are denials (uso denegado); staged XMLs are authorized (100/150). */
export function authorityStatusOf(cStat: string | null | undefined): AuthorityStatus {
  return ['110', '205', '301', '302', '303'].includes(cStat ?? '') ? 'DENIED' : 'AUTHORIZED';
}

/** The header columns a full XML determines. */
function headerOf(inspection: NfeInspection, xml: string): Partial<NfeInbound> {
  const { nfe, report } = inspection;
  const name = (nfe.issuer.name ?? '').slice(0, 150);
  return {
    issuerDocument: (nfe.issuer.document ?? '').slice(0, 14),
    issuerName: name,
    issuerSearch: normalizeText(name).slice(0, 150),
    issuerUf: nfe.issuer.uf,
    model: nfe.ide.model,
    series: nfe.ide.series,
    number: nfe.ide.number,
    issuedAt: new Date(nfe.ide.issuedAt),
    issueDate: nfe.ide.issuedAt.slice(0, 10),
    total: nfe.totals.invoice,
    environment: nfe.ide.environment === '2' ? 'HOMOLOGATION' : 'PRODUCTION',
    protocolNumber: nfe.protocol?.protocolNumber ?? null,
    authorizedAt: nfe.protocol?.receivedAt ? new Date(nfe.protocol.receivedAt) : null,
    kind: 'FULL',
    hasXml: true,
    xmlGzip: compressXml(xml),
    xmlSha256: xmlSha256(xml),
    validation: report,
  };
}

async function addEvent(
  em: EntityManager,
  ctx: ActorContext,
  inbound: Pick<NfeInbound, 'id' | 'filialId'>,
  type: string,
  description: string,
  data: Record<string, unknown> | null = null,
) {
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: inbound.filialId,
    inboundId: inbound.id,
    type,
    eventCode: null,
    sequence: null,
    protocol: null,
    description,
    actor: ctx.actor,
    occurredAt: new Date(),
    data,
  });
}

const reload = async (em: EntityManager, companyId: number, id: number) => (await findInbound(em, companyId, id))!;

/**
 * Stores a validated XML as the filial's record of its key, inside the caller's transaction: a new
 * record (STAGED), the full XML of a record known only by its summary (XML_ATTACHED), or — the XML
 * being already there — the record as it is (the first signed XML is never replaced).
 */
export async function upsertInbound(
  em: EntityManager,
  ctx: ActorContext,
  filialId: number,
  xml: string,
  inspection: NfeInspection,
  source: InboundSource,
): Promise<{ inbound: NfeInbound; created: boolean }> {
  const key = inspection.nfe.accessKey;
  let existing = await findInboundByKey(em, ctx.companyId, filialId, key, true);
  if (!existing) {
    try {
      const id = await insertInbound(em, {
        companyId: ctx.companyId,
        filialId,
        accessKey: key,
        ...headerOf(inspection, xml),
        nsu: null,
        authorityStatus: authorityStatusOf(inspection.nfe.protocol?.status),
        manifestation: 'NONE',
        manifestationProtocol: null,
        manifestationAt: null,
        source,
        importStatus: 'PENDING',
        entryDocumentId: null,
        version: 1,
      });
      const inbound = await reload(em, ctx.companyId, id);
      await addEvent(em, ctx, inbound, 'STAGED', `XML received (${source === 'UPLOAD' ? 'upload' : 'tax authority'})`, {
        sha256: inbound.xmlSha256,
      });
      await recordAudit(em, ctx, {
        entity: AUDIT_ENTITY,
        entityId: id,
        action: 'CREATED',
        changes: { importStatus: [null, 'PENDING'], kind: [null, 'FULL'] },
      });
      await publishEvent(em, ctx, {
        type: 'nfe.inbound.received',
        filialId,
        aggregateType: AUDIT_ENTITY,
        aggregateId: id,
        data: toInboundEventData(inbound),
      });
      return { inbound, created: true };
    } catch (err) {
      // The same key staged at the same moment by another request: theirs is committed now.
      if (!isUniqueViolation(err)) throw err;
      existing = await findInboundByKey(em, ctx.companyId, filialId, key, true);
      if (!existing) throw err;
    }
  }
  if (existing.hasXml) return { inbound: existing, created: false };

  const header = headerOf(inspection, xml);
  if (!(await updateInbound(em, ctx.companyId, existing.id, existing.version, header))) {
    throw new ConflictError('CONCURRENT_UPDATE', 'The inbound NF-e changed while its XML was being stored; retry', { retryable: true });
  }
  const inbound = await reload(em, ctx.companyId, existing.id);
  const { xmlGzip: _x, validation: _v, ...comparable } = header;
  await addEvent(em, ctx, inbound, 'XML_ATTACHED', `Full XML stored (${source === 'UPLOAD' ? 'upload' : 'tax authority'})`, {
    sha256: inbound.xmlSha256,
  });
  await recordAudit(em, ctx, {
    entity: AUDIT_ENTITY,
    entityId: inbound.id,
    action: 'UPDATED',
    changes: diff(existing as unknown as Record<string, unknown>, comparable as Record<string, unknown>),
  });
  await publishEvent(em, ctx, {
    type: 'nfe.inbound.xml-attached',
    filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: inbound.id,
    data: toInboundEventData(inbound),
  });
  return { inbound, created: false };
}

/** stage-xml: validate, then store as the filial's inbound record (no draft). */
export async function stageXml(
  ctx: TenantContext,
  xml: string,
): Promise<{ inbound: NfeInbound; created: boolean; inspection: NfeInspection }> {
  const filial = await governingFilial(ctx);
  const inspection = await inspectNfeXml(xml, recipientOf(filial));
  assertImportable(inspection.report);
  const result = await inTransaction(ctx, (em) => upsertInbound(em, ctx, filial.id, xml, inspection, 'UPLOAD'));
  return { ...result, inspection };
}

export interface InboundListQuery extends PageRequest, InboundFilters {
  sort?: 'issueDate' | '-issueDate';
}

export function listInbound(ctx: TenantContext, filialId: number, query: InboundListQuery): Promise<Page<NfeInbound>> {
  const em = readerOf(ctx);
  const direction = query.sort === 'issueDate' ? 'ASC' : 'DESC';
  return paginate(
    inboundListQuery(em, ctx.companyId, filialId, query),
    [
      { column: 'n.issued_at', direction },
      { column: 'n.id', direction },
    ],
    query,
    (ids) => loadInboundByIds(em, ids),
    (n) => n.id,
  );
}

/** PENDING records not cancelled by the issuer, newest first. */
export function listPending(ctx: TenantContext, filialId: number, query: PageRequest): Promise<Page<NfeInbound>> {
  const em = readerOf(ctx);
  return paginate(
    pendingQuery(em, ctx.companyId, filialId),
    [
      { column: 'n.issued_at', direction: 'DESC' },
      { column: 'n.id', direction: 'DESC' },
    ],
    query,
    (ids) => loadInboundByIds(em, ids),
    (n) => n.id,
  );
}

/** A record of the filial (another filial's or company's → 404). */
export async function findFilialInbound(em: EntityManager, ctx: ActorContext, id: number, filialId: number): Promise<NfeInbound> {
  const inbound = await findInbound(em, ctx.companyId, id);
  if (!inbound || inbound.filialId !== filialId) throw notFound();
  return inbound;
}

/** The record's XML exactly as received (422 when only the summary is known). */
export async function storedXml(em: EntityManager, ctx: ActorContext, inbound: NfeInbound): Promise<string> {
  const gz = inbound.hasXml ? await loadXmlGzip(em, ctx.companyId, inbound.id) : null;
  if (!gz) {
    throw new BusinessRuleError('NFE_XML_NOT_AVAILABLE', `Only the summary of NF-e ${inbound.accessKey} is known; download its XML first`, {
      accessKey: inbound.accessKey,
    });
  }
  return decompressXml(gz);
}

export async function findByKeyInFilial(em: EntityManager, ctx: ActorContext, filialId: number, accessKey: string): Promise<NfeInbound> {
  const inbound = await findInboundByKey(em, ctx.companyId, filialId, accessKey);
  if (!inbound) throw notFound();
  return inbound;
}

/** The filial's inbound records of these NF-e keys (the CT-e module resolves the keys a CT-e carried). */
export const inboundByKeys = (em: EntityManager, ctx: ActorContext, filialId: number, keys: string[]): Promise<NfeInbound[]> =>
  inboundOfKeys(em, ctx.companyId, filialId, keys);

export interface InboundDetail {
  inbound: NfeInbound;
  inspection: NfeInspection | null;
  events: NfeInboundEvent[];
}

/** The record, its invoice parsed from the stored XML with the report against the filial as it is now, and its events. */
export async function inboundDetail(ctx: TenantContext, id: number, filialId: number): Promise<InboundDetail> {
  const em = readerOf(ctx);
  const inbound = await findFilialInbound(em, ctx, id, filialId);
  const filial = await em.findOneByOrFail(Filial, { id: filialId, companyId: ctx.companyId });
  const inspection = inbound.hasXml ? await inspectNfeXml(await storedXml(em, ctx, inbound), recipientOf(filial)) : null;
  return { inbound, inspection, events: await eventsOf(em, ctx.companyId, inbound.id) };
}

const RELEASE_NOTE = {
  DELETED: 'The imported draft was deleted; the NF-e is pending again',
  CANCELLED: 'The entry document was cancelled; the NF-e is pending again and can be imported anew',
} as const;

/**
 * For the entry document's DELETE of a DRAFT and its cancellation, in that transaction: the inbound
 * record the document was imported from goes back to PENDING, so it is listed as pending and can be
 * imported again. Its events keep the history (IMPORTED, IMPORT_RELEASED naming the document, and a
 * later IMPORTED). Returns how many records were released (0 for a manual document).
 */
export async function releaseImportedInbound(
  em: EntityManager,
  ctx: ActorContext,
  entryDocumentId: number,
  cause: keyof typeof RELEASE_NOTE = 'DELETED',
): Promise<number> {
  const rows = await em.findBy(NfeInbound, { companyId: ctx.companyId, entryDocumentId, importStatus: 'IMPORTED' });
  for (const inbound of rows) {
    if (
      !(await updateInbound(em, ctx.companyId, inbound.id, inbound.version, { importStatus: 'PENDING', entryDocumentId: null }, 'IMPORTED'))
    ) {
      throw new ConflictError('CONCURRENT_UPDATE', 'The inbound NF-e changed while its entry document was being released; retry', {
        retryable: true,
      });
    }
    const released = await reload(em, ctx.companyId, inbound.id);
    await addEvent(em, ctx, released, 'IMPORT_RELEASED', RELEASE_NOTE[cause], {
      entryDocumentId: encodeId('entry-document', entryDocumentId),
      cause,
    });
    await recordAudit(em, ctx, {
      entity: AUDIT_ENTITY,
      entityId: inbound.id,
      action: 'UPDATED',
      changes: { importStatus: ['IMPORTED', 'PENDING'], entryDocumentId: [encodeId('entry-document', entryDocumentId), null] },
    });
    await publishEvent(em, ctx, {
      type: 'nfe.inbound.import-released',
      filialId: released.filialId,
      aggregateType: AUDIT_ENTITY,
      aggregateId: released.id,
      data: { ...toInboundEventData(released), cause },
    });
  }
  return rows.length;
}

export async function inboundXml(ctx: TenantContext, id: number, filialId: number): Promise<{ inbound: NfeInbound; xml: string }> {
  const em = readerOf(ctx);
  const inbound = await findFilialInbound(em, ctx, id, filialId);
  return { inbound, xml: await storedXml(em, ctx, inbound) };
}
