import { EntityManager } from 'typeorm';
import { documentSearchPrefix } from '../../core/br-documents';
import { readBatch } from '../../core/db/transaction';
import { indexWords, queryWords, spacedWords } from '../../core/text/words';
import type { Customer } from './entities/customer.entity';
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
  for (const chunk of chunks(rows))
    await em.createQueryBuilder().insert().into(PartySearchToken).values(chunk).updateEntity(false).execute();
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
function partyMatch(
  companyId: number,
  partyType: PartyType,
  term: string,
  p: string,
  mark: (name: string, value: unknown) => string,
): string | null {
  const words = queryWords(term);
  if (!words.length) return null;
  let where = `${p}_t.company_id = ${mark(`${p}_company`, companyId)} AND ${p}_t.party_type = ${mark(`${p}_type`, partyType)} AND ${p}_t.token LIKE ${mark(`${p}_w0`, prefix(words[0]))}`;
  words.slice(1).forEach((w, k) => {
    where += ` AND ${p}_t.words LIKE ${mark(`${p}_w${k + 1}`, `% ${prefix(w)}`)}`;
  });
  return where;
}

function partyMatchCondition(
  companyId: number,
  partyType: PartyType,
  term: string,
  p: string,
): { where: string; params: Record<string, unknown> } | null {
  const params: Record<string, unknown> = {};
  const where = partyMatch(companyId, partyType, term, p, (name, value) => ((params[name] = value), `:${name}`));
  return where === null ? null : { where, params };
}

/** The same search as a condition on a party's id column, for the catalog list query builders. */
export function partySearchCondition(
  column: string,
  companyId: number,
  partyType: PartyType,
  term: string,
): { sql: string; params: Record<string, unknown> } | null {
  const m = partyMatchCondition(companyId, partyType, term, 'pt');
  return m && { sql: `${column} IN (SELECT pt_t.party_id FROM party_search_token pt_t WHERE ${m.where})`, params: m.params };
}

/** A read of bound SQL (every value a placeholder). */
type Statement = { sql: string; params: unknown[] };
type Batch = (statements: Statement[]) => Promise<unknown[]>;

/** At most `cap` ids of the parties of a type whose words the term's words all start, or null when the term has no word. */
function partyIdsStatement(companyId: number, partyType: PartyType, term: string, cap: number): Statement | null {
  const params: unknown[] = [];
  const where = partyMatch(companyId, partyType, term, 'pt', (_name, value) => (params.push(value), '?'));
  return where === null
    ? null
    : { sql: `SELECT DISTINCT pt_t.party_id AS id FROM party_search_token pt_t WHERE ${where} LIMIT ${cap}`, params };
}

/** At most `cap` customers whose CPF/CNPJ starts with the term's digits ("123.456" → 123456…), or null without digits. */
function customerDocumentStatement(companyId: number, term: string, cap: number): Statement | null {
  const digits = documentSearchPrefix(term);
  return digits
    ? {
        sql: `SELECT c.id AS id FROM customer c WHERE c.company_id = ? AND c.document LIKE ? ORDER BY c.document ASC, c.id ASC LIMIT ${cap}`,
        params: [companyId, `${digits}%`],
      }
    : null;
}

/**
 * The parties a term finds, in one batch (one round trip on MySQL): at most `customerCap` customers —
 * by document first, then by words — and, when `sellerCap` is given, at most that many sellers. Ids
 * come in index order (word, then id): each scan stops at its cap, so a common word costs no more
 * than a rare one. The sales-order list resolves customers and sellers this way before it reads any
 * order (`run`: its own first round trip, or readBatch).
 */
export async function findCustomerAndSellerIds(
  run: Batch,
  companyId: number,
  term: string,
  customerCap: number,
  sellerCap?: number,
): Promise<{ customers: number[]; sellers: number[] }> {
  const wanted = [
    customerDocumentStatement(companyId, term, customerCap),
    partyIdsStatement(companyId, 'CUSTOMER', term, customerCap),
    sellerCap === undefined ? null : partyIdsStatement(companyId, 'SELLER', term, sellerCap),
  ];
  const statements = wanted.filter((st): st is Statement => st !== null);
  const results = (statements.length ? await run(statements) : []) as { id: number | string }[][];
  const ids = (st: Statement | null) => (st === null ? [] : results[statements.indexOf(st)].map((r) => Number(r.id)));
  return {
    customers: [...new Set([...ids(wanted[0]), ...ids(wanted[1])])].slice(0, customerCap),
    sellers: ids(wanted[2]),
  };
}

/** At most `cap` ids of the parties of a type a term finds (see findCustomerAndSellerIds). */
export async function findPartyIds(
  em: EntityManager,
  companyId: number,
  partyType: PartyType,
  term: string,
  cap: number,
): Promise<number[]> {
  const st = partyIdsStatement(companyId, partyType, term, cap);
  if (!st) return [];
  const [rows] = (await readBatch(em, [st])) as { id: number | string }[][];
  return rows.map((r) => Number(r.id));
}

/** At most `cap` customers a text term finds: by the start of their CPF/CNPJ, then by the words of their name or trade name. */
export async function findCustomerIds(em: EntityManager, companyId: number, term: string, cap: number): Promise<number[]> {
  return (await findCustomerAndSellerIds((statements) => readBatch(em, statements), companyId, term, cap)).customers;
}

/** Indexes customers by name and trade name (creates, renames, seeds and bulk loads). */
export const indexCustomers = (em: EntityManager, companyId: number, customers: Pick<Customer, 'id' | 'name' | 'tradeName'>[]) =>
  indexParties(
    em,
    companyId,
    'CUSTOMER',
    customers.map((c) => ({ id: c.id, texts: [c.name, c.tradeName] })),
  );

/** Indexes sellers by name and alias. */
export const indexSellers = (em: EntityManager, companyId: number, sellers: { id: number; name: string; alias: string | null }[]) =>
  indexParties(
    em,
    companyId,
    'SELLER',
    sellers.map((s) => ({ id: s.id, texts: [s.name, s.alias] })),
  );
