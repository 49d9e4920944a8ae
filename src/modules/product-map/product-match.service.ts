import { EntityManager } from 'typeorm';
import { normalizeDocument } from '../../core/br-documents';
import type { ActorContext } from '../../core/context';
import { readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { ValidationError } from '../../core/errors';
import { normalizeGtin } from '../../core/gtin';
import { nameTokenFrequencies, nameTokenPostings } from '../catalog';
import { ProductMapEntry } from './entities/product-map-entry.entity';
import { gtinForms, gtinKey } from './gtin-forms';
import { productMapRepository as repo } from './product-map.repository';
import { productSummaries, ProductSummaryRow } from '../catalog';
import { Profile, profile, rank } from './similarity';

/*
 * Resolution of supplier items to our products (SPEC §5 `match`), in this order per item:
 *   1. the map entry of (company, supplier, code)                      → MATCHED, source MAP
 *   2. a valid GTIN equal to the barcode of exactly one active product  → MATCHED, source GTIN
 *   3. description similarity: up to 5 suggestions with scores          → SUGGESTED, source DESCRIPTION
 * The whole batch costs a bounded number of queries: one for the map entries, one for the GTINs, two
 * on the name index (token frequencies, postings) and one for the candidates' names, each chunked by
 * a fixed size. Only map entries and GTINs ever set `productId`: a similar name is a suggestion.
 */

export type MatchStatus = 'MATCHED' | 'SUGGESTED' | 'UNMATCHED';
export type MatchSource = 'MAP' | 'GTIN' | 'DESCRIPTION';

export interface SupplierItem {
  code: string;
  description: string;
  gtin?: string | null;
  unit: string;
}

export interface ProductSummary {
  id: number;
  code: string;
  name: string;
  unit: string;
  active: boolean;
}

export interface Suggestion {
  productId: number;
  score: number;
  product: ProductSummary;
}

export interface ItemMatch {
  status: MatchStatus;
  /** Internal product id; set only when MATCHED. */
  productId: number | null;
  /** Stock units per supplier unit: the entry's factor (MAP), 1 (GTIN), null otherwise. */
  conversionFactor: Dec | null;
  source: MatchSource | null;
  suggestions: Suggestion[];
  mapEntryId: number | null;
  product: ProductSummary | null;
}

export const MAX_SUGGESTIONS = 5;
/** Below this a name is not similar enough to be offered. */
export const MIN_SUGGESTION_SCORE = 0.3;
/**
 * Products a whole batch may send to the full similarity score (names read and compared): the cost of
 * a match stays bounded whatever its size. Each item gets an equal share, between the two limits, so a
 * small batch looks at every close candidate and a 990-item batch at the best pre-ranked few.
 */
const CANDIDATE_BUDGET = 12000;
const MIN_CANDIDATES_PER_ITEM = 10;
const MAX_CANDIDATES_PER_ITEM = 60;
/** A word carried by more products than this is too common to look up (it still counts in the full score). */
const MAX_TOKEN_FREQUENCY = 5000;
/** A third lookup word is read only when it is this rare. */
const THIRD_TOKEN_FREQUENCY = 1000;

const summary = (p: ProductSummaryRow): ProductSummary => ({ id: p.id, code: p.code, name: p.name, unit: p.unit, active: p.active });

function normalizedSupplier(document: string): string {
  const normalized = normalizeDocument(document);
  if (!normalized)
    throw new ValidationError('Invalid request', [{ path: 'supplierDocument', message: 'supplierDocument must be a valid CPF or CNPJ' }]);
  return normalized;
}

/** Index weight of a token: rarer words say more about which product is meant. */
const weight = (df: number) => 1 / Math.log2(2 + df);

/**
 * Candidate products per item from the name index. Each item looks up its two rarest words (a third
 * when rare) in the term dictionary, so only the shortest postings lists are read; the candidates are
 * the products carrying at least two of them, pre-ranked by the summed weight of the shared words, and
 * the best few go on to the full similarity score. Words too common to look up still count in that
 * score, which compares whole names.
 */
async function describeCandidates(em: EntityManager, companyId: number, profiles: Profile[]): Promise<number[][]> {
  const allTokens = [...new Set(profiles.flatMap((p) => p.tokens))];
  if (!allTokens.length) return profiles.map(() => []);
  const df = await nameTokenFrequencies(em, companyId, allTokens);
  const perItem = Math.max(MIN_CANDIDATES_PER_ITEM, Math.min(MAX_CANDIDATES_PER_ITEM, Math.floor(CANDIDATE_BUDGET / profiles.length)));
  const selected = profiles.map((p) => {
    const known = p.tokens
      .filter((t) => df.has(t) && df.get(t)! <= MAX_TOKEN_FREQUENCY)
      .sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1));
    // A rarest word short enough to score all its products needs no second list.
    if (known.length && df.get(known[0])! <= perItem) return known.slice(0, 1);
    return known.slice(0, 2).concat(known.slice(2, 3).filter((t) => df.get(t)! <= THIRD_TOKEN_FREQUENCY));
  });
  const wanted = new Map<string, number>();
  for (const t of selected.flat()) wanted.set(t, df.get(t)!);
  const postings = await nameTokenPostings(em, companyId, wanted);
  return selected.map((tokens) => {
    const present = tokens.filter((t) => postings.get(t)?.length);
    if (!present.length) return [];
    const rarest = postings.get(present[0])!;
    if (present.length === 1) return Array.from(rarest.subarray(0, perItem));
    return (
      sharedWordCandidates(
        present.map((t) => postings.get(t)!),
        present.map((t) => weight(df.get(t)!)),
        perItem,
      ) ?? Array.from(rarest.subarray(0, perItem))
    );
  });
}

/** First index at or after `from` where `list[i] >= id` (galloping, then binary search). */
function seek(list: Int32Array, from: number, id: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi] < id) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > list.length) hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The best `perItem` products carrying at least two of an item's looked-up words (2 or 3 lists, rarest
 * first, each ascending), by the summed weight of the words they carry, then by id; null when none.
 * The second list only adds products of its own when the rarest list gives fewer than `perItem`
 * (it may be a word our names lack). Products with the same words have the same weight, so each set of
 * words keeps only its first `perItem` ids (ascending) before the final sort. The rarest list is walked
 * and the others probed (galloping search), so the long lists of common words are never walked whole.
 */
function sharedWordCandidates(lists: Int32Array[], weights: number[], perItem: number): number[] | null {
  const n = lists.length;
  // weight of each combination of words (bit k: list k), summed in list order
  const maskWeight = new Float64Array(1 << n);
  for (let m = 1; m < 1 << n; m++) {
    let w = 0;
    for (let k = 0; k < n; k++) if (m & (1 << k)) w += weights[k];
    maskWeight[m] = w;
  }
  const buckets: number[][] = Array.from({ length: 1 << n }, () => []);
  const [l0, l1] = lists;
  const l2 = n > 2 ? lists[2] : undefined;
  // products of the rarest list that carry a second word
  let inRarest = 0;
  let p1 = 0;
  let p2 = 0;
  for (let i = 0; i < l0.length; i++) {
    const id = l0[i];
    if (i > 0 && id === l0[i - 1]) continue;
    let mask = 1;
    p1 = seek(l1, p1, id);
    if (p1 < l1.length && l1[p1] === id) mask |= 2;
    if (l2) {
      p2 = seek(l2, p2, id);
      if (p2 < l2.length && l2[p2] === id) mask |= 4;
    }
    if (mask === 1) continue;
    inRarest++;
    if (buckets[mask].length < perItem) buckets[mask].push(id);
  }
  if (inRarest < perItem && l2) {
    // too few: products carrying the second and third words but not the rarest
    const mine = buckets[6];
    let p0 = 0;
    p2 = 0;
    for (let i = 0; i < l1.length && mine.length < perItem; i++) {
      const id = l1[i];
      if (i > 0 && id === l1[i - 1]) continue;
      p2 = seek(l2, p2, id);
      if (p2 >= l2.length) break;
      if (l2[p2] !== id) continue;
      p0 = seek(l0, p0, id);
      if (p0 < l0.length && l0[p0] === id) continue;
      mine.push(id);
    }
  }
  const out: { id: number; w: number }[] = [];
  for (let m = 3; m < 1 << n; m++) for (const id of buckets[m]) out.push({ id, w: maskWeight[m] });
  if (!out.length) return null;
  out.sort((a, b) => b.w - a.w || a.id - b.id);
  return out.slice(0, perItem).map((r) => r.id);
}

/**
 * Resolves supplier items to products of the caller's company. Used by POST /match and by the NF-e
 * import (inside its transaction when `em` is given). Ids are internal; callers encode them.
 */
export async function matchSupplierItems(
  ctx: ActorContext,
  supplierDocument: string,
  items: SupplierItem[],
  em: EntityManager = readerOf(ctx),
): Promise<ItemMatch[]> {
  const supplier = normalizedSupplier(supplierDocument);
  const results: ItemMatch[] = items.map(() => ({
    status: 'UNMATCHED',
    productId: null,
    conversionFactor: null,
    source: null,
    suggestions: [],
    mapEntryId: null,
    product: null,
  }));
  if (!items.length) return results;
  const codes = items.map((i) => i.code.trim());

  // 1. map entries
  const entries = new Map<string, ProductMapEntry>(
    (await repo.entriesByCodes(em, ctx.companyId, supplier, codes)).map((e) => [e.supplierProductCode, e]),
  );
  const byMap = new Map<number, ProductMapEntry>();
  codes.forEach((code, i) => {
    const entry = entries.get(code);
    if (entry) byMap.set(i, entry);
  });

  // 2. GTINs of the items the map did not resolve
  const gtinOf = new Map<number, string>();
  items.forEach((item, i) => {
    const gtin = byMap.has(i) ? null : normalizeGtin(item.gtin);
    if (gtin) gtinOf.set(i, gtin);
  });
  const byGtin = new Map<string, ProductSummaryRow[]>();
  if (gtinOf.size) {
    const products = await productSummaries.activeByGtins(em, ctx.companyId, [...gtinOf.values()].flatMap(gtinForms));
    for (const p of products) {
      const key = gtinKey(p.gtin!);
      byGtin.set(key, [...(byGtin.get(key) ?? []), p]);
    }
  }
  const gtinHits = new Map<number, ProductSummaryRow[]>();
  for (const [i, gtin] of gtinOf) {
    const hits = byGtin.get(gtinKey(gtin));
    if (hits?.length) gtinHits.set(i, hits);
  }

  // 3. description similarity for the rest
  const rest = items.map((_item, i) => i).filter((i) => !byMap.has(i) && !gtinHits.has(i));
  const itemProfiles = rest.map((i) => profile(items[i].description ?? ''));
  const candidateIds = rest.length ? await describeCandidates(em, ctx.companyId, itemProfiles) : [];
  const candidates = new Map((await productSummaries.activeByIds(em, ctx.companyId, candidateIds.flat())).map((p) => [p.id, p]));
  const productProfiles = new Map<number, Profile>();
  const profileOf = (p: ProductSummaryRow) => {
    let prof = productProfiles.get(p.id);
    if (!prof) productProfiles.set(p.id, (prof = profile(p.name)));
    return prof;
  };

  // products of map entries (inactive ones too: the map is an explicit choice)
  const mapped = new Map(
    (
      await productSummaries.byIds(
        em,
        ctx.companyId,
        [...byMap.values()].map((e) => e.productId),
      )
    ).map((p) => [p.id, p]),
  );

  for (const [i, entry] of byMap) {
    const product = mapped.get(entry.productId);
    if (!product) continue; // a product that no longer exists: fall through as unmatched, never guess
    Object.assign(results[i], {
      status: 'MATCHED',
      productId: product.id,
      conversionFactor: entry.conversionFactor,
      source: 'MAP',
      mapEntryId: entry.id,
      product: summary(product),
    });
  }
  for (const [i, hits] of gtinHits) {
    if (hits.length === 1) {
      Object.assign(results[i], {
        status: 'MATCHED',
        productId: hits[0].id,
        conversionFactor: new Dec(1),
        source: 'GTIN',
        product: summary(hits[0]),
      });
    } else {
      // Two products with one barcode: ambiguous, so offered, never chosen.
      Object.assign(results[i], {
        status: 'SUGGESTED',
        source: 'GTIN',
        suggestions: hits.slice(0, MAX_SUGGESTIONS).map((p) => ({ productId: p.id, score: 1, product: summary(p) })),
      });
    }
  }
  rest.forEach((i, k) => {
    const pool = candidateIds[k].map((id) => candidates.get(id)).filter((p): p is ProductSummaryRow => p !== undefined);
    const ranked = rank(itemProfiles[k], pool, profileOf, MAX_SUGGESTIONS, MIN_SUGGESTION_SCORE);
    if (ranked.length) {
      Object.assign(results[i], {
        status: 'SUGGESTED',
        source: 'DESCRIPTION',
        suggestions: ranked.map((r) => ({ productId: r.candidate.id, score: r.score, product: summary(r.candidate) })),
      });
    }
  });
  return results;
}
