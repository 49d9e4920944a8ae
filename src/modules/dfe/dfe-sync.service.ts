import { sefazConfig } from '../../core/config/sefaz';
import type { TenantContext } from '../../core/context';
import { inTransaction, NO_UNIT } from '../../core/db/transaction';
import { ConflictError, RateLimitedError } from '../../core/errors';
import { governingFilial } from '../inbound-nfe';
import type { Filial } from '../tenancy';
import { authorityAnswerError, distOutcome, DistResult, NSU_ZERO, nsuToBigInt, padNsu, type AuthorityClient } from '../authority';
import { applyDocuments, emptySummary, IngestSummary, prepareDocuments, SkippedDocument } from './dfe-ingest';
import { ensureState, findState, updateState, updateStateOrFail } from './dfe-state.repository';
import type { DfeState, NsuGap } from './entities/dfe-state.entity';
import { clientFor } from '../sefaz';

/*
 * `consultar`: the incremental DF-e sync of a filial (protocol notes §3.3). Continue from the stored
 * ultNSU — exactly the value the authority returned — page by page until ultNSU = maxNSU, persisting
 * it after every page; then wait an hour, as after 137 or 656 (a query before then answers 429 and
 * sends nothing). A 656 that names another position (another system polling the same CNPJ) moves to
 * it and leaves the skipped NSUs as gaps, fetched one by one (consNSU) by the next syncs.
 * One sync at a time per filial (a lease on the state row): a second one would break the sequence.
 */

const LEASE_MS = 5 * 60_000;
/** A gap wider than this is trimmed to its newest NSUs: older documents have left the 3-month window anyway. */
const MAX_GAP_SPAN = 1000n;

export interface SyncResult {
  received: number;
  ultNSU: string;
  maxNSU: string;
  cStat: string | null;
  xMotivo: string | null;
  nextAllowedAt: Date | null;
  calls: number;
  summaries: number;
  documents: number;
  events: number;
  cancellations: number;
  gapsFilled: number;
  pendingGapNsus: number;
  skipped: SkippedDocument[];
}

const gapCount = (gaps: NsuGap[] | null) => (gaps ?? []).reduce((n, [a, b]) => n + Number(nsuToBigInt(b) - nsuToBigInt(a) + 1n), 0);

function waitError(state: DfeState, now: Date): RateLimitedError {
  const seconds = Math.max(1, Math.ceil((state.nextAllowedAt!.getTime() - now.getTime()) / 1000));
  return new RateLimitedError(
    `The authority allows the next DF-e query of this filial at ${state.nextAllowedAt!.toISOString()} (last answer ${state.lastCStat ?? '-'} ${state.lastXMotivo ?? ''})`.trim(),
    seconds,
    'SEFAZ_WAIT_REQUIRED',
    { nextAllowedAt: state.nextAllowedAt!.toISOString(), cStat: state.lastCStat, xMotivo: state.lastXMotivo, ultNSU: state.ultNsu },
  );
}

class Sync {
  readonly summary: IngestSummary = emptySummary();
  calls = 0;
  gapsFilled = 0;
  last: DistResult | null = null;

  constructor(
    private readonly ctx: TenantContext,
    private readonly filial: Filial,
    readonly state: DfeState,
    private readonly client: AuthorityClient,
    private readonly now: () => Date,
  ) {}

  private waitUntil(): Date {
    // The real authority asks an hour; the local simulator of the demo says its own (shorter) period.
    return new Date(this.now().getTime() + (this.client.quietPeriodMs ?? sefazConfig.waitMs));
  }

  private async query(q: Parameters<AuthorityClient['distDFe']>[0]): Promise<DistResult> {
    this.calls++;
    this.last = await this.client.distDFe(q);
    return this.last;
  }

  /** Stores a page and the state that follows it, in one transaction. */
  private async commit(r: DistResult, values: Partial<DfeState>): Promise<void> {
    const prepared = r.documents.length ? await prepareDocuments(this.filial, r.documents) : [];
    await inTransaction(this.ctx, async (em) => {
      if (prepared.length) await applyDocuments(em, this.ctx, this.filial, prepared, r.tpAmb, this.summary);
      await updateStateOrFail(em, this.state, {
        lastCStat: r.cStat.slice(0, 3),
        lastXMotivo: r.xMotivo.slice(0, 255),
        lastSyncAt: this.now(),
        ...values,
      });
    });
  }

  private blocked(r: DistResult): Promise<void> {
    // The reply names the position to resume from (maxNSU 0 is not "empty", protocol notes §3.3).
    const resume = r.ultNSU && nsuToBigInt(r.ultNSU) > 0n ? nsuToBigInt(r.ultNSU) : nsuToBigInt(this.state.ultNsu);
    const ours = nsuToBigInt(this.state.ultNsu);
    const gaps = [...(this.state.pendingGaps ?? [])];
    if (resume > ours) {
      const from = resume - ours > MAX_GAP_SPAN ? resume - MAX_GAP_SPAN + 1n : ours + 1n;
      gaps.push([padNsu(from), padNsu(resume)]);
    }
    return this.commit(r, { ultNsu: padNsu(resume), pendingGaps: gaps.length ? gaps : null, nextAllowedAt: this.waitUntil() });
  }

  /** Single-NSU queries for the gaps, within the per-sync budget. Returns false when the authority blocked. */
  async fillGaps(): Promise<boolean> {
    let budget = sefazConfig.gapFillMax;
    while (budget-- > 0 && this.state.pendingGaps?.length) {
      const [[from, to], ...rest] = this.state.pendingGaps;
      const r = await this.query({ kind: 'consNSU', nsu: from });
      const outcome = distOutcome(r.cStat);
      if (outcome === 'BLOCKED') {
        await this.commit(r, { nextAllowedAt: this.waitUntil() });
        return false;
      }
      if (outcome === 'AUTHORITY_FAILURE') throw authorityAnswerError(r.cStat, r.xMotivo, 'DF-e gap query');
      // 138 brings the document; 137 (gone) or another rejection of that one NSU closes it either way.
      const next = nsuToBigInt(from) + 1n;
      const gaps: NsuGap[] = next > nsuToBigInt(to) ? rest : [[padNsu(next), to], ...rest];
      await this.commit(outcome === 'DOCUMENTS' ? r : { ...r, documents: [] }, { pendingGaps: gaps.length ? gaps : null });
      this.gapsFilled++;
    }
    return true;
  }

  /** distNSU pages until the authority says there is no more for now. */
  async distribute(): Promise<void> {
    for (let page = 0; page < sefazConfig.maxPages; page++) {
      const r = await this.query({ kind: 'distNSU', ultNSU: this.state.ultNsu });
      switch (distOutcome(r.cStat)) {
        case 'DOCUMENTS': {
          const ult = r.ultNSU ?? this.state.ultNsu;
          const max = r.maxNSU ?? ult;
          const caughtUp = nsuToBigInt(ult) >= nsuToBigInt(max);
          await this.commit(r, { ultNsu: ult, maxNsu: max, nextAllowedAt: caughtUp ? this.waitUntil() : null });
          if (caughtUp) return;
          break;
        }
        case 'NOTHING_NEW':
          await this.commit(r, {
            ultNsu: r.ultNSU ?? this.state.ultNsu,
            maxNsu: r.maxNSU ?? this.state.maxNsu,
            nextAllowedAt: this.waitUntil(),
          });
          return;
        case 'BLOCKED':
          await this.blocked(r);
          return;
        default:
          await this.commit({ ...r, documents: [] }, {});
          throw authorityAnswerError(r.cStat, r.xMotivo, 'DF-e query');
      }
    }
  }

  result(): SyncResult {
    const s = this.summary;
    return {
      received: s.received,
      ultNSU: this.state.ultNsu,
      maxNSU: this.state.maxNsu ?? NSU_ZERO,
      cStat: this.last?.cStat ?? this.state.lastCStat,
      xMotivo: this.last?.xMotivo ?? this.state.lastXMotivo,
      nextAllowedAt: this.state.nextAllowedAt,
      calls: this.calls,
      summaries: s.summaries,
      documents: s.documents,
      events: s.events,
      cancellations: s.cancellations,
      gapsFilled: this.gapsFilled,
      pendingGapNsus: gapCount(this.state.pendingGaps),
      skipped: s.skipped,
    };
  }
}

export interface SyncOptions {
  /** The clock the waits and leases are measured by (the scheduler's; tests run a fast one). */
  now?: () => Date;
}

/** 429 while the authority's wait runs, 409 while another sync holds the lease. */
function refuseIfBusy(state: DfeState | null, now: Date): void {
  if (state?.nextAllowedAt && state.nextAllowedAt.getTime() > now.getTime()) throw waitError(state, now);
  if (state?.leaseUntil && state.leaseUntil.getTime() > now.getTime())
    throw new ConflictError('SEFAZ_SYNC_IN_PROGRESS', 'A DF-e synchronisation of this filial is already running');
}

export async function syncDfe(ctx: TenantContext, options: SyncOptions = {}): Promise<SyncResult> {
  const clock = options.now ?? (() => new Date());
  const filial = await governingFilial(ctx);
  const existing = await findState(ctx.companyId, filial.id);
  const now = clock();
  refuseIfBusy(existing, now);
  // The certificate rules (422) come before anything is sent or written: a refused call writes nothing.
  const client = await clientFor(filial);
  const state = existing ?? (await ensureState(ctx.companyId, filial.id));
  // A concurrent first sync may have created and leased the row since the read above: judge the row
  // ensureState returned, not the absence seen before (the lease below is conditional on its version).
  if (!existing) refuseIfBusy(state, now);
  const leased = await inTransaction(ctx, (em) => updateState(em, state, { leaseUntil: new Date(now.getTime() + LEASE_MS) }));
  if (!leased) {
    // Another sync changed the row since it was read: it holds the lease, or it already finished (the wait).
    refuseIfBusy(await findState(ctx.companyId, filial.id), now);
    throw new ConflictError('SEFAZ_SYNC_IN_PROGRESS', 'A DF-e synchronisation of this filial is already running');
  }

  const sync = new Sync(ctx, filial, state, client, clock);
  try {
    if (await sync.fillGaps()) await sync.distribute();
    return sync.result();
  } finally {
    await inTransaction(ctx, (em) => updateState(em, state, { leaseUntil: null }));
  }
}

/**
 * Puts a filial's DF-e cursor back to NSU zero when it is past `maxNsu` (the local simulator's
 * stream was regenerated with fewer documents than an earlier run had read).
 */
export async function rewindCursorPast(companyId: number, filialId: number, maxNsu: string): Promise<void> {
  const state = await findState(companyId, filialId);
  if (state && nsuToBigInt(state.ultNsu) > nsuToBigInt(maxNsu)) {
    await inTransaction(NO_UNIT, (em) =>
      updateState(em, state, { ultNsu: NSU_ZERO, maxNsu: NSU_ZERO, nextAllowedAt: null, pendingGaps: null }),
    );
  }
}
