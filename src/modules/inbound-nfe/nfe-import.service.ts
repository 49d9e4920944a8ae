import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess, Filial } from '../tenancy';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext, TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { EntryDocument } from '../entry-document';
import {
  createEntryDocumentDraft,
  documentByAccessKey,
  PreparedDraft,
  prepareDraft,
  resolveSupplier,
  SupplierSnapshot,
} from '../entry-document';
import { ItemMatch, linkSupplierItem, matchSupplierItems, recordMapUse } from '../product-map';
import type { NfeInbound } from './entities/nfe-inbound.entity';
import { toInboundEventData } from './nfe.events';
import { ItemOverride, ItemResolution, toDraftInput } from './nfe-draft';
import { linkToPurchaseOrders, purchaseOrdersOfPreview } from './nfe-purchase';
import { findInbound, insertInboundEvent, updateInbound } from './nfe-inbound.repository';
import {
  assertImportable,
  AUDIT_ENTITY,
  findByKeyInFilial,
  findFilialInbound,
  governingFilial,
  recipientOf,
  storedXml,
  upsertInbound,
} from './nfe-inbound.service';
import { inspectNfeXml, NfeInspection } from './xml/inspect';
import type { ParsedNfe } from '../fiscal-xml';

/*
 * preview-import and the imports (SPEC §4): the invoice's items resolved through the product map,
 * the entry document draft that follows, and — for importar-xml / importar — that draft created in
 * one transaction with the inbound record marked IMPORTED. The same key imported twice in a company
 * → 409 NFE_ALREADY_IMPORTED naming the document (createEntryDocumentDraft checks the key, and the
 * entry document's unique index on (company_id, access_key) decides a race).
 */

export interface ImportOptions {
  items?: ItemOverride[];
  entryDate?: string;
  notes?: string | null;
}

/** Product-map resolution per item (all unmatched when the issuer's document is not a valid CPF/CNPJ). */
async function matchItems(em: EntityManager, ctx: ActorContext, nfe: ParsedNfe): Promise<(ItemMatch | null)[]> {
  const supplier = normalizeDocument(nfe.issuer.document ?? '');
  if (!supplier) return nfe.items.map(() => null);
  return matchSupplierItems(
    ctx,
    supplier,
    nfe.items.map((i) => ({ code: i.code, description: i.description, gtin: i.gtin, unit: i.unit })),
    em,
  );
}

function assertIssuerDocument(nfe: ParsedNfe): string {
  const document = normalizeDocument(nfe.issuer.document ?? '');
  if (!document) {
    throw new BusinessRuleError(
      'NFE_ISSUER_DOCUMENT_INVALID',
      `The issuer's CNPJ/CPF ${nfe.issuer.document ?? '(none)'} is not valid; the supplier cannot be registered`,
    );
  }
  return document;
}

function alreadyImportedError(accessKey: string, doc: EntryDocument): ConflictError {
  return new ConflictError('NFE_ALREADY_IMPORTED', `The NF-e ${accessKey} was already imported`, {
    entryDocumentId: encodeId('entry-document', doc.id),
  });
}

export interface ImportPreview {
  inspection: NfeInspection;
  inbound: NfeInbound | null;
  resolutions: ItemResolution[];
  prepared: PreparedDraft;
  supplier: SupplierSnapshot | null;
  alreadyImported: EntryDocument | null;
  purchase: Awaited<ReturnType<typeof purchaseOrdersOfPreview>>;
}

/** The XML of the body, or the stored XML of a record of the filial found by access key. */
async function sourceXml(em: EntityManager, ctx: TenantContext, filialId: number, body: { xml?: string; accessKey?: string }) {
  if (body.xml !== undefined) return { xml: body.xml, inbound: null };
  const inbound = await findByKeyInFilial(em, ctx, filialId, body.accessKey!);
  return { xml: await storedXml(em, ctx, inbound), inbound };
}

/** preview: the parsed invoice and its report (nothing written). */
export async function previewNfe(ctx: TenantContext, body: { xml?: string; accessKey?: string }) {
  const em = readerOf(ctx);
  const filial = await governingFilial(ctx, em);
  const { xml, inbound } = await sourceXml(em, ctx, filial.id, body);
  const inspection = await inspectNfeXml(xml, recipientOf(filial));
  const alreadyImported = await documentByAccessKey(em, ctx.companyId, inspection.nfe.accessKey);
  return { inspection, inbound, alreadyImported };
}

/** preview-import: the preview plus the product-map resolution and the draft it would create. */
export async function previewImport(
  ctx: TenantContext,
  body: { xml?: string; accessKey?: string } & ImportOptions,
): Promise<ImportPreview> {
  const em = readerOf(ctx);
  const filial = await governingFilial(ctx, em);
  const { xml, inbound } = await sourceXml(em, ctx, filial.id, body);
  const inspection = await inspectNfeXml(xml, recipientOf(filial));
  const { nfe } = inspection;
  const matches = await matchItems(em, ctx, nfe);
  const origin = inbound?.source === 'SEFAZ' ? 'NFE_SEFAZ' : 'NFE_XML';
  const { draft, resolutions } = toDraftInput(nfe, {
    filialId: filial.id,
    origin,
    matches,
    overrides: body.items,
    entryDate: body.entryDate,
    notes: body.notes,
  });
  const prepared = await prepareDraft(em, ctx.companyId, draft);
  await linkToPurchaseOrders(em, ctx, filial.id, nfe, prepared, resolutions);
  const supplier = normalizeDocument(nfe.issuer.document ?? '') ? await resolveSupplier(em, ctx, prepared.input, false) : null;
  const alreadyImported = await documentByAccessKey(em, ctx.companyId, nfe.accessKey);
  const purchase = await purchaseOrdersOfPreview(em, ctx, filial.id, nfe, prepared);
  return { inspection, inbound, resolutions, prepared, supplier, alreadyImported, purchase };
}

export interface ImportResult {
  entryDocument: EntryDocument;
  inbound: NfeInbound;
  resolutions: ItemResolution[];
  inspection: NfeInspection;
}

/**
 * The draft for a validated invoice and its inbound record, in the caller's transaction: items
 * resolved (request overrides win), mappings saved where asked, map use counted, record IMPORTED.
 */
async function importInTransaction(
  em: EntityManager,
  ctx: ActorContext,
  filial: Filial,
  inbound: NfeInbound,
  inspection: NfeInspection,
  opts: ImportOptions,
  /** The product-map resolution already under way (read while the signature was checked), if any. */
  prematched?: Promise<(ItemMatch | null)[]>,
): Promise<ImportResult> {
  const { nfe } = inspection;
  if (inbound.authorityStatus === 'CANCELLED') {
    throw new BusinessRuleError('NFE_CANCELLED', `The NF-e ${nfe.accessKey} was cancelled by its issuer`, { accessKey: nfe.accessKey });
  }
  const existing = await documentByAccessKey(em, ctx.companyId, nfe.accessKey);
  if (existing) throw alreadyImportedError(nfe.accessKey, existing);

  const supplierDocument = assertIssuerDocument(nfe);
  const matches = prematched ? await prematched : await matchItems(em, ctx, nfe);
  const origin = inbound.source === 'SEFAZ' ? 'NFE_SEFAZ' : 'NFE_XML';
  const { draft, resolutions } = toDraftInput(nfe, {
    filialId: filial.id,
    origin,
    matches,
    overrides: opts.items,
    entryDate: opts.entryDate,
    notes: opts.notes,
  });
  const doc = await createEntryDocumentDraft(em, ctx, draft, (prepared) =>
    linkToPurchaseOrders(em, ctx, filial.id, nfe, prepared, resolutions),
  );

  const byLine = new Map(nfe.items.map((i) => [i.lineNumber, i]));
  for (const r of resolutions.filter((x) => x.saveMapping && x.productId)) {
    const item = byLine.get(r.lineNumber)!;
    await linkSupplierItem(
      em,
      ctx,
      {
        supplierDocument,
        supplierProductCode: item.code,
        productId: r.productId!,
        conversionFactor: r.conversionFactor,
        supplierUnit: item.unit,
        supplierDescription: item.description,
        gtin: item.gtin,
        countUse: true,
      },
      { eventExtra: { source: 'nfe-import', accessKey: nfe.accessKey } },
    );
  }
  const usedMapCodes = resolutions.filter((r) => r.source === 'MAP' && !r.saveMapping).map((r) => byLine.get(r.lineNumber)!.code);
  await recordMapUse(em, ctx, supplierDocument, usedMapCodes);

  const changes = {
    importStatus: [inbound.importStatus, 'IMPORTED'] as [unknown, unknown],
    entryDocumentId: [
      inbound.entryDocumentId ? encodeId('entry-document', inbound.entryDocumentId) : null,
      encodeId('entry-document', doc.id),
    ] as [unknown, unknown],
  };
  if (
    !(await updateInbound(
      em,
      ctx.companyId,
      inbound.id,
      inbound.version,
      { importStatus: 'IMPORTED', entryDocumentId: doc.id },
      inbound.importStatus,
    ))
  ) {
    throw new ConflictError('CONCURRENT_UPDATE', 'The inbound NF-e changed while being imported; retry', { retryable: true });
  }
  const updated = (await findInbound(em, ctx.companyId, inbound.id))!;
  await insertInboundEvent(em, {
    companyId: ctx.companyId,
    filialId: updated.filialId,
    inboundId: updated.id,
    type: 'IMPORTED',
    eventCode: null,
    sequence: null,
    protocol: null,
    description: `Imported as entry document ${doc.series}/${doc.number} (DRAFT)`,
    actor: ctx.actor,
    occurredAt: new Date(),
    data: { entryDocumentId: encodeId('entry-document', doc.id), origin },
  });
  await recordAudit(em, ctx, { entity: AUDIT_ENTITY, entityId: updated.id, action: 'IMPORTED', changes });
  await publishEvent(em, ctx, {
    type: 'nfe.inbound.imported',
    filialId: updated.filialId,
    aggregateType: AUDIT_ENTITY,
    aggregateId: updated.id,
    data: toInboundEventData(updated),
  });
  return { entryDocument: doc, inbound: updated, resolutions, inspection };
}

/** importar-xml: validate, stage and import in one transaction (origin NFE_XML). */
export async function importXml(ctx: TenantContext, body: { xml: string } & ImportOptions): Promise<ImportResult> {
  const filial = await governingFilial(ctx);
  // The product-map resolution (reads only, as preview-import does them) runs while the worker thread
  // checks the signature; the transaction then uses it. Read-committed either way: the map entries and
  // products it sees are the committed ones of that moment, inside the transaction or just before it.
  let prematched: Promise<(ItemMatch | null)[]> | undefined;
  const inspection = await inspectNfeXml(body.xml, recipientOf(filial), (nfe) => {
    prematched = matchItems(readerOf(ctx), ctx, nfe);
    prematched.catch(() => undefined);
  });
  assertImportable(inspection.report);
  assertIssuerDocument(inspection.nfe);
  return inTransaction(ctx, async (em) => {
    const { inbound } = await upsertInbound(em, ctx, filial.id, body.xml, inspection, 'UPLOAD');
    return importInTransaction(em, ctx, filial, inbound, inspection, body, prematched);
  });
}

/**
 * importar: the draft from a staged record (by inboundId, in any granted filial, or by access key
 * in the filial of x-filial-id), revalidated against its filial as it is now. Origin NFE_SEFAZ for
 * records that came from the tax authority, NFE_XML for uploads.
 */
export async function importStaged(
  ctx: TenantContext,
  body: { inboundId?: number; accessKey?: string } & ImportOptions,
): Promise<ImportResult> {
  const em = readerOf(ctx);
  let inbound: NfeInbound;
  if (body.inboundId !== undefined) {
    const found = await findInbound(em, ctx.companyId, body.inboundId);
    // Another company's id is unknown (404); a filial of the company the token does not grant is 403.
    if (found) await assertFilialAccess(ctx, found.filialId);
    inbound = await findFilialInbound(em, ctx, body.inboundId, found?.filialId ?? 0);
  } else {
    inbound = await findByKeyInFilial(em, ctx, (await governingFilial(ctx, em)).id, body.accessKey!);
  }
  const filial = await em.findOneByOrFail(Filial, { id: inbound.filialId, companyId: ctx.companyId });
  const xml = await storedXml(em, ctx, inbound);
  const inspection = await inspectNfeXml(xml, recipientOf(filial));
  assertImportable(inspection.report);
  return inTransaction(ctx, async (tx) => {
    // Re-read inside the transaction: the version decides a concurrent import of the same record.
    const current = (await findInbound(tx, ctx.companyId, inbound.id))!;
    return importInTransaction(tx, ctx, filial, current, inspection, body);
  });
}
