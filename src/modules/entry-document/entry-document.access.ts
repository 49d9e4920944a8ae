import { readerOf } from '../../core/db/transaction';
import { EntityManager } from 'typeorm';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { decodeId } from '../../core/hashids';
import { NotFoundError } from '../../core/errors';
import { EntryDocument } from './entities/entry-document.entity';
import { findByAccessKey, findDocument, lastAuditOf } from './entry-document.repository';

/**
 * A document of the caller's company (else 404, whatever exists elsewhere) in a filial the token
 * grants (else 403).
 */
export async function findAccessibleDocument(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<EntryDocument> {
  const doc = await findDocument(em, ctx.companyId, id);
  if (!doc) throw new NotFoundError('Entry document');
  await assertFilialAccess(ctx, doc.filialId);
  return doc;
}

/**
 * The document as a transaction sees it now. Writes call findAccessibleDocument first, outside the
 * transaction: the filial check reads through the pool, and taking a second connection while holding
 * one could starve the pool under load.
 */
export async function currentDocument(em: EntityManager, ctx: TenantContext, id: number): Promise<EntryDocument> {
  const doc = await findDocument(em, ctx.companyId, id);
  if (!doc) throw new NotFoundError('Entry document');
  return doc;
}

/**
 * For the audit routes: a deleted draft's trail stays readable. Its filial is taken from the DELETED
 * audit row, so the filial grant is still enforced.
 */
export async function assertTrailAccess(ctx: TenantContext, id: number): Promise<EntryDocument | null> {
  const doc = await findDocument(readerOf(ctx), ctx.companyId, id);
  if (doc) {
    await assertFilialAccess(ctx, doc.filialId);
    return doc;
  }
  const deleted = await lastAuditOf(readerOf(ctx), ctx.companyId, id, 'DELETED');
  const filialHash = deleted?.changes?.filialId?.[0];
  if (!deleted || typeof filialHash !== 'string') throw new NotFoundError('Entry document');
  await assertFilialAccess(ctx, decodeId('filial', filialHash));
  return null;
}

/** The company's entry document of an access key, if one was booked (the NF-e import checks before importing). */
export const documentByAccessKey = (em: EntityManager, companyId: number, accessKey: string): Promise<EntryDocument | null> =>
  findByAccessKey(em, companyId, accessKey);

/** findAccessibleDocument as a check only: payables' entry-document access port (payables.ports.ts; src/modules/index.ts). */
export async function assertDocumentAccess(ctx: TenantContext, id: number): Promise<void> {
  await findAccessibleDocument(ctx, id);
}
