import { EntityManager } from 'typeorm';
import { documentSearchPrefix } from '../../core/br-documents';
import { indexWords, queryWords, spacedWords } from '../../core/text/words';
import { Customer } from './entities/customer.entity';
import { PartySearchToken, PartyType } from './entities/party-search-token.entity';

/*
 * The word index of customers and sellers (party_search_token) and the searches built on it: a text
 * term matches when each of its words starts some word of the party's name, trade name or alias
 * (accents and case folded by core/text/words). Catalog lists and the sales-order list search use it.
 */

const CHUNK = 500;
const chunks = <T>(xs: T[]): T[][] => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_v, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

export interface IndexedParty {
  id: number;
  /** The texts the party is found by: name and trade name (customers), name and alias (sellers). */
  texts: (string | null | undefined)[];
}

/**
 * Replaces the index rows of the given parties. Call it in the transaction that creates or renames
 * them (multi-row statements, so bulk loads and the migration's backfill stay fast).
 */
export async function indexParties(em: EntityManager, companyId: number, partyType: PartyType, parties: IndexedParty[]): Promise<void> {
  if (!parties.length) return;
  for (const chunk of chunks(parties.map((p) => p.id))) {
    await em
      .createQueryBuilder()
      .delete()
      .from(PartySearchToken)
      .where('company_id = :companyId AND party_type = :partyType AND party_id IN (:...chunk)', { companyId, partyType, chunk })
      .execute();
  }
  const rows = parties.flatMap((p) => {
    const tokens = indexWords(...p.texts);
    const words = spacedWords(tokens);
    return tokens.map((token) => ({ companyId, partyType, token, partyId: p.id, words }));
  });
  for (const chunk of chunks(rows)) await em.createQueryBuilder().insert().into(PartySearchToken).values(chunk).updateEntity(false).execute();
}

/** LIKE wildcards cannot occur in folded words (letters and digits only); stripped all the same. */
const prefix = (w: string) => `${w.replace(/[%_\\]/g, '')}%`;

/**
 * The condition on index rows aliased `${p}_t` that keeps the parties of a type whose words the
 * term's words all start, or null when the term has no word. The first word walks its prefix range
 * on the primary key; every further word is tested on the row being read (its party's `words`), so a
 * two-word term costs the first word's range and no index probe per candidate. `mark` names a value's
 * placeholder (named or positional) in the order the values occur in the SQL.
 */
function partyMatch(companyId: number, partyType: PartyType, term: string, p: string, mark: (name: string, value: unknown) => string): string | null {
  const words = queryWords(term);
  if (!words.length) return null;
  let where = `${p}_t.company_id = ${mark(`${p}_company`, companyId)} AND ${p}_t.party_type = ${mark(`${p}_type`, partyType)} AND ${p}_t.token LIKE ${mark(`${p}_w0`, prefix(words[0]))}`;
  words.slice(1).forEach((w, k) => {
    where += ` AND ${p}_t.words LIKE ${mark(`${p}_w${k + 1}`, `% ${prefix(w)}`)}`;
  });
  return where;
}

function partyMatchCondition(companyId: number, partyType: PartyType, term: string, p: string): { where: string; params: Record<string, unknown> } | null {
  const params: Record<string, unknown> = {};
  const where = partyMatch(companyId, partyType, term, p, (name, value) => ((params[name] = value), `:${name}`));
  return where === null ? null : { where, params };
}

/** The same search as a condition on a party's id column, for the catalog list query builders. */
export function partySearchCondition(column: string, companyId: number, partyType: PartyType, term: string): { sql: string; params: Record<string, unknown> } | null {
  const m = partyMatchCondition(companyId, partyType, term, 'pt');
  return m && { sql: `${column} IN (SELECT pt_t.party_id FROM party_search_token pt_t WHERE ${m.where})`, params: m.params };
}

/**
 * At most `cap` ids of the parties a term finds, in index order (word, then id): the scan stops at
 * the cap, so a common word costs no more than a rare one. The sales-order list resolves customers
 * and sellers this way before it reads any order.
 */
export async function findPartyIds(em: EntityManager, companyId: number, partyType: PartyType, term: string, cap: number): Promise<number[]> {
  const m = partyMatchCondition(companyId, partyType, term, 'pt');
  if (!m) return [];
  const rows = await em
    .createQueryBuilder(PartySearchToken, 'pt_t')
    .select('pt_t.party_id', 'id')
    .distinct(true)
    .where(m.where, m.params)
    .limit(cap)
    .getRawMany<{ id: number }>();
  return rows.map((r) => Number(r.id));
}

/**
 * At most `cap` customers a text term finds: by the words of their name or trade name, or by the
 * start of their CPF/CNPJ when the term carries digits ("123.456" → documents starting 123456).
 * Reads on the pool (lists run outside transactions), so the two kinds of match go side by side.
 */
export async function findCustomerIds(em: EntityManager, companyId: number, term: string, cap: number): Promise<number[]> {
  const digits = documentSearchPrefix(term);
  const [byDocument, byWords] = await Promise.all([
    digits
      ? em
          .createQueryBuilder(Customer, 'c')
          .select('c.id', 'id')
          .where('c.company_id = :companyId AND c.document LIKE :digits', { companyId, digits: `${digits}%` })
          .orderBy('c.document', 'ASC')
          .addOrderBy('c.id', 'ASC')
          .limit(cap)
          .getRawMany<{ id: number }>()
      : [],
    findPartyIds(em, companyId, 'CUSTOMER', term, cap),
  ]);
  return [...new Set([...byDocument.map((r) => Number(r.id)), ...byWords])].slice(0, cap);
}

/**
 * `findCustomerIds` and `findPartyIds(…, 'SELLER', …)` of one term (the same ids, in the same order)
 * as plain SQL in one batch: one round trip on MySQL for the sales-order list's text search.
 */
export async function findCustomerAndSellerIds(
  /** Runs a batch (readBatch on the caller's manager, or the caller's own first round trip). */
  run: (statements: { sql: string; params: unknown[] }[]) => Promise<unknown[]>,
  companyId: number,
  term: string,
  customerCap: number,
  sellerCap: number,
): Promise<{ customers: number[]; sellers: number[] }> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const partyIds = (partyType: PartyType, cap: number): number => {
    const params: unknown[] = [];
    const where = partyMatch(companyId, partyType, term, 'pt', (_name, value) => (params.push(value), '?'));
    if (where === null) return -1;
    statements.push({ sql: `SELECT DISTINCT pt_t.party_id AS id FROM party_search_token pt_t WHERE ${where} LIMIT ${cap}`, params });
    return statements.length - 1;
  };
  const digits = documentSearchPrefix(term);
  if (digits) {
    statements.push({
      sql: `SELECT c.id AS id FROM customer c WHERE c.company_id = ? AND c.document LIKE ? ORDER BY c.document ASC, c.id ASC LIMIT ${customerCap}`,
      params: [companyId, `${digits}%`],
    });
  }
  const customerWords = partyIds('CUSTOMER', customerCap);
  const sellerWords = partyIds('SELLER', sellerCap);
  const results = (statements.length ? await run(statements) : []) as { id: number | string }[][];
  const ids = (at: number) => (at < 0 ? [] : results[at].map((r) => Number(r.id)));
  return {
    customers: [...new Set([...(digits ? ids(0) : []), ...ids(customerWords)])].slice(0, customerCap),
    sellers: ids(sellerWords),
  };
}

/** Indexes customers by name and trade name (creates, renames, seeds and bulk loads). */
export const indexCustomers = (em: EntityManager, companyId: number, customers: Pick<Customer, 'id' | 'name' | 'tradeName'>[]) =>
  indexParties(em, companyId, 'CUSTOMER', customers.map((c) => ({ id: c.id, texts: [c.name, c.tradeName] })));

/** Indexes sellers by name and alias. */
export const indexSellers = (em: EntityManager, companyId: number, sellers: { id: number; name: string; alias: string | null }[]) =>
  indexParties(em, companyId, 'SELLER', sellers.map((s) => ({ id: s.id, texts: [s.name, s.alias] })));
