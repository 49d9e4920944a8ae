import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { AppError, BusinessRuleError, RateLimitedError } from '../../core/errors';
import type { NfeInbound } from '../inbound-nfe';
import { findByKeyInFilial, findFilialInbound, findInboundByKey, governingFilial } from '../inbound-nfe';
import type { Filial } from '../tenancy';
import { authorityAnswerError, distOutcome } from '../authority';
import { applyDocuments, emptySummary, IngestSummary, prepareDocuments } from './dfe-ingest';
import { manifestInbound, ManifestResult } from './manifestation.service';
import { clientFor } from '../sefaz';

/*
 * Point lookups by access key (consChNFe): `consultar-por-chave` stores whatever the authority has
 * for the key; `download-xml` fetches the full XML of a summary, sending CIENCIA first when the
 * filial's autoCiencia is on and nothing was manifested (the authority releases the XML only after
 * ciência, confirmação or operação não realizada).
 */

const HOUR_SECONDS = 3600;

export interface KeyQueryResult {
  cStat: string;
  xMotivo: string;
  inbound: NfeInbound | null;
  summary: IngestSummary;
}

async function consult(ctx: TenantContext, filial: Filial, accessKey: string): Promise<KeyQueryResult> {
  const client = await clientFor(filial);
  const r = await client.distDFe({ kind: 'consChNFe', accessKey });
  const summary = emptySummary();
  switch (distOutcome(r.cStat)) {
    case 'DOCUMENTS': {
      const prepared = await prepareDocuments(filial, r.documents);
      await inTransaction(ctx, (em) => applyDocuments(em, ctx, filial, prepared, r.tpAmb, summary));
      return {
        cStat: r.cStat,
        xMotivo: r.xMotivo,
        inbound: await findInboundByKey(readerOf(ctx), ctx.companyId, filial.id, accessKey),
        summary,
      };
    }
    case 'NOTHING_NEW':
      return { cStat: r.cStat, xMotivo: r.xMotivo, inbound: null, summary };
    case 'BLOCKED':
      throw new RateLimitedError(`The authority refused the query for an hour: ${r.xMotivo}`, HOUR_SECONDS, 'SEFAZ_CONSUMO_INDEVIDO', {
        cStat: r.cStat,
        xMotivo: r.xMotivo,
      });
    default:
      throw authorityAnswerError(r.cStat, r.xMotivo, 'Query by access key');
  }
}

/** `consultar-por-chave`: what the authority has for one key, stored on the filial's record. */
export async function queryByKey(ctx: TenantContext, accessKey: string): Promise<KeyQueryResult & { inbound: NfeInbound }> {
  const filial = await governingFilial(ctx);
  const result = await consult(ctx, filial, accessKey);
  if (!result.inbound) {
    throw new AppError(
      'not_found',
      'SEFAZ_DOCUMENT_NOT_FOUND',
      `The authority has no document ${accessKey} for this filial (${result.cStat} ${result.xMotivo})`,
      {
        cStat: result.cStat,
        xMotivo: result.xMotivo,
      },
    );
  }
  return result as KeyQueryResult & { inbound: NfeInbound };
}

export interface DownloadResult {
  inbound: NfeInbound;
  /** The XML was fetched now (false: it was already stored). */
  downloaded: boolean;
  /** The CIENCIA sent first (autoCiencia), when one was. */
  ciencia: ManifestResult | null;
  cStat: string | null;
  xMotivo: string | null;
}

/** `download-xml`: the full XML of a summary record. */
export async function downloadXml(ctx: TenantContext, ref: { accessKey?: string; inboundId?: number }): Promise<DownloadResult> {
  const filial = await governingFilial(ctx);
  let inbound =
    ref.inboundId !== undefined
      ? await findFilialInbound(readerOf(ctx), ctx, ref.inboundId, filial.id)
      : await findByKeyInFilial(readerOf(ctx), ctx, filial.id, ref.accessKey!);
  if (inbound.hasXml) return { inbound, downloaded: false, ciencia: null, cStat: null, xMotivo: null };

  let ciencia: ManifestResult | null = null;
  if (inbound.manifestation === 'NONE') {
    if (!filial.autoCiencia) {
      throw new BusinessRuleError(
        'MANIFESTATION_REQUIRED',
        `The authority releases the XML of ${inbound.accessKey} only after a manifestation (CIENCIA or CONFIRMACAO); the filial's autoCiencia is off`,
        {
          accessKey: inbound.accessKey,
        },
      );
    }
    ciencia = await manifestInbound(ctx, filial, inbound, { event: 'CIENCIA' });
    inbound = ciencia.inbound;
  } else if (inbound.manifestation === 'DESCONHECIDA') {
    throw new BusinessRuleError(
      'NFE_XML_NOT_RELEASED',
      `The operation of ${inbound.accessKey} was declared unknown (desconhecimento): the authority does not release its XML`,
      {
        accessKey: inbound.accessKey,
      },
    );
  }

  const result = await consult(ctx, filial, inbound.accessKey);
  const stored = result.inbound ?? inbound;
  if (!stored.hasXml) {
    throw new BusinessRuleError(
      'NFE_XML_NOT_RELEASED',
      `The authority has not released the XML of ${inbound.accessKey} yet (${result.cStat} ${result.xMotivo}); the manifestation is recorded, try again later`,
      {
        accessKey: inbound.accessKey,
        cStat: result.cStat,
        xMotivo: result.xMotivo,
        manifestation: stored.manifestation,
      },
    );
  }
  return { inbound: stored, downloaded: true, ciencia, cStat: result.cStat, xMotivo: result.xMotivo };
}
