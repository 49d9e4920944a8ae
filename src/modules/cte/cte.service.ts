import { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { Filial } from '../tenancy';
import { assertFilialAccess } from '../tenancy';
import { normalizeText } from '../../core/br-documents';
import type { ActorContext, TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { Page, PageRequest, paginate } from '../../core/pagination';
import type { EntryDocument } from '../entry-document';
import { documentsOfKeys } from '../entry-document';
import type { NfeInbound } from '../inbound-nfe';
import { compressXml, decompressXml, governingFilial, inboundByKeys, xmlSha256 } from '../inbound-nfe';
import type { Payable } from '../payables';
import { ctePayables } from '../payables';
import type { CteAllocation } from './entities/cte-allocation.entity';
import { Cte } from './entities/cte.entity';
import {
  allocationsOf,
  cteListQuery,
  CteFilters,
  findCte,
  findCteByKey,
  insertCte,
  loadCteXmlGzip,
  loadCtesByIds,
  nfeKeysOf,
} from './cte.repository';
import { CteInspection, inspectCteXml } from './xml/inspect';
import type { CteValidationReport, PayerContext } from './xml/cte-validation';

/*
 * CT-e records (SPEC §4b): staging a validated cteProc of which the filial is the payer, the list of
 * a filial, the detail with the parsed document and the NF-e it carried resolved to our records.
 * One record per access key per company; staging the same key again answers the stored record.
 */

export const CTE_AUDIT = 'cte';

export const payerOf = (f: Filial): PayerContext => ({ document: f.cnpj, environment: f.nfeEnvironment });

/** The event payload of a CT-e (hashids only). */
export const cteEventData = (c: Cte) => ({
  cteId: encodeId('cte', c.id),
  filialId: encodeId('filial', c.filialId),
  accessKey: c.accessKey,
  status: c.status,
  carrierDocument: c.issuerDocument,
  number: c.number,
  serviceTotal: Number(c.serviceTotal.toFixed(2)),
  version: c.version,
});

/** Blocking failures refuse staging: 422 with the first failure's code and the whole report. */
function assertStageable(report: CteValidationReport): void {
  if (report.valid) return;
  const first = report.checks.find((c) => c.blocking)!;
  throw new BusinessRuleError(first.code!, first.message, { blockingCodes: report.blockingCodes, report });
}

/** The ICMS highlighted on the freight (the credit the payer may take): vICMS / vICMSOutraUF. */
export const highlightedIcms = (inspection: CteInspection): Dec => inspection.cte.icms?.value ?? new Dec(0);

const notFound = () => new NotFoundError('CT-e', 'CTE_NOT_FOUND');

/** preview: the parsed CT-e and its report against the governing filial, nothing stored. */
export async function previewCte(ctx: TenantContext, xml: string): Promise<{ inspection: CteInspection; existing: Cte | null }> {
  const filial = ctx.filialId ? await governingFilial(ctx) : null;
  const inspection = await inspectCteXml(xml, filial ? payerOf(filial) : null);
  return { inspection, existing: await findCteByKey(readerOf(ctx), ctx.companyId, inspection.cte.accessKey) };
}

export async function insertStaged(
  em: EntityManager,
  ctx: ActorContext,
  filial: Filial,
  xml: string,
  inspection: CteInspection,
): Promise<Cte> {
  const { cte, report } = inspection;
  const name = (cte.issuer.name ?? '').slice(0, 150);
  const id = await insertCte(
    em,
    {
      companyId: ctx.companyId,
      filialId: filial.id,
      accessKey: cte.accessKey,
      status: 'RECEIVED',
      issuerDocument: (cte.issuer.document ?? '').slice(0, 14),
      issuerName: name,
      issuerSearch: normalizeText(name).slice(0, 150),
      issuerStateRegistration: cte.issuer.stateRegistration?.slice(0, 20) ?? null,
      issuerUf: cte.issuer.uf,
      series: cte.ide.series,
      number: cte.ide.number,
      issuedAt: new Date(cte.ide.issuedAt),
      issueDate: cte.ide.issuedAt.slice(0, 10),
      environment: cte.ide.environment === '2' ? 'HOMOLOGATION' : 'PRODUCTION',
      protocolNumber: cte.protocol?.protocolNumber?.slice(0, 20) ?? null,
      authorizedAt: cte.protocol?.receivedAt ? new Date(cte.protocol.receivedAt) : null,
      payerRole: cte.payer!.role,
      serviceTotal: cte.values.serviceTotal,
      receivable: cte.values.receivable,
      icmsValue: highlightedIcms(inspection),
      nfeCount: cte.nfeKeys.length,
      xmlGzip: compressXml(xml),
      xmlSha256: xmlSha256(xml),
      validation: report,
      apportionMethod: null,
      apportionedAmount: new Dec(0),
      recoverableIcms: new Dec(0),
      pisCredit: new Dec(0),
      cofinsCredit: new Dec(0),
      soldShare: new Dec(0),
      entryDate: null,
      supplierId: null,
      apportionedAt: null,
      cancelledAt: null,
      cancelReason: null,
      version: 1,
    },
    cte.nfeKeys,
  );
  const stored = (await findCte(em, ctx.companyId, id))!;
  await recordAudit(em, ctx, {
    entity: CTE_AUDIT,
    entityId: id,
    action: 'CREATED',
    changes: {
      status: [null, 'RECEIVED'],
      accessKey: [null, cte.accessKey],
      serviceTotal: [null, cte.values.serviceTotal.toFixed(2)],
      nfeKeys: [null, cte.nfeKeys],
    },
  });
  await publishEvent(em, ctx, {
    type: 'cte.received',
    filialId: filial.id,
    aggregateType: CTE_AUDIT,
    aggregateId: id,
    data: { ...cteEventData(stored), nfeKeys: cte.nfeKeys },
  });
  return stored;
}

/** stage-xml: validate against the governing filial (it must be the payer), then store. */
export async function stageCte(ctx: TenantContext, xml: string): Promise<{ cte: Cte; created: boolean; inspection: CteInspection }> {
  const filial = await governingFilial(ctx);
  const inspection = await inspectCteXml(xml, payerOf(filial));
  assertStageable(inspection.report);
  return inTransaction(ctx, async (em) => {
    const existing = await findCteByKey(em, ctx.companyId, inspection.cte.accessKey);
    if (existing) return { cte: existing, created: false, inspection };
    try {
      return { cte: await insertStaged(em, ctx, filial, xml, inspection), created: true, inspection };
    } catch (err) {
      // The same key staged at the same moment by another request: theirs is committed now.
      const theirs = isUniqueViolation(err) ? await findCteByKey(readerOf(ctx), ctx.companyId, inspection.cte.accessKey) : null;
      if (!theirs) throw err;
      return { cte: theirs, created: false, inspection };
    }
  });
}

export interface CteListQuery extends PageRequest, CteFilters {
  sort?: 'issueDate' | '-issueDate';
}

export function listCtes(ctx: TenantContext, filialId: number, query: CteListQuery): Promise<Page<Cte>> {
  const em = readerOf(ctx);
  const direction = query.sort === 'issueDate' ? 'ASC' : 'DESC';
  return paginate(
    cteListQuery(em, ctx.companyId, filialId, query),
    [
      { column: 'c.issued_at', direction },
      { column: 'c.id', direction },
    ],
    query,
    (ids) => loadCtesByIds(em, ids),
    (c) => c.id,
  );
}

/** A CT-e of the caller's company (else 404) in a filial the token grants (else 403). */
export async function findAccessibleCte(ctx: TenantContext, id: number, em: EntityManager = readerOf(ctx)): Promise<Cte> {
  const cte = await findCte(em, ctx.companyId, id);
  if (!cte) throw notFound();
  await assertFilialAccess(ctx, cte.filialId);
  return cte;
}

export async function storedCteXml(em: EntityManager, cte: Cte): Promise<string> {
  const gz = await loadCteXmlGzip(em, cte.companyId, cte.id);
  if (!gz) throw notFound();
  return decompressXml(gz);
}

export interface NfeLink {
  accessKey: string;
  inbound: NfeInbound | null;
  entryDocument: EntryDocument | null;
}

/** The NF-e a CT-e carried, each with the filial's inbound record and the live entry document booked from it. */
export async function resolveNfeLinks(em: EntityManager, ctx: ActorContext, cte: Cte, keys?: string[]): Promise<NfeLink[]> {
  const nfeKeys = keys ?? (await nfeKeysOf(em, ctx.companyId, cte.id));
  const inbound = new Map((await inboundByKeys(em, ctx, cte.filialId, nfeKeys)).map((n) => [n.accessKey, n]));
  const documents = await documentsOfKeys(em, ctx.companyId, nfeKeys);
  return nfeKeys.map((accessKey) => ({
    accessKey,
    inbound: inbound.get(accessKey) ?? null,
    entryDocument: documents.get(accessKey) ?? null,
  }));
}

export interface CteDetail {
  cte: Cte;
  inspection: CteInspection;
  links: NfeLink[];
  allocations: CteAllocation[];
  payables: Payable[];
}

/** The record, its document parsed from the stored XML (report against its filial as it is now), links, allocations, payables. */
export async function cteDetail(ctx: TenantContext, id: number): Promise<CteDetail> {
  const em = readerOf(ctx);
  const cte = await findAccessibleCte(ctx, id, em);
  const filial = await governingFilial({ ...ctx, filialId: cte.filialId }, em);
  const inspection = await inspectCteXml(await storedCteXml(em, cte), payerOf(filial));
  return {
    cte,
    inspection,
    links: await resolveNfeLinks(em, ctx, cte, inspection.cte.nfeKeys),
    allocations: await allocationsOf(em, ctx.companyId, cte.id),
    payables: await ctePayables(em, ctx.companyId, cte.id),
  };
}

export async function cteXml(ctx: TenantContext, id: number): Promise<{ cte: Cte; xml: string }> {
  const cte = await findAccessibleCte(ctx, id);
  return { cte, xml: await storedCteXml(readerOf(ctx), cte) };
}
