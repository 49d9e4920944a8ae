import { EntityManager } from 'typeorm';
import { normalizeText } from '../../core/br-documents';
import { ProductSearchToken } from './entities/product-search-token.entity';
import { similarityTokens } from './similarity';

/*
 * The product name index (table product_search_token) and the one product search built on it, shared
 * by GET /api/catalog/products and GET /api/entry-document/product-map/search. This file must not
 * import the catalog services (they import it).
 */

export const TOKEN_MAX_LENGTH = 40;
const MAX_QUERY_TOKENS = 8;
const INSERT_CHUNK = 500;

const clip = (t: string) => t.slice(0, TOKEN_MAX_LENGTH);

/** Words of a search term: upper case, accent-free, split on anything but letters and digits. */
export const searchWords = (term: string): string[] => normalizeText(term).split(' ').filter(Boolean);

/**
 * Every token a name is found by: its words as typed ("350ML"), their letter/digit pieces ("350",
 * "ML") so either spelling of a search matches, and the canonical similarity tokens ("LATA" for "LT",
 * "2000ML" for "2L") that description matching looks up.
 */
export function productIndexTokens(name: string): string[] {
  const words = searchWords(name);
  const pieces = words.flatMap((w) => w.replace(/(\d)([A-Z])/g, '$1 $2').replace(/([A-Z])(\d)/g, '$1 $2').split(' '));
  return [...new Set([...words, ...pieces, ...similarityTokens(name)].map(clip).filter(Boolean))];
}

/**
 * Replaces the index rows of the given products (call it in the transaction that creates or renames
 * them). Multi-row INSERTs, so bulk loads stay fast.
 */
export async function indexProductNames(em: EntityManager, companyId: number, products: { id: number; name: string }[]): Promise<void> {
  if (!products.length) return;
  const ids = products.map((p) => p.id);
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    await em
      .createQueryBuilder()
      .delete()
      .from(ProductSearchToken)
      .where('company_id = :companyId AND product_id IN (:...ids)', { companyId, ids: ids.slice(i, i + INSERT_CHUNK) })
      .execute();
  }
  const rows = products.flatMap((p) => productIndexTokens(p.name).map((token) => ({ companyId, token, productId: p.id })));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await em.createQueryBuilder().insert().into(ProductSearchToken).values(rows.slice(i, i + INSERT_CHUNK)).updateEntity(false).execute();
  }
}

/**
 * SQL condition "`<alias>.id` is a product found by `term`": exact code, code prefix, GTIN (8–14
 * digits), or every word of the term as the start of some word of the name (accent-insensitive).
 * The candidates are a UNION of index range reads, so the outer query never scans the products.
 */
export function productSearchCondition(alias: string, companyId: number, term: string): { sql: string; params: Record<string, unknown> } {
  const trimmed = term.trim();
  const params: Record<string, unknown> = {
    ps_company: companyId,
    ps_code: trimmed,
    ps_code_prefix: `${trimmed.replace(/[%_\\]/g, '')}%`,
  };
  const parts = [
    'SELECT ps_p.id AS product_id FROM product ps_p WHERE ps_p.company_id = :ps_company AND (ps_p.code = :ps_code OR ps_p.code LIKE :ps_code_prefix)',
  ];
  if (/^\d{8,14}$/.test(trimmed)) {
    parts.push('SELECT ps_g.id AS product_id FROM product ps_g WHERE ps_g.company_id = :ps_company AND ps_g.gtin = :ps_code');
  }
  const tokens = [...new Set(searchWords(trimmed).map(clip))].slice(0, MAX_QUERY_TOKENS);
  if (tokens.length) {
    tokens.forEach((t, i) => (params[`ps_tok${i}`] = `${t}%`));
    const any = tokens.map((_t, i) => `ps_t.token LIKE :ps_tok${i}`).join(' OR ');
    const all = tokens.map((_t, i) => `MAX(CASE WHEN ps_t.token LIKE :ps_tok${i} THEN 1 ELSE 0 END) = 1`).join(' AND ');
    parts.push(
      `SELECT ps_t.product_id AS product_id FROM product_search_token ps_t WHERE ps_t.company_id = :ps_company AND (${any}) GROUP BY ps_t.product_id` +
        (tokens.length > 1 ? ` HAVING ${all}` : ''),
    );
  }
  return { sql: `${alias}.id IN (SELECT ps_m.product_id FROM (${parts.join(' UNION ')}) ps_m)`, params };
}
