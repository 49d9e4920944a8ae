import type { QueryRunner } from 'typeorm';
import { indexWords, spacedWords } from '../src/core/text/words';

/*
 * Backfill of party_search_token (migration WordSearchIndex, both engines): every customer by name and
 * trade name, every seller by name and alias, folded by the same function the service indexes with.
 * Keyset pages of 1,000 parties, multi-row inserts, so a 100k-customer tenant migrates in seconds.
 * From migration PartySearchWords on the table has `words` (every row carries its party's words), and
 * the backfill writes it too (bulk loads call it on a schema that has it).
 */
const PAGE = 1000;
const INSERT_ROWS = 500;

async function backfill(
  q: QueryRunner,
  table: 'customer' | 'seller',
  partyType: 'CUSTOMER' | 'SELLER',
  second: 'trade_name' | 'alias',
  withWords: boolean,
): Promise<void> {
  for (let after = 0; ;) {
    const rows: { id: number; company_id: number; name: string; other: string | null }[] = await q.query(
      `SELECT id, company_id, name, ${second} AS other FROM ${table} WHERE id > ? ORDER BY id LIMIT ${PAGE}`,
      [after],
    );
    if (!rows.length) return;
    const tokens = rows.flatMap((r) => {
      const words = indexWords(r.name, r.other);
      const spaced = spacedWords(words);
      return words.map((token) =>
        withWords ? [Number(r.company_id), partyType, token, Number(r.id), spaced] : [Number(r.company_id), partyType, token, Number(r.id)],
      );
    });
    const columns = withWords ? '(company_id, party_type, token, party_id, words)' : '(company_id, party_type, token, party_id)';
    const marks = withWords ? '(?, ?, ?, ?, ?)' : '(?, ?, ?, ?)';
    for (let i = 0; i < tokens.length; i += INSERT_ROWS) {
      const chunk = tokens.slice(i, i + INSERT_ROWS);
      await q.query(`INSERT INTO party_search_token ${columns} VALUES ${chunk.map(() => marks).join(', ')}`, chunk.flat());
    }
    after = Number(rows[rows.length - 1].id);
  }
}

export async function backfillPartySearchTokens(q: QueryRunner): Promise<void> {
  const withWords = Boolean((await q.getTable('party_search_token'))?.findColumnByName('words'));
  await backfill(q, 'customer', 'CUSTOMER', 'trade_name', withWords);
  await backfill(q, 'seller', 'SELLER', 'alias', withWords);
}
