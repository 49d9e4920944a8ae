import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { isMysql } from '../../core/db/engine';
import { Page, PageRequest, paginate } from '../../core/pagination';
import { similarityTokens } from '../../core/text/canonical-tokens';
import { foldWords, queryWords, TOKEN_MAX_LENGTH } from '../../core/text/words';
import { Product } from './entities/product.entity';
import { ProductSearchTerm } from './entities/product-search-term.entity';
import { ProductSearchToken } from './entities/product-search-token.entity';
import { insertChunked } from '../../core/db/sql';

/*
 * The product name index (product_search_token + its term counts in product_search_term) and the one
 * product search built on it. Catalog owns it (products are catalog's); GET /api/catalog/products and
 * the product map's search and description matching use the functions exported here. This file must
 * not import the catalog services (they import it).
 */

const CHUNK = 500;

const clip = (t: string) => t.slice(0, TOKEN_MAX_LENGTH);

/**
 * Every token a name is found by: its words as typed ("350ML"), their letter/digit pieces ("350",
 * "ML") so either spelling of a search matches, and the canonical similarity tokens ("LATA" for "LT",
 * "2000ML" for "2L") that description matching looks up.
 */
export function productIndexTokens(name: string): string[] {
  const words = foldWords(name);
  const pieces = words.flatMap((w) =>
    w
      .replace(/(\d)([A-Z])/g, '$1 $2')
      .replace(/([A-Z])(\d)/g, '$1 $2')
      .split(' '),
  );
  return [...new Set([...words, ...pieces, ...similarityTokens(name)].map(clip).filter(Boolean))];
}

const chunks = <T>(xs: T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_v, i) => xs.slice(i * size, (i + 1) * size));

/** Adds `delta` to the product count of each term (negative to remove), in token order so concurrent writers lock alike. */
async function adjustTermCounts(em: EntityManager, companyId: number, deltas: Map<string, number>): Promise<void> {
  const rows = [...deltas].filter(([, d]) => d !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const upsert = isMysql
    ? 'ON DUPLICATE KEY UPDATE product_count = product_count + VALUES(product_count)'
    : 'ON CONFLICT (company_id, token) DO UPDATE SET product_count = product_count + excluded.product_count';
  for (const chunk of chunks(rows)) {
    await em.query(
      `INSERT INTO product_search_term (company_id, token, product_count) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')} ${upsert}`,
      chunk.flatMap(([token, delta]) => [companyId, token, delta]),
    );
  }
}

/**
 * Replaces the index rows of the given products and keeps the term counts in step. Call it in the
 * transaction that creates, renames or recodes them. Multi-row statements, so bulk loads stay fast.
 */
export async function indexProductNames(
  em: EntityManager,
  companyId: number,
  products: { id: number; name: string; code: string }[],
): Promise<void> {
  if (!products.length) return;
  const deltas = new Map<string, number>();
  const ids = products.map((p) => p.id);
  for (const chunk of chunks(ids)) {
    const old: { token: string }[] = await em
      .createQueryBuilder(ProductSearchToken, 't')
      .select('t.token', 'token')
      .where('t.company_id = :companyId AND t.product_id IN (:...chunk)', { companyId, chunk })
      .getRawMany();
    for (const { token } of old) deltas.set(token, (deltas.get(token) ?? 0) - 1);
    await em
      .createQueryBuilder()
      .delete()
      .from(ProductSearchToken)
      .where('company_id = :companyId AND product_id IN (:...chunk)', { companyId, chunk })
      .execute();
  }
  const rows = products.flatMap((p) => productIndexTokens(p.name).map((token) => ({ companyId, token, productId: p.id, code: p.code })));
  for (const r of rows) deltas.set(r.token, (deltas.get(r.token) ?? 0) + 1);
  await insertChunked(em, ProductSearchToken, rows);
  await adjustTermCounts(em, companyId, deltas);
}

interface WordTerms {
  word: string;
  /** The index terms this word starts (from the term dictionary), or null when too many to list. */
  terms: string[] | null;
  count: number;
}

/** Beyond this many terms a word is matched with LIKE on the index rows instead of an IN list. */
const MAX_TERMS_PER_WORD = 50;

/** The dictionary terms each search word is the start of, with how many products carry them. */
async function expandWords(em: EntityManager, companyId: number, words: string[]): Promise<WordTerms[]> {
  const rows: { token: string; product_count: number }[] = await em.query(
    `SELECT token, product_count FROM product_search_term WHERE company_id = ? AND product_count > 0 AND (${words.map(() => 'token LIKE ?').join(' OR ')})`,
    [companyId, ...words.map((w) => `${w}%`)],
  );
  return words.map((word) => {
    const hits = rows.filter((r) => r.token.startsWith(word));
    return {
      word,
      terms: hits.length > MAX_TERMS_PER_WORD ? null : hits.map((r) => r.token),
      count: hits.reduce((n, r) => n + Number(r.product_count), 0),
    };
  });
}

const codeParts = (trimmed: string): string[] => {
  const parts = [
    'SELECT ps_p.id AS product_id, ps_p.code AS code FROM product ps_p WHERE ps_p.company_id = :ps_company AND (ps_p.code = :ps_code OR ps_p.code LIKE :ps_code_prefix)',
  ];
  if (/^\d{8,14}$/.test(trimmed)) {
    parts.push(
      'SELECT ps_g.id AS product_id, ps_g.code AS code FROM product ps_g WHERE ps_g.company_id = :ps_company AND ps_g.gtin = :ps_code',
    );
  }
  return parts;
};

const baseParams = (companyId: number, trimmed: string): Record<string, unknown> => ({
  ps_company: companyId,
  ps_code: trimmed,
  ps_code_prefix: `${trimmed.replace(/[%_\\]/g, '')}%`,
});

/**
 * SQL of the products a term finds, as rows (product_id, code): exact code, code prefix, GTIN (8–14
 * digits), or every word of the term as the start of some word of the name (accent-insensitive).
 * Each word is first expanded to the index terms it starts (term dictionary); the name branch then
 * walks the postings of the rarest word and checks the others by primary-key lookups. The index rows
 * carry the code, so no product row is read to order the matches.
 */
export async function productMatchesSql(
  em: EntityManager,
  companyId: number,
  term: string,
): Promise<{ sql: string; params: Record<string, unknown> }> {
  const trimmed = term.trim();
  const params = baseParams(companyId, trimmed);
  const parts = codeParts(trimmed);
  const words = queryWords(trimmed);
  if (words.length === 1) {
    // one word: its prefix range on the index is the whole work, no need to consult the dictionary
    params.ps_tok0 = `${words[0]}%`;
    parts.push(
      'SELECT DISTINCT ps_t.product_id AS product_id, ps_t.code AS code FROM product_search_token ps_t WHERE ps_t.company_id = :ps_company AND ps_t.token LIKE :ps_tok0',
    );
    return { sql: parts.join(' UNION '), params };
  }
  const expanded = words.length ? await expandWords(em, companyId, words) : [];
  if (expanded.length && expanded.every((w) => w.count > 0)) {
    expanded.sort((a, b) => a.count - b.count);
    const match = (alias: string, w: WordTerms, i: number) => {
      if (w.terms) {
        params[`ps_terms${i}`] = w.terms;
        return `${alias}.token IN (:...ps_terms${i})`;
      }
      params[`ps_tok${i}`] = `${w.word}%`;
      return `${alias}.token LIKE :ps_tok${i}`;
    };
    const others = expanded
      .slice(1)
      .map(
        (w, k) =>
          ` AND EXISTS (SELECT 1 FROM product_search_token ps_e${k} WHERE ps_e${k}.company_id = :ps_company AND ${match(`ps_e${k}`, w, k + 1)} AND ps_e${k}.product_id = ps_t.product_id)`,
      )
      .join('');
    parts.push(
      `SELECT DISTINCT ps_t.product_id AS product_id, ps_t.code AS code FROM product_search_token ps_t WHERE ps_t.company_id = :ps_company AND ${match('ps_t', expanded[0], 0)}${others}`,
    );
  }
  return { sql: parts.join(' UNION '), params };
}

/**
 * The same search as a WHERE condition on a product alias, for synchronous query builders (the
 * catalog resource's search hook). Words are matched with LIKE on the index rows, as one GROUP BY.
 */
export function productSearchCondition(alias: string, companyId: number, term: string): { sql: string; params: Record<string, unknown> } {
  const trimmed = term.trim();
  const params = baseParams(companyId, trimmed);
  const parts = codeParts(trimmed);
  const words = queryWords(trimmed);
  if (words.length) {
    words.forEach((w, i) => (params[`ps_tok${i}`] = `${w}%`));
    const any = words.map((_w, i) => `ps_t.token LIKE :ps_tok${i}`).join(' OR ');
    const all = words.map((_w, i) => `MAX(CASE WHEN ps_t.token LIKE :ps_tok${i} THEN 1 ELSE 0 END) = 1`).join(' AND ');
    parts.push(
      `SELECT ps_t.product_id AS product_id, MIN(ps_t.code) AS code FROM product_search_token ps_t WHERE ps_t.company_id = :ps_company AND (${any}) GROUP BY ps_t.product_id HAVING ${all}`,
    );
  }
  return { sql: `${alias}.id IN (SELECT ps_m.product_id FROM (${parts.join(' UNION ')}) ps_m)`, params };
}

/**
 * A page of the products a term finds, ordered by code (two-phase: the matches' ids and codes come from
 * the index; the page's rows are then read by id). Used by both product search routes.
 */
export async function searchProductPage(
  em: EntityManager,
  companyId: number,
  term: string,
  query: PageRequest & { active?: boolean },
): Promise<Page<Product>> {
  const { sql, params } = await productMatchesSql(em, companyId, term);
  const qb: SelectQueryBuilder<Product> = em
    .createQueryBuilder()
    .from(`(${sql})`, 'm')
    .setParameters(params) as unknown as SelectQueryBuilder<Product>;
  if (query.active !== undefined) {
    qb.innerJoin(Product, 'r', 'r.id = m.product_id').where('r.company_id = :ps_company AND r.active = :ps_active', {
      ps_active: query.active,
    });
  }
  return paginate(
    qb,
    [
      { column: 'm.code', direction: 'ASC' },
      { column: 'm.product_id', direction: 'ASC' },
    ],
    query,
    (ids) => em.createQueryBuilder(Product, 'p').where('p.company_id = :companyId AND p.id IN (:...ids)', { companyId, ids }).getMany(),
    (p) => p.id,
  );
}

// ---- reads for description matching (the product map) ----

/** How many products carry each token (the term dictionary: one point read per token). */
export async function nameTokenFrequencies(em: EntityManager, companyId: number, tokens: string[]): Promise<Map<string, number>> {
  const rows: ProductSearchTerm[] = [];
  for (const chunk of chunks([...new Set(tokens)])) {
    rows.push(
      ...(await em
        .createQueryBuilder(ProductSearchTerm, 't')
        .select(['t.token', 't.productCount'])
        .where('t.company_id = :companyId AND t.token IN (:...chunk) AND t.product_count > 0', { companyId, chunk })
        .getMany()),
    );
  }
  return new Map(rows.map((r) => [r.token, r.productCount]));
}

/**
 * Products of each token (postings lists of the name index), one row per token: the ids come
 * concatenated, which moves far fewer rows than one per posting. `expected` holds each token's
 * count from the term dictionary: a list that came back shorter was cut by the server's
 * group_concat_max_len (MySQL's default is 1 KiB) and is read again row by row. Each list is in
 * ascending id order (the index's order; sorted when a driver returns another).
 */
export async function nameTokenPostings(
  em: EntityManager,
  companyId: number,
  expected: Map<string, number>,
): Promise<Map<string, Int32Array>> {
  const out = new Map<string, Int32Array>();
  const cut: string[] = [];
  for (const chunk of chunks([...expected.keys()])) {
    const rows: { token: string; ids: string | null }[] = await em.query(
      `SELECT token, GROUP_CONCAT(product_id) AS ids FROM product_search_token WHERE company_id = ? AND token IN (${chunk.map(() => '?').join(',')}) GROUP BY token`,
      [companyId, ...chunk],
    );
    for (const r of rows) {
      const ids = parseIdList(String(r.ids ?? ''));
      if (ids.length < (expected.get(r.token) ?? 0)) cut.push(r.token);
      else out.set(r.token, ascending(ids));
    }
  }
  const lists = new Map<string, number[]>();
  for (const chunk of chunks(cut)) {
    const rows: { token: string; product_id: number }[] = await em.query(
      `SELECT token, product_id FROM product_search_token WHERE company_id = ? AND token IN (${chunk.map(() => '?').join(',')})`,
      [companyId, ...chunk],
    );
    for (const r of rows) {
      let list = lists.get(r.token);
      if (!list) lists.set(r.token, (list = []));
      list.push(Number(r.product_id));
    }
  }
  for (const [token, list] of lists) out.set(token, ascending(Int32Array.from(list)));
  return out;
}

/** "12,7,300" → its ids, parsed in one pass (a GROUP_CONCAT of thousands of ids per word). */
function parseIdList(text: string): Int32Array {
  let n = text.length ? 1 : 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) n++;
  const out = new Int32Array(n);
  let k = 0;
  let v = 0;
  let digits = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      if (digits) out[k++] = v;
      v = 0;
      digits = false;
    } else {
      v = v * 10 + (c - 48);
      digits = true;
    }
  }
  if (digits) out[k++] = v;
  return k === n ? out : out.subarray(0, k);
}

/** The list in ascending order (itself when already so). */
function ascending(list: Int32Array): Int32Array {
  for (let i = 1; i < list.length; i++) if (list[i] < list[i - 1]) return list.sort();
  return list;
}
