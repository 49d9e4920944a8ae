import type { EntityManager } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { ActorContext, TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { allocate, Dec, sum, toJsonNumber } from '../../core/decimal';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { businessToday } from '../../core/business-date';
import { encodeId } from '../../core/hashids';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { publishEvent } from '../../core/outbox/outbox.service';
import type { FixedAssetCredits, FixedAssetEntry, FixedAssetLine } from '../entry-document';
import { assertPeriodOpen } from '../fiscal-periods';
import { assertFilialAccess, lockFilialRow } from '../tenancy';
import type { CiapAppropriation } from './entities/ciap-appropriation.entity';
import type { CiapAsset, CiapAssetStatus } from './entities/ciap-asset.entity';
import type { CiapPart } from './entities/ciap-part.entity';
import { addMonths, creditOf, monthExitShare, splitParts } from './exit-share';
import {
  activeAssetsOfDocument,
  appropriationsByIds,
  assetListQuery,
  assetsByIds,
  AUDIT_APPROPRIATION,
  AUDIT_ASSET,
  cancelAsset,
  dropPendingParts,
  findAsset,
  insertAppropriation,
  insertAsset,
  insertParts,
  markAppropriated,
  monthAppropriation,
  partsOf,
  partsOfAppropriation,
  partsOfAssets,
  pendingPartsOfMonth,
  setPartCredit,
  updateAppropriation,
} from './ciap.repository';

/*
 * The CIAP (Controle de Crédito de ICMS do Ativo Permanente, LC 87/1996 art. 20 §5): the ICMS of a good
 * entering the fixed assets is credited 1/48 a month from the month of entry (I), each month's part in
 * proportion to the taxed share of the month's exits (II, III); the parts of an asset that leaves
 * (here: its entry cancelled) before its 48 months are not taken (V, VI by analogy; row 9 of
 * docs/decisions/tax-law-rows.md). The records are what the EFD's G110/G125/G126 read.
 */

/** LC 87/1996 art. 20 §5 I: "à razão de um quarenta e oito avos por mês". */
export const CIAP_PARTS = 48;

const assetEventData = (a: CiapAsset) => ({
  assetId: encodeId('ciap-asset', a.id),
  entryDocumentId: encodeId('entry-document', a.entryDocumentId),
  lineNumber: a.lineNumber,
  firstMonth: a.firstMonth,
  totalCredit: toJsonNumber(a.totalCredit, 'amount'),
  partCount: a.partCount,
  status: a.status,
});

/**
 * The lines of a confirmed entry booked as fixed assets, into the CIAP: one asset per line with ICMS to
 * credit. A Simples Nacional filial takes no ICMS credit (LC 123/2006 art. 23): no asset is recorded.
 */
export async function recordAssets(em: EntityManager, ctx: ActorContext, entry: FixedAssetEntry, lines: FixedAssetLine[]): Promise<number> {
  if (entry.taxRegime === 'SIMPLES_NACIONAL') return 0;
  let recorded = 0;
  for (const line of lines) {
    const icmsFreight = new Dec(0);
    const icmsDifal = new Dec(0);
    const total = sum([line.icms, line.icmsSt, icmsFreight, icmsDifal]);
    if (!total.gt(0)) continue;
    const asset = await insertAsset(em, {
      companyId: entry.companyId,
      filialId: entry.filialId,
      entryDocumentId: entry.entryDocumentId,
      entryDocumentItemId: line.itemId,
      lineNumber: line.lineNumber,
      description: line.description.slice(0, 500),
      ncm: line.ncm,
      entryCfop: line.entryCfop,
      documentNumber: entry.documentNumber,
      accessKey: entry.accessKey,
      supplierDocument: entry.supplierDocument,
      entryDate: entry.entryDate,
      firstMonth: entry.entryDate.slice(0, 7),
      icmsOwn: line.icms,
      icmsSt: line.icmsSt,
      icmsFreight,
      icmsDifal,
      totalCredit: total,
      partCount: CIAP_PARTS,
      status: 'ACTIVE',
      cancelledAt: null,
      cancelReason: null,
    });
    await insertParts(
      em,
      splitParts(total, CIAP_PARTS).map((amount, i) => ({
        companyId: asset.companyId,
        filialId: asset.filialId,
        assetId: asset.id,
        number: i + 1,
        month: addMonths(asset.firstMonth, i),
        amount,
        status: 'PENDING' as const,
        credited: null,
        appropriationId: null,
      })),
    );
    await recordAudit(em, ctx, {
      entity: AUDIT_ASSET,
      entityId: asset.id,
      action: 'RECORDED',
      changes: { status: [null, 'ACTIVE'], totalCredit: [null, total.toFixed(2)] },
    });
    await publishEvent(em, ctx, {
      type: 'ciap-asset.recorded',
      filialId: asset.filialId,
      aggregateType: AUDIT_ASSET,
      aggregateId: asset.id,
      data: assetEventData(asset),
    });
    recorded++;
  }
  return recorded;
}

/** The entry was cancelled: its assets leave the CIAP, their parts not yet appropriated dropped (those booked stay in their months). */
export async function cancelAssets(em: EntityManager, ctx: ActorContext, entryDocumentId: number, reason: string | null): Promise<number> {
  const assets = await activeAssetsOfDocument(em, ctx.companyId, entryDocumentId);
  const cancelledAt = new Date();
  let cancelled = 0;
  for (const asset of assets) {
    if (!(await cancelAsset(em, ctx.companyId, asset.id, cancelledAt, reason))) continue;
    const dropped = await dropPendingParts(em, ctx.companyId, asset.id);
    await recordAudit(em, ctx, {
      entity: AUDIT_ASSET,
      entityId: asset.id,
      action: 'CANCELLED',
      changes: { status: ['ACTIVE', 'CANCELLED'], ...(reason ? { cancelReason: [null, reason] } : {}) },
    });
    await publishEvent(em, ctx, {
      type: 'ciap-asset.cancelled',
      filialId: asset.filialId,
      aggregateType: AUDIT_ASSET,
      aggregateId: asset.id,
      data: {
        ...assetEventData({ ...asset, status: 'CANCELLED' }),
        droppedParts: dropped,
        appropriatedParts: asset.partCount - dropped,
        reason,
      },
    });
    cancelled++;
  }
  return cancelled;
}

export const fixedAssetCreditsProvider: FixedAssetCredits = { recordAssets, cancelAssets };

export interface AppropriationView {
  appropriation: CiapAppropriation;
  parts: CiapPart[];
  assets: Map<number, CiapAsset>;
  /** Parts this call booked (0: the month's parts were already booked). */
  booked: number;
  /** Whether this call moved the month's share to the books' figures of now (a document of the month issued or cancelled since). */
  revised: boolean;
}

async function appropriationView(
  em: EntityManager,
  companyId: number,
  appropriation: CiapAppropriation,
  booked: number,
  revised: boolean,
): Promise<AppropriationView> {
  const parts = await partsOfAppropriation(em, companyId, appropriation.id);
  const assets = await assetsByIds(em, companyId, [...new Set(parts.map((p) => p.assetId))]);
  return { appropriation, parts, assets: new Map(assets.map((a) => [a.id, a])), booked, revised };
}

/**
 * Books month M's parts of the filial: each PENDING part of an ACTIVE asset whose month is M, credited
 * at part × taxed exits / total exits of M (the fiscal books). Once per month: the month has one record;
 * a later call books only parts still pending (an asset entered into M after the first call) and, while
 * M is open, brings the share up to the books (a document of M issued or cancelled since): the month's
 * credit is then Σ its parts × the share of now, never a part twice. Closing M freezes it
 * (assertPeriodOpen). Calls for one filial are serialized on the filial's row, so two at once book M once.
 */
export async function appropriateMonth(ctx: TenantContext, input: { filialId: number; month: string }): Promise<AppropriationView> {
  const { filialId, month } = input;
  await assertFilialAccess(ctx, filialId);
  if (month > businessToday().slice(0, 7)) {
    throw new BusinessRuleError('CIAP_MONTH_IN_FUTURE', `The month ${month} has not begun: its exits are not known`, { month });
  }
  return inTransaction(ctx, async (em) => {
    await lockFilialRow(em, ctx.companyId, filialId);
    await assertPeriodOpen(em, ctx.companyId, filialId, `${month}-01`);
    const share = await monthExitShare(em, ctx.companyId, filialId, month);
    const exitShare = share.total.gt(0) ? share.taxed.div(share.total).toDecimalPlaces(8) : new Dec(0);
    let appropriation = await monthAppropriation(em, ctx.companyId, filialId, month);
    const created = !appropriation;
    if (!appropriation) {
      const row = {
        companyId: ctx.companyId,
        filialId,
        month,
        taxedExits: share.taxed,
        totalExits: share.total,
        exitShare,
        partsTotal: new Dec(0),
        credited: new Dec(0),
        partCount: 0,
      };
      try {
        appropriation = await insertAppropriation(em, { ...row, source: share.source.slice(0, 200), createdBy: ctx.actor.slice(0, 100) });
      } catch (err) {
        // Another call made the month's record first (where the filial's lock did not hold them apart): use it.
        if (!isUniqueViolation(err)) throw err;
        appropriation = (await monthAppropriation(em, ctx.companyId, filialId, month))!;
      }
    }
    const revised = !appropriation.taxedExits.eq(share.taxed) || !appropriation.totalExits.eq(share.total);
    const pending = await pendingPartsOfMonth(em, ctx.companyId, filialId, month);
    // The month's credit is its parts' sum × the share, to the cent (G126: VL_PARC_APROP = SOM_PARC × IND_PER_SAI),
    // spread over the parts by their amounts (the residue on the last): over the parts this call books, or,
    // when the share moved, over every part of the month again.
    const partsAdded = sum(pending.map((p) => p.amount));
    const partsTotal = appropriation.partsTotal.plus(partsAdded);
    const credited = creditOf(partsTotal, share);
    const earlier = revised ? await partsOfAppropriation(em, ctx.companyId, appropriation.id) : [];
    const spread = [...earlier, ...pending];
    const shares = allocate(
      revised ? credited : credited.minus(appropriation.credited),
      spread.map((p) => p.amount),
    );
    for (const [i, part] of earlier.entries())
      if (!part.credited?.eq(shares[i])) await setPartCredit(em, ctx.companyId, part.id, shares[i]);
    for (const [i, part] of pending.entries()) {
      // The filial's lock keeps the parts pending under us; a miss would leave the month's sum wrong, so it fails the call.
      if (!(await markAppropriated(em, ctx.companyId, part, shares[earlier.length + i], appropriation.id)))
        throw new ConflictError('CIAP_PART_CHANGED', `Part ${part.number} of a CIAP asset changed during the appropriation; try again`);
    }
    if (pending.length || revised) {
      await updateAppropriation(em, appropriation, {
        partCount: appropriation.partCount + pending.length,
        partsTotal,
        credited,
        ...(revised ? { taxedExits: share.taxed, totalExits: share.total, exitShare, source: share.source.slice(0, 200) } : {}),
      });
    }
    if (created || pending.length || revised) {
      await recordAudit(em, ctx, {
        entity: AUDIT_APPROPRIATION,
        entityId: appropriation.id,
        action: created ? 'BOOKED' : pending.length ? 'PARTS_ADDED' : 'REVISED',
        changes: {
          parts: [created ? null : appropriation.partCount, appropriation.partCount + pending.length],
          credited: [created ? null : appropriation.credited.toFixed(2), credited.toFixed(2)],
          ...(revised
            ? {
                taxedExits: [appropriation.taxedExits.toFixed(2), share.taxed.toFixed(2)],
                totalExits: [appropriation.totalExits.toFixed(2), share.total.toFixed(2)],
              }
            : {}),
        },
      });
      await publishEvent(em, ctx, {
        type: created || pending.length ? 'ciap-appropriation.booked' : 'ciap-appropriation.revised',
        filialId,
        aggregateType: AUDIT_APPROPRIATION,
        aggregateId: appropriation.id,
        data: {
          filialId: encodeId('filial', filialId),
          month,
          partsBooked: pending.length,
          partCount: appropriation.partCount + pending.length,
          partsTotal: toJsonNumber(partsTotal, 'amount'),
          credited: toJsonNumber(credited, 'amount'),
          previousCredited: created ? null : toJsonNumber(appropriation.credited, 'amount'),
          taxedExits: toJsonNumber(share.taxed, 'amount'),
          totalExits: toJsonNumber(share.total, 'amount'),
        },
      });
    }
    const current = (await monthAppropriation(em, ctx.companyId, filialId, month))!;
    return appropriationView(em, ctx.companyId, current, pending.length, revised);
  });
}

export interface AssetSummary {
  asset: CiapAsset;
  parts: CiapPart[];
}

export interface AssetListQuery extends PageRequest {
  status?: CiapAssetStatus;
}

/** The filial's CIAP assets, newest first, each with its parts' figures. */
export async function listAssets(ctx: TenantContext, filialId: number, query: AssetListQuery): Promise<Page<AssetSummary>> {
  const em = readerOf(ctx);
  return paginate(
    assetListQuery(em, ctx.companyId, filialId, query.status),
    [{ column: 'a.id', direction: 'DESC' }],
    query,
    async (ids) => {
      const [assets, parts] = [await assetsByIds(em, ctx.companyId, ids), await partsOfAssets(em, ctx.companyId, ids)];
      return assets.map((asset) => ({ asset, parts: parts.filter((p) => p.assetId === asset.id) }));
    },
    (s) => s.asset.id,
  );
}

export interface AssetDetail extends AssetSummary {
  appropriations: Map<number, CiapAppropriation>;
}

/** One asset with its 48 parts and the months' appropriations that booked them (404 for another tenant's or an ungranted filial's). */
export async function assetDetail(ctx: TenantContext, id: number): Promise<AssetDetail> {
  const em = readerOf(ctx);
  const asset = await findAsset(em, ctx.companyId, id);
  if (!asset) throw new NotFoundError('CIAP asset', 'CIAP_ASSET_NOT_FOUND');
  try {
    await assertFilialAccess(ctx, asset.filialId, em);
  } catch (err) {
    if (err instanceof NotFoundError || (err as { kind?: string }).kind === 'forbidden')
      throw new NotFoundError('CIAP asset', 'CIAP_ASSET_NOT_FOUND');
    throw err;
  }
  const parts = await partsOf(em, ctx.companyId, id);
  const appropriations = await appropriationsByIds(em, ctx.companyId, [
    ...new Set(parts.map((p) => p.appropriationId).filter((a): a is number => a !== null)),
  ]);
  return { asset, parts, appropriations: new Map(appropriations.map((a) => [a.id, a])) };
}
