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
 * two-word term costs the first word's range and no index probe per candidate.
 */
function partyMatchCondition(companyId: number, partyType: PartyType, term: string, p: string): { where: string; params: Record<string, unknown> } | null {
  const words = queryWords(term);
  if (!words.length) return null;
  const params: Record<string, unknown> = { [`${p}_company`]: companyId, [`${p}_type`]: partyType, [`${p}_w0`]: prefix(words[0]) };
  words.slice(1).forEach((w, k) => (params[`${p}_w${k + 1}`] = `% ${prefix(w)}`));
  const others = words
    .slice(1)
    .map((_w, k) => ` AND ${p}_t.words LIKE :${p}_w${k + 1}`)
    .join('');
  return { where: `${p}_t.company_id = :${p}_company AND ${p}_t.party_type = :${p}_type AND ${p}_t.token LIKE :${p}_w0${others}`, params };
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

/** Indexes customers by name and trade name (creates, renames, seeds and bulk loads). */
export const indexCustomers = (em: EntityManager, companyId: number, customers: Pick<Customer, 'id' | 'name' | 'tradeName'>[]) =>
  indexParties(em, companyId, 'CUSTOMER', customers.map((c) => ({ id: c.id, texts: [c.name, c.tradeName] })));

/** Indexes sellers by name and alias. */
export const indexSellers = (em: EntityManager, companyId: number, sellers: { id: number; name: string; alias: string | null }[]) =>
  indexParties(em, companyId, 'SELLER', sellers.map((s) => ({ id: s.id, texts: [s.name, s.alias] })));
